/**
 * bench/llm records the real agents' requests (not hand-written samples) and its what-if
 * rewrites keep every message while moving only what they say they move.
 */
import { describe, expect, it } from 'vitest';
import { charTokenizer, continuesInPlace, measureSequence, summarize, type BenchSequence } from '../../../bench/llm/measure.ts';
import { discoverGames, genericChild, recordGame } from '../../../bench/llm/record-game.ts';
import { recordStudio } from '../../../bench/llm/record-studio.ts';
import { halvingChild } from '../../../bench/llm/sequences/guess-number.ts';
import { drawGuessChild } from '../../../bench/llm/sequences/draw-guess.ts';
import { designTagsFirstInView, hasTurnState, turnStateInUserMessage } from '../../../bench/llm/what-if.ts';
import { readStep } from '../../../src/core/agent/messages.ts';
import type { ChatMessage } from '../../../src/core/llm/types.ts';

const root = new URL('../../../', import.meta.url).pathname;

describe('recording game agents', () => {
  it('finds every built-in game folder (SKILL.md + game.ts + demo.ts), not the studio packages', () => {
    const games = discoverGames(root);
    expect(games).toEqual(expect.arrayContaining(['guess-number', 'draw-guess']));
    expect(games).not.toContain('quiz-cards');
  });

  it('records the real 猜数字 agent: its own prompt, every step, a win after a wrong guess and a hint', async () => {
    const s = await recordGame('guess-number', halvingChild(), { seed: 28 });
    expect(s.turns.map((t) => t.input.text)).toEqual(['我们来玩猜数字吧', '我猜五十', '好难呀，给我一点提示', '是二十五吗', '是三十七吗', '是四十三吗']);
    const last = s.turns.at(-1)!;
    expect(last.reply.session).toBe('ended');
    expect([...last.said, last.reply.text].join('')).toContain('43');
    expect(s.steps).toHaveLength(s.turns.reduce((n, t) => n + t.steps, 0));
    for (const step of s.steps) {
      expect(step.agent).toBe('game:guess-number');
      // The state snapshot rides with each input, not in the (session-stable) system prompt.
      expect(step.messages[0].content).not.toContain('"tries_left"');
      expect(step.messages.some((m) => m.role === 'user' && m.content.includes('"state":'))).toBe(true);
      expect(step).not.toHaveProperty('signal');
    }
    // The tool loop is in the requests: the guess step (pre-executed by the game's reader) and its verdict come before the model's reply.
    expect(s.steps.some((q) => q.messages.slice(-4).some((m) => m.content.includes('"too_big"')))).toBe(true);
    expect(hasTurnState({ agent: 'g', title: 't', steps: s.steps })).toBe(false);
  });

  it('records 你画我猜 with drawing, a right answer on cue, a skip and the end', async () => {
    const s = await recordGame('draw-guess', drawGuessChild);
    expect(s.turns.map((t) => t.input.kind)).toEqual(['start', 'message', 'message', 'message', 'message', 'message', 'end']);
    const heard = (t: (typeof s.turns)[number]) => [...t.said, t.reply.text].join('');
    expect(heard(s.turns[3])).toContain('第 2 题');
    expect(heard(s.turns[4])).toContain('第 3 题');
    expect(s.turns.at(-1)!.reply.session).toBe('ended');
    expect(s.steps.flatMap((q) => q.messages.filter((m) => m.role === 'assistant').map((m) => readStep(m)?.action))).toContain('show_drawing');
  });

  it('the generic child plays any discovered game to an end', async () => {
    for (const id of discoverGames(root)) {
      const s = await recordGame(id, genericChild);
      expect(s.turns[0].input.kind).toBe('start');
      expect(s.turns.at(-1)!.reply.session).toBe('ended');
      expect(s.steps.length).toBeGreaterThanOrEqual(s.turns.length);
    }
  });
});

describe('recording the Studio', () => {
  it('records the design manager and helpers, then a play session to its end', async () => {
    const r = await recordStudio();
    const agents = new Set(r.design.map((q) => q.agent));
    expect(agents).toContain('studio:manager');
    expect([...agents].filter((a) => a.startsWith('studio:helper:')).length).toBeGreaterThanOrEqual(4);
    // 问答卡牌's run skills are code and the package's reader takes the manager's steps the rules
    // decide: in play no helper is prompted, and the manager only for what the rules cannot read.
    expect(r.play.filter((q) => q.agent !== 'studio:manager')).toEqual([]);
    expect(r.turns[0].reply.text).toContain('第1题');
    expect(r.turns.at(-1)).toMatchObject({ kind: 'end', reply: { session: 'ended' } });
  });
});

const sys = (c: string): ChatMessage => ({ role: 'system', content: c });
const user = (c: string): ChatMessage => ({ role: 'user', content: c });
const asst = (c: string): ChatMessage => ({ role: 'assistant', content: c });

describe('WebLLM in-place continuation', () => {
  it('holds only for the previous messages + one assistant reply + the new last message', () => {
    const prev = [sys('S'), user('a')];
    expect(continuesInPlace(prev, [...prev, asst('x'), user('b')])).toBe(true);
    expect(continuesInPlace(prev, [...prev, asst('x'), user('r'), user('b')])).toBe(false);
    expect(continuesInPlace(prev, [sys('S2'), user('a'), asst('x'), user('b')])).toBe(false);
    expect(continuesInPlace(undefined, prev)).toBe(false);
    const seq: BenchSequence = { agent: 'g', title: 't', steps: [{ agent: 'g', tools: [], messages: prev }, { agent: 'g', tools: [], messages: [...prev, asst('x'), user('b')] }] };
    const s = summarize(measureSequence(seq, charTokenizer));
    expect(s.inPlace).toBe(1);
    expect(s.webllmPrefill).toBe(s.totalNew);
  });
});

describe('what-if rewrites', () => {
  const system = (state: string) => sys(`规则\n\n# 现在可用的动作\n- reply\n\n# 当前状态\n${state}`);
  const seq: BenchSequence = {
    agent: 'game:t',
    title: 't',
    steps: [
      { agent: 'game:t', tools: [], messages: [system('{"n":0}'), user('{"event":"start"}')] },
      { agent: 'game:t', tools: [], messages: [system('{"n":1}'), user('{"event":"start"}'), asst('{"action":"reply"}'), user('{"event":"message"}')] },
    ],
  };

  it('moves the state snapshot into the turn message; remembered rounds stay bare or keep what they were sent with', () => {
    const plain = turnStateInUserMessage(seq, { moved: 'state', memory: 'plain' });
    expect(plain.steps[1].messages[0].content).toBe('规则\n\n# 现在可用的动作\n- reply');
    expect(plain.steps[1].messages.map((m) => m.content).slice(1)).toEqual(['{"event":"start"}', '{"action":"reply"}', '# 当前状态\n{"n":1}\n\n{"event":"message"}']);
    const sent = turnStateInUserMessage(seq, { moved: 'actions+state', memory: 'as-sent' });
    expect(sent.steps[1].messages[0].content).toBe('规则');
    expect(sent.steps[1].messages[1].content).toBe('# 现在可用的动作\n- reply\n\n# 当前状态\n{"n":0}\n\n{"event":"start"}');
    // The first request is unchanged by memory handling, and token counts differ only by the move.
    expect(sent.steps[0].messages[1].content).toBe(sent.steps[1].messages[1].content);
  });

  it('lists the design tags first in a board view, losing no section', () => {
    const view = '# 当前黑板（你读取的标签）\n## 运行.当前卡\n{"id":"c1"}\n\n## 设计.卡牌\n[1,2]\n\n## 设计.角色\n{}';
    expect(designTagsFirstInView(view)).toBe('# 当前黑板（你读取的标签）\n## 设计.卡牌\n[1,2]\n\n## 设计.角色\n{}\n\n## 运行.当前卡\n{"id":"c1"}');
    const ordered = '# 当前黑板（你读取的标签）\n## 设计.卡牌\n[1]\n\n## 运行.进度\n{}';
    expect(designTagsFirstInView(ordered)).toBe(ordered);
  });
});
