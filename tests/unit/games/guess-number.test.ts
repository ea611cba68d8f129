import { describe, expect, it } from 'vitest';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import type { Step, StepRequest } from '../../../src/core/llm/types.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { policy } from '../../../skills/guess-number/demo.ts';
import { numbersIn } from '../../../skills/guess-number/numbers.ts';
import { parseChineseNumeral } from '../../../src/core/speech/numbers.ts';
import { DEFAULT_CONFIG, GuessNumberGame } from '../../../skills/guess-number/rules.ts';
import { FakeDevice, RecordingModel, scriptedRecording, secretRandom, send, turn } from './helpers.ts';

function play(secret: number) {
  const device = new FakeDevice();
  const { model, requests } = scriptedRecording('game:guess-number', policy);
  const agents: GuessNumberAgent[] = [];
  const service = new GameSessions({
    create: () => {
      const a = new GuessNumberAgent({ model, device, random: () => secretRandom(secret) });
      agents.push(a);
      return a;
    },
    device,
    source: 'game:test',
  });
  return { service, device, requests, agent: () => agents.at(-1)! };
}

describe('numbers a child says', () => {
  it.each([
    ['我猜10', [10]],
    ['我猜５０！', [50]],
    ['五十六', [56]],
    ['我猜一个九十九', [99]],
    ['十五吧', [15]],
    ['一百', [100]],
    ['两个数：三和七', [3, 7]],
    ['我不知道', []],
  ])('%s → %j', (text, expected) => {
    expect(numbersIn(text)).toEqual(expected);
  });
  it('parses Chinese numerals with units', () => {
    expect(parseChineseNumeral('二十')).toBe(20);
    expect(parseChineseNumeral('一百零五')).toBe(105);
    expect(parseChineseNumeral('猫')).toBeNull();
  });
});

describe('猜数字 rules', () => {
  it('every hint is consistent with every earlier answer and never names the secret', () => {
    for (let secret = 1; secret <= 100; secret++) {
      for (const guesses of [[], [50], [50, 25], [80, 10, 60]]) {
        const g = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(secret));
        g.start();
        for (const n of guesses) if (g.phase === 'playing') g.guess(n);
        if (g.phase !== 'playing') continue;
        for (let h = g.hint(); h !== null; h = g.phase === 'playing' ? g.hint() : null) {
          // A hint never says the secret itself (hints write numbers in digits)…
          expect((h.match(/\d+/g) ?? []).map(Number)).not.toContain(secret);
          // …and its bounds lie inside what earlier answers left open, on the right side of the secret.
          const m = /比 (\d+) 大，比 (\d+) 小/.exec(h);
          if (m) {
            const [a, b] = [Number(m[1]), Number(m[2])];
            expect(a).toBeLessThan(secret);
            expect(b).toBeGreaterThan(secret);
            expect(a).toBeGreaterThanOrEqual(g.known.low - 1);
            expect(b).toBeLessThanOrEqual(g.known.high + 1);
          }
          if (/双数/.test(h)) expect(secret % 2).toBe(0);
          if (/单数/.test(h)) expect(secret % 2).toBe(1);
          const tens = /十位是 (\d)/.exec(h);
          if (tens) expect(Math.floor(secret / 10)).toBe(Number(tens[1]));
        }
        expect(g.hints).toHaveLength(3);
      }
    }
  });

  it('the snapshot holds no secret until it is revealed', () => {
    const g = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(42));
    g.start();
    g.guess(50);
    expect(JSON.stringify(g.snapshot())).not.toMatch(/(?<!\d)42(?!\d)/);
    g.end();
    expect(g.snapshot().answer).toBe(42);
  });
});

/** A child who halves the range using what the robot said (大了 / 小了). */
async function binarySearchChild(service: GameSessions) {
  let [lo, hi] = [1, 100];
  const replies: string[] = [];
  for (let i = 0; i < 7; i++) {
    const n = Math.floor((lo + hi) / 2);
    const { reply } = await send(service, 'message', `我猜${n}`);
    replies.push(reply.text);
    if (reply.session === 'ended') return { replies, last: reply };
    if (reply.text.includes('大了')) hi = n - 1;
    else if (reply.text.includes('小了')) lo = n + 1;
    else throw new Error(`unexpected reply ${reply.text}`);
  }
  throw new Error('binary search should win within 7 tries');
}

describe('猜数字 played through the game service with its demo policy', () => {
  it('a win: warm short Chinese replies, tries counted down, happy nod on the right guess, session ends', async () => {
    const { service, device, agent } = play(73);
    const start = await send(service, 'start', '我们玩猜数字吧');
    // The rules speak first (a working reply); the rules brain's own reply is the next prompt.
    expect(start.intermediate.join('')).toBe('我想好了一个 1 到 100 的数字，你有 7 次机会，猜猜看吧！');
    expect(start.final.text).toBe('说“我猜”再加上一个数字就行。');
    expect(start.reply.session).toBe('active');
    const first = await send(service, 'message', '我猜50');
    expect(first.intermediate.join('')).toBe('50 小了！再大一点哦，还有 6 次机会。');
    expect(first.final.text).toBe('再猜一个吧！');
    const { last } = await binarySearchChild(service);
    expect(last.session).toBe('ended');
    expect(last.text).toMatch(/^太棒啦！就是 73！/);
    const reacts = device.reacts();
    expect(reacts.at(-1)).toBe('happy+nod');
    expect(reacts.slice(0, -1).every((r) => r === 'sorry+shake')).toBe(true);
    expect(reacts).toHaveLength(agent().game.guesses.length);
    expect(device.calls.at(-1)).toEqual({ op: 'idle' });
  });

  it('a loss: after 7 wrong guesses the number is revealed and the session ends', async () => {
    const { service, device } = play(88);
    await send(service, 'start', '玩猜数字');
    const replies = [];
    for (const n of [10, 20, 30, 40, 50, 60, 70]) replies.push((await send(service, 'message', `我猜${n}`)).reply);
    expect(replies.slice(0, 6).every((r) => r.session === 'active')).toBe(true);
    expect(replies[5].text).toContain('还有 1 次机会');
    expect(replies[6]).toMatchObject({ session: 'ended', text: '70 小了。次数用完啦，答案是 88。没关系，下次一定能猜中！下次再一起玩吧！' });
    expect(device.reacts()).toEqual(Array(7).fill('sorry+shake'));
  });

  it('hints: get_hint gives true hints without using a try', async () => {
    const { service, agent } = play(64);
    await send(service, 'start', '玩猜数字');
    await send(service, 'message', '我猜50');
    const h1 = await send(service, 'message', '给我一个提示吧');
    expect(h1.reply.text).toBe('好，给你一个提示！这个数字是双数。再猜一个吧！');
    const h2 = await send(service, 'message', '再来一个提示');
    expect(h2.reply.text).toBe('好，给你一个提示！这个数字比 50 大，比 76 小。再猜一个吧！');
    expect(agent().game.triesLeft).toBe(6);
  });

  it('end in the middle of a game reveals the number and ends the session', async () => {
    const { service } = play(21);
    await send(service, 'start', '玩猜数字');
    await send(service, 'message', '我猜50');
    const end = await send(service, 'end', '');
    expect(end.reply).toMatchObject({ session: 'ended', text: '好的，这局先玩到这里。答案是 21，下次再来玩吧！拜拜！' });
  });

  it('a number out of range or said twice is not counted', async () => {
    const { service, agent, device } = play(30);
    await send(service, 'start', '玩猜数字');
    const out = await send(service, 'message', '我猜150');
    expect(out.reply.text).toBe('要猜 1 到 100 之间的数字哦，再说一个吧。');
    await send(service, 'message', '我猜50');
    const again = await send(service, 'message', '我猜50');
    expect(again.reply.text).toBe('50 你已经猜过啦！它大了，换一个数字吧。还有 6 次机会。再猜一个吧！');
    expect(agent().game.triesLeft).toBe(6);
    expect(device.reacts()).toEqual(['sorry+shake']);
  });
});

describe('submit_guess only judges what the child said, once per input', () => {
  const guess = (number: number): Step => ({ action: 'submit_guess', args: { number } });
  const reply: Step = { action: 'reply', args: { text: '好' } };
  const result = (req: StepRequest) => JSON.parse(/<tool_response>(.*)<\/tool_response>/.exec(req.messages.at(-1)!.content)![1]).result;

  async function started(decide: (req: StepRequest, n: number) => Step) {
    let started = false;
    const model = new RecordingModel((req, n) => (!started ? (n === 1 ? { action: 'start_game', args: {} } : reply) : decide(req, n)));
    const agent = new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(40), preExecute: false });
    await turn(agent, 'start', '玩');
    started = true;
    return { agent, model };
  }

  it('rejects a number the child did not say', async () => {
    let seen: unknown;
    const { agent } = await started((req, n) => {
      if (n === 3) return guess(45);
      seen = result(req);
      return reply;
    });
    await turn(agent, 'message', '我猜二十');
    expect(seen).toEqual({ error: '小朋友没有说 45，他说的是 20；只能用他说的数字。' });
    expect(agent.game.guesses).toEqual([]);
  });

  it('judges one input at most once', async () => {
    const results: unknown[] = [];
    const { agent } = await started((req, n) => {
      if (n > 3) results.push(result(req));
      return n <= 4 ? guess(20) : reply;
    });
    await turn(agent, 'message', '我猜20');
    expect(agent.game.guesses).toEqual([{ number: 20, result: 'too_small' }]);
    expect(results[0]).toMatchObject({ result: 'too_small', tries_left: 6 });
    expect((results[1] as { error: string }).error).toMatch(/已经判过一次/);
  });

  it('submit_guess is not offered before the game starts', async () => {
    const model = new RecordingModel(() => reply);
    const agent = new GuessNumberAgent({ model, device: new FakeDevice(), random: () => 0.5, preExecute: false });
    await turn(agent, 'start', '玩');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['start_game', 'end_game', 'say', 'reply']);
  });
});
