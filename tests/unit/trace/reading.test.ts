/**
 * 记录 as a parent reads it: real games (猜数字, 你画我猜) played with their demo policies record their
 * tool calls; each round reads as 孩子说 / 机器人说 / what the game did in the game's own words
 * (skills/<id>/summary.ts, found by the folder), with no answer before it is revealed. Design
 * sessions of the Studio are grouped under their design, never filed into the child's last round.
 */
import { describe, expect, it } from 'vitest';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { DrawGuessAgent } from '../../../skills/draw-guess/game.ts';
import { policy as drawPolicy } from '../../../skills/draw-guess/demo.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy as guessPolicy } from '../../../skills/guess-number/demo.ts';
import { designContext } from '../../../src/core/trace/designs.ts';
import { readRound, safetyEntries, type ToolSummary } from '../../../src/core/trace/reading.ts';
import { groupRounds, viewRounds, type StoredTraceEvent } from '../../../src/core/trace/rounds.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { TraceRecorder } from '../../../src/trace/recorder.ts';
import { summarize as drawSummary } from '../../../skills/draw-guess/summary.ts';
import { summarize as guessSummary } from '../../../skills/guess-number/summary.ts';
import { GAME_SUMMARIES } from '../../../src/trace/game-summaries.ts';
import { FakeDevice, RecordingTrace, scriptedRecording, secretRandom, send } from '../games/helpers.ts';
import { existsSync, readdirSync } from 'node:fs';

const SUMMARIES: Record<string, ToolSummary> = { 'guess-number': guessSummary, 'draw-guess': drawSummary };

/** Plays `inputs` and returns the trace as the app stores it: one round per input, with what was said. */
async function playRounds(service: GameSessions, trace: RecordingTrace, inputs: Array<[kind: 'start' | 'message' | 'end', text: string]>): Promise<StoredTraceEvent[]> {
  const events: StoredTraceEvent[] = [];
  let t = 1_000;
  for (const [i, [kind, text]] of inputs.entries()) {
    const roundId = `r${i}`;
    events.push({ kind: 'user_input', at: t++, roundId, source: 'user', data: { text } });
    const before = trace.events.length;
    const r = await send(service, kind, text);
    events.push({ kind: 'a2a_request', at: t++, roundId, requestId: r.requestId, source: 'main', data: { kind, text } });
    for (const e of trace.events.slice(before)) events.push({ ...e, at: t++ });
    for (const sentence of [...r.intermediate, r.final.text]) events.push({ kind: 'speech', at: t++, roundId, source: 'main', name: 'spoken', durationMs: 300, data: { role: 'game_agent', text: sentence, completed: true } });
  }
  return events;
}

describe('a round of 猜数字 reads as what happened', () => {
  it('孩子说 / 机器人说 (every sentence) / 「猜了 50，偏小，还剩 6 次」, and the number only once revealed', async () => {
    const trace = new RecordingTrace();
    const { model } = scriptedRecording('game:guess-number', guessPolicy);
    const service = new GameSessions({ create: () => new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(63), trace, preExecute: false }), source: 'game:guess-number' });
    const events = await playRounds(service, trace, [['start', '我们玩猜数字吧'], ['message', '我猜50'], ['message', '我猜75'], ['message', '我猜63']]);
    const readings = viewRounds(groupRounds(events).rounds).map((r) => readRound(r, SUMMARIES));
    expect(readings.map((r) => r.happened)).toEqual([
      ['开了一局：想好了 1 到 100 之间的一个数，有 7 次机会'],
      ['猜了 50，偏小，还剩 6 次'],
      ['猜了 75，偏大，还剩 5 次'],
      ['猜了 63，猜对了！用了 3 次'],
    ]);
    expect(readings[1]).toMatchObject({ who: 'child', said: '我猜50' });
    expect(readings[1].robot.join('')).toMatch(/^50 小了！.*还有 6 次机会/);
    expect(readings[1].durationMs).toBeGreaterThan(0);
    for (const r of readings.slice(0, 3)) expect(JSON.stringify(r)).not.toContain('63');
  });

  it('不玩了 reveals the answer: 「不玩了，答案揭晓：63」', async () => {
    const trace = new RecordingTrace();
    const { model } = scriptedRecording('game:guess-number', guessPolicy);
    const service = new GameSessions({ create: () => new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(63), trace, preExecute: false }), source: 'game:guess-number' });
    const events = await playRounds(service, trace, [['start', '我们玩猜数字吧'], ['end', '不玩了']]);
    const [, end] = viewRounds(groupRounds(events).rounds).map((r) => readRound(r, SUMMARIES));
    expect(end.happened).toEqual(['不玩了，答案揭晓：63']);
  });
});

describe('a round of 你画我猜 reads as what happened', () => {
  it('a wrong guess, then the right one: 「猜的是「猫」，不对…」, 「答对了！答案揭晓：…」', async () => {
    const trace = new RecordingTrace();
    const { model } = scriptedRecording('game:draw-guess', drawPolicy);
    const keep = () => 0.9999; // the deck in catalogue order
    const service = new GameSessions({ create: () => new DrawGuessAgent({ model, device: new FakeDevice(), random: keep, trace, preExecute: false }), source: 'game:draw-guess' });
    const first = new DrawGuessAgent({ model, device: new FakeDevice(), random: keep, preExecute: false });
    first.game.start();
    const answer = first.game.card.name;
    const wrong = answer === '猫' ? '狗' : '猫';
    const events = await playRounds(service, trace, [['start', '我们玩你画我猜吧'], ['message', `是${wrong}吗`], ['message', `是${answer}`]]);
    const readings = viewRounds(groupRounds(events).rounds).map((r) => readRound(r, SUMMARIES));
    expect(readings[0].happened).toEqual(['开了一局：一共 3 题', '画了第 1 题']);
    expect(readings[1].happened[0]).toMatch(new RegExp(`^猜的是「${wrong}」，不对，还能猜 \\d 次$`));
    expect(readings[2].happened[0]).toBe(`答对了！答案揭晓：${answer}`);
    expect(JSON.stringify(readings.slice(0, 2))).not.toContain(answer);
  });
});

describe('each game brings its own words', () => {
  it('every skills/<id>/summary.ts is found by its folder, with nothing listed elsewhere', () => {
    const onDisk = readdirSync('skills').filter((id) => existsSync(`skills/${id}/summary.ts`));
    expect(onDisk.sort()).toEqual(['draw-guess', 'guess-number']);
    expect(Object.keys(GAME_SUMMARIES).sort()).toEqual(onDisk.sort());
    expect(GAME_SUMMARIES['guess-number']).toBe(guessSummary);
  });
});

describe('design sessions', () => {
  it('the Studio\'s steps stay with their design, not in the round the child played last', async () => {
    const written: TraceEvent[] = [];
    const rec = new TraceRecorder({ append: async (e) => void written.push(...e), registerRequest: async () => {} }, { now: () => 5_000 });
    rec.startRound('我猜50');
    rec.record({ kind: 'model_step', at: 5_100, source: 'studio:manager', name: 'run_helper', contextId: designContext('p-1'), durationMs: 40 });
    rec.record({ kind: 'model_step', at: 5_200, source: 'studio:helper:theme', name: 'submit', contextId: designContext('p-1'), durationMs: 60 });
    rec.record({ kind: 'model_step', at: 5_300, source: 'studio:manager', name: 'ask_user', contextId: designContext('p-2') });
    await rec.flush();
    const g = groupRounds(written);
    expect(g.rounds).toHaveLength(1);
    expect(g.rounds[0].events.map((e) => e.kind)).toEqual(['user_input']);
    expect(g.designs.map((d) => [d.id, d.events.length, d.startedAt, d.endedAt])).toEqual([
      ['p-1', 2, 5_100, 5_260],
      ['p-2', 1, 5_300, 5_300],
    ]);
    expect(g.orphans).toEqual([]);
  });
});

describe('安全提醒 (safetyEntries)', () => {
  const title = (id: string) => ({ 'guess-number': '猜数字' })[id] ?? id;
  const events: StoredTraceEvent[] = [
    { kind: 'user_input', at: 1_000, roundId: 'r1', source: 'user', data: { text: '我们玩猜数字吧' } },
    { kind: 'a2a_request', at: 1_010, roundId: 'r1', requestId: 'q1', source: 'main', data: { kind: 'start' } },
    // A game's reply: its first sentence blocked, the rest of it not said either.
    { kind: 'safety', at: 1_100, seq: 3, roundId: 'r1', requestId: 'q1', source: 'main', name: 'blocked', data: { category: 'personal_info', rule: 'ask_address', view: 'plain', role: 'game_agent', gameId: 'guess-number', original: '你家住在哪里？', said: '我们继续猜数字吧！' } },
    { kind: 'safety', at: 1_110, seq: 4, roundId: 'r1', requestId: 'q1', source: 'main', name: 'suppressed', data: { category: 'personal_info', role: 'game_agent', gameId: 'guess-number', original: '告诉我门牌号。' } },
    { kind: 'speech', at: 1_200, roundId: 'r1', source: 'main', name: 'spoken', data: { text: '我们继续猜数字吧！' } },
    { kind: 'user_input', at: 2_000, roundId: 'r2', source: 'user', data: { text: '刀放在哪里？' } },
    { kind: 'safety', at: 2_010, seq: 7, roundId: 'r2', source: 'main', name: 'child_words', data: { category: 'danger', rule: 'knife', said: '这个要问问爸爸妈妈哦。' } },
    { kind: 'user_input', at: 3_000, roundId: 'r3', source: 'user', data: { text: '你好' } },
    { kind: 'safety', at: 3_010, seq: 9, roundId: 'r3', source: 'main', name: 'blocked', data: { category: 'attachment', rule: 'stay', view: 'plain', role: 'main_agent', original: '别走，只陪我玩。', said: '去和家人玩一会儿吧！' } },
  ];

  it('one entry per blocked reply (the rest of it joined to the original), the child\'s words with the round\'s text, newest first', () => {
    const entries = safetyEntries(groupRounds(events), title);
    expect(entries.map((e) => [e.kind, e.category, e.who, e.said, e.original])).toEqual([
      ['blocked', 'attachment', '小方（主机器人）', '去和家人玩一会儿吧！', '别走，只陪我玩。'],
      ['child_words', 'danger', '孩子说的话', '这个要问问爸爸妈妈哦。', '刀放在哪里？'],
      ['blocked', 'personal_info', '游戏「猜数字」', '我们继续猜数字吧！', '你家住在哪里？告诉我门牌号。'],
    ]);
    expect(entries[2]).toMatchObject({ rule: 'ask_address', view: 'plain', at: 1_100, key: '3-1100' });
  });

  it('an empty (cleared) trace has none; records that are not safety ones are never listed', () => {
    expect(safetyEntries({ rounds: [], designs: [], orphans: [] }, title)).toEqual([]);
    expect(safetyEntries(groupRounds(events.filter((e) => e.kind !== 'safety')), title)).toEqual([]);
  });

  it('lists the newest 100', () => {
    const many: StoredTraceEvent[] = [{ kind: 'user_input', at: 0, roundId: 'r', source: 'user', data: { text: '你好' } }];
    for (let i = 1; i <= 120; i++) many.push({ kind: 'safety', at: i, seq: i, roundId: 'r', source: 'main', name: 'child_words', data: { category: 'danger', rule: 'r', said: 's' } });
    const entries = safetyEntries(groupRounds(many), title);
    expect(entries).toHaveLength(100);
    expect([entries[0].at, entries[99].at]).toEqual([120, 21]);
  });
});
