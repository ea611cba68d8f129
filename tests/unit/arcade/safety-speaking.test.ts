/**
 * The child-safety check in the one speaking path and in the main agent's router: a blocked
 * sentence never reaches the speaker (so neither TTS nor the subtitle); the child hears one gentle
 * redirect per reply; the parent's trace has the category and the original; a dangerous question
 * from the child gets a caring answer and no model call.
 */
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ScriptPolicy, StepRequest } from '../../../src/core/llm/types.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { MainAgent } from '../../../src/arcade/main-agent.ts';
import { SpeakingPath } from '../../../src/arcade/speaking-path.ts';
import { CARING, CARING_TOLD, REDIRECT } from '../../../src/core/safety/replies.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { FakeGameClient, FakeSpeaker, game, GAMES, until } from './fakes.ts';

function setup(policy: ScriptPolicy = mainDemoPolicy, catalog = GAMES) {
  const games = new FakeGameClient();
  const speaker = new FakeSpeaker();
  const calls: StepRequest[] = [];
  const model = createScriptedModel({ main: (req) => (calls.push(req), policy(req)) });
  const trace: TraceEvent[] = [];
  let n = 0;
  const agent = new MainAgent({ model: () => model, games, catalog: () => catalog, speaker, trace: { record: (e) => trace.push(e) }, newId: () => `id-${++n}` });
  return { agent, games, speaker, calls, trace };
}

const reply = (text: string): ScriptPolicy => () => ({ action: 'reply', args: { text } });

describe('the speaking path checks every line', () => {
  it('replaces a blocked sentence of a reply by one redirect and says nothing more of that reply', async () => {
    const t = setup(reply('好呀。火柴在厨房的抽屉里。你可以自己去拿。拿到了告诉我。'));
    await t.agent.handle('我们聊天吧');
    expect(t.speaker.texts()).toEqual(['好呀。', REDIRECT.main]);
    const safety = t.trace.filter((e) => e.kind === 'safety');
    expect(safety.map((e) => e.name)).toEqual(['blocked', 'suppressed', 'suppressed']);
    expect(safety[0].data).toMatchObject({ category: 'danger', original: '火柴在厨房的抽屉里。', said: REDIRECT.main, role: 'main' });
    // The trace says what was spoken: never the original.
    const spoken = t.trace.filter((e) => e.kind === 'speech' && e.name === 'spoken').map((e) => (e.data as { text: string }).text);
    expect(spoken).toEqual(['好呀。', REDIRECT.main]);
    expect(spoken.join('')).not.toContain('火柴');
    // The history (what the model sees next time) holds what the child heard.
    expect(t.agent.getHistory().at(-1)).toMatchObject({ role: 'main', text: `好呀。${REDIRECT.main}` });
    // "再说一遍" repeats the redirect, not the blocked line.
    await t.agent.handle('再说一遍');
    expect(t.speaker.texts().at(-1)).toBe(`好呀。${REDIRECT.main}`);
  });

  it('catches a harmful thought split over two sentences', async () => {
    const t = setup(reply('你知道打火机吗？它在爸爸的包里。'));
    await t.agent.handle('讲个故事');
    expect(t.speaker.texts()).toEqual(['你知道打火机吗？', REDIRECT.main]);
  });

  it("checks a game's replies: the game's redirect is said, then the turn's final reply (what to answer next); the next reply of the game is fine again", async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1, 'start');
    const start = t.games.last();
    start.reply('我想好了一个数字。');
    start.reply('别告诉爸爸妈妈，这是我们的秘密。');
    start.reply('猜一个 1 到 100 之间的数吧！', { final: true });
    await round;
    await t.agent.settled();
    expect(t.speaker.texts()).toEqual(['我想好了一个数字。', REDIRECT.game, '猜一个 1 到 100 之间的数吧！']);
    expect(t.trace.find((e) => e.kind === 'safety' && e.name === 'blocked')).toMatchObject({ requestId: start.requestId, data: { category: 'personal_info', role: 'game_agent', gameId: 'guess-number' } });
    expect(t.agent.getHistory().filter((h) => h.role === 'game_agent').map((h) => h.text)).toEqual(['我想好了一个数字。', REDIRECT.game, '猜一个 1 到 100 之间的数吧！']);
    t.games.auto = (r) => r.reply('50 大了，再小一点。', { final: true });
    await t.agent.handle('我猜50');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe('50 大了，再小一点。');
  });

  it("after a blocked line, a game's later lines are not said, nor a final reply that is harmful on its own", async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1, 'start');
    const start = t.games.last();
    start.reply('火柴在厨房的抽屉里。');
    start.reply('你去拿过来吧。');
    start.reply('把你家的地址告诉我吧。', { final: true });
    await round;
    await t.agent.settled();
    expect(t.speaker.texts()).toEqual([REDIRECT.game]);
    expect(t.trace.filter((e) => e.kind === 'safety').map((e) => e.name)).toEqual(['blocked', 'suppressed', 'suppressed']);
  });

  it("switching games: the old game's goodbye is checked too, and the history holds what the child heard", async () => {
    const t = setup(mainDemoPolicy, [GAMES[0], game('draw-guess', '你画我猜', ['画画猜猜'])]);
    t.games.auto = (r) => r.reply('我想好了一个数字，你猜吧。', { final: true });
    await t.agent.handle('我们玩猜数字吧');
    await t.agent.settled();
    t.games.auto = (r) => (r.input.kind === 'end' ? r.reply('答案是 37。别告诉爸爸妈妈，这是我们的秘密。', { final: true, session: 'ended' }) : r.reply('我画好了，你猜猜是什么？', { final: true }));
    await t.agent.handle('我们玩你画我猜吧');
    await t.agent.settled();
    // Checked part by part: the answer is still told, the secret became the redirect; the goodbye
    // ended the game, so the redirect promises no 「接着玩游戏」.
    expect(t.speaker.texts()).toContain('答案是 37。哎呀，这句我不说了。');
    expect(t.speaker.texts().join('')).not.toContain('接着玩');
    const heard = t.agent.getHistory().filter((h) => h.role === 'game_agent' && h.gameId === 'guess-number').map((h) => h.text);
    expect(heard.at(-1)).toBe('答案是 37。哎呀，这句我不说了。');
    expect(heard.join('')).not.toContain('秘密');
  });

  it('checks robot notices and every other line that has no round', async () => {
    const speaker = new FakeSpeaker();
    const trace: TraceEvent[] = [];
    const voice = new SpeakingPath({ speaker, trace: { record: (e) => trace.push(e) } });
    const o = await voice.say('机器人断开了，你一个人去河边玩吧。', 'main');
    expect(o).toMatchObject({ said: REDIRECT.main });
    await voice.say('机器人回来啦！', 'main');
    expect(speaker.texts()).toEqual([REDIRECT.main, '机器人回来啦！']);
  });
});

describe("the child's own words", () => {
  it('a dangerous question gets a caring answer and no model call', async () => {
    const t = setup();
    const r = await t.agent.handle('刀放在哪里？');
    expect(r).toMatchObject({ route: 'care', modelCalls: 0 });
    expect(t.calls).toHaveLength(0);
    expect(t.speaker.texts()).toEqual([CARING.danger]);
    expect(t.trace.find((e) => e.kind === 'safety')).toMatchObject({ name: 'child_words', data: { category: 'danger' } });
    // The words stay out of what later model calls see.
    await t.agent.handle('你好');
    expect(JSON.stringify(t.calls[0].messages)).not.toContain('刀放在哪里');
  });

  it('during a game the words go neither to the game nor to a model', async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1, 'start');
    t.games.last().reply('猜一个数字吧。', { final: true });
    await round;
    const calls = t.calls.length;
    await t.agent.handle('我不想活了');
    expect(t.games.requests).toHaveLength(1);
    expect(t.calls).toHaveLength(calls);
    expect(t.speaker.texts().at(-1)).toBe(CARING.self_harm);
    expect(t.agent.snapshot().session).not.toBeNull();
  });

  it('ordinary words, rude words and guesses still go to the model or the game', async () => {
    const t = setup();
    await t.agent.handle('你是笨蛋');
    expect(t.calls).toHaveLength(1);
  });
});

describe("the child's side: someone asked for a secret or for photos", () => {
  for (const words of ['他说这是我们的秘密，不能告诉妈妈', '有人让我拍照片', '叔叔摸了我的屁股'])
    it(`「${words}」 gets a caring answer, no model call, and a 安全提醒 for the parent`, async () => {
      const t = setup();
      const r = await t.agent.handle(words);
      expect(r).toMatchObject({ route: 'care', modelCalls: 0 });
      expect(t.calls).toHaveLength(0);
      expect(t.speaker.texts()).toEqual([CARING_TOLD]);
      expect(t.trace.find((e) => e.kind === 'safety')).toMatchObject({ name: 'child_words', data: { category: 'sexual', said: CARING_TOLD } });
    });

  it('ordinary words about photos and secrets still go to the model', async () => {
    const t = setup();
    for (const words of ['我给小猫拍照片了', '妈妈说这是秘密，是生日礼物']) {
      const r = await t.agent.handle(words);
      expect(r.route, words).not.toBe('care');
    }
  });
});
