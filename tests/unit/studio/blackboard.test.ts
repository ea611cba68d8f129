import { describe, expect, it } from 'vitest';
import * as bb from '../../../src/studio/blackboard.ts';

const declared = ['设计.主题', '设计.卡牌', '设计.家长要求', '运行.回复'];
const sub = (values: Record<string, unknown>, declaredWrites = ['设计.主题']): bb.Submission => ({ workerId: 'w1', skill: 'theme', burst: 2, at: 10, declaredWrites, values });

describe('blackboard rules', () => {
  it('a submit writes drafts with provenance (worker, skill, burst, time)', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': { 主题: '恐龙' } }));
    expect(b.tags['设计.主题']).toMatchObject({ status: 'draft', value: { 主题: '恐龙' }, provenance: { by: 'worker', workerId: 'w1', skill: 'theme', burst: 2, at: 10 } });
  });
  it('a submit writes only the skill’s declared output tags, all or nothing', () => {
    const b0 = bb.emptyBoard(declared);
    expect(() => bb.submit(b0, sub({ '设计.主题': 1, '设计.卡牌': [] }))).toThrow(/没有声明输出标签「设计.卡牌」/);
    expect(() => bb.submit(b0, sub({ '设计.不存在': 1 }, ['设计.不存在']))).toThrow(/不在这个技能包的标签表里/);
    expect(b0.tags).toEqual({});
  });
  it('only the user accepts, rejects or edits', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': 1 }));
    for (const actor of ['agent', 'worker', 'runtime'] as const) {
      expect(() => bb.accept(b, '设计.主题', actor, 11)).toThrow(bb.BoardError);
      expect(() => bb.reject(b, '设计.主题', '不好', actor, 11)).toThrow(/只有家长/);
      expect(() => bb.editAndAccept(b, '设计.主题', 2, actor, 11)).toThrow(/只有家长/);
    }
    const a = bb.accept(b, '设计.主题', 'user', 11);
    expect(a.tags['设计.主题']).toMatchObject({ status: 'accepted', decidedAt: 11 });
    expect(b.tags['设计.主题'].status).toBe('draft'); // immutable
    expect(() => bb.accept(a, '设计.主题', 'user', 12)).toThrow(/没有待验收的草稿/);
  });
  it('rejecting records the reason and the rejected value; a redo keeps the history', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': 'A' }));
    expect(() => bb.reject(b, '设计.主题', ' ', 'user', 11)).toThrow(/理由/);
    const r = bb.reject(b, '设计.主题', '换一个', 'user', 11);
    expect(r.tags['设计.主题']).toMatchObject({ status: 'rejected', rejections: [{ reason: '换一个', value: 'A', at: 11 }] });
    const redo = bb.submit(r, { ...sub({ '设计.主题': 'B' }), workerId: 'w2' });
    expect(redo.tags['设计.主题']).toMatchObject({ status: 'draft', value: 'B', revision: 2, rejections: [{ reason: '换一个' }] });
  });
  it('editing a draft accepts the user’s value and marks it edited', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': { 标题: '恐龙问答' } }));
    const e = bb.editAndAccept(b, '设计.主题', { 标题: '恐龙大挑战' }, 'user', 12);
    expect(e.tags['设计.主题']).toMatchObject({ status: 'accepted', value: { 标题: '恐龙大挑战' }, editedByUser: true });
  });
  it('play tags are live at once; the runtime may record only 运行.* tags', () => {
    const b = bb.submit(bb.emptyBoard(declared), { ...sub({ '运行.回复': '第1题' }, ['运行.回复']), skill: 'present-card' });
    expect(b.tags['运行.回复'].status).toBe('accepted');
    expect(() => bb.recordRuntimeFact(b, '设计.主题', 1, 1)).toThrow(/只能直接写「运行/);
  });
});
