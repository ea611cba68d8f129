/**
 * The speaking path's child-safety step (src/arcade/speaking-path.ts): every sentence is checked
 * before the subtitle and TTS, together with the sentence before it in the same reply (a reply
 * arrives sentence by sentence; a harmful thought may span two of them). A blocked sentence is
 * replaced by one gentle redirect; the rest of that reply is not said at all (the redirect is said
 * once per reply, not once per sentence). A reply is one game request's replies, or the main
 * agent's words in one round.
 *
 * The classifier (its pinyin and character tables are large) loads when the app starts, beside the
 * first screen rather than in it; a line asked for before it has loaded waits for it — nothing is
 * ever said unchecked.
 */
import type { SpeakerRole } from '../core/arcade/types.ts';
import type { SafetyCategory, SafetyVerdict } from '../core/safety/classify.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { redirectFor } from '../core/games/blocked-turn.ts';

type CheckLine = (text: string, who?: 'robot' | 'child') => SafetyVerdict;
let classifier: Promise<CheckLine> | null = null;

/** The safety check, loaded once (started by the first speaking path made). */
export function loadSafetyCheck(): Promise<CheckLine> {
  classifier ??= import('../core/safety/classify.ts').then((m) => m.checkLine);
  return classifier;
}

export interface SafetyFinding {
  category: SafetyCategory;
  rule: string;
  view: string;
}

export type Screened = { kind: 'ok' } | { kind: 'blocked'; say: string; finding: SafetyFinding } | { kind: 'suppressed'; finding: SafetyFinding };

interface ReplyState {
  previous: string;
  blocked: SafetyFinding | null;
}

/** Replies remembered (the newest ones; a reply older than these is long over). */
const KEPT = 32;

/** Two sentences of one reply as one, for the check (the boundary between them removed). */
export function joinSentences(previous: string, next: string): string {
  return `${previous.replace(/[\p{P}\s]+$/u, '')}${next}`;
}

export class SafetyScreen {
  private readonly replies = new Map<string, ReplyState>();
  private readonly check = loadSafetyCheck();

  /** Checks one sentence (in the order asked: every call waits on the same load, then runs at once). */
  async screen(text: string, role: SpeakerRole, opts: { roundId?: string; requestId?: string; sessionEnds?: boolean }): Promise<Screened> {
    return this.screenWith(await this.check, text, role, opts);
  }

  private screenWith(checkLine: CheckLine, text: string, role: SpeakerRole, opts: { roundId?: string; requestId?: string; sessionEnds?: boolean }): Screened {
    const key = opts.requestId ? `req:${opts.requestId}` : opts.roundId ? `round:${opts.roundId}:${role}` : null;
    // A line of no reply (a robot notice): checked alone, nothing kept for it.
    if (key === null) return this.verdictOf(checkLine(text), role, opts.sessionEnds);
    const state = this.replies.get(key) ?? { previous: '', blocked: null };
    this.replies.delete(key);
    this.replies.set(key, state);
    while (this.replies.size > KEPT) this.replies.delete(this.replies.keys().next().value!);
    if (state.blocked) return { kind: 'suppressed', finding: finding(checkLine(text)) ?? state.blocked };
    const alone = checkLine(text);
    // Joined without the full stop between them, so "它" in the second still belongs to the first.
    const verdict = alone.verdict === 'blocked' || !state.previous ? alone : checkLine(joinSentences(state.previous, text));
    state.previous = text;
    const screened = this.verdictOf(verdict, role, opts.sessionEnds);
    if (screened.kind === 'blocked') state.blocked = screened.finding;
    return screened;
  }

  /** The redirect promises 「接着玩」 only while the game goes on (not in the reply that ends it). */
  private verdictOf(verdict: SafetyVerdict, role: SpeakerRole, sessionEnds = false): Screened {
    if (verdict.verdict === 'ok') return { kind: 'ok' };
    return { kind: 'blocked', say: role === 'game_agent' ? redirectFor(REDIRECT.game, !sessionEnds) : REDIRECT.main, finding: finding(verdict)! };
  }
}

function finding(v: SafetyVerdict): SafetyFinding | null {
  return v.verdict === 'blocked' ? { category: v.category, rule: v.rule, view: v.view } : null;
}
