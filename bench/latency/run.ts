/**
 * `npx tsx bench/latency/run.ts [--json]`: how long a child waits, per in-game turn, estimated
 * from device profiles (bench/latency/profiles.ts) — not measured on a device.
 *
 * It records whole sessions of the real agents with their demo policies (猜数字 won by halving,
 * 你画我猜 with wrong and right answers and a skip, a Studio 恐龙问答), the requests they sent and
 * what the model wrote, and replays them through a simulated engine with WebLLM's exact cache rule
 * (simulate.ts), counting tokens with the Qwen tokenizer. Side by side in one run:
 * - before: the old prompt layout (state and actions in the system prompt, memory of input + final
 *   reply only; layouts.ts), steps in the paired form `{"action","args"}`, and no streaming (a
 *   sentence is heard when its step is complete), no cue;
 * - after: the session-stable layout the agents use now, keyed steps `{"<action>": {…}}`,
 *   sentences spoken as they are decoded, and the instant thinking cue;
 * - and, to show what the step's shape alone is worth, "after" with paired steps.
 * Then the app's turn modelled (app-model.ts) at the laptop, Pixel and measured-CPU profiles.
 *
 * `--app [--profiles laptop,pixel,cpu] [--turns 3]`: the same keys MEASURED in the real app, next
 * to the modelled ones (`appMeasured` in --json). app.bench.ts runs under Playwright
 * (app.config.ts: the e2e tests' test build and preview server, on E2E_PORT or 4190) in
 * /usr/bin/chromium against paced-server.ts — the demo brain's steps held back by each profile's
 * prefill and decode rates and cache rule — and plays 猜数字 (a hint, halving guesses, a chat turn
 * with the main agent), 你画我猜 and a Studio 恐龙问答, `--turns` in-game turns each, then ends
 * them. "before" is the app with `?rules-first=off` (a developer switch read only in the test
 * build: no pre-executed steps, the rules never speak first), "after" the app as it ships; both in
 * the same browser, one after the other, per profile. app-measured.ts says how each key is taken.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChatMessage } from '../../src/core/llm/types.ts';
import type { ArcadeGame } from '../../src/core/arcade/types.ts';
import { buildMessages } from '../../src/core/arcade/prompt.ts';
import { afterFor, BEFORE, modelApp, type CacheRule } from './app-model.ts';
import type { StepRequest } from '../../src/core/llm/types.ts';
import { qwenTokenizer } from '../llm/run.ts';
import { closeVite, viteImport } from '../llm/vite-runner.ts';
import { beforeLayout, pairedSteps, pairedText } from './layouts.ts';
import { PROFILES, type DeviceProfile } from './profiles.ts';
import { measuredFigures, perTurnLines, targetsMet, type MeasuredFigures } from './app-measured.ts';
import type { BenchConfig, RawRun } from './app.bench.ts';
import { APP_RUN_VARIANTS, type AppRunVariant } from './app-variants.ts';
import { percentile, SimulatedEngine, timeTurn, type Tokenizer, type TurnSteps, type TurnTiming } from './simulate.ts';

interface Session {
  name: string;
  /** Every turn in order; `inGame` marks the child's in-game inputs (not the start or the end). */
  turns: Array<TurnSteps & { inGame: boolean; kind?: string }>;
}

function split(steps: StepRequest[], outputs: string[], turns: Array<{ kind: string; steps: number }>): Session['turns'] {
  let i = 0;
  return turns.map((t) => {
    const out = { inGame: t.kind === 'message', kind: t.kind, steps: steps.slice(i, i + t.steps).map((req, k) => ({ req, output: outputs[i + k] })) };
    i += t.steps;
    return out;
  });
}

export async function recordSessions(): Promise<Session[]> {
  try {
    const { recordGame } = await viteImport<typeof import('../llm/record-game.ts')>('/bench/llm/record-game.ts');
    const { halvingChild } = await import('../llm/sequences/guess-number.ts');
    const { drawGuessChild } = await import('../llm/sequences/draw-guess.ts');
    const { recordStudio } = await viteImport<typeof import('../llm/record-studio.ts')>('/bench/llm/record-studio.ts');
    // Recorded with the model deciding every step (no pre-executed steps): the replay itself models
    // what the rules take over (app-model.ts), so every variant starts from the same sessions.
    const guess = await recordGame('guess-number', halvingChild(), { seed: 28, preExecute: false });
    const draw = await recordGame('draw-guess', drawGuessChild, { preExecute: false });
    const studio = await recordStudio({ preExecute: false });
    return [
      { name: '猜数字', turns: split(guess.steps, guess.outputs, guess.turns.map((t) => ({ kind: t.input.kind, steps: t.steps }))) },
      { name: '你画我猜', turns: split(draw.steps, draw.outputs, draw.turns.map((t) => ({ kind: t.input.kind, steps: t.steps }))) },
      { name: '恐龙问答（设计室）', turns: split(studio.play, studio.playOutputs, studio.turns) },
    ];
  } finally {
    await closeVite();
  }
}

export interface ProfileFigures {
  label: string;
  source: string;
  cueS: number;
  firstSentenceP50S: number;
  firstSentenceP95S: number;
  fullReplyP50S: number;
  prefillTokensPerTurn: number;
  inPlaceShare: number;
}

type Variant = 'before' | 'after' | 'pairedSteps';

function stepsOf(turn: TurnSteps, variant: Variant): TurnSteps['steps'] {
  if (variant === 'after') return turn.steps;
  const paired = turn.steps.map((x) => ({ req: pairedSteps(x.req), output: pairedText(x.output) }));
  return variant === 'before' ? paired.map((x) => ({ ...x, req: beforeLayout(x.req) })) : paired;
}

export function estimate(sessions: Session[], profile: DeviceProfile, variant: Variant, tok: Tokenizer): ProfileFigures {
  const timings: TurnTiming[] = [];
  for (const s of sessions) {
    const engine = new SimulatedEngine(tok);
    for (const turn of s.turns) {
      const live = variant !== 'before';
      const t = timeTurn(engine, { steps: stepsOf(turn, variant) }, profile, { streaming: live, cue: live }, tok);
      if (turn.inGame) timings.push(t);
    }
  }
  const steps = timings.reduce((n, t) => n + t.steps, 0);
  return {
    label: profile.label,
    source: profile.source,
    cueS: percentile(timings.map((t) => t.cueS), 50),
    firstSentenceP50S: percentile(timings.map((t) => t.firstSentenceS), 50),
    firstSentenceP95S: percentile(timings.map((t) => t.firstSentenceS), 95),
    fullReplyP50S: percentile(timings.map((t) => t.fullReplyS), 50),
    prefillTokensPerTurn: timings.reduce((n, t) => n + t.prefillTokens, 0) / Math.max(1, timings.length),
    inPlaceShare: timings.reduce((n, t) => n + t.inPlace, 0) / Math.max(1, steps),
  };
}

export function runLatency(sessions: Session[], tok: Tokenizer) {
  const side = (variant: Variant) => Object.fromEntries(PROFILES.map((p) => [p.id, estimate(sessions, p, variant, tok)]));
  const turns = sessions.reduce((n, s) => n + s.turns.filter((t) => t.inGame).length, 0);
  return { tokenizer: tok.name, turns, before: side('before'), after: side('after'), afterWithPairedSteps: side('pairedSteps') };
}

/** The main agent's chat requests as it sends them (its real prompt; a few turns of chat). */
function chatRequests(): ChatMessage[][] {
  const games: ArcadeGame[] = [
    { declaration: { id: 'guess-number', title: '猜数字', description: '猜一个 1 到 100 的数', aliases: [], capabilities: [], engine: 'skill' }, available: true },
    { declaration: { id: 'draw-guess', title: '你画我猜', description: '机器人画，小朋友猜', aliases: [], capabilities: [], engine: 'skill' }, available: true },
  ] as ArcadeGame[];
  const session = { gameId: 'guess-number', title: '猜数字', contextId: 'c' };
  return ['你叫什么名字', '你喜欢什么颜色', '你会唱歌吗'].map((w) => buildMessages(games, [], session, false, w));
}

/**
 * The CPU profile measured on this machine: bench/cpu-engine --qwen writes its two-thread medians
 * to .cache/cpu-measured.json; without that file, issue 24's figures measured here earlier.
 */
function cpuMeasured(): DeviceProfile & { rule: CacheRule } {
  try {
    const m = JSON.parse(readFileSync(new URL('../../.cache/cpu-measured.json', import.meta.url), 'utf8')) as { prefillTps: number; decodeTps: number; source: string };
    return { id: 'cpu-measured', label: 'CPU engine · Qwen2.5-0.5B shapes (this machine)', prefillTps: m.prefillTps, decodeTps: m.decodeTps, source: m.source, rule: 'prefix' };
  } catch {
    return { id: 'cpu-measured', label: 'CPU engine · Qwen2.5-0.5B shapes (this machine)', prefillTps: 11, decodeTps: 7.8, source: 'issue 24: wllama in Chromium on this machine, two threads', rule: 'prefix' };
  }
}

/**
 * The profiles of the app's figures: the laptop, the Pixel (WebLLM) and the CPU engine measured here;
 * and the Pixel with the 0.5B model (`pixel05`, not in the default `--profiles`): slow, yet fast
 * enough for the turn budget, so it is the slow brain the games still ask.
 */
export function appProfiles(): Array<DeviceProfile & { rule: CacheRule; short: string }> {
  return [
    { ...PROFILES.find((p) => p.id === 'amd680m-1.5b')!, rule: 'webllm', short: 'laptop' },
    { ...PROFILES.find((p) => p.id === 'pixel8pro-1.5b')!, rule: 'webllm', short: 'pixel' },
    { ...cpuMeasured(), short: 'cpu' },
    { ...PROFILES.find((p) => p.id === 'pixel8pro-0.5b')!, rule: 'webllm', short: 'pixel05' },
  ];
}

/** The app's turn modelled (app-model.ts) at the laptop, the Pixel and the CPU profile, before and after. */
export function runApp(sessions: Session[], tok: Tokenizer) {
  const chat = chatRequests();
  const profiles = appProfiles();
  return Object.fromEntries(
    profiles.map((p) => [
      p.id,
      {
        label: p.label,
        source: p.source,
        cache: p.rule,
        before: modelApp(sessions, chat, p, p.rule, BEFORE, tok),
        after: modelApp(sessions, chat, p, p.rule, afterFor(p.rule), tok),
        afterUnfolded: modelApp(sessions, chat, p, p.rule, { ...afterFor(p.rule), fold: false }, tok),
        afterNoRewarm: modelApp(sessions, chat, p, p.rule, { ...afterFor(p.rule), rewarm: false }, tok),
      },
    ]),
  );
}

/**
 * `--app`: the real app measured (app.bench.ts through Playwright, app.config.ts) at the chosen
 * profiles (`--profiles laptop,pixel,cpu`), `--turns N` in-game turns per game (default 3);
 * `--reuse` prints the last run's figures again (`--out <file>`: the turns' file, default .cache/latency-app.json); `--per-turn` adds each turn's requests (prefilled tokens, in place).
 */
export function runAppMeasured(argv: string[]) {
  const arg = (name: string, d: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : d;
  };
  const wanted = arg('profiles', 'laptop,pixel,cpu').split(',');
  const profiles = appProfiles().filter((p) => wanted.includes(p.short) || wanted.includes(p.id));
  const root = resolve(import.meta.dirname, '../..');
  // `--out <file>`: where the measured turns go (default .cache/latency-app.json), so two runs can go side by side.
  const out = resolve(root, arg('out', '.cache/latency-app.json'));
  const variants = arg('variants', APP_RUN_VARIANTS.join(',')).split(',').filter((v): v is AppRunVariant => (APP_RUN_VARIANTS as readonly string[]).includes(v));
  const cfg: BenchConfig = { profiles: profiles.map((p) => ({ id: p.id, prefillTps: p.prefillTps, decodeTps: p.decodeTps, rule: p.rule })), turns: Number(arg('turns', '3')), out, variants };
  // `--reuse`: the figures again from the last run's measured turns (.cache/latency-app.json), without playing.
  if (!argv.includes('--reuse')) {
    const run = spawnSync('npx', ['playwright', 'test', '--config', 'bench/latency/app.config.ts', '--reporter', 'line'], {
      cwd: root,
      stdio: ['ignore', argv.includes('--json') ? 'ignore' : 'inherit', 'inherit'],
      env: { ...process.env, BENCH_APP: JSON.stringify(cfg) },
    });
    if (run.status !== 0) console.error(`the app's run did not finish (exit ${run.status}); figures of the runs measured so far`);
  }
  const raw = JSON.parse(readFileSync(out, 'utf8')) as RawRun[];
  return Object.fromEntries(
    profiles.map((p) => {
      const side = (v: AppRunVariant) => {
        const r = raw.find((x) => x.profile === p.id && x.variant === v);
        return r ? measuredFigures(r) : null;
      };
      const before = side('before');
      const after = side('after');
      return [
        p.id,
        {
          label: p.label,
          rates: { prefillTps: p.prefillTps, decodeTps: p.decodeTps, cache: p.rule },
          before,
          ...(Object.fromEntries(APP_RUN_VARIANTS.filter((v) => v !== 'before' && v !== 'after').map((v) => [v, side(v)])) as Record<Exclude<AppRunVariant, 'before' | 'after'>, MeasuredFigures | null>),
          after,
          targetsAfter: after ? targetsMet(after, p.short === 'laptop') : null,
          targetsBefore: before ? targetsMet(before, p.short === 'laptop') : null,
        },
      ];
    }),
  );
}

/** What the app measure takes and what it leaves out (printed with it). */
export const APP_MEASURED_NOTE =
  'Measured in the real app (the e2e test build, production-bundled) in /usr/bin/chromium against a local server paced at the profile rates (bench/latency/paced-server.ts; the demo brain decides each step). ' +
  "Times from the page's clock (the act's click, the thinking face's MutationObserver, the speech fake's startedAt, the app's trace for cuts) and the server's (the model's first sentence written). " +
  'One engine, one request at a time (a request waits for the one before it; WebLLM reads a prefill it began to the end even when abandoned); the app\'s prewarm is done as its engine would (WebLLM: the replay). ' +
  'Left out: real speech time (the speech fake says 2 ms a character), the device\'s own CPU/GPU contention, the calibration.';

const s = (x: number) => `${x.toFixed(2)} s`;
const m = (x: number | null) => (x === null ? '—' : `${x.toFixed(2)} s`);
const pc = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(0)}%`);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tok = await qwenTokenizer();
  const sessions = await recordSessions();
  const measured = process.argv.includes('--app') ? runAppMeasured(process.argv) : undefined;
  const r = { ...runLatency(sessions, tok), app: runApp(sessions, tok), ...(measured ? { appMeasured: measured, appMeasuredNote: APP_MEASURED_NOTE } : {}) };
  if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
  else {
    console.log(`# Latency per in-game turn — estimated from device profiles, not measured (${r.turns} turns; tokens: ${r.tokenizer})\n`);
    console.log('profile | variant | cue | first sentence p50 | p95 | whole reply p50 | prefilled tokens/turn | steps in place');
    for (const p of PROFILES)
      for (const v of ['before', 'after'] as const) {
        const f = r[v][p.id];
        console.log(`${p.label} | ${v} | ${s(f.cueS)} | ${s(f.firstSentenceP50S)} | ${s(f.firstSentenceP95S)} | ${s(f.fullReplyP50S)} | ${f.prefillTokensPerTurn.toFixed(0)} | ${(f.inPlaceShare * 100).toFixed(0)}%`);
      }
    console.log('\nEvery figure: estimated from profile <row>; sources in bench/latency/profiles.ts.');
    for (const p of PROFILES) {
      const b = r.before[p.id];
      const a = r.after[p.id];
      const q = r.afterWithPairedSteps[p.id];
      console.log(`${p.label} (estimated, ${p.source}): first sentence p50 ×${(b.firstSentenceP50S / a.firstSentenceP50S).toFixed(1)} sooner, prefilled tokens ×${(b.prefillTokensPerTurn / a.prefillTokensPerTurn).toFixed(1)} fewer; the keyed step alone: first sentence p50 ${s(q.firstSentenceP50S)} → ${s(a.firstSentenceP50S)}, whole reply ${s(q.fullReplyP50S)} → ${s(a.fullReplyP50S)}`);
    }
    console.log('\n# The app\'s turn modelled (app-model.ts): T2 = 20 s, one engine shared with a chat turn every 3 in-game turns, show_drawing 4 s, cut rounds; after = rules first + cut rounds remembered + WebLLM requests folded to continue in place (+ a second cache slot on the CPU engine) + the game\'s conversation given back after each chat step (the hub\'s re-asked prewarm, WebLLM\'s replay); afterUnfolded = the same without the folding; afterNoRewarm = without giving the game its conversation back. Left out: the rules\' continuation after a result (only the turn\'s first step is taken by the rules here), the model\'s step asked ahead while the robot draws, and the main agent\'s rules deciding chat in a game (measured with --app instead)');
    console.log('profile | variant | cue | truthful line p50 | p95 | model first sentence p50 | turns cut | start first words | in place | prefill/turn | prefill after chat');
    for (const [, x] of Object.entries(r.app))
      for (const v of ['before', 'afterUnfolded', 'afterNoRewarm', 'after'] as const) {
        const f = x[v];
        console.log(`${x.label} (${x.cache}) | ${v} | ${s(f.cueS)} | ${s(f.truthfulLineP50S)} | ${s(f.truthfulLineP95S)} | ${s(f.firstModelSentenceP50S)} | ${(f.turnsCutShare * 100).toFixed(0)}% | ${s(f.startFirstWordsS)} | ${(f.inPlaceShare * 100).toFixed(0)}% | ${f.prefillTokensPerTurn.toFixed(0)} | ${f.prefillAfterChatTokens.toFixed(0)}`);
      }
    if (measured) {
      console.log(`\n# The app MEASURED (--app), next to the model above\n${APP_MEASURED_NOTE}`);
      console.log('profile | variant | cue p50 (max) | truthful line p50 | p95 | model first sentence p50 | whole reply p50 | turns cut (colour window) | start first words | in place | prefill/turn | prefill after chat | chat first words | turns');
      for (const [id, x] of Object.entries(measured)) {
        for (const v of APP_RUN_VARIANTS) {
          const f = x[v];
          const model = v === 'before' || v === 'after' ? r.app[id]?.[v] : undefined;
          if (f)
            console.log(`${x.label} | ${v} measured | ${m(f.cueS)} (${m(f.cueMaxS)}) | ${m(f.truthfulLineP50S)} | ${m(f.truthfulLineP95S)} | ${m(f.firstModelSentenceP50S)} | ${m(f.wholeReplyP50S)} | ${pc(f.turnsCutShare)} (${pc(f.colourCutShare)}) | ${m(f.startFirstWordsS)} | ${pc(f.inPlaceShare)} | ${f.prefillTokensPerTurn.toFixed(0)} | ${f.prefillAfterChatTokens === null ? '—' : f.prefillAfterChatTokens.toFixed(0)} | ${m(f.chatFirstWordsS)} | ${f.inGameTurns} + ${f.startTurns} starts`);
          if (model)
            console.log(`${x.label} | ${v} modelled | ${s(model.cueS)} | ${s(model.truthfulLineP50S)} | ${s(model.truthfulLineP95S)} | ${s(model.firstModelSentenceP50S)} | — | ${(model.turnsCutShare * 100).toFixed(0)}% | ${s(model.startFirstWordsS)} | ${(model.inPlaceShare * 100).toFixed(0)}% | ${model.prefillTokensPerTurn.toFixed(0)} | ${model.prefillAfterChatTokens.toFixed(0)} | — |`);
        }
        if (process.argv.includes('--per-turn'))
          for (const run of JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : '.cache/latency-app.json'), 'utf8')) as RawRun[])
            if (run.profile === id) console.log([`  ${run.variant}, per turn (game requests: prefilled/prompt tokens, * in place, ✗ abandoned):`, ...perTurnLines(run).map((l) => `    ${l}`)].join('\n'));
        if (x.targetsAfter) console.log(`  targets after: ${Object.entries(x.targetsAfter).map(([k, ok]) => `${ok === null ? '–' : ok ? '✓' : '✗'} ${k}`).join('; ')}`);
      }
    }
  }
}
