/**
 * "Prompts never contain an unrevealed answer", checked on every model request of whole
 * games: the manager (also when it reads the blackboard), every run helper, every turn. A card's
 * answer and aliases may appear only once the card is over (judged right or revealed) or after the
 * child said the name themselves.
 */
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../../../src/core/agent/messages.ts';
import type { ScriptPolicy, StepRequest } from '../../../src/core/llm/types.ts';
import { cardsFromDesign } from '../../../src/core/studio/cards.ts';
import type { PlayableGame } from '../../../src/studio/play-stage.ts';
import type { CardAsset } from '../../../src/core/studio/types.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';

const managerReadsFirst: ScriptPolicy = (req) => {
  // At the start of every burst the manager looks at the blackboard (a loop tool), then plays on.
  if (/(^|\n)\[孩子\] /.test(req.messages.at(-1)!.content)) return { action: 'read_blackboard', args: {} };
  return demoModel().model.step(req) as never;
};

const promptText = (r: StepRequest) => r.messages.map((m) => m.content).join('\n') + JSON.stringify(r.tools);
const names = (c: CardAsset) => [c.answer, ...c.aliases];

async function playAndScan(game: PlayableGame, moves: (card: CardAsset, turnOnCard: number) => string) {
  const { model, requests } = demoModel({ 'studio:manager': managerReadsFirst });
  const h = harness(game, model);
  const over = new Set<string>();
  const said: string[] = [];
  let scanned = 0;
  const scan = (from: number) => {
    for (const r of requests.slice(from)) {
      const text = promptText(r);
      // Revealed by the runtime's judge in this very turn (the card is over; the reply will say it).
      const judged = r.messages.flatMap((m) => toolResultsIn(m).flatMap((t) => (t.name === 'run_helper' && typeof t.result === 'string' && t.result.startsWith('judge-answer 已更新：') ? [t.result] : [])));
      for (const c of game.cards) {
        if (over.has(c.cardId) || judged.some((j) => j.includes(`"答案":"${c.answer}"`))) continue;
        for (const n of names(c)) {
          if (said.some((s) => s.includes(n))) continue;
          expect(text.includes(n), `${r.agent} saw the unrevealed answer「${n}」of ${c.cardId}`).toBe(false);
        }
      }
      scanned++;
    }
  };
  const turn = async (kind: 'start' | 'message', text: string) => {
    const from = requests.length;
    said.push(text);
    const r = await send(h.handler, kind, text);
    scan(from);
    for (const e of h.trace.events) if (e.name === 'reveal') over.add((e.data as { card: string }).card);
    // What the child hears (composed by the run skills' code) names no card that is still open.
    for (const c of game.cards) {
      if (over.has(c.cardId)) continue;
      for (const n of names(c)) if (!said.some((s) => s.includes(n))) expect(r.reply.text.includes(n), `the reply named「${n}」`).toBe(false);
    }
    return r.reply;
  };

  let reply = await turn('start', '我们玩吧');
  const rt = h.handler.runtimeOf('ctx-1')!;
  let onCard = 0;
  let cardId = rt.currentCard!.cardId;
  for (let i = 0; i < 40 && reply.session === 'active'; i++) {
    const card = rt.currentCard!;
    if (card.cardId !== cardId) [cardId, onCard] = [card.cardId, 0];
    reply = await turn('message', moves(card, onCard++));
  }
  expect(reply.session).toBe('ended');
  // What the robot's screen showed: each card while it was asked, never with an answer.
  const shown = h.device.calls.flatMap((c) => (c.op === 'showText' ? [c.card.text] : []));
  expect(shown.length).toBeGreaterThanOrEqual(5);
  for (const t of shown) for (const c of game.cards) for (const n of names(c)) expect(t.includes(n), `the screen showed「${n}」`).toBe(false);
  return { requests, scanned, over, h };
}

describe('no prompt ever holds an unrevealed answer', () => {
  it('a whole 恐龙问答: hints, reveals, right and wrong answers, the manager reading the blackboard each burst', async () => {
    const { game } = await designedGame();
    const { requests, scanned, over } = await playAndScan(game, (card, n) => {
      const i = game.cards.indexOf(card);
      if (i % 2 === 0) return n === 0 ? '不知道' : card.answer; // a hint first, then right
      return ['不知道', '嗯……', '我猜不到'][n] ?? '不知道'; // never found: the answer is revealed
    });
    expect(scanned).toBe(requests.length);
    expect(requests.length).toBeGreaterThan(25);
    // The run skills are code: the only prompts of the play stage are the manager's.
    const agents = new Set(requests.map((r) => r.agent));
    expect([...agents]).toEqual(['studio:manager']);
    expect(requests.some((r) => r.messages.some((m) => toolResultsIn(m).some((t) => t.name === 'read_blackboard')))).toBe(true);
    expect(over.size).toBe(5);
  });

  it('a deck whose questions are short (so a shortened blackboard view would reach the answer field)', async () => {
    const { game } = await designedGame();
    const deck = (game.design['设计.卡牌'] as Array<Record<string, unknown>>).map((c) => ({ ...c, prompt: '猜猜我是谁？', kind: 'question', picture: undefined }));
    const design = { ...game.design, '设计.卡牌': deck };
    const short: PlayableGame = { ...game, design, cards: cardsFromDesign('p1', deck) };
    await playAndScan(short, (card, n) => (n === 0 ? '不知道' : card.answer));
  });
});
