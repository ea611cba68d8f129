/**
 * A parent's own cards, checked when they are written: every text a card will have the robot say
 * (the question, the answer, each hint) goes through the safety check on its own. What is flagged
 * is shown to the parent with its category in plain words; the parent may approve that text for
 * this game (it then passes in play; the words around it are still checked). The cards the
 * Studio's model writes are checked the same way when its draft is shown to the parent. Pure: the
 * check is handed in.
 */
import type { CheckLine, SafetyCategory } from './classify.ts';
import { CATEGORY_LABEL } from './replies.ts';

export interface FlaggedText {
  text: string;
  category: SafetyCategory;
  /** The category as a parent reads it. */
  label: string;
  by: 'rules' | 'classifier';
}

/** Texts the robot will say from these cards. */
function spokenTexts(card: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['prompt', 'answer', 'hints']) {
    const v = card[key];
    for (const t of Array.isArray(v) ? v : [v]) if (typeof t === 'string' && t.trim()) out.push(t.trim());
  }
  return out;
}

/** The cards' texts the check flags and the parent has not approved, each once. */
export function flaggedTexts(cards: ReadonlyArray<Record<string, unknown>>, check: CheckLine, approved: readonly string[] = []): FlaggedText[] {
  const seen = new Set<string>();
  const out: FlaggedText[] = [];
  for (const card of cards)
    for (const text of spokenTexts(card)) {
      if (seen.has(text) || approved.includes(text)) continue;
      seen.add(text);
      const v = check(text, 'robot');
      if (v.verdict === 'blocked') out.push({ text, category: v.category, label: CATEGORY_LABEL[v.category], by: v.by });
    }
  return out;
}

/**
 * The deck a designed game plays: a card with a text the check blocks (one the parent did not
 * approve — a model wrote the deck, or the check learned more since the cards were written) is left
 * out before play, so the game never asks a question it cannot say: after 「答对了」 the child hears
 * the next card it can answer, and the rounds and the tally count only the cards played. Each card
 * left out comes with its first blocked text (for the parent's 安全提醒).
 */
export function playableDeck<T>(cards: readonly T[], blocked: (text: string) => boolean, approved: readonly string[] = []): { kept: T[]; left: Array<{ card: T; text: string }> } {
  const kept: T[] = [];
  const left: Array<{ card: T; text: string }> = [];
  for (const card of cards) {
    const text = card && typeof card === 'object' ? spokenTexts(card as Record<string, unknown>).find((t) => !approved.includes(t) && blocked(t)) : undefined;
    if (text === undefined) kept.push(card);
    else left.push({ card, text });
  }
  return { kept, left };
}

/**
 * The texts the check flags in drafts the Studio's model wrote (the values of the tags under review):
 * every list of cards among them, checked as a parent's own cards are.
 */
export function flaggedInDrafts(values: readonly unknown[], check: CheckLine, approved: readonly string[] = []): FlaggedText[] {
  const cards = values.flatMap((v) => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)) : []));
  return flaggedTexts(cards, check, approved);
}
