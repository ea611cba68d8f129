/**
 * The safety rules' small pattern language, compiled twice: once to a regular expression over the
 * Chinese text (characters) and once to one over its toneless pinyin syllables (so a rule written
 * in characters also catches the same words spelled in pinyin).
 *
 * Syntax (a subset of regular expressions, with word lists):
 *   字          a literal character (Latin letters and digits too)
 *   {NAME}      any word of the list NAME
 *   (a|b)       alternatives;  (?!a|b) not followed by;  (?<!a|b) not preceded by
 *   [甲乙]      one of these characters
 *   X?          optional
 *   .{m,n}      m to n characters (syllables) inside one clause
 *   ~{m,n}      m to n characters (syllables), across clause boundaries
 *
 * The views are built by ./views.ts: clauses are separated by `|` in the character view and by
 * ` |` in the pinyin view, where every syllable is one ` token`.
 */
import { isHan } from '../jev/normalize.ts';
import { syllables } from '../jev/pinyin.ts';

type Node =
  | { t: 'lit'; s: string }
  | { t: 'ref'; name: string }
  | { t: 'gap'; min: number; max: number; cross: boolean }
  | { t: 'group'; kind: 'group' | 'not-ahead' | 'not-behind'; alts: Node[][] }
  | { t: 'class'; chars: string[] }
  | { t: 'opt'; node: Node };

export type WordLists = Readonly<Record<string, readonly string[]>>;

export interface CompiledPattern {
  /** Over the character view. */
  han: RegExp;
  /** Over the pinyin view. */
  py: RegExp;
}


function parse(src: string): Node[] {
  let i = 0;
  const seq = (stop: string): Node[][] => {
    const alts: Node[][] = [[]];
    while (i < src.length) {
      const c = src[i];
      if (stop.includes(c)) break;
      if (c === '|') {
        i++;
        alts.push([]);
        continue;
      }
      let node: Node;
      if (c === '{') {
        const end = src.indexOf('}', i);
        node = { t: 'ref', name: src.slice(i + 1, end) };
        i = end + 1;
      } else if ((c === '.' || c === '~') && src[i + 1] === '{') {
        const end = src.indexOf('}', i);
        const [min, max] = src.slice(i + 2, end).split(',').map(Number);
        node = { t: 'gap', min, max, cross: c === '~' };
        i = end + 1;
      } else if (c === '(') {
        let kind: 'group' | 'not-ahead' | 'not-behind' = 'group';
        if (src.startsWith('(?<!', i)) {
          kind = 'not-behind';
          i += 4;
        } else if (src.startsWith('(?!', i)) {
          kind = 'not-ahead';
          i += 3;
        } else i += 1;
        const inner = seq(')');
        if (src[i] !== ')') throw new Error(`unclosed group in ${src}`);
        i++;
        node = { t: 'group', kind, alts: inner };
      } else if (c === '[') {
        const end = src.indexOf(']', i);
        node = { t: 'class', chars: [...src.slice(i + 1, end)] };
        i = end + 1;
      } else {
        node = { t: 'lit', s: c };
        i++;
      }
      if (src[i] === '?') {
        node = { t: 'opt', node };
        i++;
      }
      alts[alts.length - 1].push(node);
    }
    return alts;
  };
  const top = seq('');
  if (i !== src.length) throw new Error(`unexpected "${src[i]}" in ${src}`);
  return top.length === 1 ? top[0] : [{ t: 'group', kind: 'group', alts: top }];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Toneless syllables of a word as pinyin tokens (Latin runs stay one token each). */
export function wordTokens(word: string): string[] {
  const out: string[] = [];
  let latin = '';
  const chars = [...word];
  const han = chars.filter((c) => isHan(c)).join('');
  const readings = han ? syllables(han) : [];
  let h = 0;
  for (const c of chars) {
    if (isHan(c)) {
      if (latin) out.push(latin);
      latin = '';
      out.push(readings[h++] ?? c);
    } else if (/[a-z0-9]/i.test(c)) latin += c.toLowerCase();
    else if (latin) {
      out.push(latin);
      latin = '';
    }
  }
  if (latin) out.push(latin);
  return out;
}

const tokenRe = (t: string) => ` ${escape(t)}(?![^ ])`;

/** A word list as one alternation, in characters and in pinyin tokens: built once per list (rules refer to a list many times). */
const expanded = new WeakMap<WordLists, Map<string, { han: string; py: string }>>();

function listAlternatives(lists: WordLists, name: string): { han: string; py: string } {
  let byName = expanded.get(lists);
  if (!byName) expanded.set(lists, (byName = new Map()));
  let alt = byName.get(name);
  if (!alt) {
    const words = lists[name];
    if (!words) throw new Error(`unknown word list {${name}}`);
    const py = [...new Set(words.map((w) => wordTokens(w).map(tokenRe).join('')))];
    alt = {
      han: `(?:${[...words].sort((a, b) => b.length - a.length).map(escape).join('|')})`,
      py: `(?:${py.sort((a, b) => b.length - a.length).join('|')})`,
    };
    byName.set(name, alt);
  }
  return alt;
}

function emitHan(nodes: Node[], lists: WordLists): string {
  return nodes
    .map((n): string => {
      switch (n.t) {
        case 'lit':
          return escape(n.s);
        case 'ref':
          return listAlternatives(lists, n.name).han;
        case 'gap':
          return `${n.cross ? '[^]' : '[^|]'}{${n.min},${n.max}}`;
        case 'class':
          return `[${n.chars.map(escape).join('')}]`;
        case 'opt':
          return `(?:${emitHan([n.node], lists)})?`;
        case 'group': {
          const body = n.alts.map((a) => emitHan(a, lists)).join('|');
          return n.kind === 'group' ? `(?:${body})` : n.kind === 'not-ahead' ? `(?!${body})` : `(?<!${body})`;
        }
      }
    })
    .join('');
}

function emitPy(nodes: Node[], lists: WordLists): string {
  let out = '';
  let run = '';
  const flush = () => {
    if (run) out += wordTokens(run).map(tokenRe).join('');
    run = '';
  };
  for (const n of nodes) {
    if (n.t === 'lit') {
      run += n.s;
      continue;
    }
    flush();
    switch (n.t) {
      case 'ref':
        out += listAlternatives(lists, n.name).py;
        break;
      case 'gap':
        out += `(?: ${n.cross ? '[^ ]' : '[^ |]'}+){${n.min},${n.max}}`;
        break;
      case 'class':
        out += `(?:${n.chars.map((c) => wordTokens(c).map(tokenRe).join('')).join('|')})`;
        break;
      case 'opt':
        out += `(?:${emitPy([n.node], lists)})?`;
        break;
      case 'group': {
        const body = n.alts.map((a) => emitPy(a, lists)).join('|');
        out += n.kind === 'group' ? `(?:${body})` : n.kind === 'not-ahead' ? `(?!${body})` : `(?<!${body})`;
        break;
      }
    }
  }
  flush();
  return out;
}

export function compilePattern(src: string, lists: WordLists): CompiledPattern {
  const nodes = parse(src);
  return { han: new RegExp(emitHan(nodes, lists), 'u'), py: new RegExp(emitPy(nodes, lists), 'u') };
}
