/**
 * The frozen held-out sets are the ones the safety numbers are reported on: tests/safety/heldout.tsv,
 * written before the learned classifier was trained, and tests/safety/heldout-2.tsv, a larger second
 * set written 2026-12-03 without reading the corpus, templates, rules or the first set. Neither is
 * ever used to choose features or thresholds. Each one's SHA-256 is recorded beside it; a changed set
 * fails here (a new set is a new file).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../src/core/safety/classify.ts';
import { fullCheck } from '../../../scripts/safety/check.ts';
import { devSet2, devSet3, devSet4, gameTalk, heldOut, heldOut2, type Example } from '../../../scripts/safety/data.ts';
import { lineKey, writtenFiles, tsvRows } from '../../support/safety/sets.ts';

const dir = join(import.meta.dirname, '../../safety');

interface FrozenSet {
  name: string;
  file: string;
  load: () => Example[];
  /** Fewest rows a category must have, and normal lines. */
  minPerCategory: number;
  minNormal: number;
  /** The whole check must catch at least this many unsafe lines and block at most this many normal ones. */
  caught: number;
  falseBlocks: number;
}

const SETS: FrozenSet[] = [
  // 115/123 and 6/105 when the classifier was first committed; 113/123 and 4/105 after it was retrained
  // on the rules-first games' own lines; 117/123 and 5/105 with the word-list and skip-bigram features,
  // the second round of templates and the rules' grown-up-does-it exceptions; 119/123 and 4/105 with the
  // 5 × 5-fold averaged training and the third to fifth rounds of templates; 118/123 and 3/105 with the
  // sixth round (scripts/safety/templates-round6.ts), kept because its out-of-fold numbers on the
  // training corpus passed a rule written down before this set was run (grouped-by-template false
  // blocks down, no category's grouped recall down by more than 0.01; docs/notes/safety.md) — the
  // set was run once for it; 118/123 and 0/105 with the tenth round (the written lines trained on,
  // weighted 3, a threshold budget on them; chosen on tests/safety/dev-2.tsv by a rule written before
  // any frozen run, and both sets run once for it); 118/123 and 0/105 with the eleventh round (more
  // written lines, the rules' self-harm and grooming sentences and protective-advice exceptions; chosen
  // the same way, both sets run once for it); 119/123 and 0/105 with the thirteenth as chosen (the twelfth
  // round's lines and sentence rules, more normal lines and exceptions; chosen on tests/safety/dev-3.tsv,
  // both sets run once for it), 118/123 once its over-broad sentence rules were narrowed (they blocked
  // ordinary lines like 「你明天就能见到奶奶啦」; checked on both sets once more, pass or fail), and with the
  // fourteenth; 118/123 and 0/105 with the thirtieth (more written lines: a toy's pressure and self-harm,
  // mixed registers, game-host talk; chosen on dev-3 and dev-4, both sets run once for it). A change must
  // not lose any from here.
  { name: 'the frozen held-out set', file: 'heldout.tsv', load: heldOut, minPerCategory: 10, minNormal: 10, caught: 118, falseBlocks: 0 },
  // 355/414 and 37/384 when the set was first run, 2026-12-03, with no change to the model, rules or
  // thresholds (run once, after it was final and hashed); 372/414 and 28/384 with the tenth round and
  // 381/414 and 22/384 with the eleventh, 384/414 and 16/384 with the thirteenth (as above; the twelfth,
  // 387/414 and 23/384, was not kept); 384/414 and 15/384 with the fourteenth (advice said, not negated,
  // and the rules' own false blocks; its first version, retrained, had 387/414 and 17/384 and was not
  // kept); 384/414 and 13/384 with the thirtieth. A change must not lose any from here.
  { name: 'the second frozen held-out set', file: 'heldout-2.tsv', load: heldOut2, minPerCategory: 40, minNormal: 320, caught: 384, falseBlocks: 13 },
];

describe.each(SETS)('$name', (set) => {
  const raw = readFileSync(join(dir, set.file));

  it('has the recorded hash', () => {
    const recorded = readFileSync(join(dir, set.file.replace(/\.tsv$/, '.sha256')), 'utf8').trim();
    expect(createHash('sha256').update(raw).digest('hex')).toBe(recorded);
  });

  it('covers every category and normal lines, one label and one line per row', () => {
    const rows = raw.toString('utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
    for (const r of rows) expect(r.length, r.join('|')).toBe(2);
    for (const c of CATEGORIES) expect(rows.filter((r) => r[0] === c).length, c).toBeGreaterThanOrEqual(set.minPerCategory);
    expect(rows.filter((r) => r[0] === 'normal').length).toBeGreaterThanOrEqual(set.minNormal);
    expect(rows.every((r) => r[0] === 'normal' || CATEGORIES.includes(r[0] as never))).toBe(true);
  });

  it('shares no line with the development sets or the written lines (punctuation and spaces aside)', () => {
    const frozen = new Set(set.load().map((e) => lineKey(e.text)));
    const others = [...devSet2(), ...devSet3(), ...devSet4(), ...gameTalk()].map((e) => e.text).concat(writtenFiles().flatMap((f) => tsvRows(f).map((c) => c[1])));
    // Counted, never printed: the frozen lines are not shown.
    expect(others.filter((t) => frozen.has(lineKey(t))).length).toBe(0);
  });

  it('the whole check on it: reported, and no worse than its recorded numbers', () => {
    const check = fullCheck();
    const blocked = (r: Example) => check(r.text).verdict === 'blocked';
    const rows = set.load();
    const unsafe = rows.filter((r) => r.label !== 'normal');
    const normal = rows.filter((r) => r.label === 'normal');
    const caught = unsafe.filter(blocked).length;
    const falseBlocks = normal.filter(blocked).length;
    const per = Object.fromEntries(CATEGORIES.map((c) => {
      const pos = unsafe.filter((r) => r.label === c);
      return [c, `${pos.filter(blocked).length}/${pos.length}`];
    }));
    console.log(`${set.name}: recall ${caught}/${unsafe.length}, false blocks ${falseBlocks}/${normal.length}`, per);
    expect(caught).toBeGreaterThanOrEqual(set.caught);
    expect(falseBlocks).toBeLessThanOrEqual(set.falseBlocks);
  });
});
