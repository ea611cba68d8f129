/**
 * The runtime owns the answer: no prompt sent to the model contains the secret number or the
 * current animal (name or any alias) before it is revealed. Whole games are played with the demo
 * policies; every request is scanned at the moment it is sent.
 *
 * Scanned: everything that changes between requests — the state snapshot sent with each input, the
 * remembered rounds, the tool calls and tool responses of the turn. Not scanned: the child's own
 * words (user_text), which may name the answer only when the child says it, and the system prompt
 * (common prompt and SKILL.md body), which is the same for every secret and so cannot carry one.
 */
import { describe, expect, it } from 'vitest';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { createScriptedModel } from '../../../src/llm/scripted.ts';
import type { ChatModel, ScriptPolicy, StepRequest } from '../../../src/core/llm/types.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy as guessPolicy } from '../../../skills/guess-number/demo.ts';
import { DrawGuessAgent } from '../../../skills/draw-guess/game.ts';
import { policy as drawPolicy } from '../../../skills/draw-guess/demo.ts';
import { ANIMALS } from '../../../skills/draw-guess/animals.ts';
import type { Card } from '../../../skills/draw-guess/rules.ts';
import { FakeDevice, secretRandom, send } from './helpers.ts';

/** The parts of a request that can differ with the secret, without the child's words. */
export function dynamicText(req: StepRequest): string {
  return req.messages
    .map((m) => {
      if (m.role === 'system') return ''; // the common prompt and SKILL.md body: the same for every secret
      try {
        const v = JSON.parse(m.content) as { event?: string; user_text?: string };
        // An input message: everything but the child's own words (the state snapshot included).
        if (m.role === 'user' && typeof v.event === 'string') return JSON.stringify({ ...v, user_text: undefined });
      } catch {
        // not an input message
      }
      return m.content;
    })
    .join('\n');
}

/** A model that checks every request before the demo policy answers it. */
function guardedModel(agentName: string, policy: ScriptPolicy, check: (req: StepRequest) => void): { model: ChatModel; count: () => number } {
  const inner = createScriptedModel({ [agentName]: policy });
  let n = 0;
  return {
    count: () => n,
    model: {
      label: 'guarded',
      step(req) {
        n++;
        check(req);
        return inner.step(req);
      },
    },
  };
}

describe('the secret number never reaches a prompt before it is revealed', () => {
  const secrets = [8, 13, 23, 37, 42, 64, 77, 88, 91, 99];
  it.each(secrets)('secret %i: a win, a loss, hints and an end — every prompt scanned', async (secret) => {
    let current: GuessNumberAgent | undefined;
    const pattern = new RegExp(`(?<!\\d)${secret}(?!\\d)`);
    const leaks: string[] = [];
    const { model, count } = guardedModel('game:guess-number', guessPolicy, (req) => {
      const g = current!.game;
      if (g.revealed || g.peekSecret() !== secret) return;
      const text = dynamicText(req);
      if (pattern.test(text)) leaks.push(text);
    });
    const device = new FakeDevice();
    const service = new GameSessions({
      create: () => (current = new GuessNumberAgent({ model, device, random: () => secretRandom(secret) })),
      device,
      source: 'game:test',
    });

    // A win by halving, asking for every hint on the way.
    await send(service, 'start', '玩猜数字', 'win');
    let [lo, hi] = [1, 100];
    for (let i = 0; i < 3; i++) await send(service, 'message', '给我提示', 'win');
    for (let i = 0; i < 7; i++) {
      const n = Math.floor((lo + hi) / 2);
      const { reply } = await send(service, 'message', `我猜${n}`, 'win');
      if (reply.session === 'ended') break;
      if (reply.text.includes('大了')) hi = n - 1;
      else lo = n + 1;
    }
    expect(current!.game.phase).toBe('won');

    // A loss: seven guesses on the wrong side, none of them the secret.
    await send(service, 'start', '再玩一次', 'loss');
    const wrong = secret > 50 ? [1, 2, 3, 4, 5, 6, 7] : [94, 95, 96, 97, 98, 99, 100];
    for (const n of wrong) await send(service, 'message', `${n}`, 'loss');
    expect(current!.game.phase).toBe('lost');

    // Ended by the child in the middle.
    await send(service, 'start', '再来', 'end');
    await send(service, 'message', '提示', 'end');
    await send(service, 'message', secret > 50 ? '我猜10' : '我猜90', 'end');
    const end = await send(service, 'end', '', 'end');
    expect(end.reply.text).toContain(`答案是 ${secret}`);

    // The rules take the judging steps before the model is asked: one prompt per turn or more.
    expect(count()).toBeGreaterThan(15);
    expect(leaks).toEqual([]);
  });
});

describe('the current animal never reaches a prompt before it is revealed', () => {
  const deck = ANIMALS as readonly Card[];
  const namesOf = (c: Card) => [c.name, ...c.aliases].filter(Boolean);
  const han = (c: Card) => new Set(namesOf(c).flatMap((n) => [...n].filter((ch) => /\p{Script=Han}/u.test(ch))));
  const latin = (c: Card) => namesOf(c).filter((n) => /^[a-z ]+$/i.test(n)).map((n) => n.toLowerCase());
  /** Whether a wrong guess could contain one of the answer's names (then the scan could not tell). */
  const shares = (a: Card, b: Card) =>
    [...han(a)].some((ch) => han(b).has(ch)) || latin(a).some((x) => latin(b).some((y) => x.includes(y) || y.includes(x)));

  it('every animal of the catalog: wrong guesses, all hints, right answers, skips and an end', async () => {
    let current: DrawGuessAgent | undefined;
    const leaks: Array<{ animal: string; found: string; text: string }> = [];
    const { model, count } = guardedModel('game:draw-guess', drawPolicy, (req) => {
      const g = current!.game;
      if (g.phase === 'ready' || g.revealedAnswer) return;
      const answer = g.card;
      const text = dynamicText(req);
      for (const n of [answer.name, ...answer.aliases]) if (n && text.includes(n)) leaks.push({ animal: answer.name, found: n, text });
    });
    const device = new FakeDevice();
    const drawn = () => {
      const d = device.calls.filter((c) => c.op === 'showDrawing').at(-1) as { drawing: { id: string } };
      return deck.find((c) => (c.drawing.id || c.id) === d.drawing.id)!;
    };

    for (let start = 0; start < deck.length; start += 3) {
      const slice = deck.slice(start, start + 3);
      const cards = slice.length === 3 ? slice : [...slice, ...deck.slice(0, 3 - slice.length)];
      const service = new GameSessions({
        create: () => (current = new DrawGuessAgent({ model, device, random: () => 0.9999 }, { deck: cards })),
        device,
        source: 'game:test',
      });
      const ctxId = `game-${start}`;
      await send(service, 'start', '玩你画我猜', ctxId);
      for (let q = 0; q < 3; q++) {
        const card = drawn();
        // A wrong guess that shares no character with any animal of this game (so the child never
        // names a later answer himself).
        const other = deck.find((c) => cards.every((k) => c !== k && !shares(c, k)))!;
        await send(service, 'message', `是${other.name}吗`, ctxId);
        for (let h = 0; h <= card.hints.length; h++) await send(service, 'message', '给我一个提示', ctxId);
        if (start === 0 && q === 2) {
          const end = await send(service, 'end', '', ctxId);
          expect(end.reply.text).toContain(card.name);
          break;
        }
        const r = (start + q) % 4 === 3 ? await send(service, 'message', '跳过', ctxId) : await send(service, 'message', `我觉得是${card.name}`, ctxId);
        if (q === 2) expect(r.reply.session).toBe('ended');
      }
    }
    expect(count()).toBeGreaterThan(deck.length * 5);
    expect(leaks.map((l) => `${l.animal} ← ${l.found}: …${l.text.slice(Math.max(0, l.text.indexOf(l.found) - 120), l.text.indexOf(l.found) + 40)}…`)).toEqual([]);
  });
});
