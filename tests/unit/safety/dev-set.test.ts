/**
 * The development set (tests/safety/dev-2.tsv: for choosing between versions of the check, never
 * trained on) and the ninth round's written lines (tests/safety/corpus/round9/*.tsv: kept, not trained
 * on): well formed, every category in the development set, and apart — a development line that is also
 * a training line would measure nothing.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../src/core/safety/classify.ts';
import { corpus, devSet2 } from '../../../scripts/safety/data.ts';
import { lineKey, round9Files, tsvRows } from '../../support/safety/sets.ts';

describe('the development set and the ninth round\'s lines', () => {
  it('one label and one text a row', () => {
    for (const f of ['dev-2.tsv', ...round9Files()])
      for (const cells of tsvRows(f)) {
        expect(cells.length, `${f}: ${cells.join('|')}`).toBe(2);
        expect(cells[0] === 'normal' || CATEGORIES.includes(cells[0] as never), `${f}: ${cells[0]}`).toBe(true);
        expect(cells[1].trim().length, `${f}: ${cells[1]}`).toBeGreaterThan(1);
      }
  });

  it('the development set covers every category and normal lines', () => {
    const dev = devSet2();
    for (const c of CATEGORIES) expect(dev.filter((e) => e.label === c).length, c).toBeGreaterThanOrEqual(45);
    expect(dev.filter((e) => e.label === 'normal').length).toBeGreaterThanOrEqual(400);
  });

  it('no development line is a training line or a ninth-round line, and no ninth-round line is there twice', () => {
    const training = new Set(corpus().map((e) => lineKey(e.text)));
    const round9 = round9Files().flatMap((f) => tsvRows(f).map((c) => lineKey(c[1])));
    const r9 = new Set(round9);
    expect(devSet2().filter((e) => training.has(lineKey(e.text)) || r9.has(lineKey(e.text))).map((e) => e.text)).toEqual([]);
    expect(round9.length - r9.size).toBe(0);
  });
});
