import { describe, expect, it } from 'vitest';
import { loadPackage, type PackageFiles } from '../../../src/core/studio/package-loader.ts';
import { discoverPackages } from '../../../src/studio/bundled-packages.ts';

const manifest = (skills: string, extraTags = '') => `---
id: demo
title: 演示包
constraints: [简短]
tags:
  设计.run_skill清单: run 清单
  设计.主题: 主题
  运行.回复: 回复${extraTags}
skills:
${skills}
---
正文`;
const skillMd = (name: string, extra = '') => `---\nname: ${name}\ndescription: 做一件事。\n${extra}---\n# ${name}\n`;
const good: PackageFiles = {
  'orchestrator.md': manifest(`  - { id: paradigm, stage: instantiate, writes: [设计.run_skill清单] }
  - { id: theme, stage: instantiate, reads: [设计.run_skill清单], writes: [设计.主题] }
  - { id: say, stage: run, reads: [设计.主题], writes: [运行.回复] }`),
  'helpers/paradigm/SKILL.md': skillMd('paradigm'),
  'helpers/theme/SKILL.md': skillMd('theme', 'metadata:\n  title: 主题\n'),
  'helpers/say/SKILL.md': skillMd('say'),
};
const errorsOf = (files: PackageFiles) => {
  const r = loadPackage('demo', files);
  return r.ok ? [] : r.errors;
};

describe('skill package loader', () => {
  it('loads the shipped package from skills/ with no registration: four shapes of play, each with its own run skills', () => {
    const r = discoverPackages().find((p) => (p.ok ? p.pkg.id : p.packageId) === 'quiz-cards');
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.pkg.title).toBe('亲子小游戏');
    expect(r.pkg.skills.filter((s) => s.stage === 'instantiate').map((s) => s.id)).toEqual(['interaction-paradigm', 'theme', 'card-deck', 'story-setup', 'action-list', 'persona']);
    expect(r.pkg.paradigms.map((p) => p.name)).toEqual(['问答', '猜谜语', '故事接龙', '我说你做']);
    expect(r.pkg.paradigms.find((p) => p.name === '故事接龙')!.runSkills).toEqual(['story-open', 'story-continue', 'story-say', 'story-end', 'story-finish']);
    // 问答's run skills are code: the manager decides which one, the runtime runs it (steps per answer).
    expect(r.pkg.skills.filter((s) => s.executor === 'code' && r.pkg.paradigms[0].runSkills.includes(s.id)).map((s) => s.id)).toEqual(['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up']);
    // 故事接龙's sentences are a model's; code keeps the story and says it.
    expect(r.pkg.skills.filter((s) => s.executor === 'model' && s.stage === 'run').map((s) => s.id)).toEqual(['story-continue', 'story-end']);
    expect(r.pkg.skills.find((s) => s.id === 'judge-answer')!.then).toEqual(['keep-score']);
    expect(r.pkg.skills.filter((s) => s.ends).map((s) => s.id)).toEqual(['wrap-up', 'story-finish', 'action-end']);
    expect(r.pkg.skills.find((s) => s.id === 'present-card')!.context['设计.卡牌']).toEqual({ hide: ['answer', 'aliases'] });
    // The parent-facing declarations: titles, schemas, summaries; plumbing marked technical.
    expect(r.pkg.tagDefs['设计.交互范式']).toMatchObject({ title: '玩法', technical: false, schema: { type: 'object', properties: { 轮数: { type: 'integer', stated: 'rounds' } } } });
    expect(r.pkg.tagDefs['设计.卡牌'].schema).toMatchObject({ type: 'array', minItems: 3, maxItems: 20, items: { properties: { drawing: { widget: 'drawing' } } } });
    expect(Object.values(r.pkg.tagDefs).filter((d) => d.technical).map((d) => d.name)).toEqual(['设计.家长要求', '设计.run_skill清单']);
  });
  it('accepts a valid package, with a fenced yaml manifest too', () => {
    expect(errorsOf(good)).toEqual([]);
    const fenced = good['orchestrator.md'].replace(/^---\n/, '# 说明\n\n```yaml\n').replace(/\n---\n正文$/, '\n```\n正文');
    const r = loadPackage('demo', { ...good, 'orchestrator.md': fenced });
    expect(r.ok && r.pkg.skills.map((s) => s.title)).toEqual(['paradigm', '主题', 'say']);
  });
  it.each([
    ['unknown tag reference', { 'orchestrator.md': good['orchestrator.md'].replace('reads: [设计.主题]', 'reads: [设计.颜色]') }, '引用了未声明的标签「设计.颜色」'],
    ['duplicate skill', { 'orchestrator.md': good['orchestrator.md'].replace('id: say,', 'id: theme,') }, 'skill「theme」重复'],
    ['missing SKILL.md', { 'helpers/say/SKILL.md': undefined }, 'helpers/say/SKILL.md: 文件缺失'],
    ['name/folder mismatch', { 'helpers/say/SKILL.md': skillMd('speak') }, 'name「speak」必须等于文件夹名「say」'],
    ['non-standard frontmatter key', { 'helpers/say/SKILL.md': skillMd('say', 'stage: run\n') }, '不允许的字段「stage」'],
    ['helper not in the manifest', { 'helpers/extra/SKILL.md': skillMd('extra') }, '没有在 orchestrator.md 的 skills 里声明'],
    ['run skill writing a design tag', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [运行.回复]', 'writes: [设计.主题]') }, '只能写「运行.*」标签'],
    ['bad stage', { 'orchestrator.md': good['orchestrator.md'].replace('stage: run', 'stage: later') }, 'stage 必须是 instantiate 或 run'],
    ['then naming a model skill', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [运行.回复] }', 'writes: [运行.回复], then: [theme] }') }, 'then「theme」必须是另一个 executor: code 的 run skill'],
    ['ends on an instantiate skill', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [设计.主题] }', 'writes: [设计.主题], ends: true }') }, '只有 run skill 可以有 then / ends'],
    ['broken YAML', { 'orchestrator.md': '---\nskills: [\n---\n' }, 'YAML 解析失败'],
    ['a tag schema with an unknown type', { 'orchestrator.md': good['orchestrator.md'].replace('设计.主题: 主题', '设计.主题: { meaning: 主题, schema: { type: thing } }') }, 'schema 的 type 必须是'],
    ['a tag schema with an unknown key', { 'orchestrator.md': good['orchestrator.md'].replace('设计.主题: 主题', '设计.主题: { meaning: 主题, schema: { type: string, colour: red } }') }, '不认识的字段「colour」'],
    ['enum labels that do not match', { 'orchestrator.md': good['orchestrator.md'].replace('设计.主题: 主题', '设计.主题: { meaning: 主题, schema: { type: string, enum: [a, b], labels: [甲] } }') }, 'labels 必须和 enum 一一对应'],
    ['a paradigm naming an unknown run skill', { 'orchestrator.md': good['orchestrator.md'].replace('skills:\n', 'paradigms:\n  - { name: 说说, runSkills: [say, dance] }\nskills:\n') }, 'runSkills 里的「dance」不是这个包的 run skill'],
    ['no run_skill清单 producer', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [设计.run_skill清单]', 'writes: [设计.主题]') }, '必须有一个 instantiate skill 写「设计.run_skill清单」'],
  ])('reports %s clearly', (_n, patch, message) => {
    const files = { ...good, ...patch } as Record<string, string | undefined>;
    for (const k of Object.keys(files)) if (files[k] === undefined) delete files[k];
    expect(errorsOf(files as PackageFiles).join('\n')).toContain(message);
  });
  it('reports every error at once', () => {
    expect(errorsOf({ ...good, 'helpers/say/SKILL.md': skillMd('speak'), 'helpers/extra/SKILL.md': skillMd('extra') })).toHaveLength(2);
  });
});
