/**
 * Speaking while the model is still writing: each finished sentence of a reply goes out at once
 * (an intermediate reply), the last one is the final reply, and the protocol's rules still hold —
 * through GameSessions and through the real A2A executor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createChatModel, type CompletionRequest, type StepProvider } from '../../../src/llm/decide-step.ts';
import type { ChatModel } from '../../../src/core/llm/types.ts';
import { gameInput, parseGameReply, ReplySequence } from '../../../src/core/protocol/game-protocol.ts';
import { GuessNumberAgent } from '../../../skills/guess-number/game.ts';
import { CLIENT_KINDS, closeAll, collect, connect, send as a2aSend } from '../a2a/harness.ts';
import { ctx, deferred, FakeDevice, secretRandom, sessions } from './helpers.ts';
import { stepJson } from '../../../src/core/llm/step-format.ts';

afterEach(closeAll);

/** A provider whose text the test hands out piece by piece; `answer` ends the step. */
class Typing implements StepProvider {
  readonly label = 'typing';
  calls: CompletionRequest[] = [];
  private current: { req: CompletionRequest; done: (text: string) => void } | null = null;
  private waiting = deferred<void>();
  async complete(req: CompletionRequest): Promise<string> {
    this.calls.push(req);
    return new Promise<string>((resolve) => {
      this.current = { req, done: resolve };
      this.waiting.resolve();
    });
  }
  /** Resolves once a step is being decoded. */
  async started(): Promise<void> {
    await this.waiting.promise;
    this.waiting = deferred<void>();
  }
  type(piece: string): void {
    this.current!.req.onDelta?.(piece);
  }
  finish(text: string): void {
    const c = this.current!;
    this.current = null;
    c.done(text);
  }
}

function typed(): { provider: Typing; model: ChatModel } {
  const provider = new Typing();
  return { provider, model: createChatModel(provider) };
}

const startText = stepJson({ action: 'start_game', args: {} });

/** 猜数字 started (secret 37): its `start_game` step done, the model now writing the start's reply. */
async function startedGuessNumber() {
  const { provider, model } = typed();
  const s = sessions(() => new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(37), preExecute: false }));
  const c = ctx();
  const turn = s.handle(gameInput('start', '我们玩猜数字'), c);
  await provider.started();
  provider.finish(startText);
  await provider.started();
  return { provider, c, turn };
}

describe('a game reply is said sentence by sentence while the model writes it', () => {
  it('the first sentence reaches the child before the step is complete; the last is the final reply', async () => {
    const { provider, c, turn } = await startedGuessNumber();
    const reply = '{"reply": {"text": "我想好了一个数字。你有七次机会！快猜吧。"}}';
    const firstEnd = reply.indexOf('。') + 1;
    provider.type(reply.slice(0, firstEnd));
    await Promise.resolve();
    expect(c.intermediate).toEqual([]); // finished, but it might be the last: held
    provider.type(reply.slice(firstEnd, firstEnd + 1));
    await Promise.resolve();
    // The next sentence has begun: the first is sent now, before the step is complete.
    expect(c.intermediate).toEqual(['我想好了一个数字。']);
    provider.type(reply.slice(firstEnd + 1));
    provider.finish(reply);
    const final = await turn;
    expect(c.intermediate).toEqual(['我想好了一个数字。', '你有七次机会！']);
    expect(final).toEqual({ protocol: 'desktop-game/5', text: '快猜吧。', session: 'active' });
  });

  it('a step that turns out invalid after a sentence was said: the retry does not say it twice', async () => {
    const { provider, c, turn } = await startedGuessNumber();
    const broken = '{"action": "reply", "args": {"text": "好的。我们开始';
    provider.type(broken);
    provider.type('吧！"'); // the JSON never closes: invalid
    provider.finish(broken + '吧！"');
    await provider.started(); // the model layer asks again with a correction
    const good = '{"reply": {"text": "好的。我们开始吧！你先猜。"}}';
    provider.type(good);
    provider.finish(good);
    const final = await turn;
    const heard = [...c.intermediate, final.text];
    expect(heard).toEqual(['好的。', '我们开始吧！', '你先猜。']);
    expect(new Set(heard).size).toBe(heard.length);
  });

  it.each(CLIENT_KINDS)('through the A2A executor (%s): sentences are WORKING replies, exactly one COMPLETED, only it may be ended', async (kind) => {
    const { provider, model } = typed();
    const client = await connect(kind, sessions(() => new GuessNumberAgent({ model, device: new FakeDevice(), random: () => secretRandom(37), preExecute: false })));
    const start = collect(a2aSend(client, 'g', 'start', '玩猜数字'));
    await provider.started();
    provider.finish(startText);
    await provider.started();
    const reply = '{"reply":{"text":"第一句。第二句！第三句？"}}';
    for (const ch of reply) provider.type(ch);
    provider.finish(reply);
    const seen = await start;
    const replies = seen.filter((e) => e.reply);
    expect(replies.map((e) => `${e.state}:${e.reply!.text}`)).toEqual(['WORKING:第一句。', 'WORKING:第二句！', 'COMPLETED:第三句？']);
    const seq = new ReplySequence();
    replies.forEach((e, i) => (i < replies.length - 1 ? seq.intermediate(parseGameReply(e.reply)) : seq.final(parseGameReply(e.reply))));
    expect(seq.done).toBe(true);
  });
});
