/**
 * A Studio game when the robot cannot show its card: the engine reads the card aloud, so the
 * child is never asked to look at a screen that does not show it.
 */
import { describe, expect, it } from 'vitest';
import { cardReadAloud } from '../../../src/core/studio/device-effects.ts';
import type { DeviceResult, TextCard } from '../../../src/core/robot/types.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';

describe('a Studio game and a card the robot could not show', () => {
  it('reads the card aloud before the reply; a shown card is not read', async () => {
    const { game } = await designedGame();
    const h = harness(game, demoModel().model);
    const results: DeviceResult[] = [{ device_completed: false, error: 'robot_card_not_shown: 屏幕上的字没显示出来，我念给你听。' }];
    const showText = h.device.showText.bind(h.device);
    h.device.showText = async (card: TextCard) => {
      await showText(card);
      return results.shift() ?? { device_completed: true };
    };
    const first = await send(h.handler, 'start', '我们玩恐龙问答吧');
    const card = h.device.calls.find((c) => c.op === 'showText') as { op: 'showText'; card: TextCard };
    expect(first.said).toEqual(['好呀，我们来玩恐龙问答！', cardReadAloud(card.card)]);
    expect(cardReadAloud(card.card)).toBe(`屏幕上的字没显示出来，我念给你听：${card.card.text}`);
    const record = h.trace.events.find((e) => e.kind === 'device' && e.name === 'showText')!;
    expect(record.data).toMatchObject({ result: { device_completed: false } });

    const rt = h.handler.runtimeOf('ctx-1')!;
    const right = await send(h.handler, 'message', rt.currentCard!.answer);
    expect(right.said.some((s) => s.startsWith('屏幕上的字没显示出来'))).toBe(false);
  });
});
