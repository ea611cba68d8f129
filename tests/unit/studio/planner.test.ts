import { describe, expect, it } from 'vitest';
import * as bb from '../../../src/core/studio/blackboard.ts';
import { missingInstantiateSkills } from '../../../src/core/studio/planner.ts';
import { quizPackage } from './helpers.ts';

const pkg = quizPackage();
let board = bb.emptyBoard(Object.keys(pkg.tags));
const accepted = (b: bb.Blackboard, tag: string, value: unknown) =>
  bb.accept(bb.submit(b, { helperId: 'w', skill: 's', burst: 1, at: 1, declaredWrites: [tag], values: { [tag]: value } }), tag, 'user', 2);

describe('back-chaining from run skills to missing instantiate skills', () => {
  it('starts from the interaction paradigm while the run-skill list is not accepted', () => {
    const p = missingInstantiateSkills(pkg, board);
    expect(p).toMatchObject({ runSkills: [], missing: ['interaction-paradigm'], next: 'interaction-paradigm', ready: false });
  });
  it('a draft awaiting review is not re-invoked', () => {
    const b = bb.submit(board, { helperId: 'w', skill: 'interaction-paradigm', burst: 1, at: 1, declaredWrites: ['设计.run_skill清单'], values: { '设计.run_skill清单': ['present-card'] } });
    expect(missingInstantiateSkills(pkg, b)).toMatchObject({ missing: [], next: null, awaitingReview: ['设计.run_skill清单'] });
  });
  it('works back from the chosen run skills, dependencies first', () => {
    board = accepted(board, '设计.run_skill清单', ['present-card', 'judge-answer', 'wrap-up']);
    const p = missingInstantiateSkills(pkg, board);
    expect(p.runSkills).toEqual(['present-card', 'judge-answer', 'wrap-up']);
    expect(p.missingTags.sort()).toEqual(['设计.主题', '设计.交互范式', '设计.卡牌', '设计.角色'].sort());
    // card-deck needs 设计.主题 and 设计.交互范式, so theme and the paradigm come back first.
    expect(p.missing.indexOf('theme')).toBeLessThan(p.missing.indexOf('card-deck'));
    expect(p.missing).toContain('interaction-paradigm');
    expect(p.missing).not.toContain('story-setup');
    expect(p.next).toBe('interaction-paradigm');
  });
  it('only the skills whose outputs a run skill needs are invoked', () => {
    let b = accepted(bb.emptyBoard(Object.keys(pkg.tags)), '设计.run_skill清单', ['wrap-up']);
    // wrap-up reads 设计.角色 and 设计.交互范式 only; the host needs the theme.
    b = accepted(b, '设计.交互范式', {});
    const p = missingInstantiateSkills(pkg, b);
    expect(p.missing.sort()).toEqual(['persona', 'theme']);
    b = accepted(b, '设计.主题', {});
    expect(missingInstantiateSkills(pkg, b).next).toBe('persona');
    b = accepted(b, '设计.角色', {});
    expect(missingInstantiateSkills(pkg, b)).toMatchObject({ missing: [], ready: true });
  });
  it('each shape of play needs its own content: a story its opening, 我说你做 its actions — no cards', () => {
    for (const [shape, content] of [['故事接龙', 'story-setup'], ['我说你做', 'action-list'], ['问答', 'card-deck']] as const) {
      let b = accepted(bb.emptyBoard(Object.keys(pkg.tags)), '设计.run_skill清单', pkg.paradigms.find((x) => x.name === shape)!.runSkills);
      b = accepted(accepted(b, '设计.交互范式', {}), '设计.主题', {});
      const p = missingInstantiateSkills(pkg, b);
      expect(p.missing.sort(), shape).toEqual([content, 'persona'].sort());
      expect(p.next, shape).toBe(content);
    }
  });
  it('an unknown run skill in the list blocks readiness', () => {
    const b = accepted(bb.emptyBoard(Object.keys(pkg.tags)), '设计.run_skill清单', ['fly-away']);
    expect(missingInstantiateSkills(pkg, b)).toMatchObject({ unknownRunSkills: ['fly-away'], ready: false });
  });
});
