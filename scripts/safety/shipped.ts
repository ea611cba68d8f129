/**
 * Every line the project ships that the robot may say, collected from the sources (not copied):
 * the Chinese string literals of the games, the Studio, the arcade and the app's catalogues (a
 * template's `${…}` filled with a sample value), the quoted examples of every SKILL.md, the data
 * the games and the demo brain read (the animal catalogue, the demo decks and stories, 我说你做's
 * actions said as the robot says them), and the error catalogue's child sentences. The safety check
 * must never block one of them (tests/unit/safety/own-content.test.ts), and they are normal lines
 * of the training corpus.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import animals from '../../skills/draw-guess/animals.json' with { type: 'json' };
import { DEMO_ACTIONS, DEMO_STORIES, DEMO_THEMES, STORY_CONTINUATIONS, STORY_SOOTHE } from '../../src/studio/demo-decks.ts';
import { CARING, CARING_TOLD, REDIRECT } from '../../src/core/safety/replies.ts';
import { PLAY_TIME_LINES } from '../../src/core/safety/play-time.ts';
import { unavailableText } from '../../src/arcade/errors.ts';
import type { ArcadeGame } from '../../src/core/arcade/types.ts';
import { allChildSentences } from '../../src/core/errors/catalogue.ts';

export interface ShippedLine {
  source: string;
  text: string;
}

const root = join(import.meta.dirname, '../..');

/** Source folders whose strings the robot may say (the rules themselves, prompts and the parent's views are not spoken). */
const SCANNED = ['skills', 'src/studio', 'src/games', 'src/arcade', 'src/core/studio', 'src/core/arcade', 'src/core/games'];
/** Files whose strings are instructions to a model or the safety rules' own words, never said to the child. */
const NOT_SPOKEN = /(prompt|honesty|rules\.ts$|patterns|helper-context|manager-tools|planner|frontmatter|tag-schema|errors\.ts$|package-loader|core\/games\/skill\.ts)/;

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(join(root, p)).isDirectory()) out.push(...files(p, ext));
    else if (ext.test(n)) out.push(p);
  }
  return out;
}

const HAN = /\p{Script=Han}/u;
const NUMERIC = /^(n|i|k|count|score|total|tries|left|round|rounds|question|number|index|at|guess|secret|max|min|low|high|done|right|correct|size|attempts|attemptsLeft|tries_left)$/i;

/** A template's `${…}` filled with a sample: a number where the expression reads like one, else a word. */
function fill(template: string): string {
  return template.replace(/\$\{([^}]*)\}/g, (_, expr: string) => {
    const name = expr.trim().split(/[.\s(?]/).filter(Boolean).pop() ?? '';
    return NUMERIC.test(name) || /\d|length|\+|-/.test(expr) ? '3' : '小兔子';
  });
}

/** The Chinese string literals of one TypeScript source (comments skipped). */
export function literalsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/([^:'"`])\/\/[^'"`\n]*$/gm, '$1');
  const out: string[] = [];
  for (const m of code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    const s = m[1] ?? m[2] ?? fill(m[3] ?? '');
    if (HAN.test(s)) out.push(s.replace(/\\n/g, ' ').trim());
  }
  return out;
}

/** The examples a SKILL.md quotes (「…」) and its lines that are themselves robot sentences. */
export function examplesOf(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/「([^」]+)」/g)) if (HAN.test(m[1])) out.push(fill(m[1]).replace(/<[^>]+>/g, '小兔子'));
  return out;
}

export function shippedLines(): ShippedLine[] {
  const out: ShippedLine[] = [];
  const add = (source: string, text: string) => {
    const t = text.trim();
    if (t && HAN.test(t)) out.push({ source, text: t });
  };
  for (const a of animals as Array<{ name: string; hints: string[] }>) {
    add('animals', `答对啦！就是${a.name}！`);
    for (const h of a.hints) add('animals', h);
  }
  for (const theme of Object.values(DEMO_THEMES)) {
    add('deck', `你好，我是${theme.persona}！我出题，你来猜，猜不出我会给提示哦。`);
    for (const [answer, , prompt, hints, , picture] of theme.rows) {
      add('deck', prompt);
      add('deck', `答对了！就是${answer}！`);
      add('deck', `答对了！第3题：${prompt}`);
      for (const h of hints) add('deck', h);
      if (picture) add('deck', picture);
    }
  }
  for (const story of Object.values(DEMO_STORIES)) for (const s of [...story.openings, story.ending]) add('story', s);
  for (const s of [...STORY_CONTINUATIONS, STORY_SOOTHE]) add('story', s);
  for (const a of DEMO_ACTIONS) {
    add('actions', `我说：${a.说法}！`);
    add('actions', `${a.说法}！`);
    add('actions', `真棒！我说：${a.说法}！`);
  }
  for (const s of allChildSentences()) add('errors', s);
  // Lines that name a game by its title, with each built-in game's (skills/<id>/SKILL.md).
  for (const f of files('skills', /^SKILL\.md$/).filter((f) => f.split('/').length === 3)) {
    const title = /^\s*title:\s*(.+)$/m.exec(readFileSync(join(root, f), 'utf8'))?.[1]?.trim();
    if (title) add('app', unavailableText({ declaration: { title }, available: false } as ArcadeGame));
  }
  for (const s of [...Object.values(REDIRECT), ...Object.values(CARING), CARING_TOLD, ...Object.values(PLAY_TIME_LINES)]) add('app', s);
  for (const dir of SCANNED) {
    for (const f of files(dir, /\.(ts|svelte)$/)) {
      if (NOT_SPOKEN.test(f)) continue;
      for (const s of literalsOf(readFileSync(join(root, f), 'utf8'))) add(`code:${relative(root, join(root, f))}`, s);
    }
    for (const f of files(dir, /^SKILL\.md$|\.md$/)) for (const s of examplesOf(readFileSync(join(root, f), 'utf8'))) add(`skill:${f}`, s);
  }
  const seen = new Set<string>();
  return out.filter((l) => !seen.has(l.text) && seen.add(l.text));
}
