/**
 * A line blocked by the child-safety check never swallows the turn: the gentle redirect, then the
 * rest of the turn rebuilt from the tool results (the verdict, what to answer next, the goodbye);
 * the redirect promises 「接着玩」 only while the game goes on. The engine checks with the whole check
 * (the rules and the learned classifier): a line only the classifier catches is held back in the
 * engine too, so the turn still tells what to answer next and the score.
 */
import { describe, expect, it } from 'vitest';
import { rebuiltTurn, redirectFor } from '../../../src/core/games/blocked-turn.ts';
import { REDIRECT } from '../../../src/core/safety/replies.ts';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import type { Step, StepRequest } from '../../../src/core/llm/types.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { pacedModel } from '../../support/paced-model.ts';
import { loaderFlagging } from '../../support/safety/classifier-double.ts';
import { checkLine } from '../../../src/core/safety/classify.ts';
import type { SafetyCheckLoader } from '../../../src/core/games/engine-host.ts';
import { GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';
import { FakeDevice, RecordingTrace, secretRandom, send } from './helpers.ts';

const UNSAFE = '火柴在厨房的抽屉里，你可以自己去拿。';
/** A line the rules let through; the classifier double of the tests below flags it. */
const CLASSIFIER_ONLY = '把门锁上，别让妈妈进来。';

describe('the rebuilt turn (pure)', () => {
  it('the redirect, then the rules\' sentences not said yet', () => {
    expect(rebuiltTurn({ redirect: REDIRECT.game, rulesLine: '50 小了！再大一点哦，还有 6 次机会。', continues: true, said: ['50 小了！'] })).toBe('哎呀，这句我不说了。再大一点哦，还有 6 次机会。');
  });
  it('no rules line: the redirect alone, 「接着玩」 only while the game goes on', () => {
    expect(rebuiltTurn({ redirect: REDIRECT.game, rulesLine: null, continues: true, said: [] })).toBe(REDIRECT.game);
    expect(redirectFor(REDIRECT.game, false)).toBe('哎呀，这句我不说了。');
    expect(rebuiltTurn({ redirect: REDIRECT.game, rulesLine: null, continues: false, said: [] })).not.toContain('接着玩');
  });
});

/** 猜数字 whose model judges `guess`, then writes `text` as its reply (and the truth after, if asked again); the engine checks with `safety` (the worker's by default). */
function game(guess: number, text: string, stream = false, safety: SafetyCheckLoader = GAME_SAFETY_CHECK) {
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  const policy = (req: StepRequest): Step => {
    const last = readToolResult(req.messages.at(-1)!);
    if (req.messages.at(-1)!.content.includes('"event":"start"') && !last) return { action: 'start_game', args: {} };
    if (last?.name === 'start_game') return { action: 'reply', args: { text: '开始啦，猜吧！' } };
    if (!last) return { action: 'submit_guess', args: { number: guess } };
    return { action: 'reply', args: { text } };
  };
  const model = stream ? pacedModel({ 'game:guess-number': policy }, { chunkChars: 2, delayMs: 0 }) : createScriptedModel({ 'game:guess-number': policy });
  const service = new GameSessions({ create: () => new GuessNumberAgent({ model, device, random: () => secretRandom(63), trace, preExecute: false, safety }), device, trace, source: 'game:test' });
  return { service, trace };
}

describe('a blocked line in a game turn', () => {
  it('mid-game: the verdict said before it stays, then the redirect and what to do next', async () => {
    const { service, trace } = game(50, `50 小了！${UNSAFE}`, true);
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜50');
    const heard = [...r.intermediate, r.final.text].join('');
    expect(heard).not.toContain('火柴');
    expect(heard).toBe('50 小了！哎呀，这句我不说了。再大一点哦，还有 6 次机会。');
    expect(r.final.session).toBe('active');
    expect(trace.events.find((e) => e.kind === 'safety' && e.name === 'blocked')?.data).toMatchObject({ category: 'danger', role: 'game_agent', gameId: 'guess-number', original: UNSAFE });
  });

  it("the game's last reply: the goodbye and the result are told, and no 「接着玩」", async () => {
    const { service } = game(63, UNSAFE);
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜63');
    expect(r.final.session).toBe('ended');
    expect(r.final.text).toContain('哎呀，这句我不说了。');
    expect(r.final.text).toContain('就是 63');
    expect(r.final.text).not.toContain('接着玩');
    expect(r.final.text).not.toContain('火柴');
  });
});

describe('a line only the learned classifier blocks, in the engine', () => {
  const flagging = loaderFlagging([CLASSIFIER_ONLY]);

  it('the rules alone let it through; the whole check the engine is given blocks it', async () => {
    expect(checkLine(CLASSIFIER_ONLY).verdict).toBe('ok');
    expect((await flagging())(CLASSIFIER_ONLY)).toMatchObject({ verdict: 'blocked', by: 'classifier' });
  });

  it('mid-game: held back in the engine, and the child still hears what to answer next', async () => {
    const { service, trace } = game(50, `50 小了！${CLASSIFIER_ONLY}`, true, flagging);
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜50');
    const heard = [...r.intermediate, r.final.text].join('');
    expect(heard).not.toContain('妈妈');
    expect(heard).toBe('50 小了！哎呀，这句我不说了。再大一点哦，还有 6 次机会。');
    expect(r.final.session).toBe('active');
    expect(trace.events.find((e) => e.kind === 'safety' && e.name === 'blocked')?.data).toMatchObject({ by: 'classifier', role: 'game_agent', gameId: 'guess-number', original: CLASSIFIER_ONLY });
  });

  it("the game's last reply: the result is still told, and no 「接着玩」", async () => {
    const { service } = game(63, CLASSIFIER_ONLY, false, flagging);
    await send(service, 'start', '玩猜数字');
    const r = await send(service, 'message', '我猜63');
    expect(r.final.session).toBe('ended');
    expect(r.final.text).toContain('哎呀，这句我不说了。');
    expect(r.final.text).toContain('就是 63');
    expect(r.final.text).not.toContain('妈妈');
    expect(r.final.text).not.toContain('接着玩');
  });
});
