import { describe, expect, it } from 'vitest';
import * as bb from '../../../src/core/studio/blackboard.ts';
import { assembleHelperContext } from '../../../src/core/studio/helper-context.ts';
import { runHelperLoop, helperTools } from '../../../src/studio/helper-executor.ts';
import type { ChatModel, Step } from '../../../src/core/llm/types.ts';
import { quizPackage } from './helpers.ts';

const pkg = quizPackage();
const skill = (id: string) => pkg.skills.find((s) => s.id === id)!;
const put = (b: bb.Blackboard, tag: string, value: unknown, accept = true) => {
  const s = bb.submit(b, { helperId: 'w', skill: 's', burst: 1, at: 1, declaredWrites: [tag], values: { [tag]: value } });
  return accept ? bb.accept(s, tag, 'user', 2) : s;
};
const deck = [{ id: 'c1', prompt: '头上三只角', answer: '三角龙', aliases: ['三角恐龙'], hints: ['数角'], difficulty: 1 }];

describe('context assembly', () => {
  it('the fixed upper half is byte-identical across helpers of one skill, whatever the board', () => {
    const b1 = bb.recordUserFact(bb.emptyBoard(Object.keys(pkg.tags)), '设计.家长要求', ['恐龙'], 1);
    const b2 = put(put(b1, '设计.主题', { 主题: '水果' }), '设计.交互范式', { 名称: 'x' });
    const c1 = assembleHelperContext(pkg, skill('card-deck'), b1);
    const c2 = assembleHelperContext(pkg, skill('card-deck'), b2);
    expect(c1.upper).toBe(c2.upper);
    expect(c1.messages[0]).toEqual({ role: 'system', content: c1.upper });
    expect(c1.upper).toContain(skill('card-deck').skillMd);
    expect(c1.upper).toContain(pkg.constraints[0]);
    expect(c1.lower).not.toBe(c2.lower);
    expect(assembleHelperContext(pkg, skill('persona'), b1).upper).not.toBe(c1.upper);
  });
  it('the lower half holds the accepted values of the tags the skill reads, and nothing else', () => {
    let b = bb.recordUserFact(bb.emptyBoard(Object.keys(pkg.tags)), '设计.家长要求', ['给5岁孩子'], 1);
    b = put(b, '设计.主题', { 主题: '恐龙' });
    b = put(b, '设计.角色', { 名字: '小龙博士' }); // persona is not read by card-deck
    b = put(b, '设计.交互范式', { 名称: '草稿里的' }, false); // a draft is not a fact yet
    const { lower } = assembleHelperContext(pkg, skill('card-deck'), b);
    expect(lower).toContain('给5岁孩子');
    expect(lower).toContain('"恐龙"');
    expect(lower).not.toContain('小龙博士');
    expect(lower).not.toContain('草稿里的');
    expect(lower).toMatch(/## 设计\.交互范式\n（还没有）/);
  });
  it('the context profile hides fields (the play helper never sees answers) or shortens them', () => {
    const b = put(bb.emptyBoard(Object.keys(pkg.tags)), '设计.卡牌', deck);
    const present = assembleHelperContext(pkg, skill('present-card'), b);
    expect(present.lower).toContain('头上三只角');
    expect(present.lower).not.toContain('三角龙');
    const brief = assembleHelperContext(pkg, { ...skill('persona'), reads: ['设计.卡牌'], context: { '设计.卡牌': 'brief' } }, b);
    expect(brief.lower).toContain('共 1 项');
    expect(brief.lower).not.toContain('"hints"');
  });
  it('a rejected draft’s reason reaches the helper that redoes it', () => {
    const b = bb.reject(put(bb.emptyBoard(Object.keys(pkg.tags)), '设计.卡牌', deck, false), '设计.卡牌', '太难了', 'user', 3);
    expect(assembleHelperContext(pkg, skill('card-deck'), b).lower).toContain('理由：太难了');
  });
});

describe('the helper’s own tool loop', () => {
  const scripted = (steps: Step[]): ChatModel => {
    let i = 0;
    return { label: 't', step: async () => steps[Math.min(i++, steps.length - 1)] };
  };
  it('an undeclared output tag is answered with an error and retried', async () => {
    const out = await runHelperLoop({
      model: scripted([{ action: 'submit', args: { values: { '设计.主题': 1, '设计.卡牌': [] } } }, { action: 'submit', args: { values: { '设计.主题': { 主题: '恐龙' } } } }]),
      skill: skill('theme'),
      messages: assembleHelperContext(pkg, skill('theme'), bb.emptyBoard(Object.keys(pkg.tags))).messages,
    });
    expect(out).toMatchObject({ kind: 'submitted', rounds: 2, values: { '设计.主题': { 主题: '恐龙' } } });
    expect(out.messages.some((m) => m.content.includes('"error"') && m.content.includes('不能有 设计.卡牌'))).toBe(true);
  });
  it('the submit tool carries the tags\' schemas, and the runtime\'s checks refuse a draft (the helper retries)', async () => {
    const tools = helperTools(skill('theme'), { schemas: { '设计.主题': pkg.tagDefs['设计.主题'].schema } });
    const values = (tools[0].parameters as { properties: { values: { properties: Record<string, { type?: string; required?: string[] }> } } }).properties.values.properties;
    expect(values['设计.主题']).toMatchObject({ type: 'object', required: ['主题', '标题', '年龄'] });
    expect(JSON.stringify(values)).not.toContain('gameName'); // the parent-facing extras stay out of the tool schema
    const out = await runHelperLoop({
      model: scripted([
        { action: 'submit', args: { values: { '设计.主题': { 主题: '恐龙', 标题: '猜数字', 年龄: '5岁' } } } },
        { action: 'submit', args: { values: { '设计.主题': { 主题: '恐龙', 标题: '恐龙问答', 年龄: '5岁' } } } },
      ]),
      skill: skill('theme'),
      messages: [],
      contract: { check: (v) => ((v['设计.主题'] as { 标题?: string }).标题 === '猜数字' ? ['名字已经有了'] : []) },
    });
    expect(out).toMatchObject({ kind: 'submitted', rounds: 2 });
    expect(out.messages.some((m) => m.content.includes('名字已经有了'))).toBe(true);
  });
  it('gives up after the round limit without throwing', async () => {
    const out = await runHelperLoop({ model: scripted([{ action: 'finish', args: {} }]), skill: skill('theme'), messages: [], maxRounds: 3 });
    expect(out).toMatchObject({ kind: 'failed', rounds: 3 });
  });
});
