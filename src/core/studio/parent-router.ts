/**
 * What a parent's words mean in the Studio, decided before anything runs — the Studio's
 * counterpart of the arcade's router (src/core/arcade/router.ts). The same words mean different
 * things depending on where the parent is: on the hand-written form a card said in one breath is a
 * row; while a step asks for rows a spoken card is one of them; while drafts are under review
 * 「好的」 takes them (not while the safety check flags some of their texts) and anything else is how
 * to change them; otherwise the words are the parent's input to the design. Pure.
 */
import type { SkillPackage } from './package-loader.ts';
import { cardFromWords, isAcceptWords, type SpokenCard } from './parent-words.ts';
import type { WaitingReason } from './phase-machine.ts';

/** Where the parent is: the list of games, the hand-written card form, or talking to a design. */
export type StudioPlace = 'home' | 'hand' | 'talk';

export interface StudioWordsContext {
  place: StudioPlace;
  /** What the open design waits for (null: nothing open, or it is not waiting). */
  waiting: WaitingReason | null;
  /** A design is open. */
  open: boolean;
  /** The open design asks the parent for rows and shows the form for them (`rowsFormTag`). */
  writingRows: boolean;
  /** Texts of the drafts under review the safety check flags and the parent has not approved. */
  draftsFlagged?: boolean;
}

export type StudioRoute =
  /** Empty words, or nothing open to say them to. */
  | { kind: 'nothing' }
  /** A card heard in one breath: a new row of the form being written. */
  | { kind: 'add_card'; to: 'hand' | 'rows'; card: SpokenCard }
  /** Words on the hand-written form that are not a card. */
  | { kind: 'card_unheard' }
  /** The drafts under review are taken as they are. */
  | { kind: 'accept' }
  /** 「好的」 while the safety check flags texts of the drafts: not taken until each is approved or changed. */
  | { kind: 'accept_flagged' }
  /** The drafts under review are redone with these words as the reason. */
  | { kind: 'revise'; text: string }
  /** The parent's input to the design. */
  | { kind: 'input'; text: string };

export function routeParentWords(words: string, ctx: StudioWordsContext): StudioRoute {
  const text = words.trim();
  if (!text) return { kind: 'nothing' };
  if (ctx.place === 'hand') {
    const card = cardFromWords(text);
    return card ? { kind: 'add_card', to: 'hand', card } : { kind: 'card_unheard' };
  }
  if (!ctx.open) return { kind: 'nothing' };
  if (ctx.writingRows) {
    const card = cardFromWords(text);
    if (card) return { kind: 'add_card', to: 'rows', card };
  }
  if (ctx.waiting?.kind === 'review_drafts') return isAcceptWords(text) ? { kind: ctx.draftsFlagged ? 'accept_flagged' : 'accept' } : { kind: 'revise', text };
  return { kind: 'input', text };
}

/**
 * The tag a step asks the parent to write rows of (「你来写几张吧？」): a list of objects among what
 * the asking step writes. Null when the design does not wait for such a step.
 */
export function rowsFormTag(pkg: SkillPackage, waiting: WaitingReason | null): string | null {
  if (waiting?.kind !== 'helper_question') return null;
  const skill = pkg.skills.find((s) => s.id === waiting.skill);
  return skill?.writes.find((t) => pkg.tagDefs[t]?.schema?.type === 'array' && pkg.tagDefs[t]?.schema?.items?.type === 'object') ?? null;
}
