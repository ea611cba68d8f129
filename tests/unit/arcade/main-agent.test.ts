import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ScriptPolicy, StepRequest } from '../../../src/core/llm/types.ts';
import { mainDemoPolicy } from '../../../src/arcade/demo-policy.ts';
import { SAY } from '../../../src/arcade/errors.ts';
import { HISTORY_KEPT, MainAgent } from '../../../src/arcade/main-agent.ts';
import { loadSafetyCheck } from '../../../src/arcade/safety-screen.ts';
import { applyVoiceCommand, defaultSpeechSettings, type SpeechSettings } from '../../../src/speech/settings.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { childLines } from '../../../src/core/errors/catalogue.ts';
import { FakeGameClient, FakeSpeaker, game, GAMES, until } from './fakes.ts';
import { pacedModel } from '../../support/paced-model.ts';

function setup(opts: { policy?: ScriptPolicy; fastPath?: boolean; manual?: boolean; voice?: Partial<SpeechSettings>; onSessionCleared?: (gameId: string) => void } = {}) {
  const games = new FakeGameClient();
  const speaker = new FakeSpeaker();
  speaker.manual = opts.manual ?? false;
  const calls: StepRequest[] = [];
  const policy = opts.policy ?? mainDemoPolicy;
  const model = createScriptedModel({
    main: (req) => {
      calls.push(req);
      return policy(req);
    },
  });
  const trace: TraceEvent[] = [];
  let n = 0;
  // The speech settings as the app keeps them; `volumeAtSay` is what each sentence was spoken at.
  const settings = { current: { ...defaultSpeechSettings(), ...opts.voice } };
  const volumeAtSay: Array<[string, number]> = [];
  const say = speaker.say.bind(speaker);
  speaker.say = (text, role) => {
    volumeAtSay.push([text, settings.current.volume]);
    return say(text, role);
  };
  const agent = new MainAgent({
    model: () => model,
    games,
    catalog: () => GAMES,
    speaker,
    trace: { record: (e) => trace.push(e) },
    newId: () => `id-${++n}`,
    fastPath: opts.fastPath,
    onSessionCleared: opts.onSessionCleared,
    voice: {
      adjust(cmd) {
        const r = applyVoiceCommand(settings.current, cmd);
        settings.current = r.settings;
        return r.changed;
      },
    },
  });
  return { agent, games, speaker, calls, trace, settings, volumeAtSay };
}

/** Starts guess-number and lets the game answer its start with one final active reply. */
async function startGuessNumber(t: ReturnType<typeof setup>) {
  const round = t.agent.handle('我们玩猜数字吧');
  await until(() => t.games.requests.length === 1, 'start request');
  t.games.last().reply('我想好了一个1到100的数，你猜是几？', { final: true });
  await round;
  await t.agent.settled();
}

describe('routing', () => {
  it('"我们玩猜数字吧" starts guess-number with a new contextId and the exact words', async () => {
    const t = setup();
    await startGuessNumber(t);
    const r = t.games.requests[0];
    expect(r.gameId).toBe('guess-number');
    expect(r.input).toEqual({ protocol: 'desktop-game/5', kind: 'start', text: '我们玩猜数字吧' });
    expect(t.agent.snapshot().session).toMatchObject({ gameId: 'guess-number', title: '猜数字', contextId: r.contextId });
    expect(t.speaker.texts()).toEqual(['我想好了一个1到100的数，你猜是几？']);
    // A second start (by alias) is a new session: another contextId.
    t.games.auto = (req) =>
      req.input.kind === 'start' ? req.reply('新的一局开始！', { final: true }) : req.reply('好的。', { final: true, session: 'ended' });
    await t.agent.handle('再来一局数字游戏');
    await t.agent.settled();
    const starts = t.games.requests.filter((q) => q.input.kind === 'start');
    expect(starts).toHaveLength(2);
    expect(starts[1].contextId).not.toBe(starts[0].contextId);
    // The old session got `end` first, and its goodbye (which tells the answer) was said before the new game's start.
    const ends = t.games.requests.filter((q) => q.input.kind === 'end' && q.contextId === starts[0].contextId);
    expect(ends).toHaveLength(1);
    expect(t.games.log.indexOf('request end 再来一局数字游戏')).toBeLessThan(t.games.log.lastIndexOf('request start 再来一局数字游戏'));
    expect(t.speaker.texts().slice(-2)).toEqual(['好的。', '新的一局开始！']);
  });

  it('chats while idle: the main agent answers itself, no game request', async () => {
    const t = setup();
    const r = await t.agent.handle('你好');
    expect(r.action).toBe('reply');
    expect(t.games.requests).toHaveLength(0);
    expect(t.speaker.spoken[0]).toMatchObject({ role: 'main' });
    expect(t.speaker.texts()[0]).toContain('你好呀');
    expect(t.agent.getHistory().map((h) => h.role)).toEqual(['user', 'main']);
  });

  it('lists games through list_games, then replies with the playable ones', async () => {
    const t = setup();
    const r = await t.agent.handle('有什么游戏可以玩？');
    expect(r.modelCalls).toBe(2);
    expect(t.calls[0].tools.map((x) => x.name)).toEqual(['list_games', 'start_game', 'reply']);
    // The reply is spoken sentence by sentence as it is written.
    expect(t.speaker.texts()).toEqual(['我们可以玩：猜数字。', '你想玩哪个？']);
  });

  it('offers end_game and send_message only while a game runs; start_game enum = installed ids', async () => {
    const t = setup({ fastPath: false });
    await t.agent.handle('你好');
    const idleTools = t.calls[0].tools;
    expect(idleTools.map((x) => x.name)).not.toContain('send_message');
    const start = idleTools.find((x) => x.name === 'start_game')!;
    expect((start.parameters.properties as any).game_id.enum).toEqual(['guess-number', 'draw-guess']);
    await startGuessNumber(t);
    t.games.auto = (r) => r.reply('比50小。', { final: true });
    await t.agent.handle('我猜50');
    expect(t.calls[t.calls.length - 1].tools.map((x) => x.name)).toEqual(['list_games', 'start_game', 'end_game', 'send_message', 'reply']);
  });

  it('an unavailable game is not started; the reason is spoken', async () => {
    const t = setup();
    await t.agent.handle('我们玩你画我猜吧');
    expect(t.games.requests).toHaveLength(0);
    expect(t.speaker.texts()[0]).toContain('需要机器人会画画');
    expect(t.agent.snapshot().session).toBeNull();
  });
});

describe('the three tools carry the original words', () => {
  it('send_message forwards the words unchanged, not the model\'s paraphrase', async () => {
    const policy: ScriptPolicy = (req) => {
      const inGame = req.tools.some((x) => x.name === 'send_message');
      if (!inGame) return { action: 'start_game', args: { game_id: 'guess-number' } };
      return { action: 'send_message', args: { text: '50' } };
    };
    const t = setup({ policy, fastPath: false });
    await startGuessNumber(t);
    t.games.auto = (r) => r.reply('太大了！', { final: true });
    await t.agent.handle('嗯……我猜 五十！');
    const msg = t.games.requests.find((r) => r.input.kind === 'message')!;
    expect(msg.input.text).toBe('嗯……我猜 五十！');
    expect(msg.contextId).toBe(t.games.requests[0].contextId);
  });

  it('end_game cancels the unfinished request first, then sends end with the words', async () => {
    const t = setup();
    await startGuessNumber(t);
    const round = t.agent.handle('我猜30');
    await until(() => t.games.requests.length === 2);
    t.games.last().reply('让我想想……'); // intermediate: the game is still working
    await round;
    expect(t.agent.snapshot().gameBusy).toBe(true);
    t.games.auto = (r) => r.input.kind === 'end' && r.reply('好的，下次再玩！', { final: true, session: 'ended' });
    await t.agent.handle('结束游戏吧');
    await t.agent.settled();
    expect(t.games.log.slice(-2)).toEqual(['cancel req-2', 'request end 结束游戏吧']);
    expect(t.games.requests[1].cancelled).toBe(true);
    expect(t.agent.snapshot().session).toBeNull();
    expect(t.speaker.texts()).toContain('好的，下次再玩！');
  });
});

describe('reply stream', () => {
  it('the first spoken reply ends the round; later replies are spoken as they arrive and written as game_agent', async () => {
    const t = setup({ manual: true });
    const round = t.agent.handle('我们玩猜数字吧');
    let over = false;
    void round.then(() => (over = true));
    await until(() => t.games.requests.length === 1);
    const req = t.games.last();
    req.reply('好呀，我来想一个数。');
    await until(() => t.speaker.current === '好呀，我来想一个数。');
    // Not written to history before it is spoken; the round is not over yet.
    expect(t.agent.getHistory().filter((h) => h.role === 'game_agent')).toHaveLength(0);
    expect(over).toBe(false);
    t.speaker.release();
    await round;
    expect(t.agent.getHistory().map((h) => h.role)).toEqual(['user', 'game_agent']);
    expect(t.agent.snapshot().gameBusy).toBe(true);
    // A later reply, after the round: spoken and written.
    req.reply('想好了，1到100，你猜！', { final: true });
    await until(() => t.speaker.current === '想好了，1到100，你猜！');
    t.speaker.release();
    await t.agent.settled();
    const h = t.agent.getHistory();
    expect(h.map((x) => [x.role, x.text])).toEqual([
      ['user', '我们玩猜数字吧'],
      ['game_agent', '好呀，我来想一个数。'],
      ['game_agent', '想好了，1到100，你猜！'],
    ]);
    expect(h[1].gameId).toBe('guess-number');
    expect(t.agent.snapshot().gameBusy).toBe(false);
  });

  it('a final reply with session ended clears the current game', async () => {
    const t = setup();
    await startGuessNumber(t);
    t.games.auto = (r) => r.reply('猜对啦！就是42，游戏结束。', { final: true, session: 'ended' });
    await t.agent.handle('42');
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
    // The next words are not sent to the finished game.
    await t.agent.handle('你好');
    expect(t.games.requests.filter((r) => r.input.kind === 'message')).toHaveLength(1);
  });
});

describe('busy gating', () => {
  async function busyGame() {
    const t = setup();
    await startGuessNumber(t);
    const round = t.agent.handle('我猜30');
    await until(() => t.games.requests.length === 2);
    t.games.last().reply('嗯，让我算一算……');
    await round;
    return t;
  }

  it('words while the game still works are kept: "请稍等", then handed to the game once it is free', async () => {
    const t = await busyGame();
    const before = t.games.requests.length;
    const r = t.agent.handle('我猜40');
    await until(() => t.speaker.texts().at(-1) === SAY.wait, 'the wait line');
    expect(t.games.requests.length).toBe(before);
    // The drawing ends: the kept words go to the game, unchanged.
    t.games.requests[before - 1].reply('30 小了！', { final: true });
    await until(() => t.games.requests.length === before + 1, 'the kept words sent');
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '我猜40' });
    t.games.last().reply('40 大了！', { final: true });
    expect((await r).route).toBe('wait');
    await t.agent.settled();
    expect(t.speaker.texts().at(-1)).toBe('40 大了！');
  });

  it('the round of kept words ends at 「请稍等」 (the child may talk again); two kept guesses reach the game in the order said', async () => {
    const t = await busyGame();
    const before = t.games.requests.length;
    expect((await t.agent.handle('我猜40')).route).toBe('wait');
    expect((await t.agent.handle('我猜45')).route).toBe('wait');
    expect(t.speaker.texts().slice(-2)).toEqual([SAY.wait, SAY.wait]);
    expect(t.games.requests.length).toBe(before);
    t.games.requests[before - 1].reply('30 小了！', { final: true });
    await until(() => t.games.requests.length === before + 1, 'the first kept words sent');
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '我猜40' });
    t.games.last().reply('40 小了！', { final: true });
    await until(() => t.games.requests.length === before + 2, 'the second kept words sent');
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '我猜45' });
    t.games.last().reply('45 大了！', { final: true });
    await t.agent.settled();
    expect(t.speaker.texts().slice(-3)).toEqual(['30 小了！', '40 小了！', '45 大了！']);
  });

  it('the same holds when the model routes to send_message (no fast path)', async () => {
    const t = setup({ fastPath: false });
    await startGuessNumber(t);
    const round = t.agent.handle('我猜30');
    await until(() => t.games.requests.length === 2);
    t.games.last().reply('嗯……');
    await round;
    const r = t.agent.handle('我猜40');
    await until(() => t.speaker.texts().at(-1) === SAY.wait, 'the wait line');
    expect(t.games.requests).toHaveLength(2);
    t.games.requests[1].reply('30 小了！', { final: true });
    await until(() => t.games.requests.length === 3, 'the kept words sent');
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '我猜40' });
    t.games.last().reply('40 大了！', { final: true });
    expect(await r).toMatchObject({ route: 'model', action: 'send_message' });
  });

  it('words kept while busy are not sent after the child stopped the game', async () => {
    const t = await busyGame();
    const before = t.games.requests.length;
    const kept = t.agent.handle('我猜40');
    await until(() => t.speaker.texts().at(-1) === SAY.wait, 'the wait line');
    t.games.auto = (r) => r.reply('好的，不玩了。', { final: true, session: 'ended' });
    await t.agent.handle('不玩了');
    await kept;
    expect(t.games.requests.slice(before).map((q) => q.input.kind)).toEqual(['end']);
    expect(t.trace.some((e) => e.name === 'kept_words_not_sent')).toBe(true);
  });

  it('chat and end_game still work while the game is busy', async () => {
    const t = await busyGame();
    const chat = await t.agent.handle('你叫什么名字');
    expect(chat.action).toBe('reply');
    expect(t.speaker.texts().at(-1)).toContain('小方');
    t.games.auto = (r) => r.reply('好的，不玩了。', { final: true, session: 'ended' });
    const end = await t.agent.handle('不玩了');
    expect(end.action).toBe('end_game');
    expect(t.games.last().input).toMatchObject({ kind: 'end', text: '不玩了' });
  });
});

describe('failures (seed 出错处理: request itself failing)', () => {
  it.each([
    ['start', 'game_crashed'],
    ['end', 'game_failed'],
  ] as const)('%s failing (%s): told, session cleared, agent keeps running', async (kind, code) => {
    const t = setup();
    if (kind === 'start') {
      const round = t.agent.handle('我们玩猜数字吧');
      await until(() => t.games.requests.length === 1);
      t.games.last().fail(code);
      await round;
    } else {
      await startGuessNumber(t);
      t.games.auto = (r) => r.fail(code);
      await t.agent.handle('不玩了');
    }
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
    expect(t.speaker.spoken.at(-1)!.role).toBe('main');
    expect(t.speaker.texts().at(-1)!.length).toBeGreaterThan(4);
    expect(t.trace.some((e) => e.kind === 'error' && e.name === code)).toBe(true);
    // Still running: chat works.
    await t.agent.handle('你好');
    expect(t.speaker.texts().slice(-3).join('')).toContain('你好呀');
  });

  it('message failing: told, session kept', async () => {
    const t = setup();
    await startGuessNumber(t);
    const ctx = t.agent.snapshot().session!.contextId;
    t.games.auto = (r) => r.fail('game_timeout');
    const r = await t.agent.handle('我猜50');
    expect(r.action).toBe('send_message');
    await t.agent.settled();
    expect(t.agent.snapshot().session?.contextId).toBe(ctx);
    expect(t.agent.snapshot().gameBusy).toBe(false);
    // The next guess goes to the same session.
    t.games.auto = (q) => q.reply('小一点。', { final: true });
    await t.agent.handle('我猜60');
    expect(t.games.last().contextId).toBe(ctx);
    expect(t.speaker.texts().at(-1)).toBe('小一点。');
  });

  it('message failing because the worker crashed (state lost): told, session cleared', async () => {
    const t = setup();
    await startGuessNumber(t);
    t.games.auto = (r) => r.fail('game_crashed', true);
    await t.agent.handle('我猜50');
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
    expect(t.speaker.texts().at(-1)).toBe('游戏突然停下来了，这局只好先玩到这里。想玩的话，再跟我说一次吧。');
  });

  it('a crash or a failed end clears the session and then sends the robot idle, after the spoken error', async () => {
    const events: string[] = [];
    const t = setup({ onSessionCleared: (id) => events.push(`idle ${id} after: ${t.speaker.texts().at(-1)}`) });
    await startGuessNumber(t);
    // A failed message that keeps the session: the robot keeps the game's picture.
    t.games.auto = (r) => r.fail('game_timeout');
    await t.agent.handle('我猜50');
    await t.agent.settled();
    expect(events).toEqual([]);
    // The worker crashed: the session is gone, so is the picture.
    t.games.auto = (r) => r.fail('game_crashed', true);
    await t.agent.handle('我猜60');
    await t.agent.settled();
    expect(events).toEqual(['idle guess-number after: 游戏突然停下来了，这局只好先玩到这里。想玩的话，再跟我说一次吧。']);
    // A failed `end` in a new session: idle once more.
    t.games.auto = (r) => (r.input.kind === 'start' ? r.reply('我想好了。', { final: true }) : r.fail('game_failed'));
    await t.agent.handle('我们玩猜数字吧');
    await t.agent.handle('不玩了');
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
    expect(events).toHaveLength(2);
    expect(events[1]).toMatch(/^idle guess-number after: /);
    expect(events[1]).not.toContain('我想好了');
  });

  it('a failure after an intermediate reply: both are spoken, in order', async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1);
    t.games.last().reply('好呀！');
    await round;
    t.games.last().fail('game_crashed');
    await t.agent.settled();
    expect(t.speaker.spoken.map((s) => s.role)).toEqual(['game_agent', 'main']);
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('the request throwing at once (worker cannot start) is spoken too', async () => {
    const t = setup();
    t.games.throwOnRequest = new Error('worker failed to load');
    const r = await t.agent.handle('我们玩猜数字吧');
    expect(r.action).toBe('start_game');
    expect(t.speaker.spoken).toHaveLength(1);
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('a model failure is spoken and the agent keeps running', async () => {
    let fail = true;
    const t = setup({
      policy: (req) => {
        if (fail) throw new Error('boom');
        return mainDemoPolicy(req);
      },
    });
    const r = await t.agent.handle('你好');
    expect(r.action).toBe('error');
    expect(t.speaker.spoken).toHaveLength(1);
    fail = false;
    await t.agent.handle('你好');
    expect(t.speaker.texts().slice(-3).join('')).toContain('你好呀');
  });
});

describe('truth of the main agent, and the line after faults', () => {
  it('a short run of server faults says 「我有点卡住了」; the settings only once it persists', async () => {
    const { ModelError } = await import('../../../src/core/llm/types.ts');
    let fail = true;
    const t = setup({
      policy: (req) => {
        if (fail) throw new ModelError('model_remote_http', 'HTTP 500', 500);
        return mainDemoPolicy(req);
      },
    });
    for (let i = 0; i < 2; i++) await t.agent.handle('你好');
    expect(t.speaker.texts().every((s) => !s.includes('设置'))).toBe(true);
    expect(t.speaker.texts().some((s) => s.includes('卡'))).toBe(true);
    await t.agent.handle('你好');
    expect(t.speaker.texts().at(-1)).toMatch(/设置/);
    // One good round ends the streak: the next fault is a short outage again.
    fail = false;
    await t.agent.handle('你好');
    fail = true;
    await t.agent.handle('你好');
    expect(t.speaker.texts().at(-1)).not.toMatch(/设置/);
  });

  it('with no game running, a verdict or a restart from the main agent never reaches the child', async () => {
    let n = 0;
    const t = setup({
      policy: () => {
        n++;
        return n % 2 ? { action: 'reply', args: { text: '太小了，再大一点。' } } : { action: 'reply', args: { text: '我们重新开始一局吧！' } };
      },
    });
    await t.agent.handle('我猜75');
    expect(t.speaker.texts().join('')).not.toMatch(/太小了|重新开始/);
  });
});

describe('pagehide', () => {
  it('with a game running, sends end with empty text to the current context', async () => {
    const t = setup();
    await startGuessNumber(t);
    const ctx = t.agent.snapshot().session!.contextId;
    const spokenBefore = t.speaker.spoken.length;
    t.agent.shutdown();
    expect(t.games.last().input).toEqual({ protocol: 'desktop-game/5', kind: 'end', text: '' });
    expect(t.games.last().contextId).toBe(ctx);
    expect(t.agent.snapshot().session).toBeNull();
    expect(t.speaker.spoken.length).toBe(spokenBefore);
  });
  it('with no game, sends nothing', () => {
    const t = setup();
    t.agent.shutdown();
    expect(t.games.requests).toHaveLength(0);
  });
});

describe('fast path and global intents (no main-agent model call)', () => {
  it('a clear in-game guess goes to the game without a model call', async () => {
    const t = setup();
    await startGuessNumber(t);
    const callsBefore = t.calls.length;
    t.games.auto = (r) => r.reply('比37大。', { final: true });
    const r = await t.agent.handle('是37吗？');
    expect(r).toMatchObject({ route: 'fast', modelCalls: 0, action: 'send_message' });
    expect(t.calls.length).toBe(callsBefore);
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '是37吗？' });
  });

  it('words about another game or the arcade still go through the model', async () => {
    const t = setup();
    await startGuessNumber(t);
    const callsBefore = t.calls.length;
    await t.agent.handle('你叫什么名字？');
    expect(t.calls.length).toBe(callsBefore + 1);
    expect(t.games.requests.filter((r) => r.input.kind === 'message')).toHaveLength(0);
  });

  it('"再说一遍" repeats the last sentence verbatim, no model call, nothing sent', async () => {
    const t = setup();
    await startGuessNumber(t);
    const calls = t.calls.length;
    const reqs = t.games.requests.length;
    const r = await t.agent.handle('再说一遍');
    expect(r.route).toBe('repeat');
    expect(t.speaker.texts().at(-1)).toBe('我想好了一个1到100的数，你猜是几？');
    expect(t.calls.length).toBe(calls);
    expect(t.games.requests.length).toBe(reqs);
  });

  it('"不玩了" always ends the game without a model call, even while the game is busy', async () => {
    const t = setup();
    await startGuessNumber(t);
    const round = t.agent.handle('我猜30');
    await until(() => t.games.requests.length === 2);
    // The game has not answered at all yet (the round is still open); "不玩了" must not wait for it.
    const calls = t.calls.length;
    t.games.auto = (r) => r.input.kind === 'end' && r.reply('好的，再见！', { final: true, session: 'ended' });
    const r = await t.agent.handle('我不玩了');
    expect(r).toMatchObject({ route: 'stop', action: 'end_game', modelCalls: 0 });
    expect(t.calls.length).toBe(calls);
    expect(t.games.requests[1].cancelled).toBe(true);
    expect(t.games.last().input).toMatchObject({ kind: 'end', text: '我不玩了' });
    await round;
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
  });

  it('"停" stops the talking at once; with no game it just acknowledges', async () => {
    const t = setup({ manual: true });
    const first = t.agent.handle('你好');
    await until(() => t.speaker.current !== undefined);
    const stop = t.agent.handle('停');
    expect(t.speaker.stops).toBe(1);
    await first;
    await until(() => t.speaker.current === SAY.stopped);
    t.speaker.release();
    expect((await stop).route).toBe('stop');
    expect(t.games.requests).toHaveLength(0);
  });

  it('"停" while the game is still thinking about its first reply does not hang', async () => {
    const t = setup();
    const round = t.agent.handle('我们玩猜数字吧');
    await until(() => t.games.requests.length === 1);
    t.games.auto = (r) => r.input.kind === 'end' && r.reply('好的。', { final: true, session: 'ended' });
    const stop = await t.agent.handle('停');
    await round;
    expect(stop.action).toBe('end_game');
    expect(t.games.requests[0].cancelled).toBe(true);
    await t.agent.settled();
    expect(t.agent.snapshot().session).toBeNull();
  });
});

describe('voice commands (never a model call, never a game turn)', () => {
  it('"大声点" in a game: louder, confirmed at the new volume, no model call, nothing sent to the game', async () => {
    const t = setup({ voice: { volume: 0.6 } });
    await startGuessNumber(t);
    const calls = t.calls.length;
    const reqs = t.games.requests.length;
    const r = await t.agent.handle('大声点');
    expect(r).toMatchObject({ route: 'voice', modelCalls: 0, action: 'voice' });
    expect(t.settings.current.volume).toBe(0.8);
    expect(t.volumeAtSay.at(-1)).toEqual(['好的，我大声一点。', 0.8]);
    expect(t.calls.length).toBe(calls);
    expect(t.games.requests.length).toBe(reqs);
    // The game lost no turn: the next guess is its next message, and the session is untouched.
    t.games.auto = (q) => q.reply('50 大了，再小一点哦！', { final: true });
    await t.agent.handle('我猜50');
    expect(t.games.requests.length).toBe(reqs + 1);
    expect(t.games.last().input).toMatchObject({ kind: 'message', text: '我猜50' });
    expect(t.agent.snapshot().session?.gameId).toBe('guess-number');
  });

  it('clamps at the limits with a friendly line', async () => {
    const t = setup({ voice: { volume: 0.8, rate: 0.8 } });
    await t.agent.handle('声音大一点');
    await t.agent.handle('大声一点');
    expect(t.settings.current.volume).toBe(1);
    expect(t.speaker.texts().slice(-2)).toEqual(['好的，我大声一点。', '已经最大声啦。']);
    for (let i = 0; i < 5; i++) await t.agent.handle('小声一点');
    expect(t.settings.current.volume).toBe(0.2); // never silent: the child must hear the answer
    expect(t.speaker.texts().at(-1)).toBe('已经最小声啦。');
    await t.agent.handle('说慢一点');
    expect(t.settings.current.rate).toBe(0.6);
    await t.agent.handle('说慢点');
    expect(t.speaker.texts().at(-1)).toBe('已经最慢啦。');
    await t.agent.handle('说快一点');
    expect(t.settings.current.rate).toBe(0.8);
    expect(t.calls).toHaveLength(0);
    expect(t.games.requests).toHaveLength(0);
  });

  it('"我猜大一点" and a 你画我猜 answer still go to the game; the volume does not change', async () => {
    const t = setup({ voice: { volume: 0.6 } });
    await startGuessNumber(t);
    t.games.auto = (q) => q.reply('说一个数字吧。', { final: true });
    for (const w of ['我猜大一点', '再大一点', '是大声公吗']) {
      const r = await t.agent.handle(w);
      expect(r.route).toBe('fast');
      expect(t.games.last().input).toMatchObject({ kind: 'message', text: w });
    }
    expect(t.settings.current.volume).toBe(0.6);
  });

  it('"再说一遍" after "大声点" repeats what was said before it, now louder', async () => {
    const t = setup({ voice: { volume: 0.4 } });
    await startGuessNumber(t);
    await t.agent.handle('大声点');
    await t.agent.handle('再说一遍');
    expect(t.volumeAtSay.at(-1)).toEqual(['我想好了一个1到100的数，你猜是几？', 0.6]);
  });

  it('while the game is still thinking, "大声点" is answered without waiting and without touching the request', async () => {
    const t = setup({ voice: { volume: 0.6 } });
    await startGuessNumber(t);
    const round = t.agent.handle('我猜30');
    await until(() => t.games.requests.length === 2);
    t.games.last().reply('30 小了，', { final: false });
    await round; // the first reply was spoken: the round is over, the game is still busy
    expect(t.agent.snapshot().gameBusy).toBe(true);
    const r = await t.agent.handle('大声一点');
    expect(r.route).toBe('voice');
    expect(t.games.requests).toHaveLength(2);
    expect(t.games.requests[1].cancelled).toBe(false);
    t.games.requests[1].reply('再大一点哦！', { final: true });
    await t.agent.settled();
    expect(t.volumeAtSay.at(-1)).toEqual(['再大一点哦！', 0.8]);
    expect(t.agent.getHistory().filter((h) => h.role === 'game_agent').map((h) => h.text)).toContain('再大一点哦！');
  });

  it('without a voice control the words are ordinary words (the model decides)', async () => {
    const games = new FakeGameClient();
    const calls: StepRequest[] = [];
    const agent = new MainAgent({
      model: () => createScriptedModel({ main: (req) => (calls.push(req), mainDemoPolicy(req)) }),
      games,
      catalog: () => GAMES,
      speaker: new FakeSpeaker(),
    });
    const r = await agent.handle('大声点');
    expect(r.route).toBe('model');
    expect(calls).toHaveLength(1);
  });
});

describe('trace and the thinking filler', () => {
  it('records user input, main tool, a2a request, replies and speech under the round', async () => {
    const t = setup();
    await startGuessNumber(t);
    const kinds = t.trace.map((e) => e.kind);
    for (const k of ['user_input', 'main_tool', 'a2a_request', 'reply', 'speech'] as const) expect(kinds).toContain(k);
    const roundId = t.trace.find((e) => e.kind === 'user_input')!.roundId;
    expect(t.trace.filter((e) => e.kind === 'reply').every((e) => e.roundId === roundId && e.requestId === 'req-1')).toBe(true);
  });

  it('nothing said by T1 after the words: one "still thinking" line, then the answer (a slow model)', async () => {
    vi.useFakeTimers();
    try {
      const games = new FakeGameClient();
      const speaker = new FakeSpeaker();
      speaker.manual = true;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const model = createScriptedModel({
        main: async () => {
          await gate;
          return { action: 'reply', args: { text: '我在呢！' } };
        },
      });
      const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, budget: () => ({ stillThinkingMs: 2500, answerMs: 20_000, colourMs: 2000 }) });
      const done = agent.handle('你在吗');
      await vi.advanceTimersByTimeAsync(2400);
      expect(speaker.current).toBeUndefined();
      await vi.advanceTimersByTimeAsync(200);
      expect(SAY.stillThinking).toContain(speaker.current);
      const thinking = speaker.current!;
      speaker.release();
      // Once only, however long the model still takes.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(speaker.current).toBeUndefined();
      release();
      await vi.advanceTimersByTimeAsync(10);
      speaker.release();
      await done;
      expect(speaker.texts()).toEqual([thinking, '我在呢！']);
      // "再说一遍" repeats the answer, not the filler.
      expect(agent.voice.lastSpoken?.text).toBe('我在呢！');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer before T1: no "still thinking" line', async () => {
    vi.useFakeTimers();
    try {
      const speaker = new FakeSpeaker();
      const model = createScriptedModel({ main: () => ({ action: 'reply', args: { text: '你好！' } }) });
      const agent = new MainAgent({ model: () => model, games: new FakeGameClient(), catalog: () => GAMES, speaker, budget: () => ({ stillThinkingMs: 1000, answerMs: 5000, colourMs: 2000 }) });
      const done = agent.handle('你好');
      await vi.advanceTimersByTimeAsync(100);
      await done;
      await vi.advanceTimersByTimeAsync(5000);
      expect(speaker.texts()).toEqual(['你好！']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a model that never answers: by T2 a true "too slow" line, in turn among its variants, never twice the same', async () => {
    vi.useFakeTimers();
    try {
      const speaker = new FakeSpeaker();
      const model = { label: 'stuck', step: (req: StepRequest) => new Promise<never>((_, reject) => req.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))) };
      const agent = new MainAgent({ model: () => model, games: new FakeGameClient(), catalog: () => GAMES, speaker, budget: () => ({ stillThinkingMs: 1000, answerMs: 5000, colourMs: 2000 }) });
      const heard: string[] = [];
      for (const words of ['你好', '你是谁', '讲个故事']) {
        const before = speaker.texts().length;
        const at = Date.now();
        const round = agent.handle(words);
        await vi.advanceTimersByTimeAsync(5000);
        await round;
        const said = speaker.texts().slice(before);
        expect(said).toHaveLength(2);
        expect(SAY.stillThinking).toContain(said[0]);
        expect(childLines('model_too_slow')).toContain(said[1]);
        expect(Date.now() - at).toBeLessThanOrEqual(5000);
        heard.push(...said);
      }
      for (let i = 1; i < heard.length; i++) expect(heard[i]).not.toBe(heard[i - 1]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('tapping a game card', () => {
  it('starts the game without a model call; an unavailable one says why', async () => {
    const t = setup();
    t.games.auto = (r) => r.reply('开始啦！', { final: true });
    const r = await t.agent.startByTap('guess-number');
    expect(r).toMatchObject({ route: 'tap', modelCalls: 0 });
    expect(t.calls).toHaveLength(0);
    expect(t.games.last().input).toMatchObject({ kind: 'start', text: '我要玩猜数字' });
    await t.agent.startByTap('draw-guess');
    expect(t.games.requests.filter((q) => q.input.kind === 'start')).toHaveLength(1);
    expect(t.speaker.texts().at(-1)).toContain('需要机器人会画画');
  });
});

describe('the child hears the robot sooner', () => {
  it('the thinking cue shows the moment the words arrive, before the model is asked, and is in the trace', async () => {
    const order: string[] = [];
    const speaker = new FakeSpeaker();
    const trace: TraceEvent[] = [];
    const model = createScriptedModel({
      main: (req) => {
        order.push('model');
        return mainDemoPolicy(req);
      },
    });
    const robot = { react: async (e: string) => void order.push(`face:${e}`) };
    const { ThinkingCue } = await import('../../../src/arcade/thinking-cue.ts');
    const agent = new MainAgent({
      model: () => model,
      games: new FakeGameClient(),
      catalog: () => GAMES,
      speaker,
      trace: { record: (e) => trace.push(e) },
      cue: new ThinkingCue({ robot, sound: () => (order.push('sound'), true), record: (e) => trace.push({ ...e, source: 'main', at: 0 }) }),
    });
    await agent.handle('你好');
    expect(order.slice(0, 3)).toEqual(['sound', 'face:thinking', 'model']);
    const cue = trace.find((e) => e.name === 'thinking_cue')!;
    expect(cue).toMatchObject({ kind: 'device', data: { expression: 'thinking', sound: true } });
    expect(cue.roundId).toBe(trace.find((e) => e.kind === 'user_input')!.roundId);
  });

  it("the main agent's own reply is spoken sentence by sentence while the model is still writing it", async () => {
    const speaker = new FakeSpeaker();
    speaker.manual = true;
    const model = pacedModel({ main: () => ({ action: 'reply', args: { text: '你好呀！我是小方。我们一起玩吧！' } }) }, { chunkChars: 2, delayMs: 1 });
    let stepDone = false;
    let firstSpokenWhileWriting: boolean | undefined;
    const slow = {
      label: model.label,
      step: (req: StepRequest) =>
        model
          .step({
            ...req,
            onStream: (d: string, a: number) => {
              req.onStream?.(d, a);
              if (speaker.started.length > 0 && firstSpokenWhileWriting === undefined) firstSpokenWhileWriting = !stepDone;
            },
          })
          .then((step) => ((stepDone = true), step)),
    };
    const agent = new MainAgent({ model: () => slow, games: new FakeGameClient(), catalog: () => GAMES, speaker });
    const round = agent.handle('你好');
    await until(() => firstSpokenWhileWriting !== undefined, 'the first sentence');
    expect(firstSpokenWhileWriting).toBe(true);
    expect(speaker.started[0]).toBe('你好呀！');
    for (let i = 0; i < 3; i++) {
      await until(() => speaker.current !== undefined, 'a sentence being spoken');
      speaker.release();
    }
    await round;
    expect(speaker.texts()).toEqual(['你好呀！', '我是小方。', '我们一起玩吧！']);
    expect(agent.getHistory().at(-1)).toMatchObject({ role: 'main', text: '你好呀！我是小方。我们一起玩吧！' });
  });
});

describe('the turn budget, the truth and the words around games', () => {
  // The safety check and the model loop are imported on first use; with fake timers those imports
  // must already be done (run alone, a test would otherwise wait on them forever).
  beforeAll(async () => {
    await loadSafetyCheck();
    await import('../../../src/arcade/model-loop.ts');
  });

  it('"不玩了" with no game running: 现在没有在玩游戏哦; "停": 好的，我不说了', async () => {
    const t = setup();
    expect((await t.agent.handle('不玩了')).route).toBe('stop');
    await t.agent.handle('停');
    expect(t.speaker.texts()).toEqual([SAY.noGameToEnd, SAY.stopped]);
    expect(t.games.requests).toHaveLength(0);
  });

  it('a game that sends nothing by T2: the request is cancelled, the child told the game goes on, and the session kept', async () => {
    vi.useFakeTimers();
    try {
      const games = new FakeGameClient();
      const speaker = new FakeSpeaker();
      const model = createScriptedModel({ main: mainDemoPolicy });
      const agent = new MainAgent({ model: () => model, games, catalog: () => GAMES, speaker, budget: () => ({ stillThinkingMs: 1000, answerMs: 4000, colourMs: 3000 }) });
      games.auto = (r) => (r.input.kind === 'start' ? r.reply('猜吧！', { final: true }) : undefined);
      const start = agent.handle('我们玩猜数字吧');
      await vi.advanceTimersByTimeAsync(50);
      await start;
      const round = agent.handle('我猜50');
      await vi.advanceTimersByTimeAsync(4100);
      await round;
      const said = speaker.texts().slice(1);
      expect(SAY.stillThinking).toContain(said[0]);
      expect(childLines('main_game_slow')).toContain(said[1]);
      expect(games.log).toContain('cancel req-2');
      expect(agent.snapshot().session?.gameId).toBe('guess-number');
      // Each request carried what was left of the budget.
      for (const r of games.requests) {
        expect(r.budgetMs).toBeGreaterThan(0);
        expect(r.budgetMs).toBeLessThanOrEqual(4000);
        // and the budget's colour window.
        expect(r.colourMs).toBe(3000);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("switching games when the old game does not say goodbye in time: its request is cancelled and a late goodbye is never said", async () => {
    vi.useFakeTimers();
    try {
      const games = new FakeGameClient();
      const speaker = new FakeSpeaker();
      const model = createScriptedModel({ main: mainDemoPolicy });
      const catalog = [GAMES[0], game('draw-guess', '你画我猜', ['画画猜猜'])];
      const agent = new MainAgent({ model: () => model, games, catalog: () => catalog, speaker, budget: () => ({ stillThinkingMs: 1000, answerMs: 4000, colourMs: 2000 }) });
      games.auto = (r) => (r.input.kind === 'start' ? r.reply(`${r.gameId} 开始啦！`, { final: true }) : undefined);
      const first = agent.handle('我们玩猜数字吧');
      await vi.advanceTimersByTimeAsync(50);
      await first;
      const next = agent.handle('我们玩你画我猜吧');
      await vi.advanceTimersByTimeAsync(4100);
      await next;
      const end = games.requests.find((r) => r.input.kind === 'end')!;
      expect(games.log).toContain(`cancel ${end.requestId}`);
      expect(speaker.texts().at(-1)).toBe('draw-guess 开始啦！');
      // The old game answers after all: nothing of it reaches the child.
      try {
        end.reply('猜数字的答案是 37。', { final: true, session: 'ended' });
      } catch {
        // cancelled: nothing more can come from it
      }
      await vi.advanceTimersByTimeAsync(100);
      await agent.settled();
      expect(speaker.texts().join('')).not.toContain('猜数字的答案');
    } finally {
      vi.useRealTimers();
    }
  });

  it("the main agent never claims a game's outcome: a reply saying 猜对了 is refused back to its model", async () => {
    const t = setup({
      policy: (req) => (req.messages.at(-1)!.content.includes('上一个输出无效') || req.messages.at(-1)!.content.includes('error') ? { action: 'reply', args: { text: '我们问问游戏吧！' } } : { action: 'reply', args: { text: '你猜对了！' } }),
    });
    await t.agent.handle('我猜对了吗');
    expect(t.speaker.texts()).toEqual(['我们问问游戏吧！']);
  });

  it('a reply refused after its first sentence was said: the rewrite does not say that sentence again', async () => {
    const t = setup({
      policy: (req) => (req.messages.at(-1)!.content.includes('上一个输出无效') || req.messages.at(-1)!.content.includes('error') ? { action: 'reply', args: { text: '好呀。我们问问游戏吧！' } } : { action: 'reply', args: { text: '好呀。你猜对了！' } }),
    });
    await t.agent.handle('我猜对了吗');
    expect(t.speaker.texts()).toEqual(['好呀。', '我们问问游戏吧！']);
    expect(t.agent.getHistory().at(-1)).toMatchObject({ role: 'main', text: '好呀。我们问问游戏吧！' });
  });

  it(`the history stays bounded (${HISTORY_KEPT} entries) however long the child plays`, async () => {
    const t = setup();
    for (let i = 0; i < 120; i++) await t.agent.handle(i % 2 ? '你好' : '你是谁');
    expect(t.agent.getHistory().length).toBe(HISTORY_KEPT);
    expect(t.agent.getHistory().at(-1)).toMatchObject({ role: 'main' });
  });
});

describe("the main agent's requests continue in place", () => {
  it('each round is kept exactly as sent (the state line, every step, the tool results): the next request repeats the last one and its output', async () => {
    const t = setup();
    await t.agent.handle('你好');
    await t.agent.handle('有什么游戏');
    await t.agent.handle('你叫什么名字');
    expect(t.calls.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < t.calls.length; i++) {
      const prev = t.calls[i - 1].messages;
      const next = t.calls[i].messages;
      // WebLLM's rule: the new request's history is the previous request plus what the model wrote for it.
      expect(next.slice(0, prev.length)).toEqual(prev);
      expect(next[prev.length].role).toBe('assistant');
    }
    // The state line travels with the words, in every later request too.
    expect(t.calls.at(-1)!.messages.filter((m) => m.role === 'user' && m.content.endsWith('\n你好'))).toHaveLength(1);
  });

  it('the window of history moves in steps, so most requests still repeat the one before', async () => {
    const { historyWindow, HISTORY_WINDOW } = await import('../../../src/core/arcade/prompt.ts');
    const starts = Array.from({ length: 24 }, (_, n) => {
      const h = Array.from({ length: n }, (_, i) => i);
      const w = historyWindow(h);
      expect(w.length).toBeGreaterThanOrEqual(Math.min(n, HISTORY_WINDOW));
      return w[0] ?? 0;
    });
    // The start moves once every HISTORY_WINDOW / 2 entries, never at every one.
    expect(new Set(starts).size).toBeLessThanOrEqual(Math.ceil(24 / (HISTORY_WINDOW / 2)));
  });
});
