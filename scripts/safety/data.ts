/**
 * The safety corpus as the training script and the report read it: hand-written unsafe and normal
 * lines (tests/unit/safety/corpus/), the generated lines (tests/safety/corpus/generated.tsv, from
 * ./corpus-gen.ts), written free sentences (tests/safety/corpus/written/), every line the project ships (./shipped.ts), a development set for choosing between versions
 * (tests/safety/dev-2.tsv; a third and a fourth, tests/safety/dev-3.tsv and dev-4.tsv, reported by category only; never trained on), game talk (tests/safety/game-talk.tsv, normal lines of a robot hosting games; never trained on), and the two frozen held-out sets (tests/safety/heldout.tsv,
 * heldout-2.tsv), which are never used for training or for choosing thresholds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES, type SafetyCategory } from '../../src/core/safety/classify.ts';
import { shippedLines } from './shipped.ts';

export type Label = SafetyCategory | 'normal';

export interface Example {
  label: Label;
  text: string;
  source: string;
}

const root = join(import.meta.dirname, '../..');

function rows(file: string): string[] {
  return readFileSync(join(root, file), 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() && !l.startsWith('#'));
}

function label(s: string, where: string): Label {
  if (s !== 'normal' && !CATEGORIES.includes(s as SafetyCategory)) throw new Error(`unknown label ${s} in ${where}`);
  return s as Label;
}

/** The lines the model is trained and validated on. */
export function corpus(): Example[] {
  const out: Example[] = [];
  for (const l of rows('tests/unit/safety/corpus/unsafe.txt')) {
    const [cat, , ...rest] = l.split(' ');
    out.push({ label: label(cat, 'unsafe.txt'), text: rest.join(' '), source: 'hand' });
  }
  for (const l of rows('tests/unit/safety/corpus/normal.txt')) {
    const [, ...rest] = l.trim().split(' ');
    out.push({ label: 'normal', text: rest.join(' '), source: 'hand' });
  }
  for (const l of rows('tests/safety/corpus/generated.tsv')) {
    const [lab, , text] = l.split('\t');
    out.push({ label: label(lab, 'generated.tsv'), text, source: 'generated' });
  }
  for (const s of shippedLines()) out.push({ label: 'normal', text: s.text, source: 'shipped' });
  out.push(...writtenLines());
  return out;
}

/**
 * Free sentences written by hand for the corpus (tests/safety/corpus/written/*.tsv): unsafe lines of
 * every category and normal lines near each one, fewer and harder than the templates' lines.
 */
export function writtenLines(): Example[] {
  const dir = 'tests/safety/corpus/written';
  return readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.tsv'))
    .sort()
    .flatMap((f) => labelledRows(`${dir}/${f}`, 'written'));
}

/** `<label>\t<text>` rows under `#` comment lines. */
function labelledRows(file: string, source: string): Example[] {
  const name = file.split('/').pop() ?? file;
  return rows(file).map((l) => {
    const [lab, text] = l.split('\t');
    return { label: label(lab, name), text, source };
  });
}

/**
 * The development set for choosing between versions of the check (features, training, thresholds):
 * 48–50 lines a category and 432 normal, written 2026-12-03 apart from the corpus; never trained on.
 */
export function devSet2(): Example[] {
  return labelledRows('tests/safety/dev-2.tsv', 'dev-2');
}

/**
 * The third development set (tests/safety/dev-3.tsv): 49–50 lines a category and 433 normal, written
 * 2026-12-06 by writers who read nothing of the project's lines; for choosing, never trained on, and
 * reported by category only (its lines are never printed, so that nothing is written against them).
 */
export function devSet3(): Example[] {
  return labelledRows('tests/safety/dev-3.tsv', 'dev-3');
}

/**
 * The fourth development set (tests/safety/dev-4.tsv): 80 lines a category and about 720 normal, written
 * 2026-12-07 by writers who read nothing of the project's lines; with dev-3, for choosing (a choice
 * rests on more lines than either set alone holds); never trained on, reported by category only.
 */
export function devSet4(): Example[] {
  return labelledRows('tests/safety/dev-4.tsv', 'dev-4');
}

/**
 * Game talk (tests/safety/game-talk.tsv): normal lines only, of a robot hosting games (drawing, guessing, quizzes,
 * 我说你做, word chains, scores, wrong answers), written 2026-12-07 by a writer who read nothing of the project; the
 * robot's commonest kind of line, so its false blocks are reported on their own. Never trained on.
 */
export function gameTalk(): Example[] {
  return labelledRows('tests/safety/game-talk.tsv', 'game-talk');
}

/** The frozen held-out set (tests/safety/heldout.tsv). */
export function heldOut(): Example[] {
  return labelledRows('tests/safety/heldout.tsv', 'heldout');
}

/**
 * The second frozen held-out set (tests/safety/heldout-2.tsv): larger (≥ 40 lines a category, ≥ 320
 * normal), written 2026-12-03 without reading the corpus, templates, rules or the first set.
 */
export function heldOut2(): Example[] {
  return labelledRows('tests/safety/heldout-2.tsv', 'heldout-2');
}

/**
 * Development lines for the thresholds: the earlier held-out lines and hand-written normal lines
 * (tests/safety/dev-normal.txt), never trained on.
 */
export function devLines(): Example[] {
  const normal = rows('tests/safety/dev-normal.txt').map((text) => ({ label: 'normal' as Label, text: text.trim(), source: 'dev' }));
  return [...earlierHeldOut(), ...normal];
}

/** The earlier held-out lines, written against the rules alone (tests/unit/safety/corpus/heldout-*.txt); not trained on either. */
export function earlierHeldOut(): Example[] {
  const out: Example[] = [];
  for (const l of rows('tests/unit/safety/corpus/heldout-unsafe.txt')) {
    const [cat, , ...rest] = l.split(' ');
    out.push({ label: label(cat, 'heldout-unsafe.txt'), text: rest.join(' '), source: 'heldout-rules' });
  }
  for (const l of rows('tests/unit/safety/corpus/heldout-normal.txt')) {
    const [, ...rest] = l.trim().split(' ');
    out.push({ label: 'normal', text: rest.join(' '), source: 'heldout-rules' });
  }
  return out;
}
