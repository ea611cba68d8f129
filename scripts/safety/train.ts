/**
 * npm run safety:train — trains the learned half of the child-safety check (src/core/safety/learned.ts)
 * on the corpus (./data.ts) and writes its weights to src/arcade/safety-model.json.
 *
 * Seeded and reproducible: the same corpus gives the same file. The corpus is split 80/20 by label
 * (seeded); one logistic scorer per category is trained on the 80 % with stochastic gradient descent
 * (L2, positives weighted up), its weights quantised to int8; each category's threshold is then
 * chosen on the 20 % and the hand-written development lines (./data.ts devLines): the lowest that
 * blocks at most `FALSE_BLOCK_BUDGET` of the validation's normal lines and none of the development
 * lines' normal ones, and above every line the project ships. The frozen held-out set is not read here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATEGORIES } from '../../src/core/safety/classify.ts';
import { featuresOf, loadModel, scoresOf, type LearnedModel } from '../../src/core/safety/learned.ts';
import { seededRandom } from '../../src/core/random.ts';
import { corpus, devLines, type Example } from './data.ts';

export const MODEL_FILE = join(import.meta.dirname, '../../src/arcade/safety-model.json');
const DIM = 1 << 14;
const EPOCHS = 12;
const L2 = 1e-4;
const POSITIVE_WEIGHT = 1.5;
/** Quantised weights this small (of ±127) are set to zero. */
const PRUNE = 2;
/** Per category, on the validation split's normal lines. */
const FALSE_BLOCK_BUDGET = 0.001;
const THRESHOLD_RANGE: [number, number] = [0.2, 0.95];

function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

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

export interface TrainOptions {
  epochs?: number;
  l2?: number;
  positiveWeight?: number;
}

export function train(examples: Example[], rand: () => number, opts: TrainOptions = {}): LearnedModel {
  const epochs = opts.epochs ?? EPOCHS;
  const l2 = opts.l2 ?? L2;
  const positiveWeight = opts.positiveWeight ?? POSITIVE_WEIGHT;
  const K = CATEGORIES.length;
  const w = new Float64Array(K * DIM);
  const bias = new Float64Array(K).fill(-3);
  const data = examples.map((e) => ({ f: featuresOf(e.text, DIM), y: CATEGORIES.indexOf(e.label as never) }));
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
  const q = new Int8Array(K * DIM);
  const scale: number[] = [];
  for (let k = 0; k < K; k++) {
    let max = 0;
    for (let i = 0; i < DIM; i++) max = Math.max(max, Math.abs(w[k * DIM + i]));
    const s = max / 127 || 1;
    scale.push(Number(s.toPrecision(6)));
    // The smallest weights are dropped (zero): they change no verdict and keep the asset small.
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

/** Chooses each category's threshold on the validation split (and above every shipped line). */
export function chooseThresholds(model: LearnedModel, valid: Example[], shipped: Example[], dev: Example[] = [], floor = THRESHOLD_RANGE[0]): LearnedModel {
  const m = loadModel(model);
  const normal = valid.filter((e) => e.label === 'normal').map((e) => scoresOf(m, e.text));
  // The shipped lines must pass (with a margin); the hand-written development lines too (unlike the generated ones, they are not templates).
  const own = [...shipped.map((e) => scoresOf(m, e.text)), ...dev.filter((e) => e.label === 'normal').map((e) => scoresOf(m, e.text))];
  const threshold = CATEGORIES.map((c) => {
    const s = normal.map((x) => x[c]).sort((a, b) => b - a);
    const allowed = Math.floor(s.length * FALSE_BLOCK_BUDGET);
    // Just above the (allowed + 1)-th highest normal score.
    const t = (s[allowed] ?? 0) + 1e-3;
    const ownMax = Math.max(0, ...own.map((x) => x[c])) + 0.02;
    return Number(Math.min(THRESHOLD_RANGE[1], Math.max(floor, t, ownMax)).toFixed(3));
  });
  return { ...model, threshold };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rand = seededRandom(2026);
  const all = corpus();
  const { train: tr, valid } = split(all, rand);
  const started = Date.now();
  const model = chooseThresholds(train(tr, rand), valid, all.filter((e) => e.source === 'shipped'), devLines());
  writeFileSync(MODEL_FILE, JSON.stringify(model) + '\n');
  const m = loadModel(model);
  console.log(`trained on ${tr.length} lines in ${((Date.now() - started) / 1000).toFixed(1)} s; validation ${valid.length} lines`);
  const vn = valid.filter((e) => e.label === 'normal');
  const flagged = (e: Example) => {
    const s = scoresOf(m, e.text);
    return CATEGORIES.some((c, k) => s[c] >= model.threshold[k]);
  };
  for (const [k, c] of CATEGORIES.entries()) {
    const pos = valid.filter((e) => e.label === c);
    console.log(`${c.padEnd(14)} threshold ${model.threshold[k]}  validation recall ${pos.filter(flagged).length}/${pos.length}`);
  }
  console.log(`validation false blocks ${vn.filter(flagged).length}/${vn.length}`);
}
