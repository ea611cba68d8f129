/**
 * Punctuation a reader would notice: the helpers that join texts, and a scan of every catalogued
 * error (what the child hears, what the parent reads) and every Chinese string in the app's source
 * — TypeScript string literals and templates, Svelte markup, text attributes and scripts, the
 * Studio packages' summary templates — for a doubled mark (「。。」), two marks where one belongs
 * (「，、」) or a 「、」 left at the end.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { parse } from 'svelte/compiler';
import { describe, expect, it } from 'vitest';
import { catalogueEntries } from '../../../src/core/errors/catalogue.ts';
import { endSentence, joinList, listItem, punctuationProblems } from '../../../src/core/text/punctuation.ts';
import { fillTemplate } from '../../../src/core/studio/tag-schema.ts';
import { modelError } from '../../../src/llm/errors.ts';
import { restingWords } from '../../../src/studio/studio-session.ts';

const ROOT = join(import.meta.dirname, '../../..');
const CJK = /[\u4e00-\u9fff]/u;

function files(dir: string, ok: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, ok));
    else if (ok(p)) out.push(p);
  }
  return out;
}

/** Chinese texts of a TypeScript source: string literals, and templates with each `${…}` read as 「X」. */
function tsTexts(source: string, name: string): string[] {
  const out: string[] = [];
  const sf = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node): void => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) out.push(n.text);
    else if (ts.isTemplateExpression(n)) out.push(n.head.text + n.templateSpans.map((s) => `X${s.literal.text}`).join(''));
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.filter((t) => CJK.test(t));
}

/** Chinese texts of a Svelte component: markup text, static attribute values, and its scripts. */
function svelteTexts(source: string, name: string): string[] {
  const out: string[] = [];
  const ast = parse(source, { modern: true }) as unknown as Record<string, unknown>;
  const seen = new Set<unknown>();
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object' || seen.has(n)) return;
    seen.add(n);
    const node = n as { type?: string; data?: string; content?: { start: number; end: number } };
    if (node.type === 'Text' && typeof node.data === 'string') out.push(node.data);
    if (node.type === 'Script' && node.content) out.push(...tsTexts(source.slice(node.content.start, node.content.end), name));
    for (const [k, v] of Object.entries(node)) if (k !== 'parent' && k !== 'metadata') walk(v);
  };
  walk(ast);
  return out.filter((t) => CJK.test(t)).map((t) => t.trim());
}

describe('joining texts', () => {
  it('list items lose their own trailing comma: 「没关系，」「差一点点，」 → 「没关系、差一点点」', () => {
    expect(joinList(['没关系，', '差一点点，'])).toBe('没关系、差一点点');
    expect(joinList(['真棒！', '', '好厉害。'])).toBe('真棒！、好厉害');
    expect(listItem('没关系， ')).toBe('没关系');
  });
  it('the Studio summary template joins a list the same way', () => {
    expect(fillTemplate('安慰语：{安慰语}', { 安慰语: ['没关系，', '差一点点，'] })).toBe('安慰语：没关系、差一点点');
    expect(punctuationProblems(fillTemplate('安慰语：{安慰语}。', { 安慰语: ['没关系，', '差一点点，'] }))).toEqual([]);
  });
  it('a sentence gets exactly one full stop', () => {
    expect(endSentence('还没有选择可用的模型。')).toBe('还没有选择可用的模型。');
    expect(endSentence('还没有选择可用的模型。。')).toBe('还没有选择可用的模型。');
    expect(endSentence('连不上远程接口（HTTP 500）')).toBe('连不上远程接口（HTTP 500）');
    expect(endSentence('设计室出了点问题， ')).toBe('设计室出了点问题。');
    expect(endSentence('太好了！')).toBe('太好了！');
  });
  it('a failed design step says the model error once, with one full stop (it used to read 「…。。」)', () => {
    for (const code of ['model_remote_network', 'model_not_configured', 'model_invalid_output'] as const) {
      const text = restingWords({ kind: 'helper_failed', skill: 'theme', helperId: 'w1', message: modelError(code, 'http://192.168.1.20:11434/v1/chat/completions：TypeError: Failed to fetch').message }, () => '主题')!;
      expect(punctuationProblems(text), text).toEqual([]);
      expect(text).toMatch(/^「主题」这一步没做成：.+。点「接着想」再试一次。$/);
    }
  });
  it('names each slip', () => {
    expect(punctuationProblems('出了点问题。。')).toEqual(['doubled 「。。」']);
    expect(punctuationProblems('没关系，、差一点点')).toEqual(['stray 「，、」']);
    expect(punctuationProblems('鼓励语：真棒、')).toEqual(['ends with 「、」']);
    expect(punctuationProblems('正在玩：', { fragment: true })).toEqual([]);
    expect(punctuationProblems('正在玩：')).toEqual(['ends with 「：」']);
    expect(punctuationProblems('好的……我想想！！')).toEqual([]);
  });
});

describe('every text the family meets', () => {
  it('the error catalogue: every child sentence and parent text', async () => {
    for (const f of files(join(ROOT, 'src'), (p) => /[/\\]errors\.ts$/.test(p))) await import(f);
    const entries = catalogueEntries();
    expect(entries.length).toBeGreaterThan(40);
    const bad = entries.flatMap(([code, e]) => [
      ...punctuationProblems(e.child).map((p) => `${code} child: ${p} in 「${e.child}」`),
      ...(CJK.test(e.parent) ? punctuationProblems(e.parent).map((p) => `${code} parent: ${p} in 「${e.parent}」`) : []),
    ]);
    expect(bad).toEqual([]);
  });

  it('every Chinese string in src/ and skills/ (TypeScript, Svelte markup and scripts, package templates)', () => {
    const sources = [
      ...files(join(ROOT, 'src'), (p) => /\.(ts|svelte)$/.test(p) && !p.endsWith('.d.ts')),
      ...files(join(ROOT, 'skills'), (p) => /\.(ts|md)$/.test(p)),
    ];
    const bad: string[] = [];
    let texts = 0;
    for (const f of sources) {
      const src = readFileSync(f, 'utf8');
      const name = relative(ROOT, f);
      const found = f.endsWith('.svelte')
        ? svelteTexts(src, name)
        : f.endsWith('.md')
          ? [...src.matchAll(/^\s*(?:summary|item|meaning):\s*(.+)$/gmu)].map((m) => m[1])
          : tsTexts(src, name);
      texts += found.length;
      for (const t of found) for (const p of punctuationProblems(t, { fragment: true })) bad.push(`${name}: ${p} in 「${t.slice(0, 60)}」`);
    }
    expect(texts).toBeGreaterThan(1000);
    expect(bad).toEqual([]);
  });
});
