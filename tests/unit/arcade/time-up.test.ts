/** Play time as the main agent sees it: words start nothing while locked; the gentle end goes through the game's own end. */
// The goodbye is the app's own (the play timer passes PLAY_TIME_LINES): every robot line, this one too, goes through the safety check.
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { PLAY_TIME_LINES } from '../../../src/core/safety/play-time.ts';
import { FakeGameClient, FakeSpeaker, GAMES, until } from './fakes.ts';

function setup() {
  const games = new FakeGameClient();
  const speaker = new FakeSpeaker();
  let allowed = true;
  let calls = 0;
  const model = createScriptedModel({ main: (req) => (calls++, mainDemoPolicy(req)) });
  const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, playAllowed: () => allowed });
  return { agent, games, speaker, lock: () => (allowed = false), calls: () => calls };
}

describe('play time in the main agent', () => {
  it('while locked, words and taps start no round and call no model', async () => {
    const t = setup();
    t.lock();
    expect(await t.agent.handle('我们玩猜数字吧')).toMatchObject({ route: 'locked', modelCalls: 0 });
    expect(await t.agent.startByTap('guess-number')).toMatchObject({ route: 'locked' });
    expect(t.calls()).toBe(0);
    expect(t.games.requests).toHaveLength(0);
    expect(t.speaker.texts()).toEqual([]);
  });

  it("the time's end: the game gets `end` (its answer is spoken), then the goodbye", async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1, 'start');
    t.games.last().reply('猜一个数字吧。', { final: true });
    await round;
    t.lock();
    t.games.auto = (r) => {
      r.reply('好的，这局先玩到这里。');
      r.reply('答案是 42，下次再来玩吧！', { final: true, session: 'ended' });
    };
    await t.agent.timeUp({ roundId: 'app-1', words: '今天的游戏时间到了', goodbye: PLAY_TIME_LINES.limit });
    expect(t.games.requests.map((r) => [r.input.kind, r.input.text])).toEqual([
      ['start', '我们玩猜数字吧'],
      ['end', '今天的游戏时间到了'],
    ]);
    expect(t.speaker.texts().slice(-3)).toEqual(['好的，这局先玩到这里。', '答案是 42，下次再来玩吧！', PLAY_TIME_LINES.limit]);
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('without a game, just the goodbye', async () => {
    const t = setup();
    await t.agent.timeUp({ roundId: 'app-1', words: '今天的游戏时间到了', goodbye: PLAY_TIME_LINES.limit });
    expect(t.games.requests).toHaveLength(0);
    expect(t.speaker.texts()).toEqual([PLAY_TIME_LINES.limit]);
  });
});
