import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Skill, SkillLoadError } from '../../../src/core/games/skill.ts';
import { builtinGames } from '../../../src/games/catalog.ts';

const GOOD = `---
name: my-game
description: 一个测试游戏。
metadata:
  title: 测试游戏
  aliases: 测试, 小测试、考考我
  capabilities: face, head
---
# 规则
先开始，再结束。
`;

function loadError(text: string, path = '/skills/my-game/SKILL.md'): SkillLoadError {
  try {
    Skill.load(path, text);
  } catch (e) {
    expect(e).toBeInstanceOf(SkillLoadError);
    return e as SkillLoadError;
  }
  throw new Error('expected a load error');
}

describe('Skill.load', () => {
  it('reads the declaration from the frontmatter and keeps the body as rules', () => {
    const s = Skill.load('/skills/my-game/SKILL.md', GOOD);
    expect(s.declaration).toEqual({
      id: 'my-game',
      title: '测试游戏',
      description: '一个测试游戏。',
      aliases: ['测试', '小测试', '考考我'],
      capabilities: ['face', 'head'],
      engine: 'skill',
    });
    expect(s.body).toBe('# 规则\n先开始，再结束。');
  });

  it('accepts CRLF line ends and a BOM', () => {
    const s = Skill.load('/skills/my-game/SKILL.md', '\uFEFF' + GOOD.replace(/\n/g, '\r\n'));
    expect(s.declaration.title).toBe('测试游戏');
  });

  it.each([
    ['no frontmatter', '# 规则\n只有正文', 'frontmatter'],
    ['unclosed frontmatter', '---\nname: my-game\n# 规则', 'frontmatter'],
    ['invalid YAML', '---\nname: [my-game\n---\n正文', 'frontmatter'],
    ['a list instead of a mapping', '---\n- a\n- b\n---\n正文', 'frontmatter'],
    ['missing name', GOOD.replace('name: my-game\n', ''), 'name'],
    ['name with capitals', GOOD.replace('name: my-game', 'name: My-Game'), 'name'],
    ['missing description', GOOD.replace('description: 一个测试游戏。\n', ''), 'description'],
    ['unknown top-level key', GOOD.replace('metadata:', 'title: 顶层标题\nmetadata:'), 'title'],
    ['missing metadata', GOOD.replace(/metadata:[\s\S]*?---/, '---'), 'metadata'],
    ['metadata value not a string', GOOD.replace('aliases: 测试, 小测试、考考我', 'aliases:\n    - 测试'), 'metadata.aliases'],
    ['missing title', GOOD.replace('  title: 测试游戏\n', ''), 'metadata.title'],
    ['missing capabilities', GOOD.replace('  capabilities: face, head\n', ''), 'metadata.capabilities'],
    ['unknown capability', GOOD.replace('face, head', 'face, wings'), 'metadata.capabilities'],
    ['empty body', GOOD.replace(/# 规则[\s\S]*$/, ''), 'body'],
  ])('%s → a load error naming the file and the field', (_case, text, field) => {
    const e = loadError(text);
    expect(e.file).toBe('/skills/my-game/SKILL.md');
    expect(e.field).toBe(field);
    expect(e.message).toContain('/skills/my-game/SKILL.md');
    expect(e.message).toContain(field);
  });

  it('requires name to equal the folder name', () => {
    const e = loadError(GOOD, '/skills/other-folder/SKILL.md');
    expect(e.field).toBe('name');
    expect(e.message).toContain('other-folder');
  });
});

describe('built-in games catalog', () => {
  const root = resolve(import.meta.dirname, '../../../skills');
  const folders = readdirSync(root).filter((d) => existsSync(resolve(root, d, 'SKILL.md')));

  it('has one game per skills/<id>/SKILL.md, and no studio package', () => {
    expect(builtinGames().map((g) => g.id)).toEqual([...folders].sort());
    expect(builtinGames().map((g) => g.id)).toContain('guess-number');
    expect(builtinGames().map((g) => g.id)).not.toContain('quiz-cards');
  });

  it('every built-in SKILL.md is valid Agent Skills frontmatter with game metadata, as the build ships it', () => {
    const shipped = builtinGames();
    for (const id of folders) {
      const text = readFileSync(resolve(root, id, 'SKILL.md'), 'utf8');
      const s = Skill.load(`/skills/${id}/SKILL.md`, text);
      expect(shipped.find((d) => d.id === id)).toEqual(s.declaration);
      expect(s.declaration.capabilities.length).toBeGreaterThan(0);
      expect(s.declaration.aliases.length).toBeGreaterThan(0);
      expect(/[\u4e00-\u9fff]/.test(s.declaration.title)).toBe(true);
    }
  });

  it('declares 猜数字 with face and head', () => {
    const g = builtinGames().find((d) => d.id === 'guess-number')!;
    expect(g.title).toBe('猜数字');
    expect(g.capabilities).toEqual(['face', 'head']);
  });
});
