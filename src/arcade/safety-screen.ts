/**
 * The speaking path's child-safety step (src/arcade/speaking-path.ts): every sentence is checked
 * before the subtitle and TTS, together with the sentence before it in the same reply (a reply
 * arrives sentence by sentence; a harmful thought may span two of them). A blocked sentence is
 * replaced by one gentle redirect; the rest of that reply is not said (the redirect is said once per
 * reply, not once per sentence) — except a game request's final reply, the end of the child's turn
 * (the next question, the score, the goodbye): it is still said when it passes the check on its own,
 * so a blocked line never leaves the child without what to answer next. A reply is one game
 * request's replies, or the main agent's words in one round.
 *
 * The check (its pinyin and character tables are large) loads after the first screen: when someone
 * first touches or types in the app (`warmSafetyCheck`, started by the app runtime), or when the
 * first line is to be checked, whichever comes first (`loadSafetyCheck`, ./safety-check.ts: the
 * rules and the learned classifier). A line asked for before it has loaded waits for it — nothing
 * is ever said unchecked.
 *
 * A line made of parts (a game's rule line 「答对了！」 and a card's question, a reply of several
 * sentences) that is blocked as a whole is checked part by part (../core/safety/parts.ts): only the
 * parts found harmful are replaced, once, by the redirect; the others are still said. Texts a
 * parent approved for their own game (kept with the design) pass as they are in that game; the
 * words around them are still checked.
 */
import type { SpeakerRole } from '../core/arcade/types.ts';
import type { SafetyCategory, SafetyVerdict } from '../core/safety/classify.ts';
import { checkInParts } from '../core/safety/parts.ts';
import { REDIRECT } from '../core/safety/replies.ts';
import { redirectFor } from '../core/games/blocked-turn.ts';
import { approvedLinesOf } from '../games/approved-lines.ts';
import { loadSafetyCheck } from './safety-check.ts';

export { loadSafetyCheck };

/**
 * Starts loading the check as soon as someone uses the app (the first pointer or key event on
 * `target`), so it is ready before the first line without weighing on the first screen.
 */
export function warmSafetyCheck(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>): void {
  const events = ['pointerdown', 'keydown'] as const;
  const warm = () => {
    for (const e of events) target.removeEventListener(e, warm, true);
    void loadSafetyCheck().catch(() => undefined);
  };
  for (const e of events) target.addEventListener(e, warm, true);
}

export interface SafetyFinding {
  category: SafetyCategory;
  rule: string;
  view: string;
  /** Which half of the check found it: the rules or the learned classifier. */
  by: 'rules' | 'classifier';
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
  /** Checks one sentence (in the order asked: every call waits on the same load, then runs at once). */
  async screen(text: string, role: SpeakerRole, opts: { roundId?: string; requestId?: string; sessionEnds?: boolean; final?: boolean; gameId?: string }): Promise<Screened> {
    const check = await loadSafetyCheck();
    const approved = opts.gameId ? approvedLinesOf(opts.gameId) : [];
    return this.screenWith((t) => check(t, 'robot'), text, role, opts, approved);
  }

  private screenWith(checkLine: (text: string) => SafetyVerdict, text: string, role: SpeakerRole, opts: { roundId?: string; requestId?: string; sessionEnds?: boolean; final?: boolean }, approved: readonly string[]): Screened {
    const key = opts.requestId ? `req:${opts.requestId}` : opts.roundId ? `round:${opts.roundId}:${role}` : null;
    // The redirect promises 「接着玩」 only while the game goes on (not in the reply that ends it).
    const redirect = role === 'game_agent' ? redirectFor(REDIRECT.game, !opts.sessionEnds) : REDIRECT.main;
    // A line of no reply (a robot notice): checked alone, nothing kept for it.
    if (key === null) return this.partsOf(checkLine, text, redirect, approved);
    const state = this.replies.get(key) ?? { previous: '', blocked: null };
    this.replies.delete(key);
    this.replies.set(key, state);
    while (this.replies.size > KEPT) this.replies.delete(this.replies.keys().next().value!);
    if (state.blocked) {
      // A game's final reply after a blocked line: said when it is safe on its own (the blocked words were never heard).
      const alone = role === 'game_agent' && opts.final ? this.partsOf(checkLine, text, redirect, approved) : null;
      if (alone?.kind === 'ok') return alone;
      return { kind: 'suppressed', finding: finding(checkLine(text)) ?? state.blocked };
    }
    const alone = this.partsOf(checkLine, text, redirect, approved);
    // Joined without the full stop between them, so "它" in the second still belongs to the first.
    const screened =
      alone.kind !== 'ok' || !state.previous ? alone : this.verdictOf(checkLine(joinSentences(withoutApproved(state.previous, approved), withoutApproved(text, approved))), redirect);
    state.previous = text;
    if (screened.kind === 'blocked') state.blocked = screened.finding;
    return screened;
  }

  /** One line's verdict: blocked as a whole (and with no approved text in it), it is checked part by part; only the harmful parts become the redirect. */
  private partsOf(checkLine: (text: string) => SafetyVerdict, text: string, redirect: string, approved: readonly string[]): Screened {
    if (!approved.some((a) => a && text.includes(a)) && checkLine(text).verdict === 'ok') return { kind: 'ok' };
    const r = checkInParts(checkLine, text, approved);
    if (!r.blocked) return { kind: 'ok' };
    return { kind: 'blocked', say: r.say(redirect), finding: finding(r.blocked)! };
  }

  private verdictOf(verdict: SafetyVerdict, redirect: string): Screened {
    if (verdict.verdict === 'ok') return { kind: 'ok' };
    return { kind: 'blocked', say: redirect, finding: finding(verdict)! };
  }
}

function finding(v: SafetyVerdict): SafetyFinding | null {
  return v.verdict === 'blocked' ? { category: v.category, rule: v.rule, view: v.view, by: v.by } : null;
}

/** The line with the texts a parent approved taken out (a clause boundary in their place). */
function withoutApproved(text: string, approved: readonly string[]): string {
  let t = text;
  for (const a of approved) if (a) t = t.split(a).join('。');
  return t;
}
