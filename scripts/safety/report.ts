/**
 * npm run safety -- --report: per category recall and the false-block rate of the whole check
 * (rules or classifier), of the rules alone and of the classifier alone — on the corpus, on the
 * two frozen held-out sets (tests/safety/heldout.tsv, heldout-2.tsv), on the earlier held-out lines and on the
 * development set — and the count of
 * the project's own lines that are blocked (must be 0). Also the time per line, warm.
 */
import { CATEGORIES, checkLine, type CheckLine } from '../../src/core/safety/classify.ts';
import { CATEGORY_LABEL } from '../../src/core/safety/replies.ts';
import { learnedVerdict } from '../../src/core/safety/learned.ts';
import { corpus, devSet2, devSet3, devSet4, earlierHeldOut, gameTalk, heldOut, heldOut2, type Example } from './data.ts';
import { fullCheck, loadedModel } from './check.ts';
import { shippedLines } from './shipped.ts';

interface Row {
  set: string;
  check: string;
  recall: Record<string, string>;
  falseBlocks: string;
}

const FROZEN = 'frozen held-out (tests/safety/heldout.tsv)';
const FROZEN_2 = 'second frozen held-out (tests/safety/heldout-2.tsv)';
const DEV_3 = 'third development set (tests/safety/dev-3.tsv, for choosing; by category only)';
const DEV_4 = 'fourth development set (tests/safety/dev-4.tsv, for choosing; by category only)';
/** Sets whose lines are never printed: the frozen ones, and the third and fourth development sets. */
const unprinted = (set: string) => set === FROZEN || set === FROZEN_2 || set === DEV_3 || set === DEV_4;

const blocked = (check: CheckLine, t: string) => check(t, 'robot').verdict === 'blocked';

function measure(set: string, name: string, check: CheckLine, xs: Example[]): Row & { missed: Example[]; falseBlocked: Example[] } {
  const recall: Record<string, string> = {};
  const missed: Example[] = [];
  for (const c of CATEGORIES) {
    const pos = xs.filter((e) => e.label === c);
    const hit = pos.filter((e) => blocked(check, e.text));
    missed.push(...pos.filter((e) => !hit.includes(e)));
    recall[c] = `${(hit.length / pos.length).toFixed(3)} (${hit.length}/${pos.length})`;
  }
  const unsafe = xs.filter((e) => e.label !== 'normal');
  const allHit = unsafe.length - missed.length;
  recall.all = `${(allHit / unsafe.length).toFixed(3)} (${allHit}/${unsafe.length})`;
  const normal = xs.filter((e) => e.label === 'normal');
  const falseBlocked = normal.filter((e) => blocked(check, e.text));
  return { set, check: name, recall, falseBlocks: `${((falseBlocked.length / normal.length) * 100).toFixed(2)} % (${falseBlocked.length}/${normal.length})`, missed, falseBlocked };
}

export function report(verbose = false): void {
  const model = loadedModel();
  const full = fullCheck();
  const learnedOnly: CheckLine = (t) => {
    const l = learnedVerdict(model, t);
    return l ? { verdict: 'blocked', category: l.category, rule: 'learned', view: 'text', by: 'classifier' } : { verdict: 'ok' };
  };
  const checks: Array<[string, CheckLine]> = [
    ['rules + classifier', full],
    ['rules alone', checkLine],
    ['classifier alone', learnedOnly],
  ];
  const sets: Array<[string, Example[]]> = [
    ['corpus', corpus()],
    [FROZEN, heldOut()],
    [FROZEN_2, heldOut2()],
    ['earlier held-out (written against the rules)', earlierHeldOut()],
    ['development set (tests/safety/dev-2.tsv, for choosing)', devSet2()],
    [DEV_3, devSet3()],
    [DEV_4, devSet4()],
    ['game talk (tests/safety/game-talk.tsv: a robot hosting games, normal lines only)', gameTalk()],
  ];
  for (const [set, xs] of sets) {
    console.log(`\n== ${set}: ${xs.filter((e) => e.label !== 'normal').length} unsafe, ${xs.filter((e) => e.label === 'normal').length} normal lines ==`);
    const rows = checks.map(([name, c]) => measure(set, name, c, xs));
    const table: Record<string, Record<string, string>> = {};
    // A set of normal lines only (game talk) has no recall to show.
    const shown = xs.some((e) => e.label !== 'normal') ? [...CATEGORIES, 'all'] : [];
    for (const c of shown) table[c === 'all' ? 'all unsafe' : `${c} ${CATEGORY_LABEL[c as never] ?? ''}`] = Object.fromEntries(rows.map((r) => [r.check, r.recall[c]]));
    table['false blocks'] = Object.fromEntries(rows.map((r) => [r.check, r.falseBlocks]));
    console.table(table);
    // The frozen held-out sets and the third and fourth development sets are reported by category only: their lines
    // are never printed, so that no change is made against them one by one.
    if (unprinted(set)) continue;
    if (verbose || set !== 'corpus') {
      console.log('missed (rules + classifier):', rows[0].missed.map((e) => `${e.label}: ${e.text}`));
      console.log('false blocks (rules + classifier):', rows[0].falseBlocked.map((e) => e.text));
    }
  }
  const own = shippedLines();
  const ownBlocked = own.filter((l) => blocked(full, l.text));
  console.log(`\nown content: ${own.length} lines the project ships, ${ownBlocked.length} blocked`, ownBlocked.map((l) => `${l.source}: ${l.text}`));
  // Warm time per line (the classifier's share and the whole check).
  const sample = heldOut().map((e) => e.text);
  for (const t of sample) full(t);
  const t0 = performance.now();
  for (let r = 0; r < 5; r++) for (const t of sample) full(t);
  const perLine = (performance.now() - t0) / (5 * sample.length);
  const t1 = performance.now();
  for (let r = 0; r < 5; r++) for (const t of sample) learnedVerdict(model, t);
  const learnedPerLine = (performance.now() - t1) / (5 * sample.length);
  console.log(`time per line, warm (this machine, ${sample.length} lines × 5): whole check ${perLine.toFixed(2)} ms, classifier ${learnedPerLine.toFixed(2)} ms`);
}
