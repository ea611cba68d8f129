/**
 * The figures of `bench/latency/run.ts --app` from the turns app.bench.ts measured in the real app,
 * under the simulation's keys (app-model.ts), each from the child's act (the typed words sent, the
 * game card tapped):
 * - cueS: the on-screen robot's thinking face (p50 of in-game turns; `cueMaxS` over every turn,
 *   the first one included);
 * - truthfulLineP50S / P95S: the first line handed to speech that is not a waiting line
 *   (「嗯，让我想想。」…), in-game turns — every in-game turn of these games is one the rules read;
 * - firstModelSentenceP50S: the first sentence the game's model wrote in the turn, complete on the
 *   server (for a reply abandoned before it: when the pacing would have written it), over the turns
 *   whose model was asked for a step that says something (`modelSentenceTurns`; a Studio quiz's
 *   lines are its run skills' — written by code, not by the model);
 * - turnsCutShare: in-game turns the app's trace records as cut by the turn's deadline (a
 *   `model_step` error other than the colour window; `colourCutShare` counts those apart);
 * - startFirstWordsS: p50 of the start turns' first non-waiting line;
 * - inPlaceShare, prefillTokensPerTurn: the game's requests in in-game turns, as the paced server
 *   counted them under the profile's cache rule (steps only: a prewarm is read while the child
 *   thinks); prefillAfterChatTokens: what the game had read again for the in-game turn right after
 *   a chat turn — its steps in that turn, and every request of the game during the chat turn (the
 *   game's conversation read back after the main agent's step, which that turn waits behind);
 * - chatFirstWordsS: p50 of the chat turns' first non-waiting line.
 */
import { SAY } from '../../src/arcade/errors.ts';
import { percentile } from './simulate.ts';
import type { RawRun, RawTurn } from './app.bench.ts';

const WAITING = [...SAY.stillThinking, SAY.wait];
const waiting = (text: string) => WAITING.some((w) => w.includes(text.trim()));
const s = (ms: number) => Math.round(ms) / 1000;
const COLOUR = 'the colour window passed';
const isGame = (agent: string) => agent.startsWith('game:') || agent.startsWith('studio:');
/** A game's step (not a prewarm: that is read while the child thinks, not in the turn's wait). */
const gameStep = (r: RawTurn['requests'][number]) => isGame(r.agent) && !r.prewarm;

export interface MeasuredFigures {
  cueS: number | null;
  cueMaxS: number | null;
  truthfulLineP50S: number | null;
  truthfulLineP95S: number | null;
  firstModelSentenceP50S: number | null;
  wholeReplyP50S: number | null;
  turnsCutShare: number;
  colourCutShare: number;
  startFirstWordsS: number | null;
  inPlaceShare: number | null;
  prefillTokensPerTurn: number;
  prefillAfterChatTokens: number | null;
  chatFirstWordsS: number | null;
  inGameTurns: number;
  /** In-game turns whose model was asked for a step that says something. */
  modelSentenceTurns: number;
  startTurns: number;
  gameRequests: number;
  /** Requests of the main agent during in-game turns (its fast path sends none). */
  mainRequestsInGame: number;
}

const p = (xs: number[], q: number): number | null => {
  if (!xs.length) return null;
  const v = percentile(xs, q);
  return Number.isFinite(v) ? s(v) : null;
};

function firstWords(t: RawTurn): number {
  const l = t.lines.find((x) => !waiting(x.text));
  return l ? l.at - t.actedAt : Infinity;
}

export function measuredFigures(run: RawRun): MeasuredFigures {
  const inGame = run.turns.filter((t) => t.kind === 'message');
  const starts = run.turns.filter((t) => t.kind === 'start');
  const gameReqs = inGame.flatMap((t) => t.requests.filter(gameStep));
  const modelSentence = inGame.flatMap((t) => {
    const at = t.requests.filter((r) => gameStep(r) && r.sentenceAt !== undefined).map((r) => r.sentenceAt!);
    return at.length ? [Math.min(...at) - t.actedAt] : [];
  });
  const chats = run.turns.filter((t) => t.kind === 'chat');
  const afterChat = run.turns.flatMap((t, i) => (t.kind === 'chat' && run.turns[i + 1]?.kind === 'message' ? [{ chat: t, next: run.turns[i + 1] }] : []));
  const tokens = (rs: RawTurn['requests']) => rs.reduce((n, r) => n + r.prefillTokens, 0);
  const cues = run.turns.filter((t) => t.kind !== 'end').map((t) => (t.cueAt === null ? Infinity : t.cueAt - t.actedAt));
  return {
    cueS: p(inGame.map((t) => (t.cueAt === null ? Infinity : t.cueAt - t.actedAt)), 50),
    cueMaxS: cues.length ? (cues.every(Number.isFinite) ? s(Math.max(...cues)) : null) : null,
    truthfulLineP50S: p(inGame.map(firstWords), 50),
    truthfulLineP95S: p(inGame.map(firstWords), 95),
    firstModelSentenceP50S: p(modelSentence, 50),
    wholeReplyP50S: p(inGame.map((t) => (t.lines.length ? t.lines.at(-1)!.at - t.actedAt : Infinity)), 50),
    turnsCutShare: inGame.filter((t) => t.cuts.some((c) => !c.includes(COLOUR))).length / Math.max(1, inGame.length),
    colourCutShare: inGame.filter((t) => t.cuts.some((c) => c.includes(COLOUR))).length / Math.max(1, inGame.length),
    startFirstWordsS: p(starts.map(firstWords), 50),
    inPlaceShare: gameReqs.length ? gameReqs.filter((r) => r.inPlace).length / gameReqs.length : null,
    prefillTokensPerTurn: tokens(gameReqs) / Math.max(1, inGame.length),
    prefillAfterChatTokens: afterChat.length ? afterChat.reduce((n, x) => n + tokens(x.chat.requests.filter((r) => isGame(r.agent))) + tokens(x.next.requests.filter(gameStep)), 0) / afterChat.length : null,
    chatFirstWordsS: p(chats.map(firstWords), 50),
    inGameTurns: inGame.length,
    modelSentenceTurns: modelSentence.length,
    startTurns: starts.length,
    gameRequests: gameReqs.length,
    mainRequestsInGame: inGame.reduce((n, t) => n + t.requests.filter((r) => r.agent === 'main' && !r.prewarm).length, 0),
  };
}

/** Issue 24's targets, judged on measured figures (null: not measured in this run). */
export function targetsMet(f: MeasuredFigures, laptop: boolean): Record<string, boolean | null> {
  const le = (v: number | null, max: number) => (v === null ? false : v <= max);
  return {
    'truthful line p50 ≤ 0.5 s': le(f.truthfulLineP50S, 0.5),
    'truthful line p95 ≤ 0.8 s': le(f.truthfulLineP95S, 0.8),
    'start first words ≤ 1 s': le(f.startFirstWordsS, 1),
    ...(laptop ? { "model's first sentence p50 ≤ 2.0 s": le(f.firstModelSentenceP50S, 2) } : {}),
    'cue ≤ 0.3 s (every turn, the first too)': le(f.cueMaxS, 0.3),
    'in place ≥ 95 %': f.inPlaceShare === null ? null : f.inPlaceShare >= 0.95,
    'prefill ≤ 200 tokens per in-game turn': f.gameRequests === 0 ? true : f.prefillTokensPerTurn <= 200 && (f.prefillAfterChatTokens ?? 0) <= 200,
  };
}

/**
 * One line per turn of a run: what the child did, then each request as `agent prefilled/prompt
 * tokens`, `*` when in place, `✗` when abandoned, `⏳N s` when it waited N s for the engine,
 * `dropped` when abandoned before the engine took it; a prewarm as `warm:agent …` (`--per-turn`).
 */
export function perTurnLines(run: RawRun): string[] {
  return run.turns.map((t) => {
    const reqs = t.requests.map((r) => {
      const waited = r.startedAt === undefined ? ' dropped' : r.startedAt - r.receivedAt > 500 ? ` ⏳${s(r.startedAt - r.receivedAt)} s` : '';
      return `${r.prewarm ? 'warm:' : ''}${r.agent.replace(/^(game|studio):/, '')} ${r.prefillTokens}/${r.promptTokens}${r.inPlace ? '*' : ''}${r.finished || r.prewarm ? '' : '✗'}${waited}`;
    });
    return `${t.game} ${t.kind} 「${t.words}」 | ${reqs.join(', ') || '—'}${t.cuts.length ? ` | cut: ${t.cuts.join('; ')}` : ''}`;
  });
}
