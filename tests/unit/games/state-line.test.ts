/**
 * The state line of a game's round input carries only what changed since the state the remembered
 * rounds told; merged in order, the lines tell the whole state (what the readers and demo policies
 * read), and a conversation cut to its last rounds gets the rest written again. A round of 猜数字
 * then costs far fewer characters, and every reader still reads the game's whole state.
 */
import { describe, expect, it } from 'vitest';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy as guessPolicy } from '../../../skills/guess-number/demo.ts';
import { readTurn } from '../../../src/core/games/demo-kit.ts';
import { stateChange, stateLine, toldState, withChange } from '../../../src/core/games/state-line.ts';
import { inputMessage } from '../../../src/core/games/game-prompt.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';
import { ctx, FakeDevice, scriptedRecording, secretRandom } from './helpers.ts';

const playing = { phase: 'playing', tries_left: 6, guesses: [{ number: 50, result: 'too_big' }], current: { status: 'open', attempts_left: 2, hints: 0 } };

describe('the state line', () => {
  it('is what changed: a nested object by its changed keys, an array whole, a key gone as null; nothing changed: no line', () => {
    const now = { phase: 'playing', tries_left: 5, guesses: [{ number: 50, result: 'too_big' }, { number: 25, result: 'too_small' }], current: { status: 'open', attempts_left: 1 } };
    expect(stateChange(playing, now)).toEqual({ tries_left: 5, guesses: now.guesses, current: { attempts_left: 1, hints: null } });
    expect(withChange(playing, stateChange(playing, now))).toEqual(now);
    expect(stateChange(now, now)).toEqual({});
  });

  it('is merged in order from every round input of a conversation (other messages tell nothing)', () => {
    const later = { ...playing, tries_left: 5 };
    const messages: ChatMessage[] = [
      { role: 'system', content: '# 猜数字' },
      inputMessage('message', '我猜50', playing),
      { role: 'assistant', content: '{"reply":{"text":"好"}}' },
      inputMessage('message', '我猜25', stateLine([inputMessage('message', '', playing)], later)),
      { role: 'user', content: '<tool_response>{"name":"submit_guess","result":{"state":{"phase":"x"}}}</tool_response>' },
    ];
    expect(JSON.parse(messages[3].content).state).toEqual({ tries_left: 5 });
    expect(toldState(messages)).toEqual(later);
    expect(stateLine(messages, later)).toBeUndefined();
    // Cut to its last round, the conversation no longer tells the rest: the next line writes it again.
    expect(stateLine(messages.slice(3), later)).toEqual({ phase: 'playing', guesses: playing.guesses, current: playing.current });
  });

  it("猜数字: a round's input carries a few fields, and the reader still reads the whole state (range, phase) from the lines", async () => {
    const { model, requests } = scriptedRecording('game:guess-number', guessPolicy);
    const agent = new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(63) });
    let before: Record<string, unknown> = {};
    for (const [kind, text] of [['start', ''], ['message', '给我一个提示'], ['message', '我猜50'], ['message', '我猜25']] as const) {
      const c = ctx();
      before = structuredClone(agent.state());
      await agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say });
    }
    const last = requests.at(-1)!;
    const input = [...last.messages].reverse().find((m) => m.content.startsWith('{"event":'))!;
    // Only what 「我猜50」 changed: tries, guesses, what is still possible — not the range or the rules.
    expect(Object.keys(JSON.parse(input.content).state).sort()).toEqual(['guesses', 'still_possible', 'tries_left']);
    expect(input.content.length).toBeLessThan(inputMessage('message', '我猜25', before).content.length * 0.7);
    expect(readTurn(last).state).toEqual(before);
    // The rules read 25 without the model: judged once.
    expect(agent.game.guesses.map((g) => g.number)).toEqual([50, 25]);
  });
});
