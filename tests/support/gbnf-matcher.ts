/**
 * A small GBNF recogniser for tests: parses a llama.cpp grammar (rules `name ::= expr`, string
 * literals, character classes with ranges, negation and \x/\u escapes, grouping, alternation,
 * `? * +` and `{m,n}`) and tells whether a whole text is in its language. It follows the grammar
 * format's documented meaning; llama.cpp itself is exercised by the CPU engine's browser test.
 */
type Node =
  | { t: 'lit'; cps: number[] }
  | { t: 'cls'; neg: boolean; ranges: Array<[number, number]> }
  | { t: 'ref'; name: string }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; options: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number };

class Parser {
  i = 0;
  constructor(private readonly s: string) {}
  private ws() {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.i++;
      else if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else break;
    }
  }
  private escape(): number {
    const c = this.s[this.i++];
    const hex = (n: number) => {
      const v = parseInt(this.s.slice(this.i, this.i + n), 16);
      this.i += n;
      return v;
    };
    switch (c) {
      case 'x':
        return hex(2);
      case 'u':
        return hex(4);
      case 'U':
        return hex(8);
      case 'n':
        return 10;
      case 'r':
        return 13;
      case 't':
        return 9;
      default:
        return c.codePointAt(0)!;
    }
  }
  private char(): number {
    if (this.s[this.i] === '\\') {
      this.i++;
      return this.escape();
    }
    const cp = this.s.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }
  alt(): Node {
    const options = [this.seq()];
    while (this.s[this.i] === '|') {
      this.i++;
      options.push(this.seq());
    }
    return options.length === 1 ? options[0] : { t: 'alt', options };
  }
  private seq(): Node {
    const items: Node[] = [];
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c === undefined || c === '|' || c === ')') break;
      let node: Node;
      if (c === '"') {
        this.i++;
        const cps: number[] = [];
        while (this.s[this.i] !== '"') cps.push(this.char());
        this.i++;
        node = { t: 'lit', cps };
      } else if (c === '[') {
        this.i++;
        const neg = this.s[this.i] === '^';
        if (neg) this.i++;
        const ranges: Array<[number, number]> = [];
        while (this.s[this.i] !== ']') {
          const a = this.char();
          if (this.s[this.i] === '-' && this.s[this.i + 1] !== ']') {
            this.i++;
            ranges.push([a, this.char()]);
          } else ranges.push([a, a]);
        }
        this.i++;
        node = { t: 'cls', neg, ranges };
      } else if (c === '(') {
        this.i++;
        node = this.alt();
        this.ws();
        if (this.s[this.i++] !== ')') throw new Error(`GBNF: expected ) at ${this.i}`);
      } else {
        const m = /^[a-zA-Z0-9-]+/.exec(this.s.slice(this.i));
        if (!m) throw new Error(`GBNF: unexpected "${this.s.slice(this.i, this.i + 20)}"`);
        this.i += m[0].length;
        node = { t: 'ref', name: m[0] };
      }
      for (;;) {
        const p = this.s[this.i];
        if (p === '?') node = { t: 'rep', node, min: 0, max: 1 };
        else if (p === '*') node = { t: 'rep', node, min: 0, max: Infinity };
        else if (p === '+') node = { t: 'rep', node, min: 1, max: Infinity };
        else if (p === '{') {
          const m = /^\{\s*(\d+)\s*(,\s*(\d*)\s*)?\}/.exec(this.s.slice(this.i))!;
          const min = Number(m[1]);
          const max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
          node = { t: 'rep', node, min, max };
          this.i += m[0].length - 1;
        } else break;
        this.i++;
      }
      items.push(node);
    }
    return items.length === 1 ? items[0] : { t: 'seq', items };
  }
}

export interface GbnfGrammar {
  rules: Map<string, Node>;
  /** Whether the whole of `text` is accepted from rule `root`. */
  accepts(text: string): boolean;
  /** A shortest text of the language (classes give their first character); what a model says when it says least. */
  shortest(): string;
}

function shortestOf(rules: Map<string, Node>): string {
  const best = new Map<string, string>();
  const of = (n: Node): string | undefined => {
    switch (n.t) {
      case 'lit':
        return String.fromCodePoint(...n.cps);
      case 'cls': {
        if (!n.neg) return String.fromCodePoint(n.ranges[0][0]);
        for (let c = 0x61; c < 0x7f; c++) if (!n.ranges.some(([a, b]) => c >= a && c <= b)) return String.fromCodePoint(c);
        return undefined;
      }
      case 'ref':
        return best.get(n.name);
      case 'seq': {
        let out = '';
        for (const i of n.items) {
          const v = of(i);
          if (v === undefined) return undefined;
          out += v;
        }
        return out;
      }
      case 'alt': {
        let pick: string | undefined;
        for (const o of n.options) {
          const v = of(o);
          if (v !== undefined && (pick === undefined || v.length < pick.length)) pick = v;
        }
        return pick;
      }
      case 'rep': {
        if (n.min === 0) return '';
        const v = of(n.node);
        return v === undefined ? undefined : v.repeat(n.min);
      }
    }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, node] of rules) {
      const v = of(node);
      if (v !== undefined && (best.get(name) === undefined || v.length < best.get(name)!.length)) {
        best.set(name, v);
        changed = true;
      }
    }
  }
  return best.get('root') ?? '';
}

export function parseGbnf(grammar: string): GbnfGrammar {
  const rules = new Map<string, Node>();
  const starts = [...grammar.matchAll(/^([a-zA-Z0-9-]+)\s*::=/gm)];
  for (const [k, m] of starts.entries()) {
    const end = k + 1 < starts.length ? starts[k + 1].index : grammar.length;
    const body = grammar.slice(m.index + m[0].length, end);
    const p = new Parser(body.trim());
    rules.set(m[1], p.alt());
  }
  if (!rules.has('root')) throw new Error('GBNF: no root rule');
  for (const node of rules.values()) checkRefs(node, rules);
  return {
    rules,
    shortest: () => shortestOf(rules),
    accepts(text) {
      const cps = Array.from(text, (c) => c.codePointAt(0)!);
      const memo = new Map<string, Set<number>>();
      const match = (node: Node, pos: number): Set<number> => {
        switch (node.t) {
          case 'lit': {
            for (let k = 0; k < node.cps.length; k++) if (cps[pos + k] !== node.cps[k]) return new Set();
            return new Set([pos + node.cps.length]);
          }
          case 'cls': {
            const c = cps[pos];
            if (c === undefined) return new Set();
            const inside = node.ranges.some(([a, b]) => c >= a && c <= b);
            return inside !== node.neg ? new Set([pos + 1]) : new Set();
          }
          case 'ref': {
            const key = `${node.name}@${pos}`;
            const known = memo.get(key);
            if (known) return known;
            memo.set(key, new Set());
            const out = match(rules.get(node.name)!, pos);
            memo.set(key, out);
            return out;
          }
          case 'seq': {
            let at = new Set([pos]);
            for (const item of node.items) {
              const next = new Set<number>();
              for (const p of at) for (const q of match(item, p)) next.add(q);
              at = next;
              if (at.size === 0) break;
            }
            return at;
          }
          case 'alt': {
            const out = new Set<number>();
            for (const o of node.options) for (const q of match(o, pos)) out.add(q);
            return out;
          }
          case 'rep': {
            const out = new Set<number>();
            let frontier = new Set([pos]);
            const seen = new Set<number>();
            for (let n = 0; frontier.size && n <= Math.min(node.max, cps.length + 1); n++) {
              if (n >= node.min) for (const p of frontier) out.add(p);
              if (n === node.max) break;
              const next = new Set<number>();
              for (const p of frontier) for (const q of match(node.node, p)) if (!(n >= node.min && seen.has(q))) next.add(q);
              if (n >= node.min) for (const p of frontier) seen.add(p);
              frontier = next;
            }
            return out;
          }
        }
      };
      return match({ t: 'ref', name: 'root' }, 0).has(cps.length);
    },
  };
}

function checkRefs(node: Node, rules: Map<string, Node>): void {
  if (node.t === 'ref' && !rules.has(node.name)) throw new Error(`GBNF: undefined rule ${node.name}`);
  if (node.t === 'seq') node.items.forEach((n) => checkRefs(n, rules));
  if (node.t === 'alt') node.options.forEach((n) => checkRefs(n, rules));
  if (node.t === 'rep') checkRefs(node.node, rules);
}
