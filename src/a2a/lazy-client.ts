/**
 * A GameClient whose code loads on its first request: the A2A SDK's client (and the transports
 * over it) is not part of the first screen. Requests made while it loads go out once it has loaded,
 * in the order they were made; a cancel before then cancels the request as soon as it exists.
 */
import type { GameClient, GameRequest, ReplyEvent } from './types.ts';

export function lazyGameClient(load: () => Promise<GameClient>): GameClient {
  let client: GameClient | null = null;
  let loading: Promise<GameClient> | null = null;
  const loaded = () => (loading ??= load().then((c) => (client = c)));
  return {
    request(gameId, contextId, input, opts) {
      if (client) return client.request(gameId, contextId, input, opts);
      const requestId = opts?.requestId ?? crypto.randomUUID();
      const inner: Promise<GameRequest> = loaded().then((c) => c.request(gameId, contextId, input, { ...opts, requestId }));
      return {
        requestId,
        replies: {
          async *[Symbol.asyncIterator](): AsyncIterator<ReplyEvent> {
            yield* (await inner).replies;
          },
        },
        cancel: async () => (await inner).cancel(),
      };
    },
    stop(gameId) {
      if (client) client.stop(gameId);
      else if (loading) void loading.then((c) => c.stop(gameId));
    },
    stopAll() {
      if (client) client.stopAll();
      else if (loading) void loading.then((c) => c.stopAll());
    },
    warm(gameId) {
      void loaded().then((c) => c.warm?.(gameId)).catch(() => undefined);
    },
  };
}
