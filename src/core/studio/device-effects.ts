/**
 * What the robot does after a play turn (seed 000 §游戏 Agent, like the built-in games): the
 * runtime — not the model — reads the turn's `运行.*` changes and turns them into DevicePort calls.
 * Answer right → happy + nod; wrong → sorry + shake ("不知道" gets neither); a new card → its
 * drawing drawn (a picture card), else its question on the robot's screen; a new action of 我说你做
 * → the robot shows it with its face and head; a sentence added to 故事接龙 → a happy nod and how far
 * the story is; the game over → the final score. A card the robot could not show is read aloud
 * instead (`cardReadAloud`). Pure: board in, effects out.
 */
import { squash } from '../jev/normalize.ts';
import type { Blackboard } from './blackboard.ts';
import type { CardAsset } from './types.ts';
import { EXPRESSIONS } from '../robot/messages.ts';
import type { Expression, Gesture, Progress, TextCard } from '../robot/types.ts';

export const VERDICT_TAG = '运行.判定';
export const CARD_TAG = '运行.当前卡';
export const PROGRESS_TAG = '运行.进度';
export const SCORE_TAG = '运行.得分';
const ACTION_TAG = '运行.当前动作';
const STORY_TAG = '运行.故事';

export type DeviceEffect =
  | { op: 'react'; expression: Expression; gesture: Gesture }
  | { op: 'showText'; card: TextCard }
  /** One of the robot's drawings, by id (the engine looks it up); `fallback` when it has none by that id. */
  | { op: 'showDrawing'; drawingId: string; fallback: TextCard }
  | { op: 'showProgress'; progress: Progress };

interface Verdict {
  result: '对' | '错' | '不知道';
  /** Set when the card is over and its answer has been revealed. */
  revealed?: string;
}

export interface ScoreNow {
  score: number;
  correct: number;
  /** Cards presented so far. */
  played: number;
}

/** An action of 我说你做 as the robot shows it. */
interface ShownAction {
  say: string;
  expression: Expression;
  gesture: Gesture;
  /** The trick round: said without "我说". */
  trick: boolean;
}

/** What one turn changed on the board, as the runtime reads it. */
export interface TurnChanges {
  verdict?: Verdict;
  /** The card judged in this turn (the one current before it), when there was a verdict. */
  judgedCard?: CardAsset;
  newCard?: { card: CardAsset; number: number };
  newAction?: ShownAction;
  /** 故事接龙 moved on: rounds told so far, of how many. */
  story?: { round: number; rounds: number };
  score: ScoreNow;
  /** What is counted: cards (问答, 猜谜语) or actions (我说你做). */
  unit: 'cards' | 'actions';
}

const revision = (b: Blackboard, tag: string) => b.tags[tag]?.revision ?? 0;
const value = <T>(b: Blackboard, tag: string): T | undefined => b.tags[tag]?.value as T | undefined;

/** What a designed game's truth rules see of a play turn (skills/<pkg>/truth.ts): its changes and the cards. */
export interface PlayTruthState {
  changes: TurnChanges;
  cards: readonly CardAsset[];
  /** Ids of the cards presented so far (`运行.进度.已用`), the current one last. */
  used: readonly string[];
  /** The card on the table now (its answer is the secret). */
  current?: CardAsset;
}

/** The play truth state of a turn, from the board before it and now. */
export function playTruthState(before: Blackboard, now: Blackboard, cards: readonly CardAsset[]): PlayTruthState {
  const used = value<{ 已用?: unknown[] }>(now, PROGRESS_TAG)?.已用;
  return { changes: turnChanges(before, now, cards), cards, used: Array.isArray(used) ? used.map(String) : [], current: currentCardOf(now, cards) };
}

export function currentCardOf(board: Blackboard, cards: readonly CardAsset[]): CardAsset | undefined {
  const id = value<{ id?: string }>(board, CARD_TAG)?.id;
  return id === undefined ? undefined : cards.find((c) => c.cardId === id);
}

export function scoreOf(board: Blackboard): ScoreNow {
  const s = value<{ 得分?: number; 答对?: number }>(board, SCORE_TAG);
  const p = value<{ 已用?: unknown[] }>(board, PROGRESS_TAG);
  return { score: Number(s?.得分 ?? 0) || 0, correct: Number(s?.答对 ?? 0) || 0, played: Array.isArray(p?.已用) ? p.已用.length : 0 };
}

const GESTURES: readonly Gesture[] = ['nod', 'shake', 'none'];

export function turnChanges(before: Blackboard, after: Blackboard, cards: readonly CardAsset[]): TurnChanges {
  const out: TurnChanges = { score: scoreOf(after), unit: after.tags[ACTION_TAG] ? 'actions' : 'cards' };
  if (revision(after, ACTION_TAG) !== revision(before, ACTION_TAG)) {
    const a = value<{ 说法?: string; 表情?: string; 头?: string; 陷阱?: boolean }>(after, ACTION_TAG);
    if (a?.说法)
      out.newAction = {
        say: a.说法,
        expression: EXPRESSIONS.includes(a.表情 as Expression) ? (a.表情 as Expression) : 'happy',
        gesture: GESTURES.includes(a.头 as Gesture) ? (a.头 as Gesture) : 'none',
        trick: a.陷阱 === true,
      };
  }
  if (revision(after, STORY_TAG) !== revision(before, STORY_TAG)) {
    const st = value<{ 轮?: number; 轮数?: number }>(after, STORY_TAG);
    out.story = { round: Number(st?.轮) || 0, rounds: Number(st?.轮数) || 0 };
  }
  if (revision(after, VERDICT_TAG) !== revision(before, VERDICT_TAG)) {
    const v = value<{ 结果?: string; 答案?: string }>(after, VERDICT_TAG);
    if (v?.结果 === '对' || v?.结果 === '错' || v?.结果 === '不知道') {
      out.verdict = { result: v.结果, ...(typeof v.答案 === 'string' && v.答案 ? { revealed: v.答案 } : {}) };
      const judged = currentCardOf(before, cards);
      if (judged) out.judgedCard = judged;
    }
  }
  if (revision(after, CARD_TAG) !== revision(before, CARD_TAG)) {
    const card = currentCardOf(after, cards);
    if (card) {
      const n = Number(value<{ 第几张?: number }>(after, PROGRESS_TAG)?.第几张);
      out.newCard = { card, number: Number.isFinite(n) && n > 0 ? n : out.score.played || 1 };
    }
  }
  return out;
}

/** The card's answer or alias that `text` names (as squashed), if any. */
export function answerNamedIn(text: string, card: Pick<CardAsset, 'answer' | 'aliases'>): string | undefined {
  const t = squash(text);
  return [card.answer, ...card.aliases].map(squash).find((n) => n.length > 0 && t.includes(n));
}

/** True when `text` names the card's answer or one of its aliases. */
export function namesAnswer(text: string, card: Pick<CardAsset, 'answer' | 'aliases'>): boolean {
  return answerNamedIn(text, card) !== undefined;
}

/**
 * The card as the robot's screen shows it: a picture card's description, else its question. The
 * screen is for the child too, so a text that would name the answer is never shown.
 */
export function cardScreenText(card: CardAsset, number: number): string {
  const head = `第${number}题`;
  for (const t of [card.kind === 'picture' ? card.picture : undefined, card.prompt]) {
    if (t && !namesAnswer(t, card)) return `${head}：${t}`;
  }
  return `${head}：猜猜看！`;
}

/**
 * What the robot says when a card did not reach its screen (the robot reported it could not show
 * it): the card read aloud, so the child is never told to look at a screen that does not show it.
 */
export function cardReadAloud(card: TextCard): string {
  return `屏幕上的字没显示出来，我念给你听：${card.text}`;
}

export function deviceEffects(ch: TurnChanges, ended: boolean): DeviceEffect[] {
  const out: DeviceEffect[] = [];
  if (ch.verdict?.result === '对') out.push({ op: 'react', expression: 'happy', gesture: 'nod' });
  else if (ch.verdict?.result === '错') out.push({ op: 'react', expression: 'sorry', gesture: 'shake' });
  if (ch.newCard && !ended) {
    const text = { text: cardScreenText(ch.newCard.card, ch.newCard.number) };
    out.push(ch.newCard.card.drawing ? { op: 'showDrawing', drawingId: ch.newCard.card.drawing, fallback: text } : { op: 'showText', card: text });
  }
  if (ch.newAction && !ended) {
    const a = ch.newAction;
    out.push({ op: 'react', expression: a.expression, gesture: a.gesture }, { op: 'showText', card: { text: a.trick ? `${a.say}！` : `我说：${a.say}！` } });
  }
  if (ch.story && !ended) {
    if (ch.story.round > 0) out.push({ op: 'react', expression: 'happy', gesture: 'nod' });
    out.push({ op: 'showProgress', progress: { current: ch.story.round, total: Math.max(1, ch.story.rounds), label: '一起讲故事' } });
  }
  if (ended && ch.score.played > 0) {
    const label = ch.unit === 'actions' ? `做对 ${ch.score.correct} 个` : `答对 ${ch.score.correct} 张 · ${ch.score.score} 分`;
    out.push({ op: 'showProgress', progress: { current: ch.score.correct, total: Math.max(1, ch.score.played), label } });
  }
  return out;
}
