/**
 * A tiny game agent for the transport's own tests, lab page and benchmark (not a product game):
 * "学说话" repeats what it hears and counts the messages of a session.
 *
 *   start              → 开始啦！…              (a new session; an old one of the same context is replaced)
 *   message "…"        → say 收到第N条消息。 then 你说：…
 *   message with 慢     → the same, but the final reply waits `slowMs` (or until cancelled)
 *   message with 出错   → the handler throws (the task ends FAILED)
 *   message/end with no session → a reply with session "ended" (seed 000 §出错处理)
 *   end                → 本局结束，一共收到N条消息。 (session ended)
 *
 * `instant: true` answers every input at once with one final reply (the benchmark's agent).
 */
import { gameReply, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameDeclaration } from '../../../src/core/protocol/declaration.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';

export const ECHO_GAME: GameDeclaration = {
  id: 'echo',
  title: '学说话',
  description: '测试用的小游戏：我学你说话，并数一数你说了几句。',
  aliases: ['复读机', '学舌'],
  capabilities: [],
  source: 'builtin',
};

export interface EchoGameOptions {
  slowMs?: number;
  instant?: boolean;
}

export function createEchoGame(opts: EchoGameOptions = {}): GameHandler {
  const slowMs = opts.slowMs ?? 10_000;
  const counts = new Map<string, number>();
  return {
    async handle(input, { contextId, signal, say }): Promise<GameReply> {
      if (opts.instant) return gameReply(`你说：${input.text || '（没有说话）'}`);
      if (input.kind === 'start') {
        counts.set(contextId, 0);
        return gameReply('开始啦！你说一句，我学一句。');
      }
      const count = counts.get(contextId);
      if (count === undefined) return gameReply('这一局已经结束了，想玩就说“开始”吧。', 'ended');
      if (input.kind === 'end') {
        counts.delete(contextId);
        return gameReply(`本局结束，一共收到${count}条消息。`, 'ended');
      }
      const n = count + 1;
      counts.set(contextId, n);
      say(`收到第${n}条消息。`);
      if (input.text.includes('出错')) throw new Error('the echo game was asked to fail');
      if (input.text.includes('慢')) await sleep(slowMs, signal);
      return gameReply(`你说：${input.text}`);
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
