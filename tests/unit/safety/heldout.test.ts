/**
 * The frozen held-out set (tests/safety/heldout.tsv) is the one the safety numbers are reported on:
 * it was written before the learned classifier was trained and is never used to choose features or
 * thresholds. Its SHA-256 is recorded beside it; a changed set fails here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../src/core/safety/classify.ts';
import { fullCheck } from '../../../scripts/safety/check.ts';
import { heldOut } from '../../../scripts/safety/data.ts';

const dir = join(import.meta.dirname, '../../safety');

describe('the frozen held-out set', () => {
  const raw = readFileSync(join(dir, 'heldout.tsv'));

  it('has the recorded hash', () => {
    expect(createHash('sha256').update(raw).digest('hex')).toBe(readFileSync(join(dir, 'heldout.sha256'), 'utf8').trim());
  });

  it('covers every category and normal lines, one label and one line per row', () => {
    const rows = raw.toString('utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
    for (const r of rows) expect(r.length, r.join('|')).toBe(2);
    for (const c of [...CATEGORIES, 'normal']) expect(rows.filter((r) => r[0] === c).length, c).toBeGreaterThanOrEqual(10);
    expect(rows.every((r) => r[0] === 'normal' || CATEGORIES.includes(r[0] as never))).toBe(true);
  });

  it('the whole check on it: reported, and no worse than when the classifier was first committed', () => {
    const check = fullCheck();
    const rows = heldOut();
    const unsafe = rows.filter((r) => r.label !== 'normal');
    const normal = rows.filter((r) => r.label === 'normal');
    const caught = unsafe.filter((r) => check(r.text).verdict === 'blocked').length;
    const falseBlocks = normal.filter((r) => check(r.text).verdict === 'blocked').length;
    const per = Object.fromEntries(CATEGORIES.map((c) => [c, `${unsafe.filter((r) => r.label === c && check(r.text).verdict === 'blocked').length}/${unsafe.filter((r) => r.label === c).length}`]));
    console.log(`frozen held-out: recall ${caught}/${unsafe.length}, false blocks ${falseBlocks}/${normal.length}`, per);
    // 115/123 and 6/105 when the classifier was first committed; 113/123 and 4/105 after it was retrained
    // on the rules-first games' own lines; 117/123 and 5/105 with the word-list and skip-bigram features,
    // the second round of templates and the rules' grown-up-does-it exceptions; 119/123 and 4/105 with the
    // 5 × 5-fold averaged training and the third to fifth rounds of templates; 118/123 and 3/105 with the
    // sixth round (scripts/safety/templates-round6.ts), kept because its out-of-fold numbers on the
    // training corpus passed a rule written down before this set was run (grouped-by-template false
    // blocks down, no category's grouped recall down by more than 0.01; docs/notes/safety.md) — the
    // set was run once for it, and these are its numbers. A change must not lose any from here.
    expect(caught).toBeGreaterThanOrEqual(118);
    expect(falseBlocks).toBeLessThanOrEqual(3);
  });
});
