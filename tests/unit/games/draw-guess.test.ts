import { describe, expect, it } from 'vitest';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import type { Step, StepRequest } from '../../../src/core/llm/types.ts';
import { DrawGuessAgent, sameWords } from '../../../skills/draw-guess/game.ts';
import { policy } from '../../../skills/draw-guess/demo.ts';
import { maskNames, type Card } from '../../../skills/draw-guess/rules.ts';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import { FakeDevice, RecordingModel, scriptedRecording, send, turn } from './helpers.ts';

const line = (id: string): Card['drawing'] => ({ id, strokes: [[[10, 10], [200, 200]]] });
const DECK: Card[] = [
  {
    id: 'tiger',
    name: '老虎',
    aliases: ['大老虎', '虎', 'tiger'],
    hints: ['它是森林之王。', '它身上有黑色的条纹。', '它的额头上有个王字，就是老虎。'],
    drawing: { ...line('tiger'), label: '老虎' },
  },
  { id: 'dog', name: '狗', aliases: ['小狗', '狗狗', 'dog'], hints: ['它会汪汪叫。', '它喜欢啃骨头。'], drawing: line('dog') },
  { id: 'cat', name: '猫', aliases: ['小猫', '猫咪', 'cat'], hints: ['它会喵喵叫。', '它爱抓老鼠。'], drawing: line('cat') },
  { id: 'rabbit', name: '兔子', aliases: ['小兔子', '兔', 'rabbit'], hints: ['它耳朵长长的。', '它爱吃胡萝卜。'], drawing: line('rabbit') },
];
const nameOf = (id: string) => DECK.find((c) => c.id === id)!.name;

/** Deck order kept (Fisher–Yates with j = i never swaps): tiger, dog, cat. */
const inOrder = () => 0.9999;

function play() {
  const device = new FakeDevice();
  const { model, requests } = scriptedRecording('game:draw-guess', policy);
  const agents: DrawGuessAgent[] = [];
  const service = new GameSessions({
    create: () => {
      const a = new DrawGuessAgent({ model, device, random: inOrder }, { deck: DECK });
      agents.push(a);
      return a;
    },
    device,
    source: 'game:test',
  });
  const shown = () => device.calls.flatMap((c) => (c.op === 'showDrawing' ? [c.drawing] : []));
  return { service, device, requests, agent: () => agents.at(-1)!, shown };
}

describe('你画我猜 played with its demo policy', () => {
  it('start: says a sentence first, shows progress, then draws on the robot (no label), asks', async () => {
    const { service, device, shown } = play();
    const r = await send(service, 'start', '我们玩你画我猜吧');
    // Sentence by sentence: the say before drawing, then the reply's sentences; its last is the final reply.
    expect(r.intermediate).toEqual(['我来画一个小动物，你猜猜是什么！', '画好啦！', '第 1 题，这是什么动物呀？']);
    expect(r.final).toMatchObject({ text: '说出它的名字就行！', session: 'active' });
    expect(shown()).toEqual([{ id: 'tiger', strokes: DECK[0].drawing.strokes }]);
    expect(device.calls.map((c) => c.op)).toEqual(['showProgress', 'showDrawing']);
    expect(device.calls[0]).toEqual({ op: 'showProgress', progress: { current: 1, total: 3, label: '第 1 题 · 0 分' } });
  });

  it('a right answer inside a sentence: happy nod, a point, and the next drawing', async () => {
    const { service, device, agent, shown } = play();
    await send(service, 'start', '玩你画我猜');
    const r = await send(service, 'message', '我觉得是一只大老虎吧');
    expect(device.reacts()).toEqual(['happy+nod']);
    expect(r.intermediate).toEqual(['答对啦！', '就是老虎！', '下一题来咯，看我画！', '画好啦！', '第 2 题，这是什么动物呀？']);
    expect(r.final.text).toBe('说出它的名字就行！');
    expect(agent().game.score).toBe(1);
    expect(shown().at(-1)!.id).toBe('dog');
  });

  it("a right answer's round, as the rules take it before the model's reply, is short: the judged step, the next question (with its progress) and the drawing, the two lines noted in the results they tell — under 700 characters, the state line only what changed", async () => {
    const { service, device, requests } = play();
    await send(service, 'start', '玩你画我猜');
    await send(service, 'message', '是老虎');
    const before = requests.length;
    await send(service, 'message', '是狗');
    // The model's one request of the turn: the reply, after the rules' steps.
    expect(requests.length - before).toBe(1);
    const msgs = requests.at(-1)!.messages;
    const round = msgs.slice(msgs.findLastIndex((m) => m.content.startsWith('{"event":')));
    expect(round.filter((m) => m.role === 'assistant').map((m) => Object.keys(JSON.parse(m.content))[0])).toEqual(['submit_answer', 'next_question', 'show_drawing']);
    // The rules' two lines are noted in the results they tell (not two `say` steps of their own).
    const noted = round.map((m) => readToolResult(m)).filter((r) => r?.said !== undefined);
    expect(noted.map((r) => [r!.name, r!.said])).toEqual([
      ['submit_answer', '答对啦！就是狗！下一题来咯，看我画！'],
      ['show_drawing', '画好啦！第 3 题，这是什么动物呀？'],
    ]);
    expect(round.map((m) => m.content).join('').length).toBeLessThan(700);
    // The progress is still shown before the drawing, once per question.
    expect(device.calls.map((c) => c.op)).toEqual(['showProgress', 'showDrawing', 'react', 'showProgress', 'showDrawing', 'react', 'showProgress', 'showDrawing']);
  });

  it('wrong answers: sorry shake each time; after 3 the answer is revealed and the game moves on', async () => {
    const { service, device, agent } = play();
    await send(service, 'start', '玩你画我猜');
    const w1 = await send(service, 'message', '是小猫');
    expect(w1.reply.text).toBe('不是猫哦！再猜猜看，还有 2 次机会。你猜是什么动物？');
    const w2 = await send(service, 'message', '兔子');
    expect(w2.reply.text).toBe('不是兔子哦！再猜猜看，还有 1 次机会。你猜是什么动物？');
    const w3 = await send(service, 'message', '那是狗狗吗');
    expect(w3.intermediate).toEqual(['答案是老虎，没关系！', '下一题来咯，看我画！', '画好啦！', '第 2 题，这是什么动物呀？']);
    expect(device.reacts()).toEqual(['sorry+shake', 'sorry+shake', 'sorry+shake']);
    expect(agent().game.number).toBe(2);
    expect(agent().game.score).toBe(0);
  });

  it('an unclear answer is not counted and gets no reaction', async () => {
    const { service, device, agent } = play();
    await send(service, 'start', '玩你画我猜');
    const r = await send(service, 'message', '嗯……让我想想');
    expect(r.reply.text).toBe('我没听出你猜的是什么动物，再说一遍好吗？你猜是什么动物？');
    expect(device.reacts()).toEqual([]);
    expect(agent().game.attemptsLeft).toBe(3);
  });

  it('hints get more helpful and never say the answer', async () => {
    const { service } = play();
    await send(service, 'start', '玩你画我猜');
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push((await send(service, 'message', '给我一个提示')).reply.text);
    expect(texts).toEqual([
      '好，给你一个提示！它是森林之王。再想想看！',
      '好，给你一个提示！它身上有黑色的条纹。再想想看！',
      '好，给你一个提示！它的额头上有个王字，就是它。再想想看！',
      '提示都用完啦！再猜猜看，或者说“跳过”。再想想看！',
    ]);
  });

  it('skip reveals the answer and draws the next animal', async () => {
    const { service, shown, agent } = play();
    await send(service, 'start', '玩你画我猜');
    const r = await send(service, 'message', '太难了，跳过吧');
    expect(r.intermediate).toEqual(['这一题是老虎。', '下一题来咯，看我画！', '画好啦！', '第 2 题，这是什么动物呀？']);
    expect(shown().map((d) => d.id)).toEqual(['tiger', 'dog']);
    expect(agent().game.snapshot().finished).toEqual([{ question: 1, result: 'skipped', answer: '老虎' }]);
  });

  it('a whole game: the last question ends the session with the score, and the robot goes idle', async () => {
    const { service, device, shown } = play();
    await send(service, 'start', '玩你画我猜');
    await send(service, 'message', `是${nameOf(shown().at(-1)!.id)}`);
    await send(service, 'message', '跳过');
    const last = await send(service, 'message', `我猜是${nameOf(shown().at(-1)!.id)}！`);
    expect(last.reply).toEqual({ protocol: 'desktop-game/5', text: '答对啦！就是猫！游戏结束啦！你答对了 2 题，一共 3 题，真棒！下次再来玩吧。谢谢你陪我玩！', session: 'ended' });
    expect(device.calls.at(-1)).toEqual({ op: 'idle' });
    expect((await send(service, 'message', '再来')).reply.session).toBe('ended');
  });

  it('end mid-question tells the answer and the score', async () => {
    const { service } = play();
    await send(service, 'start', '玩你画我猜');
    const r = await send(service, 'end', '');
    expect(r.reply).toMatchObject({ session: 'ended', text: '这一题是老虎。好的，这局就玩到这里，你答对了 0 题。下次再来玩吧！拜拜！' });
  });
});

describe('submit_answer takes only the child’s complete original words, judged once', () => {
  const result = (req: StepRequest) => JSON.parse(/<tool_response>(.*)<\/tool_response>/.exec(req.messages.at(-1)!.content)![1]).result;

  async function started(decide: (req: StepRequest, n: number) => Step) {
    let playing = false;
    const model = new RecordingModel((req, n) =>
      playing ? decide(req, n) : n === 1 ? { action: 'start_game', args: {} } : { action: 'reply', args: { text: '猜吧' } },
    );
    const device = new FakeDevice();
    const agent = new DrawGuessAgent({ model, device, random: inOrder, preExecute: false }, { deck: DECK });
    await turn(agent, 'start', '玩');
    playing = true;
    return { agent, model, device, base: model.requests.length };
  }

  it.each([
    ['a paraphrase', '老虎'],
    ['a fragment', '我觉得是'],
    ['words added', '我觉得是一只大老虎吧，对吗'],
  ])('rejects %s with an error to the model and judges nothing', async (_case, text) => {
    let seen: unknown;
    const { agent, device, base } = await started((req, n) => {
      if (n === base + 1) return { action: 'submit_answer', args: { text } };
      seen = result(req);
      return { action: 'reply', args: { text: '再说一遍？' } };
    });
    await turn(agent, 'message', '我觉得是一只大老虎吧');
    expect((seen as { error: string }).error).toBe('submit_answer 只接受小朋友这一句的完整原话「我觉得是一只大老虎吧」，不能改写、截取或补充。');
    expect(agent.game.score).toBe(0);
    expect(device.reacts()).toEqual([]);
  });

  it('accepts the original words even with different spacing or punctuation', () => {
    expect(sameWords('我觉得是一只大老虎吧！', '我觉得是 一只大老虎吧')).toBe(true);
    expect(sameWords('老虎', '我觉得是老虎')).toBe(false);
    expect(sameWords('', '')).toBe(false);
  });

  it('judges each input at most once', async () => {
    const seen: unknown[] = [];
    const { agent, device, base } = await started((req, n) => {
      if (n > base + 1) seen.push(result(req));
      return n <= base + 2 ? { action: 'submit_answer', args: { text: '是猫' } } : { action: 'reply', args: { text: '好' } };
    });
    await turn(agent, 'message', '是猫');
    expect(seen[0]).toEqual({ verdict: 'wrong', heard: '猫', attempts_left: 2 });
    expect((seen[1] as { error: string }).error).toMatch(/已经判过一次/);
    expect(agent.game.attemptsLeft).toBe(2);
    expect(device.reacts()).toEqual(['sorry+shake']);
  });

  it('is not offered before the game starts, nor after the question is over', async () => {
    const model = new RecordingModel(() => ({ action: 'reply', args: { text: '好' } }));
    const agent = new DrawGuessAgent({ model, device: new FakeDevice(), random: inOrder, preExecute: false }, { deck: DECK });
    await turn(agent, 'start', '玩');
    expect(model.requests[0].tools.map((t) => t.name)).not.toContain('submit_answer');
    agent.game.start();
    agent.game.skip();
    await turn(agent, 'message', '老虎');
    expect(model.requests[1].tools.map((t) => t.name)).toEqual(['next_question', 'show_drawing', 'show_progress', 'end_game', 'say', 'reply']);
  });
});

describe('device tools', () => {
  it('show_drawing returns device_completed from the robot; a robot error goes back as {error}', async () => {
    const device = new FakeDevice();
    const results: unknown[] = [];
    const model = new RecordingModel((req, n) => {
      if (n >= 3) results.push(JSON.parse(/<tool_response>(.*)<\/tool_response>/.exec(req.messages.at(-1)!.content)![1]).result);
      if (n === 1) return { action: 'start_game', args: {} };
      if (n === 2) return { action: 'show_drawing', args: {} };
      if (n === 3) {
        device.fail = true;
        return { action: 'show_drawing', args: {} };
      }
      return { action: 'reply', args: { text: '好' } };
    });
    const agent = new DrawGuessAgent({ model, device, random: inOrder, preExecute: false }, { deck: DECK });
    await turn(agent, 'start', '玩');
    expect(results[0]).toEqual({ device_completed: true, question: 1 });
    expect(results[1]).toEqual({ error: '工具执行失败：robot unplugged' });
    expect(agent.game.snapshot().current).toMatchObject({ drawing_shown: true });
  });

  it('the drawing carries its label only once the answer is revealed', async () => {
    const model = new RecordingModel((_req, n) =>
      [{ action: 'start_game', args: {} }, { action: 'show_drawing', args: {} }, { action: 'skip_question', args: {} }, { action: 'show_drawing', args: {} }][n - 1] ??
      { action: 'reply', args: { text: '好' } },
    );
    const device = new FakeDevice();
    const agent = new DrawGuessAgent({ model, device, random: inOrder, preExecute: false }, { deck: DECK });
    await turn(agent, 'start', '玩');
    const drawings = device.calls.flatMap((c) => (c.op === 'showDrawing' ? [c.drawing] : []));
    expect(drawings[0].label).toBeUndefined();
    expect(drawings[1].label).toBe('老虎');
  });

  it('maskNames hides a card’s own names in a hint', () => {
    expect(maskNames('大老虎是老虎', ['老虎', '大老虎'])).toBe('它是它');
  });
});
