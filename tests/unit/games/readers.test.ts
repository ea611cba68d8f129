/**
 * Game readers and pre-executed steps (src/core/games/reader.ts, skills/<id>/reader.ts): each
 * reader over the utterance corpus, the pre-executed step in the next request exactly as a model
 * step, the already-said check, ambiguous words never pre-executed, a reader's tool error to the
 * model, the second judgement refused, and the colour window.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { read as readGuess } from '../../../skills/guess-number/reader.ts';
import { read as readDraw } from '../../../skills/draw-guess/reader.ts';
import { reader as readQuiz } from '../../../skills/quiz-cards/reader.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { truth as guessTruth } from '../../../skills/guess-number/truth.ts';
import { GuessNumberGame, DEFAULT_CONFIG } from '../../../skills/guess-number/rules.ts';
import { alreadySaid, claimForm, repeatsClaims } from '../../../src/core/games/already-said.ts';
import type { TurnView } from '../../../src/core/games/demo-kit.ts';
import type { GameRules } from '../../../src/core/games/reader.ts';
import { heardInsteadNote } from '../../../src/core/games/muted-round.ts';
import { readToolResult, stepMessage, toolResultMessage } from '../../../src/core/agent/messages.ts';
import type { ChatMessage, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { ASK, GUESSES, NOT_GUESSES } from '../../support/utterances.ts';
import { ctx, FakeDevice, RecordingModel, secretRandom } from './helpers.ts';

const view = (userText: string, over: Partial<TurnView> = {}): TurnView => ({
  event: 'message',
  userText,
  done: [],
  state: { phase: 'playing', range: [1, 100] },
  legal: new Set(['submit_guess', 'get_hint', 'start_game', 'end_game', 'say', 'reply']),
  ...over,
});

describe('猜数字 reader over the utterance corpus', () => {
  it(`exactly one number in range is a guess (${GUESSES.length} utterances)`, () => {
    for (const [words, n] of GUESSES) {
      const step = readGuess(view(words));
      if (n >= 1 && n <= 100) expect(step, words).toEqual({ action: 'submit_guess', args: { number: n } });
      // Out of range: never pre-executed (the model, or the rules brain, says the range).
      else expect(step, words).toBeNull();
    }
  });

  it(`words that are no guess are never judged (${NOT_GUESSES.length} utterances: 一个 / 一下 / 一次 …)`, () => {
    for (const words of NOT_GUESSES) {
      const step = readGuess(view(words));
      expect(step?.action, words).not.toBe('submit_guess');
      if (step) expect(['get_hint', 'end_game'], words).toContain(step.action);
    }
    expect(readGuess(view('给我一个提示'))).toEqual({ action: 'get_hint', args: {} });
    expect(readGuess(view('不玩了'))).toEqual({ action: 'end_game', args: {} });
  });

  it(`about a number or several numbers: nothing, the model asks (${ASK.length} utterances: 六十多 / 两个数 …)`, () => {
    for (const [words] of ASK) expect(readGuess(view(words)), words).toBeNull();
  });

  it('judges once: after this turn\'s guess, nothing more; start and end are read from the event', () => {
    expect(readGuess(view('我猜50', { done: [{ action: 'submit_guess', args: { number: 50 }, result: { result: 'too_big' } }] }))).toBeNull();
    expect(readGuess(view('玩', { event: 'start', state: { phase: 'ready' } }))).toEqual({ action: 'start_game', args: {} });
    expect(readGuess(view('', { event: 'end' }))).toEqual({ action: 'end_game', args: {} });
  });
});

describe('你画我猜 reader', () => {
  const open = { phase: 'playing', current: { status: 'open' } };
  const dv = (words: string, done: TurnView['done'] = [], state: Record<string, unknown> = open) =>
    view(words, { done, state, legal: new Set(['submit_answer', 'get_hint', 'skip_question', 'next_question', 'show_drawing', 'show_progress', 'end_game', 'say']) });

  it("during a question the child's words are judged (JEV judges once); 换一个 skips; a hint request gets a hint", () => {
    for (const words of ['是老虎', '我觉得是一只大老虎吧', '小猫', '嗯……让我想想'])
      expect(readDraw(dv(words))).toEqual({ action: 'submit_answer', args: { text: words } });
    expect(readDraw(dv('换一个'))).toEqual({ action: 'skip_question', args: {} });
    expect(readDraw(dv('给我一个提示'))).toEqual({ action: 'get_hint', args: {} });
    expect(readDraw(dv(''))).toBeNull();
    expect(readDraw(dv('是老虎', [{ action: 'submit_answer', args: { text: '是老虎' }, result: { verdict: 'wrong', attempts_left: 2 } }]))).toBeNull();
  });

  it('a right answer or a skip → next_question (it shows the progress), show_drawing (the drawing on every card); the last card ends', () => {
    const right = { action: 'submit_answer', args: { text: '老虎' }, result: { verdict: 'correct', question_over: true, answer: '老虎' } };
    expect(readDraw(dv('老虎', [right]))).toEqual({ action: 'next_question', args: {} });
    const next = { action: 'next_question', args: {}, result: { question: 2 } };
    expect(readDraw(dv('老虎', [right, next]))).toEqual({ action: 'show_drawing', args: {} });
    const drawn = { action: 'show_drawing', args: {}, result: { device_completed: true, question: 2 } };
    expect(readDraw(dv('老虎', [right, next, drawn]))).toBeNull();
    const skip = { action: 'skip_question', args: {}, result: { skipped: true, question_over: true, answer: '老虎' } };
    expect(readDraw(dv('换一个', [skip]))).toEqual({ action: 'next_question', args: {} });
    const last = { action: 'submit_answer', args: { text: '猫' }, result: { verdict: 'correct', question_over: true, game_over: true, answer: '猫' } };
    expect(readDraw(dv('猫', [last]))).toBeNull();
    // A question the model left over in an earlier turn: on to the next one now.
    expect(readDraw(dv('好了', [], { phase: 'playing', current: { status: 'correct' } }))).toEqual({ action: 'next_question', args: {} });
  });
});

describe('问答 (Studio) reader', () => {
  const tools = [{ name: 'run_helper', description: '', parameters: { type: 'object', properties: { skill: { enum: ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up'] } } } }, { name: 'reply', description: '', parameters: {} }];
  const child = (words: string): ChatMessage => ({ role: 'user', content: `[孩子] ${words}` });
  const ran = (lines: string): ChatMessage => toolResultMessage('run_helper', lines);
  const started = [ran('present-card 已更新：{"运行.当前卡":{"id":"c1"}}')];

  it("the child's words → judge-answer; stop words → wrap-up; a first turn → present-card", () => {
    expect(readQuiz({ messages: [child('开始')], tools })).toEqual({ action: 'run_helper', args: { skill: 'present-card' } });
    expect(readQuiz({ messages: [...started, child('是苹果')], tools })).toEqual({ action: 'run_helper', args: { skill: 'judge-answer' } });
    expect(readQuiz({ messages: [...started, child('不玩了')], tools })).toEqual({ action: 'run_helper', args: { skill: 'wrap-up' } });
  });

  it('with the deck known, only words that name an answer (or give up) are judged; chat goes to the model', () => {
    const deck = [{ name: '霸王龙', aliases: ['暴龙'] }, { name: '三角龙', aliases: [] }];
    expect(readQuiz({ messages: [...started, child('我觉得是暴龙')], tools, deck })).toEqual({ action: 'run_helper', args: { skill: 'judge-answer' } });
    expect(readQuiz({ messages: [...started, child('不是三角龙')], tools, deck })).toEqual({ action: 'run_helper', args: { skill: 'judge-answer' } });
    expect(readQuiz({ messages: [...started, child('我不知道')], tools, deck })).toEqual({ action: 'run_helper', args: { skill: 'judge-answer' } });
    expect(readQuiz({ messages: [...started, child('讲个笑话')], tools, deck })).toBeNull();
    expect(readQuiz({ messages: [...started, child('你喜欢什么颜色')], tools, deck })).toBeNull();
  });

  it('the next card after a right answer, a hint after a wrong one, the wrap-up after the last round', () => {
    const judged = (verdict: string, over: boolean) => ran(`judge-answer 已更新：{"运行.判定":${verdict}}\nkeep-score 已更新：{"运行.得分":{"结束":${over}}}`);
    expect(readQuiz({ messages: [...started, child('苹果'), judged('{"结果":"对","卡":"c1"}', false)], tools })).toEqual({ action: 'run_helper', args: { skill: 'present-card' } });
    expect(readQuiz({ messages: [...started, child('香蕉'), judged('{"结果":"错","卡":"c1"}', false)], tools })).toEqual({ action: 'run_helper', args: { skill: 'give-hint' } });
    expect(readQuiz({ messages: [...started, child('苹果'), judged('{"结果":"对","卡":"c1"}', true)], tools })).toEqual({ action: 'run_helper', args: { skill: 'wrap-up' } });
  });
});

describe('故事接龙 and 我说你做 (Studio) reader', () => {
  const offer = (skills: string[]) => [{ name: 'run_helper', description: '', parameters: { type: 'object', properties: { skill: { enum: skills } } } }];
  const child = (words: string): ChatMessage => ({ role: 'user', content: `[孩子] ${words}` });
  const ran = (lines: string): ChatMessage => toolResultMessage('run_helper', lines);

  it("the child's line continues the story; the last round or stop words end it", () => {
    const tools = offer(['story-open', 'story-continue', 'story-say', 'story-end', 'story-finish']);
    const opened = ran('story-open 已更新：{"运行.故事":{"轮":0,"轮数":4}}');
    expect(readQuiz({ messages: [child('讲故事')], tools })).toEqual({ action: 'run_helper', args: { skill: 'story-open' } });
    expect(readQuiz({ messages: [opened, child('小兔子去找妈妈')], tools })).toEqual({ action: 'run_helper', args: { skill: 'story-continue' } });
    expect(readQuiz({ messages: [opened, child('不讲了')], tools })).toEqual({ action: 'run_helper', args: { skill: 'story-end' } });
    const last = ran('story-continue 已更新：{"运行.故事":{"轮":3,"轮数":4}}');
    expect(readQuiz({ messages: [opened, last, child('它们回家了')], tools })).toEqual({ action: 'run_helper', args: { skill: 'story-end' } });
  });

  it('「做好了」 is checked, then the next action or the end', () => {
    const tools = offer(['action-give', 'action-check', 'action-end']);
    const given = ran('action-give 已更新：{"运行.当前动作":{"序号":1}}');
    expect(readQuiz({ messages: [given, child('做好了')], tools })).toEqual({ action: 'run_helper', args: { skill: 'action-check' } });
    const checked = (end: boolean) => ran(`action-check 已更新：{"运行.得分":{"结束":${end}}}`);
    expect(readQuiz({ messages: [given, child('做好了'), checked(false)], tools })).toEqual({ action: 'run_helper', args: { skill: 'action-give' } });
    expect(readQuiz({ messages: [given, child('做好了'), checked(true)], tools })).toEqual({ action: 'run_helper', args: { skill: 'action-end' } });
  });
});

describe('the already-said check', () => {
  it('is punctuation- and particle-insensitive, and finds a sentence inside what was said', () => {
    expect(claimForm('80 大了！')).toBe(claimForm('80大了。'));
    expect(alreadySaid('80 大了。', ['80 大了！'])).toBe(true);
    expect(alreadySaid('80大了哦！', ['80 大了！再小一点哦，还有 6 次机会。'])).toBe(true);
    expect(alreadySaid('还有 6 次机会呀。', ['80 大了！', '再小一点哦，还有 6 次机会。'])).toBe(true);
    expect(alreadySaid('你离答案越来越近啦！', ['80 大了！'])).toBe(false);
    expect(alreadySaid('80 小了！', ['80 大了！'])).toBe(false);
    expect(alreadySaid('好！', ['好，给你一个提示！'])).toBe(false);
  });

  it('drops a sentence that only repeats claims already made, in other words', () => {
    const game = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(63));
    game.start();
    game.guess(80);
    const rules = guessTruth({ results: [{ name: 'submit_guess', args: { number: 80 }, result: { result: 'too_big', number: 80, tries_left: 6 } }], state: game, heard: '我猜80' });
    const claims = (s: string) => rules.claims(s);
    expect(repeatsClaims('80 太大了。', ['80 大了！'], claims)).toBe(true);
    expect(repeatsClaims('80 比答案大哦。', ['80 大了！'], claims)).toBe(true);
    expect(repeatsClaims('比 80 小。', ['80 大了！'], claims)).toBe(false);
    expect(repeatsClaims('你还有 6 次机会。', ['80 大了！再小一点哦，还有 6 次机会。'], claims)).toBe(true);
    expect(repeatsClaims('加油！', ['80 大了！'], claims)).toBe(false);
  });
});

// ── pre-executed steps in the runtime ───────────────────────────────────────────────

const REPLY = (text: string): Step => ({ action: 'reply', args: { text } });

function agentWith(model: RecordingModel, opts: { preExecute?: boolean; colourMs?: number; notedLines?: boolean } = {}) {
  const device = new FakeDevice();
  const agent = new GuessNumberAgent({ model, device, random: () => secretRandom(63), ...opts });
  agent.game.start();
  return { agent, device };
}

async function turn(agent: GuessNumberAgent, text: string) {
  const c = ctx();
  const reply = await agent.turn({ kind: 'message', text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say });
  return { reply, said: c.intermediate };
}

/** The messages of a request after the system prompt and the remembered rounds. */
const thisTurn = (req: StepRequest) => req.messages.slice(req.messages.findLastIndex((m) => m.role === 'user' && m.content.startsWith('{"event":')));

describe('pre-executed steps (SkillAgent through runToolLoop)', () => {
  afterEach(() => vi.useRealTimers());

  it("the rules' step is in the model's first request exactly as the model's own step would be, its result with the true line noted as said; that line is said first", async () => {
    const pre = new RecordingModel(() => REPLY('你离答案越来越近啦！'));
    const { agent } = agentWith(pre);
    const out = await turn(agent, '我猜50');
    expect(pre.requests).toHaveLength(1);
    const msgs = thisTurn(pre.requests[0]);
    // The same turn played by a model that decides the guess itself (no pre-execution).
    const self = new RecordingModel((_req, n) => (n === 1 ? { action: 'submit_guess', args: { number: 50 } } : REPLY('好')));
    const { agent: other } = agentWith(self, { preExecute: false });
    await turn(other, '我猜50');
    const modelMsgs = thisTurn(self.requests[1]);
    expect(msgs.slice(0, 2)).toEqual(modelMsgs.slice(0, 2));
    expect(msgs[1]).toEqual(stepMessage({ action: 'submit_guess', args: { number: 50 } }));
    // Its result is the model's own, with the rules' line noted in it as said (no `say` step of its own).
    expect(readToolResult(msgs[2])).toEqual({ ...readToolResult(modelMsgs[2]), said: '50 小了！再大一点哦，还有 6 次机会。' });
    expect(msgs).toHaveLength(3);
    expect(out.said).toEqual(['50 小了！', '再大一点哦，还有 6 次机会。']);
    expect(out.reply).toEqual({ text: '你离答案越来越近啦！', ended: false });
    // The round is remembered with the pre-executed steps: the next request continues it in place.
    await turn(agent, '我猜七十');
    const next = pre.requests[1].messages;
    expect(next.slice(0, pre.requests[0].messages.length)).toEqual(pre.requests[0].messages);
  });

  it("with the lines not noted (the app before), the rules' line is a `say` step of its own: the same words said, more to read", async () => {
    const noted = new RecordingModel(() => REPLY('好'));
    const apart = new RecordingModel(() => REPLY('好'));
    const a = await turn(agentWith(noted).agent, '我猜50');
    const b = await turn(agentWith(apart, { notedLines: false }).agent, '我猜50');
    expect(b.said).toEqual(a.said);
    const msgs = thisTurn(apart.requests[0]);
    expect(msgs.slice(3)).toEqual([stepMessage({ action: 'say', args: { text: '50 小了！再大一点哦，还有 6 次机会。' } }), toolResultMessage('say', { said: true })]);
    const length = (req: StepRequest) => thisTurn(req).map((m) => m.content).join('').length;
    expect(length(noted.requests[0])).toBeLessThan(length(apart.requests[0]));
  });

  it('a second judgement of the same words in the same turn is refused back to the model', async () => {
    const model = new RecordingModel((_req, n) => (n === 1 ? { action: 'submit_guess', args: { number: 50 } } : REPLY('好呀')));
    const { agent, device } = agentWith(model);
    await turn(agent, '我猜50');
    const refusal = readToolResult(model.requests[1].messages.at(-1)!);
    expect(refusal?.name).toBe('submit_guess');
    expect(String((refusal?.result as { error?: string }).error)).toContain('已经判过一次');
    expect(agent.game.guesses).toHaveLength(1);
    expect(device.reacts()).toEqual(['sorry+shake']);
  });

  it('ambiguous words are never pre-executed: the model gets the bare input', async () => {
    for (const words of ['我猜六十多', '两个数', '我猜三和七', '给我一个', '等一下']) {
      const model = new RecordingModel(() => REPLY('你猜哪一个数字呀？'));
      const { agent } = agentWith(model);
      const out = await turn(agent, words);
      expect(thisTurn(model.requests[0]), words).toHaveLength(1);
      expect(agent.game.guesses).toHaveLength(0);
      expect(out.said).toEqual([]);
    }
  });

  it("a reader's tool error goes to the model, and the model decides the rest", async () => {
    class BadReader extends GuessNumberAgent {
      protected override reader(): GameRules {
        return { read: (v) => (v.done.length ? null : { action: 'submit_guess', args: { number: 'fifty' } }), line: () => null, nextPrompt: () => '再猜一个吧！' };
      }
    }
    const model = new RecordingModel(() => REPLY('你猜的是几呀？'));
    const agent = new BadReader({ model, device: new FakeDevice(), random: () => secretRandom(63) });
    agent.game.start();
    const out = await turn(agent, '我猜50');
    const msgs = thisTurn(model.requests[0]);
    expect(msgs).toHaveLength(3);
    expect(String((readToolResult(msgs[2])?.result as { error?: string }).error)).toMatch(/参数不对/);
    expect(out.reply.text).toBe('你猜的是几呀？');
  });

  it("the model's sentence that repeats the rules' line is dropped (already said)", async () => {
    const model = new RecordingModel(() => REPLY('50 小了哦！还有 6 次机会。你离答案越来越近啦！'));
    const { agent } = agentWith(model);
    const out = await turn(agent, '我猜50');
    expect([...out.said, out.reply.text]).toEqual(['50 小了！', '再大一点哦，还有 6 次机会。', '你离答案越来越近啦！']);
  });

  it('a model that contradicts the truthful line is refused; after the retries the rules end the turn with their next prompt', async () => {
    const model = new RecordingModel(() => REPLY('50 大了！'));
    const { agent } = agentWith(model);
    const out = await turn(agent, '我猜50');
    expect(model.requests).toHaveLength(3);
    expect([...out.said, out.reply.text]).toEqual(['50 小了！', '再大一点哦，还有 6 次机会。', '再猜一个吧！']);
  });

  it("the colour window: a reply not ready in time → the rules' next prompt ends the turn, the late output is not said", async () => {
    vi.useFakeTimers();
    let late: ((s: Step) => void) | undefined;
    const model = new RecordingModel(
      (req) =>
        new Promise<Step>((resolve, reject) => {
          late = resolve;
          req.signal?.addEventListener('abort', () => reject(req.signal!.reason));
        }),
    );
    const { agent } = agentWith(model, { colourMs: 2000 });
    const c = ctx();
    const playing = agent.turn({ kind: 'message', text: '我猜50', requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 18_000 });
    await vi.advanceTimersByTimeAsync(1);
    // The truthful line is out before the model has written a byte.
    expect(c.intermediate).toEqual(['50 小了！', '再大一点哦，还有 6 次机会。']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await playing).toEqual({ text: '再猜一个吧！', ended: false });
    late?.(REPLY('这句来晚了。'));
    await vi.advanceTimersByTimeAsync(10);
    expect(c.intermediate).toEqual(['50 小了！', '再大一点哦，还有 6 次机会。']);
    // The late step finished muted: remembered as generated, then what the child heard instead (tests/unit/games/muted-step.test.ts).
    const round = agent.conversation.slice(-6);
    expect(round.slice(-2)).toEqual([stepMessage(REPLY('这句来晚了。')), heardInsteadNote('再猜一个吧！')]);
    expect(round.some((m) => m.content.includes('"submit_guess"'))).toBe(true);
  });
});
