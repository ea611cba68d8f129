import { describe, expect, it } from 'vitest';
import * as bb from '../../../src/core/studio/blackboard.ts';
import { missingInstantiateSkills } from '../../../src/core/studio/planner.ts';
import { quizPackage } from './helpers.ts';

const declared = ['设计.主题', '设计.卡牌', '设计.家长要求', '运行.回复'];
const sub = (values: Record<string, unknown>, declaredWrites = ['设计.主题']): bb.Submission => ({ helperId: 'w1', skill: 'theme', burst: 2, at: 10, declaredWrites, values });

describe('blackboard rules', () => {
  it('a submit writes drafts with provenance (helper, skill, burst, time)', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': { 主题: '恐龙' } }));
    expect(b.tags['设计.主题']).toMatchObject({ status: 'draft', value: { 主题: '恐龙' }, provenance: { by: 'helper', helperId: 'w1', skill: 'theme', burst: 2, at: 10 } });
  });
  it('a submit writes only the skill’s declared output tags, all or nothing', () => {
    const b0 = bb.emptyBoard(declared);
    expect(() => bb.submit(b0, sub({ '设计.主题': 1, '设计.卡牌': [] }))).toThrow(/没有声明输出标签「设计.卡牌」/);
    expect(() => bb.submit(b0, sub({ '设计.不存在': 1 }, ['设计.不存在']))).toThrow(/不在这个技能包的标签表里/);
    expect(b0.tags).toEqual({});
  });
  it('only the user accepts, rejects or edits', () => {
    const b = bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': 1 }));
    for (const actor of ['agent', 'helper', 'runtime'] as const) {
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
    const redo = bb.submit(r, { ...sub({ '设计.主题': 'B' }), helperId: 'w2' });
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

describe('a redo over an accepted design fact (only the user decides facts)', () => {
  const accepted = () => bb.editAndAccept(bb.submit(bb.emptyBoard(declared), sub({ '设计.主题': '恐龙' })), '设计.主题', '恐龙世界', 'user', 11);
  const redo = (b: bb.Blackboard, value: unknown) => bb.submit(b, { ...sub({ '设计.主题': value }), helperId: 'w2', burst: 5, at: 20 });

  it('the redo draft keeps the earlier fact; while it waits, the tag is not accepted', () => {
    const b = redo(accepted(), '海洋');
    expect(b.tags['设计.主题']).toMatchObject({
      status: 'draft',
      value: '海洋',
      provenance: { helperId: 'w2', burst: 5 },
      accepted: { value: '恐龙世界', decidedAt: 11, editedByUser: true, provenance: { by: 'helper', helperId: 'w1' } },
    });
    expect(bb.isAccepted(b, '设计.主题')).toBe(false);
    expect(bb.acceptedValue(b, '设计.主题')).toBeUndefined();
    // A second redo before the user decided still keeps the accepted fact, not the unreviewed draft.
    expect(redo(b, '太空').tags['设计.主题'].accepted).toMatchObject({ value: '恐龙世界' });
  });
  it('rejecting the redo puts the earlier accepted fact back in force, with its provenance', () => {
    const r = bb.reject(redo(accepted(), '海洋'), '设计.主题', '还是恐龙好', 'user', 30);
    const e = r.tags['设计.主题'];
    expect(e).toMatchObject({ status: 'accepted', value: '恐龙世界', decidedAt: 11, editedByUser: true, provenance: { by: 'helper', helperId: 'w1', at: 10 } });
    expect(e.rejections).toEqual([{ reason: '还是恐龙好', value: '海洋', at: 30, provenance: expect.objectContaining({ helperId: 'w2' }) }]);
    expect(e.accepted).toBeUndefined();
    expect(bb.acceptedValue(r, '设计.主题')).toBe('恐龙世界');
    expect(() => bb.accept(r, '设计.主题', 'user', 31)).toThrow(/没有待验收的草稿/);
  });
  it('accepting or editing the redo replaces the fact and forgets the earlier one', () => {
    const a = bb.accept(redo(accepted(), '海洋'), '设计.主题', 'user', 30).tags['设计.主题'];
    expect(a).toMatchObject({ status: 'accepted', value: '海洋', decidedAt: 30 });
    expect(a.accepted).toBeUndefined();
    expect(a.editedByUser).toBeUndefined();
    const e = bb.editAndAccept(redo(accepted(), '海洋'), '设计.主题', '深海', 'user', 30).tags['设计.主题'];
    expect(e).toMatchObject({ status: 'accepted', value: '深海', editedByUser: true });
    expect(e.accepted).toBeUndefined();
  });
  it('readiness: a pending redo makes the design not ready; a rejected redo makes it ready again', () => {
    const pkg = quizPackage();
    const give = (b: bb.Blackboard, tag: string, value: unknown) => bb.accept(bb.submit(b, { helperId: 'w', skill: 's', burst: 1, at: 1, declaredWrites: [tag], values: { [tag]: value } }), tag, 'user', 2);
    let b = give(bb.emptyBoard(Object.keys(pkg.tags)), '设计.run_skill清单', ['wrap-up']);
    for (const t of ['设计.交互范式', '设计.主题', '设计.卡牌', '设计.角色']) b = give(b, t, t);
    expect(missingInstantiateSkills(pkg, b).ready).toBe(true);
    const pending = bb.submit(b, { helperId: 'w9', skill: 'persona', burst: 3, at: 3, declaredWrites: ['设计.角色'], values: { '设计.角色': '新角色' } });
    expect(missingInstantiateSkills(pkg, pending)).toMatchObject({ ready: false, awaitingReview: ['设计.角色'] });
    const back = bb.reject(pending, '设计.角色', '不要换', 'user', 4);
    expect(missingInstantiateSkills(pkg, back).ready).toBe(true);
    expect(bb.acceptedValue(back, '设计.角色')).toBe('设计.角色');
  });
});
