/**
 * Compares two out-of-fold dumps of `npm run safety:train -- --new-phrasing --dump FILE` like for like:
 * `npx tsx scripts/safety/compare-oof.ts BEFORE.json AFTER.json` prints, on the lines both corpora hold
 * (label and text), each category's random-fold and grouped recall and the false blocks, before → after,
 * and the same over all of AFTER's lines. Reads only the dumps (never a frozen held-out set).
 */
import { readFileSync } from 'node:fs';
import { CATEGORIES } from '../../src/core/safety/classify.ts';

interface Row {
  label: string;
  source: string;
  text: string;
  group: string | null;
  random: boolean | null;
  grouped: boolean | null;
}

const load = (f: string): Row[] => JSON.parse(readFileSync(f, 'utf8')) as Row[];

function stats(rows: Row[], key: 'random' | 'grouped'): { per: Record<string, [number, number]>; fb: [number, number]; macro: number } {
  const scored = rows.filter((r) => r[key] !== null);
  const per: Record<string, [number, number]> = {};
  for (const c of CATEGORIES) {
    const pos = scored.filter((r) => r.label === c);
    per[c] = [pos.filter((r) => r[key]).length, pos.length];
  }
  const normal = scored.filter((r) => r.label === 'normal');
  const macro = CATEGORIES.reduce((s, c) => s + per[c][0] / per[c][1], 0) / CATEGORIES.length;
  return { per, fb: [normal.filter((r) => r[key]).length, normal.length], macro };
}

const fmt = ([a, b]: [number, number]) => `${a}/${b} = ${(a / b).toFixed(3)}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforeFile, afterFile] = process.argv.slice(2);
  const before = load(beforeFile);
  const after = load(afterFile);
  const keys = new Set(before.map((r) => `${r.label}\t${r.text}`));
  const shared = after.filter((r) => keys.has(`${r.label}\t${r.text}`));
  console.log(`before ${before.length} lines, after ${after.length}, shared ${shared.length}`);
  for (const key of ['random', 'grouped'] as const) {
    const b = stats(before, key);
    const a = stats(shared, key);
    const w = stats(after, key);
    console.log(`${key}: category  before → after on the shared lines  |  after, all lines`);
    for (const c of CATEGORIES) console.log(`  ${c.padEnd(14)} ${fmt(b.per[c])} → ${fmt(a.per[c])}  (${(a.per[c][0] / a.per[c][1] - b.per[c][0] / b.per[c][1]).toFixed(3)})  |  ${fmt(w.per[c])}`);
    console.log(`  macro recall   ${b.macro.toFixed(4)} → ${a.macro.toFixed(4)}  |  ${w.macro.toFixed(4)}`);
    console.log(`  false blocks   ${fmt(b.fb)} → ${fmt(a.fb)}  |  ${fmt(w.fb)}`);
  }
}
