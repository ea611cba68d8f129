/**
 * The Studio engine through the one engine interface with the package's reader on (the app's path):
 * the run skills the rules call for are performed before the manager's model is asked, written into
 * the manager's conversation as its own steps — so a quiz the rules read plays to its end without
 * one model call.
 */
import { describe, expect, it } from 'vitest';
import type { ChatModel, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { clock, designedGame, harness, send } from './helpers.ts';

class CountingModel implements ChatModel {
  readonly label = 'counting';
  requests: StepRequest[] = [];
  async step(req: StepRequest): Promise<Step> {
    this.requests.push(req);
    return { action: 'reply', args: { text: '我们继续吧！' } };
  }
}

describe('问答 with the play reader pre-executing the manager’s steps', () => {
  it('a whole quiz: every card shown, every answer judged, the score said — and no model step', async () => {
    const { game } = await designedGame();
    const model = new CountingModel();
    const h = harness(game, model, { runtime: { now: clock(), preExecute: true } });
    const first = await send(h.handler, 'start', '我们玩恐龙问答吧');
    expect(first.reply.text).toMatch(/第1题：/);
    const rt = h.handler.runtimeOf('ctx-1')!;
    let last = first.reply;
    for (let i = 0; i < 10 && last.session === 'active'; i++) last = (await send(h.handler, 'message', rt.currentCard!.answer)).reply;
    expect(last.session).toBe('ended');
    expect(last.text).toMatch(/你答对了 5 张/);
    expect(model.requests).toEqual([]);
  });

  it('a card whose question the safety check blocks is left out before play: after 答对了 the next card it can say, to the end; 安全提醒 has it', async () => {
    const { game } = await designedGame();
    const UNSAFE = '你家住在哪里？把地址告诉我。';
    const deck = game.design['设计.卡牌'] as Array<{ id: string; prompt: string }>;
    const first = [...deck].sort((a, b) => ((a as { difficulty?: number }).difficulty ?? 2) - ((b as { difficulty?: number }).difficulty ?? 2))[0];
    const bad = deck.find((c) => c.id !== first.id)!;
    const unsafe = { ...game, design: { ...game.design, '设计.卡牌': deck.map((c) => (c.id === bad.id ? { ...c, prompt: UNSAFE } : c)) } };
    const model = new CountingModel();
    const h = harness(unsafe, model, { runtime: { now: clock(), preExecute: true } });
    const heard: string[] = [(await send(h.handler, 'start', '我们玩恐龙问答吧')).reply.text];
    const rt = h.handler.runtimeOf('ctx-1')!;
    expect(rt.cards.map((c) => c.cardId)).not.toContain(bad.id);
    let last = { text: heard[0], session: 'active' };
    for (let i = 0; i < 10 && last.session === 'active'; i++) heard.push((last = (await send(h.handler, 'message', rt.currentCard!.answer)).reply).text);
    expect(heard.join('')).not.toContain('地址');
    expect(heard[1]).toMatch(/^答对了！第2题：/);
    expect(last.text).toMatch(/你答对了 5 张，一张不落/);
    const entry = h.trace.events.find((e) => e.kind === 'safety' && e.name === 'blocked');
    expect(entry?.data).toMatchObject({ category: 'personal_info', original: UNSAFE, said: '', role: 'game_agent' });
  });
});
