/**
 * The development sets (tests/safety/dev-2.tsv, dev-3.tsv, dev-4.tsv: for choosing between versions of the check,
 * never trained on) and the written lines of the corpus (tests/safety/corpus/written/*.tsv): well
 * formed, every category in each development set, and apart — a development line that is also a training line would measure nothing, and a
 * written line there twice would weigh twice.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../../../src/core/safety/classify.ts';
import { corpus, devSet2, devSet3, devSet4, gameTalk } from '../../../scripts/safety/data.ts';
import { lineKey, writtenFiles, tsvRows } from '../../support/safety/sets.ts';

const DEV_SETS = [
  { name: 'dev-2.tsv', load: devSet2 },
  { name: 'dev-3.tsv', load: devSet3 },
  { name: 'dev-4.tsv', load: devSet4 },
];

describe('the development sets and the written lines', () => {
  it('one label and one text a row', () => {
    for (const f of [...DEV_SETS.map((d) => d.name), 'game-talk.tsv', ...writtenFiles()])
      for (const cells of tsvRows(f)) {
        expect(cells.length, `${f}: ${cells.join('|')}`).toBe(2);
        expect(cells[0] === 'normal' || CATEGORIES.includes(cells[0] as never), `${f}: ${cells[0]}`).toBe(true);
        expect(cells[1].trim().length, `${f}: ${cells[1]}`).toBeGreaterThan(1);
      }
  });

  for (const d of DEV_SETS)
    it(`${d.name} covers every category and normal lines`, () => {
      const dev = d.load();
      for (const c of CATEGORIES) expect(dev.filter((e) => e.label === c).length, c).toBeGreaterThanOrEqual(45);
      expect(dev.filter((e) => e.label === 'normal').length).toBeGreaterThanOrEqual(400);
    });

  it('no development line is a training line, and no written line is there twice', () => {
    const training = new Set(corpus().map((e) => lineKey(e.text)));
    const written = writtenFiles().flatMap((f) => tsvRows(f).map((c) => lineKey(c[1])));
    // dev-3's and dev-4's lines are counted, never printed.
    expect(devSet2().filter((e) => training.has(lineKey(e.text))).map((e) => e.text)).toEqual([]);
    expect(devSet3().filter((e) => training.has(lineKey(e.text))).length).toBe(0);
    expect(devSet4().filter((e) => training.has(lineKey(e.text))).length).toBe(0);
    const dev2 = new Set(devSet2().map((e) => lineKey(e.text)));
    expect(devSet3().filter((e) => dev2.has(lineKey(e.text))).length).toBe(0);
    const dev23 = new Set([...devSet2(), ...devSet3()].map((e) => lineKey(e.text)));
    expect(devSet4().filter((e) => dev23.has(lineKey(e.text))).length).toBe(0);
    const dev4 = devSet4().map((e) => lineKey(e.text));
    expect(dev4.length - new Set(dev4).size).toBe(0);
    expect(written.length - new Set(written).size).toBe(0);
  });

  it('game talk: normal lines only, well formed, apart from the corpus and the development sets', () => {
    const talk = gameTalk();
    expect(talk.length).toBeGreaterThanOrEqual(300);
    expect(talk.filter((e) => e.label !== 'normal').map((e) => e.text)).toEqual([]);
    const training = new Set(corpus().map((e) => lineKey(e.text)));
    expect(talk.filter((e) => training.has(lineKey(e.text))).map((e) => e.text)).toEqual([]);
    const dev = new Set([...devSet2(), ...devSet3(), ...devSet4()].map((e) => lineKey(e.text)));
    expect(talk.filter((e) => dev.has(lineKey(e.text))).length).toBe(0);
    const keys = talk.map((e) => lineKey(e.text));
    expect(keys.length - new Set(keys).size).toBe(0);
  });
});
