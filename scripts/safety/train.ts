/**
 * npm run safety:train — trains the learned half of the child-safety check (src/core/safety/learned.ts)
 * on the corpus (./data.ts) and writes its weights to src/arcade/safety-model.json.
 *
 * Seeded and reproducible: the same corpus gives the same file. The corpus (every line but the
 * shipped ones, which always train) is cut into `FOLDS` folds stratified by label, `REPEATS` times
 * over; one logistic scorer per category is trained on each set of the other folds with stochastic
 * gradient descent (L2, positives weighted up, its own seeded order). The asset is the average of
 * all those models — one linear model, since averaging their weights averages their scores — with
 * its weights quantised to int8: it varies far less with the seed than one model on one split.
 * Each category's threshold is chosen on the out-of-fold scores (every corpus line scored by the
 * models that did not train on it): the lowest that blocks at most `FALSE_BLOCK_BUDGET` of the
 * corpus's normal lines, and above every line the project ships and every hand-written development
 * line (./data.ts devLines). `--new-phrasing` also prints out-of-fold numbers with folds grouped by
 * template (all the lines drawn from one template of ./templates.ts in one fold: phrasings the
 * scoring models never saw; a group's fold from a hash of its name, so that a corpus grown by new
 * templates keeps the folds of the lines it had). The frozen held-out set is not read here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES } from '../../src/core/safety/classify.ts';
import { featuresOf, loadModel, scoresOf, type LearnedModel } from '../../src/core/safety/learned.ts';
import { seededRandom } from '../../src/core/random.ts';
import { corpus, devLines, type Example } from './data.ts';
import { generateCorpus } from './corpus-gen.ts';

export const MODEL_FILE = join(import.meta.dirname, '../../src/arcade/safety-model.json');
const DIM = 1 << 14;
const EPOCHS = 12;
const L2 = 1e-4;
const POSITIVE_WEIGHT = 1.5;
const FOLDS = 5;
/** The k-fold training is repeated with other folds and orders; the asset averages all of them. */
const REPEATS = 5;
/** The new-phrasing estimate's repeats (same folds, other orders): one alone moves a category by a few points. */
const GROUPED_REPEATS = 3;
/** Quantised weights this small (of ±127) are set to zero. */
const PRUNE = 3;
/** Per category, on the out-of-fold scores of the corpus's normal lines. */
const FALSE_BLOCK_BUDGET = 0.002;
const THRESHOLD_RANGE: [number, number] = [0.2, 0.95];

function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** An 80/20 split by label (seeded); the shipped lines always train. */
export function split(all: Example[], rand: () => number): { train: Example[]; valid: Example[] } {
  const train: Example[] = [];
  const valid: Example[] = [];
  for (const lab of ['normal', ...CATEGORIES]) {
    // The shipped lines always train (they must pass); everything else is split.
    const group = shuffle(all.filter((e) => e.label === lab && e.source !== 'shipped'), rand);
    const cut = Math.round(group.length * 0.8);
    train.push(...group.slice(0, cut));
    valid.push(...group.slice(cut));
  }
  train.push(...all.filter((e) => e.source === 'shipped'));
  return { train: shuffle(train, rand), valid };
}

/** The template a generated line was drawn from (a hand-written line is a group of its own). */
function templateGroups(): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of generateCorpus()) if (!out.has(l.text)) out.set(l.text, `t${l.template}`);
  return out;
}

/**
 * Cuts the corpus (the shipped lines apart) into k folds: per label, whole template groups, largest
 * first in a seeded order, each to the fold with the fewest lines of that label so far.
 */
export function folds(all: Example[], k: number, rand: () => number, groupOf: (e: Example, i: number) => string): number[] {
  const fold = all.map(() => -1);
  for (const lab of ['normal', ...CATEGORIES]) {
    const groups = new Map<string, number[]>();
    all.forEach((e, i) => {
      if (e.label !== lab || e.source === 'shipped') return;
      const g = groupOf(e, i);
      groups.set(g, [...(groups.get(g) ?? []), i]);
    });
    const order = shuffle([...groups.values()], rand).sort((a, b) => b.length - a.length);
    const size = new Array<number>(k).fill(0);
    for (const members of order) {
      const f = size.indexOf(Math.min(...size));
      for (const i of members) fold[i] = f;
      size[f] += members.length;
    }
  }
  return fold;
}

/**
 * Folds that do not move when other groups are added: each group's fold from a hash of its name, so
 * that the new-phrasing estimate of two corpora, one grown from the other, scores the lines they share
 * with the same folds (the balanced folds above reshuffle every group when one is added).
 */
export function stableFolds(all: Example[], k: number, groupOf: (e: Example, i: number) => string): number[] {
  return all.map((e, i) => {
    if (e.source === 'shipped') return -1;
    let h = 2166136261;
    for (const ch of `${e.label}:${groupOf(e, i)}`) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
    return h % k;
  });
}

export interface TrainOptions {
  epochs?: number;
  l2?: number;
  positiveWeight?: number;
}

interface Weights {
  w: Float64Array;
  bias: Float64Array;
}

type Featured = { f: number[]; y: number };

function featured(examples: Example[]): Featured[] {
  return examples.map((e) => ({ f: featuresOf(e.text, DIM), y: CATEGORIES.indexOf(e.label as never) }));
}

/** One logistic scorer per category, seeded SGD (float weights). */
function trainWeights(data: Featured[], rand: () => number, opts: TrainOptions = {}): Weights {
  const epochs = opts.epochs ?? EPOCHS;
  const l2 = opts.l2 ?? L2;
  const positiveWeight = opts.positiveWeight ?? POSITIVE_WEIGHT;
  const K = CATEGORIES.length;
  const w = new Float64Array(K * DIM);
  const bias = new Float64Array(K).fill(-3);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const lr = 0.2 / (1 + epoch * 0.5);
    for (const { f, y } of shuffle(data, rand)) {
      for (let k = 0; k < K; k++) {
        const base = k * DIM;
        let z = bias[k];
        for (const i of f) z += w[base + i];
        const p = 1 / (1 + Math.exp(-z));
        const pos = y === k;
        const g = (p - (pos ? 1 : 0)) * (pos ? positiveWeight : 1);
        if (Math.abs(g) < 1e-4) continue;
        bias[k] -= lr * g * 0.1;
        for (const i of f) w[base + i] -= lr * (g + l2 * w[base + i]);
      }
    }
  }
  return { w, bias };
}

/** int8 weights with a scale per category; the smallest dropped (they change no verdict and keep the asset small). */
function quantise({ w, bias }: Weights): LearnedModel {
  const K = CATEGORIES.length;
  const q = new Int8Array(K * DIM);
  const scale: number[] = [];
  for (let k = 0; k < K; k++) {
    let max = 0;
    for (let i = 0; i < DIM; i++) max = Math.max(max, Math.abs(w[k * DIM + i]));
    const s = max / 127 || 1;
    scale.push(Number(s.toPrecision(6)));
    for (let i = 0; i < DIM; i++) {
      const v = Math.round(w[k * DIM + i] / s);
      q[k * DIM + i] = Math.abs(v) <= PRUNE ? 0 : v;
    }
  }
  return {
    version: 1,
    dim: DIM,
    categories: [...CATEGORIES],
    bias: [...bias].map((b) => Number(b.toPrecision(6))),
    scale,
    threshold: CATEGORIES.map(() => 0.5),
    weights: Buffer.from(q.buffer).toString('base64'),
  };
}

/** One model trained on these lines (thresholds 0.5 until chosen). */
export function train(examples: Example[], rand: () => number, opts: TrainOptions = {}): LearnedModel {
  return quantise(trainWeights(featured(examples), rand, opts));
}

function average(ms: Weights[]): Weights {
  const w = new Float64Array(ms[0].w.length);
  const bias = new Float64Array(ms[0].bias.length);
  for (const m of ms) {
    for (let i = 0; i < w.length; i++) w[i] += m.w[i] / ms.length;
    for (let k = 0; k < bias.length; k++) bias[k] += m.bias[k] / ms.length;
  }
  return { w, bias };
}

function floatScores({ w, bias }: Weights, f: number[]): number[] {
  return CATEGORIES.map((_, k) => {
    let z = bias[k];
    for (const i of f) z += w[k * DIM + i];
    return 1 / (1 + Math.exp(-z));
  });
}

export interface CrossValidated {
  model: LearnedModel;
  /** Per corpus line (shipped ones: null), its category scores from the fold model that did not see its template. */
  outOfFold: Array<number[] | null>;
}

/**
 * k models on k folds, `repeats` times over (each time other folds and another order), their
 * average, and the out-of-fold scores (averaged over the repeats).
 */
export function crossValidate(all: Example[], rand: () => number, k = FOLDS, groupOf: (e: Example, i: number) => string = (_, i) => `h${i}`, opts: TrainOptions = {}, repeats = 1, stable = false): CrossValidated {
  const data = featured(all);
  const outOfFold: Array<number[] | null> = all.map(() => null);
  const models: Weights[] = [];
  for (let r = 0; r < repeats; r++) {
    const fold = stable ? stableFolds(all, k, groupOf) : folds(all, k, rand, groupOf);
    for (let f = 0; f < k; f++) {
      const m = trainWeights(data.filter((_, i) => fold[i] !== f), seededRandom(Math.floor(rand() * 2 ** 32)), opts);
      models.push(m);
      data.forEach((d, i) => {
        if (fold[i] !== f) return;
        const s = floatScores(m, d.f).map((v) => v / repeats);
        outOfFold[i] = outOfFold[i] ? outOfFold[i]!.map((v, c) => v + s[c]) : s;
      });
    }
  }
  return { model: quantise(average(models)), outOfFold };
}

/**
 * Each category's threshold: the lowest that blocks at most the budget of the out-of-fold normal
 * scores (floor `floor`), and above every shipped line and hand-written development normal line.
 */
export function chooseThresholds(model: LearnedModel, normalScores: number[][], shipped: Example[], dev: Example[] = [], floor = THRESHOLD_RANGE[0], budget = FALSE_BLOCK_BUDGET): LearnedModel {
  const m = loadModel(model);
  // The shipped lines must pass (with a margin); the hand-written development lines too (unlike the generated ones, they are not templates).
  const own = [...shipped.map((e) => scoresOf(m, e.text)), ...dev.filter((e) => e.label === 'normal').map((e) => scoresOf(m, e.text))];
  const threshold = CATEGORIES.map((c, k) => {
    const s = normalScores.map((x) => x[k]).sort((a, b) => b - a);
    const allowed = Math.floor(s.length * budget);
    // Just above the (allowed + 1)-th highest normal score.
    const t = (s[allowed] ?? 0) + 1e-3;
    const ownMax = Math.max(0, ...own.map((x) => x[c])) + 0.02;
    return Number(Math.min(THRESHOLD_RANGE[1], Math.max(floor, t, ownMax)).toFixed(3));
  });
  return { ...model, threshold };
}

/** Out-of-fold recall per category and false blocks, with the chosen thresholds. */
export function outOfFoldReport(all: Example[], cv: CrossValidated, threshold: number[]): string[] {
  const over = (s: number[]) => s.some((v, k) => v >= threshold[k]);
  const lines: string[] = [];
  for (const [k, c] of CATEGORIES.entries()) {
    const pos = all.map((e, i) => [e, cv.outOfFold[i]] as const).filter(([e, s]) => e.label === c && s);
    lines.push(`${c.padEnd(14)} threshold ${threshold[k]}  out-of-fold recall ${pos.filter(([, s]) => over(s!)).length}/${pos.length}`);
  }
  const normal = all.map((e, i) => [e, cv.outOfFold[i]] as const).filter(([e, s]) => e.label === 'normal' && s);
  lines.push(`out-of-fold false blocks ${normal.filter(([, s]) => over(s!)).length}/${normal.length}`);
  return lines;
}

/** `--seed N` (the master seed, 2026 unless told; another seed measures the spread and writes no asset), `--dump FILE`. */
function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seed = Number(argValue('--seed') ?? 2026);
  const rand = seededRandom(seed);
  const all = corpus();
  const started = Date.now();
  const cv = crossValidate(all, rand, FOLDS, undefined, {}, REPEATS);
  const normalOof = all.flatMap((e, i) => (e.label === 'normal' && cv.outOfFold[i] ? [cv.outOfFold[i]!] : []));
  const model = chooseThresholds(cv.model, normalOof, all.filter((e) => e.source === 'shipped'), devLines());
  if (seed === 2026) writeFileSync(MODEL_FILE, JSON.stringify(model) + '\n');
  console.log(`seed ${seed}: ${REPEATS} × ${FOLDS} folds on ${all.length} lines in ${((Date.now() - started) / 1000).toFixed(1)} s; the asset is their average`);
  for (const l of outOfFoldReport(all, cv, model.threshold)) console.log(l);
  const m = loadModel(model);
  const dev = devLines();
  const flagged = (e: Example) => {
    const s = scoresOf(m, e.text);
    return CATEGORIES.some((c, k) => s[c] >= model.threshold[k]);
  };
  const devUnsafe = dev.filter((e) => e.label !== 'normal');
  const per = CATEGORIES.map((c) => `${c} ${devUnsafe.filter((e) => e.label === c && flagged(e)).length}/${devUnsafe.filter((e) => e.label === c).length}`).join(', ');
  console.log(`development lines (classifier alone): caught ${devUnsafe.filter(flagged).length}/${devUnsafe.length} (${per}); normal blocked ${dev.filter((e) => e.label === 'normal' && flagged(e)).length}/${dev.filter((e) => e.label === 'normal').length}`);
  if (process.argv.includes('--new-phrasing')) {
    // The same training with folds grouped by template: each line scored by models that never saw
    // its template — an estimate for new phrasing (the thresholds above, not chosen on it).
    const groups = templateGroups();
    const grouped = crossValidate(all, seededRandom(seed), FOLDS, (e, i) => groups.get(e.text) ?? `h${i}`, {}, GROUPED_REPEATS, true);
    console.log('folds grouped by template (new phrasing):');
    for (const l of outOfFoldReport(all, grouped, model.threshold)) console.log(`  ${l}`);
    const dump = argValue('--dump');
    if (dump) writeFileSync(dump, JSON.stringify(dumpRows(all, [cv, grouped], model.threshold, groups)) + '\n');
  }
}

/** Per corpus line (never the frozen sets): its label, text, template group and whether the random and the grouped out-of-fold scores block it. */
function dumpRows(all: Example[], [cv, grouped]: CrossValidated[], threshold: number[], groups: Map<string, string>): unknown[] {
  const over = (s: number[] | null) => (s ? s.some((v, k) => v >= threshold[k]) : null);
  return all.map((e, i) => ({ label: e.label, source: e.source, text: e.text, group: groups.get(e.text) ?? null, random: over(cv.outOfFold[i]), grouped: over(grouped.outOfFold[i]) }));
}
