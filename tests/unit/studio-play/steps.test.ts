/**
 * Model steps per child utterance (the silence a child hears on a slow model), counted with the
 * demo policies: deterministic behaviour, so the counts are asserted; no timing is measured.
 */
import { describe, expect, it } from 'vitest';
import { designedGame, demoModel, harness, send } from './helpers.ts';

describe('model steps per child utterance', () => {
  it('start: 1 step; an answer (wrong, right, revealed, last): at most 2; end with words: 1; empty end: 0', async () => {
    const { game } = await designedGame();
    const { model, requests } = demoModel();
    const h = harness(game, model);
    const steps = async (kind: 'start' | 'message' | 'end', text: string) => {
      const from = requests.length;
      const r = await send(h.handler, kind, text);
      return { reply: r.reply, steps: requests.length - from, agents: requests.slice(from).map((q) => q.agent) };
    };
    const counts: Record<string, number[]> = { start: [], wrong: [], right: [], revealed: [], last: [], end: [] };
    const start = await steps('start', '我们玩恐龙问答吧');
    counts.start.push(start.steps);
    const rt = h.handler.runtimeOf('ctx-1')!;
    const wrong = await steps('message', '是小狗吗');
    expect(wrong.reply.text).toContain('提示');
    counts.wrong.push(wrong.steps);
    let r = await steps('message', rt.currentCard!.answer);
    expect(r.reply.text).toMatch(/^答对了！第2题/);
    counts.right.push(r.steps);
    for (const t of ['不知道', '不知道', '不知道']) {
      r = await steps('message', t);
      counts[/^答案是/.test(r.reply.text) ? 'revealed' : 'wrong'].push(r.steps);
    }
    while (r.reply.session === 'active') {
      r = await steps('message', rt.currentCard!.answer);
      counts[r.reply.session === 'ended' ? 'last' : 'right'].push(r.steps);
    }
    expect(r.reply.text).toMatch(/你答对了 4 张/);
    // A second game, ended by the child's words.
    await send(h.handler, 'start', '再玩一次', 'ctx-2');
    const from = requests.length;
    const bye = await send(h.handler, 'end', '不玩了', 'ctx-2');
    expect(bye.reply.session).toBe('ended');
    counts.end.push(requests.length - from);
    console.log('model steps per utterance', JSON.stringify(counts));
    expect(counts.revealed.length).toBeGreaterThan(0);
    expect(counts.start).toEqual([1]);
    for (const k of ['wrong', 'right', 'revealed', 'last'] as const) for (const n of counts[k]) expect(n, k).toBe(2);
    expect(counts.end).toEqual([1]);
    // Every step is the manager's: the code skills judge, score, present, hint and wrap up.
    expect(new Set(requests.map((q) => q.agent))).toEqual(new Set(['studio:manager', 'studio:worker:interaction-paradigm', 'studio:worker:theme', 'studio:worker:card-deck', 'studio:worker:rules', 'studio:worker:persona'].filter((a) => requests.some((q) => q.agent === a))));
  });
});
