/**
 * A tiny game agent for the transport's own tests, lab page and benchmark (not a product game):
 * "学说话" repeats what it hears and counts the messages of a session.
 *
 *   start              → 开始啦！…              (a new session; an old one of the same context is replaced)
 *   message "…"        → say 收到第N条消息。 then 你说：…
 *   message with 慢     → the same, but the final reply waits `slowMs` (or until cancelled)
 *   message with 出错   → the handler throws (the task ends FAILED)
 *   (sessions, their order and `end` cancelling the turn in flight: GameSessions)
 *   message/end with no session → a reply with session "ended" (GameSessions)
 *   end                → 本局结束，一共收到N条消息。 (session ended)
 *
 * `instant: true` answers every input at once with one final reply (the benchmark's agent).
 */
import type { EngineReply, EngineTurn, GameEngine } from '../../../src/core/games/engine.ts';
import { gameReply } from '../../../src/core/protocol/game-protocol.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import type { GameDeclaration } from '../../../src/core/protocol/declaration.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';

export const ECHO_GAME: GameDeclaration = {
  id: 'echo',
  title: '学说话',
  description: '测试用的小游戏：我学你说话，并数一数你说了几句。',
  aliases: ['复读机', '学舌'],
  capabilities: [],
  engine: 'skill',
};

export interface EchoGameOptions {
  slowMs?: number;
  instant?: boolean;
}

/** One session of the echo game: it counts the messages. */
class EchoEngine implements GameEngine {
  private count = 0;
  constructor(private readonly opts: EchoGameOptions) {}
  async turn(t: EngineTurn): Promise<EngineReply> {
    if (this.opts.instant) return { text: `你说：${t.text || '（没有说话）'}`, ended: false };
    if (t.kind === 'start') return { text: '开始啦！你说一句，我学一句。', ended: false };
    if (t.kind === 'end') return { text: `本局结束，一共收到${this.count}条消息。`, ended: true };
    this.count++;
    t.say(`收到第${this.count}条消息。`);
    if (t.text.includes('慢')) await sleep(this.opts.slowMs ?? 10_000, t.signal);
    return { text: `你说：${t.text}`, ended: false };
  }
  close(): void {}
}

/**
 * The echo game: GameSessions over the echo engine (so sessions, order and `end` follow the one
 * game runtime). A message with 出错 makes the handler itself throw, so the task ends FAILED.
 * `instant` answers at once without sessions (the benchmark's agent).
 */
export function createEchoGame(opts: EchoGameOptions = {}): GameHandler {
  if (opts.instant) return { handle: async (input) => gameReply(`你说：${input.text || '（没有说话）'}`) };
  const sessions = new GameSessions({ create: () => new EchoEngine(opts), source: 'game:echo' });
  return {
    handle(input, ctx) {
      if (input.text.includes('出错')) {
        ctx.say('收到一条会出错的消息。');
        return Promise.reject(new Error('the echo game was asked to fail'));
      }
      return sessions.handle(input, ctx);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
