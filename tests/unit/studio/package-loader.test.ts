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
  'workers/paradigm/SKILL.md': skillMd('paradigm'),
  'workers/theme/SKILL.md': skillMd('theme', 'metadata:\n  title: 主题\n'),
  'workers/say/SKILL.md': skillMd('say'),
};
const errorsOf = (files: PackageFiles) => {
  const r = loadPackage('demo', files);
  return r.ok ? [] : r.errors;
};

describe('skill package loader', () => {
  it('loads the shipped 问答卡牌 package from skills/ with no registration', () => {
    const r = discoverPackages().find((p) => (p.ok ? p.pkg.id : p.packageId) === 'quiz-cards');
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.pkg.title).toBe('问答卡牌');
    expect(r.pkg.skills.filter((s) => s.stage === 'instantiate').map((s) => s.id)).toEqual(['interaction-paradigm', 'theme', 'card-deck', 'rules', 'persona']);
    // Every run skill is code: the manager decides which one, the runtime runs it (steps per answer).
    expect(r.pkg.skills.filter((s) => s.executor === 'code').map((s) => s.id)).toEqual(['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up']);
    expect(r.pkg.skills.find((s) => s.id === 'judge-answer')!.then).toEqual(['keep-score']);
    expect(r.pkg.skills.filter((s) => s.ends).map((s) => s.id)).toEqual(['wrap-up']);
    expect(r.pkg.skills.find((s) => s.id === 'present-card')!.context['设计.卡牌']).toEqual({ hide: ['answer', 'aliases'] });
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
    ['missing SKILL.md', { 'workers/say/SKILL.md': undefined }, 'workers/say/SKILL.md: 文件缺失'],
    ['name/folder mismatch', { 'workers/say/SKILL.md': skillMd('speak') }, 'name「speak」必须等于文件夹名「say」'],
    ['non-standard frontmatter key', { 'workers/say/SKILL.md': skillMd('say', 'stage: run\n') }, '不允许的字段「stage」'],
    ['worker not in the manifest', { 'workers/extra/SKILL.md': skillMd('extra') }, '没有在 orchestrator.md 的 skills 里声明'],
    ['run skill writing a design tag', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [运行.回复]', 'writes: [设计.主题]') }, '只能写「运行.*」标签'],
    ['bad stage', { 'orchestrator.md': good['orchestrator.md'].replace('stage: run', 'stage: later') }, 'stage 必须是 instantiate 或 run'],
    ['then naming a model skill', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [运行.回复] }', 'writes: [运行.回复], then: [theme] }') }, 'then「theme」必须是另一个 executor: code 的 run skill'],
    ['ends on an instantiate skill', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [设计.主题] }', 'writes: [设计.主题], ends: true }') }, '只有 run skill 可以有 then / ends'],
    ['broken YAML', { 'orchestrator.md': '---\nskills: [\n---\n' }, 'YAML 解析失败'],
    ['no run_skill清单 producer', { 'orchestrator.md': good['orchestrator.md'].replace('writes: [设计.run_skill清单]', 'writes: [设计.主题]') }, '必须有一个 instantiate skill 写「设计.run_skill清单」'],
  ])('reports %s clearly', (_n, patch, message) => {
    const files = { ...good, ...patch } as Record<string, string | undefined>;
    for (const k of Object.keys(files)) if (files[k] === undefined) delete files[k];
    expect(errorsOf(files as PackageFiles).join('\n')).toContain(message);
  });
  it('reports every error at once', () => {
    expect(errorsOf({ ...good, 'workers/say/SKILL.md': skillMd('speak'), 'workers/extra/SKILL.md': skillMd('extra') })).toHaveLength(2);
  });
});
