/** Test doubles for the main agent: a controllable GameClient and a recording speaker. */
import { GameRequestError, type GameClient, type GameRequest, type GameRequestOptions, type ReplyEvent } from '../../../src/a2a/types.ts';
import type { ErrorCode } from '../../../src/core/errors/catalogue.ts';
import type { GameInput } from '../../../src/core/protocol/game-protocol.ts';
import { gameReply, type SessionStatus } from '../../../src/core/protocol/game-protocol.ts';
import type { ArcadeGame, Speaker, SpeakerRole, SpokenOutcome } from '../../../src/core/arcade/types.ts';

type Item = { ev: ReplyEvent } | { err: Error } | { done: true };

export class FakeRequest implements GameRequest {
  readonly requestId: string;
  cancelled = false;
  /** The time budget the request carried (GameRequestOptions.budgetMs). */
  budgetMs?: number;
  /** The colour window the request carried (GameRequestOptions.colourMs). */
  colourMs?: number;
  private items: Item[] = [];
  private wake: (() => void) | null = null;
  private finished = false;
  constructor(
    readonly gameId: string,
    readonly contextId: string,
    readonly input: GameInput,
    n: number,
    private readonly log: string[],
  ) {
    this.requestId = `req-${n}`;
  }
  reply(text: string, opts: { final?: boolean; session?: SessionStatus } = {}): void {
    if (this.finished) throw new Error('reply after the end');
    const final = opts.final ?? false;
    this.items.push({ ev: { reply: gameReply(text, opts.session ?? 'active'), final } });
    if (final) {
      this.finished = true;
      this.items.push({ done: true });
    }
    this.wake?.();
  }
  fail(code: ErrorCode = 'game_failed', sessionLost = false): void {
    this.finished = true;
    this.items.push({ err: new GameRequestError(code, `fake ${code}`, { sessionLost }) });
    this.wake?.();
  }
  async cancel(): Promise<void> {
    this.log.push(`cancel ${this.requestId}`);
    if (this.finished) return;
    this.cancelled = true;
    this.fail('game_cancelled');
  }
  get replies(): AsyncIterable<ReplyEvent> {
    return { [Symbol.asyncIterator]: () => this.read() };
  }
  private async *read(): AsyncGenerator<ReplyEvent> {
    for (;;) {
      while (this.items.length === 0) await new Promise<void>((r) => (this.wake = r));
      const it = this.items.shift()!;
      if ('done' in it) return;
      if ('err' in it) throw it.err;
      yield it.ev;
    }
  }
}

export class FakeGameClient implements GameClient {
  readonly requests: FakeRequest[] = [];
  /** Ordered log of "request <kind> <text>" and "cancel <id>" lines. */
  readonly log: string[] = [];
  /** When set, each new request is answered by this (after a tick). */
  auto: ((r: FakeRequest) => void) | null = null;
  throwOnRequest: Error | null = null;
  request(gameId: string, contextId: string, input: GameInput, opts?: GameRequestOptions): GameRequest {
    if (this.throwOnRequest) throw this.throwOnRequest;
    const r = new FakeRequest(gameId, contextId, input, this.requests.length + 1, this.log);
    r.budgetMs = opts?.budgetMs;
    r.colourMs = opts?.colourMs;
    this.requests.push(r);
    this.log.push(`request ${input.kind} ${input.text}`);
    const auto = this.auto;
    if (auto) setTimeout(() => auto(r), 0);
    return r;
  }
  stop(): void {}
  stopAll(): void {}
  last(): FakeRequest {
    return this.requests[this.requests.length - 1];
  }
}

/** A speaker whose sentences finish one by one, either automatically (next macrotask) or when released. */
export class FakeSpeaker implements Speaker {
  readonly spoken: Array<{ text: string; role: SpeakerRole; completed: boolean }> = [];
  readonly started: string[] = [];
  manual = false;
  stops = 0;
  private queue: Array<{ text: string; role: SpeakerRole; done: (o: SpokenOutcome) => void }> = [];
  private running = false;
  private gen = 0;
  say(text: string, role: SpeakerRole): Promise<SpokenOutcome> {
    return new Promise((done) => {
      this.queue.push({ text, role, done });
      this.pump();
    });
  }
  private pump(): void {
    if (this.running || !this.queue.length) return;
    this.running = true;
    this.started.push(this.queue[0].text);
    const gen = ++this.gen;
    if (!this.manual) setTimeout(() => gen === this.gen && this.finishOne(true), 0);
  }
  private finishOne(completed: boolean): void {
    const item = this.queue.shift();
    this.running = false;
    if (item) {
      this.spoken.push({ text: item.text, role: item.role, completed });
      item.done({ completed, reason: completed ? undefined : 'stopped' });
    }
    this.pump();
  }
  /** Manual mode: the sentence being spoken finishes now. */
  release(): void {
    if (this.running) this.finishOne(true);
  }
  get current(): string | undefined {
    return this.running ? this.queue[0]?.text : undefined;
  }
  stop(): void {
    this.stops++;
    this.gen++;
    const items = this.queue.splice(0);
    this.running = false;
    for (const item of items) {
      this.spoken.push({ text: item.text, role: item.role, completed: false });
      item.done({ completed: false, reason: 'stopped' });
    }
  }
  texts(): string[] {
    return this.spoken.map((s) => s.text);
  }
}

export function game(id: string, title: string, aliases: string[] = [], available = true, reason?: string): ArcadeGame {
  return {
    declaration: { id, title, description: title, aliases, capabilities: [], engine: 'skill' },
    available,
    reason,
  };
}

export const GAMES: ArcadeGame[] = [
  game('guess-number', '猜数字', ['猜数', '数字游戏']),
  game('draw-guess', '你画我猜', ['画画猜猜'], false, '「你画我猜」需要机器人会画画，现在连着的机器人还不会。拔掉机器人，就能在屏幕上玩。'),
];

/** Wait until `cond` holds (polling the event loop), failing after many turns. */
export async function until(cond: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}
