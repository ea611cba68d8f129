/**
 * Model steps per child utterance (the silence a child hears on a slow model), counted with the
 * demo policies: deterministic behaviour, so the counts are asserted; no timing is measured.
 */
import { describe, expect, it } from 'vitest';
import { designedGame, demoModel, harness, send } from './helpers.ts';

describe('model steps per child utterance', () => {
  it('start: 1 step; an answer (wrong, right, revealed, last): 2; end with words: 1 (was 3 / 5 / 3)', async () => {
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
    expect([...new Set(requests.map((q) => q.agent))]).toEqual(['studio:manager']);
  });
});

describe('a model-executed run skill', () => {
  it('its 运行.回复 is said at once: the manager does not spend a step repeating it', async () => {
    const { game } = await designedGame();
    // A package whose give-hint is written by a model helper (the runtime is generic).
    const pkg = { ...game.pkg, skills: game.pkg.skills.map((s) => (s.id === 'give-hint' ? { ...s, executor: 'model' as const } : s)) };
    const { model, requests } = demoModel({
      'studio:helper:give-hint': () => ({ action: 'submit', args: { values: { '运行.进度': { 第几张: 1, 已用: ['c1'], 本卡猜: 1, 本卡提示: 1 }, '运行.回复': '别急，它是吃草的。再猜猜看！' } } }),
    });
    const h = harness({ ...game, pkg }, model);
    await send(h.handler, 'start', '开始');
    const from = requests.length;
    const r = await send(h.handler, 'message', '不知道');
    expect(r.reply).toMatchObject({ text: '别急，它是吃草的。再猜猜看！', session: 'active' });
    expect(requests.slice(from).map((q) => q.agent)).toEqual(['studio:manager', 'studio:manager', 'studio:helper:give-hint']);
    // The helper saw the deck without answers (its context rule), and said nothing more.
    const helper = requests.at(-1)!;
    expect(helper.messages.map((m) => m.content).join('\n')).not.toContain('"answer"');
  });
});
