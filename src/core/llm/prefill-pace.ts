/**
 * How long a server may take to its first piece: what it must read before it (the prompt past what
 * it already holds) at the pace it was seen to read. A prefix-caching server (llama.cpp, Ollama,
 * a CPU or phone engine behind them) writes nothing until it has read the whole uncached prompt, so
 * a cold prompt at a slow pace is silent for tens of seconds while it is working; a fixed
 * first-byte limit takes that for a stall, and a retry throws the reading away (a server that
 * restarts) or at best re-reads it. The pace is measured in prompt characters per second from the
 * server's own first pieces (no tokenizer in the page: the characters of one prompt layout stand in
 * for its tokens), over the part of each prompt no earlier prompt shared. Pure: the caller gives the
 * times.
 *
 * What the server holds is estimated from the prompts it read to the end (it wrote their first
 * piece): the longest common prefix with any of the last few. A prompt abandoned before its first
 * piece is not counted as held (how far it got is unknown), so a request asked again is given the
 * same time as the first.
 */
import type { StepTimeouts } from '../arcade/turn-budget.ts';
import type { ChatMessage } from './types.ts';

/** The pace's time to the first piece is multiplied by this (a busy server, a pace measured on other text). */
export const PACE_SLACK = 1.5;
/** Added to it: the way to the server and back, the first decoded token. */
export const PACE_LATENCY_MS = 1000;
/** Prompts kept as what the server may hold (a server with several cache slots). */
const HELD = 4;
/** First pieces the pace is measured over (the latest). */
const SAMPLES = 8;
/** A first piece after fewer new characters says more about the way there than about reading. */
const MIN_SAMPLE_CHARS = 200;

/** The text a server reads for these messages, as one string (the roles mark where a message starts). */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `<${m.role}>${m.content}`).join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export class PrefillPace {
  private readonly held: string[] = [];
  private readonly samples: Array<{ chars: number; ms: number }> = [];

  /** Characters of `text` the server must read anew (none of the prompts it holds starts with them). */
  uncached(text: string): number {
    let best = 0;
    for (const h of this.held) best = Math.max(best, commonPrefix(h, text));
    return text.length - best;
  }

  /**
   * The first piece of an answer to `text` came `ms` after it was sent, when `uncached` characters
   * of it were new (`uncached(text)` at the time it was sent): one measure of the pace, and the
   * server now holds `text`.
   */
  firstPiece(text: string, uncached: number, ms: number): void {
    if (uncached >= MIN_SAMPLE_CHARS && ms > 0) {
      this.samples.push({ chars: uncached, ms });
      if (this.samples.length > SAMPLES) this.samples.shift();
    }
    const i = this.held.indexOf(text);
    if (i >= 0) this.held.splice(i, 1);
    this.held.push(text);
    if (this.held.length > HELD) this.held.shift();
  }

  /** Characters read per second, over the latest first pieces; undefined before any. */
  charsPerS(): number | undefined {
    const chars = this.samples.reduce((n, s) => n + s.chars, 0);
    const ms = this.samples.reduce((n, s) => n + s.ms, 0);
    return chars > 0 && ms > 0 ? (chars / ms) * 1000 : undefined;
  }

  /** How long the first piece of a prompt with `uncached` new characters may take at this pace (undefined: no pace yet). */
  expectedFirstPieceMs(uncached: number): number | undefined {
    const rate = this.charsPerS();
    return rate === undefined ? undefined : Math.round(PACE_LATENCY_MS + (uncached / rate) * 1000 * PACE_SLACK);
  }

  /**
   * The limits of one attempt: the first-piece limit (and the whole attempt's, by as much) raised to
   * what the uncached prompt takes at this pace; never below `base`, so a server that truly stalls
   * on a prompt it holds is still noticed as early as before. `silentTries`: earlier tries of the
   * same step that got no first piece in their time.
   */
  limits(base: StepTimeouts, uncached: number, silentTries = 0): StepTimeouts {
    // Each try of this step that heard nothing before its limit doubles it: a stall is still asked
    // again, and a prompt slower than the pace (or read before any pace) gets the time it showed it needs.
    const widened = base.firstByteMs * 2 ** silentTries;
    const limit = Math.max(widened, this.expectedFirstPieceMs(uncached) ?? 0);
    if (limit <= base.firstByteMs) return base;
    return { firstByteMs: limit, idleMs: base.idleMs, totalMs: base.totalMs + (limit - base.firstByteMs) };
  }
}
