/**
 * Resume after reload: remembers the running game session (game id + contextId) in
 * localStorage, so that after a reload or a crash the app ends it cleanly (`end` with empty
 * text, as the protocol allows when the app exits) and tells the child.
 *
 * Main agent: `guard.remember(gameId, contextId)` after sending `start` (and on each message, to
 * keep it fresh); `guard.forget()` when the session ends (a reply with `session: ended`, or
 * `end_game`). At start-up: `await guard.recover(gameClient, { say })`.
 */
import type { GameClient } from '../a2a/types.ts';
import { gameInput } from '../core/protocol/game-protocol.ts';
import type { TraceSink } from '../core/trace/types.ts';

export const INTERRUPTED_GAME_TEXT = '刚才的游戏中断了，想玩的话，再跟我说一次吧。';
/** The trace round of a recovery has no words of the child: it is labelled with this (source `app`). */
export const RECOVERY_ROUND_TEXT = '重新打开：结束中断的游戏';

interface RunningSession {
  gameId: string;
  contextId: string;
  startedAt: number;
  lastActiveAt: number;
  /** The page sent this session's `end` as it went away: after the reload it is not sent again. */
  endSent?: boolean;
}

export type GuardStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

interface RecoverOptions {
  /**
   * Tells the child, through the app's one speaking path (which records the speech under the round
   * id given). Called only for a session active within `maxAgeMs`.
   */
  say?: (text: string, roundId: string | undefined) => unknown;
  trace?: TraceSink;
  /**
   * Opens a trace round for the recovery (TraceRecorder.startRound) so the `end`, the game's
   * replies and the sentence told to the child are filed together; returns its id.
   */
  startRound?: (text: string) => string;
  /** How long to wait for the game's answer to `end` (ms). */
  timeoutMs?: number;
  /** Older sessions are ended silently: nobody is waiting for them any more (default 6 h). */
  maxAgeMs?: number;
  now?: () => number;
}

export interface SessionGuard {
  remember(gameId: string, contextId: string): void;
  forget(): void;
  /** The page is going away and has sent the session's `end` (one `end` per session). */
  endSent(): void;
  /** The session that was running when the page last went away, if any. */
  interrupted(): RunningSession | null;
  /** Ends the interrupted session (if any) and tells the child; resolves with it. */
  recover(client: Pick<GameClient, 'request'>, opts?: RecoverOptions): Promise<RunningSession | null>;
}

const KEY = 'agentcade.running-session';

class EndAlreadySent extends Error {}

function memoryStorage(): GuardStorage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
}

function defaultStorage(): GuardStorage {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // storage disabled
  }
  return memoryStorage();
}

function parse(raw: string | null): RunningSession | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<RunningSession>;
    if (typeof v.gameId !== 'string' || typeof v.contextId !== 'string' || !v.gameId || !v.contextId) return null;
    const startedAt = typeof v.startedAt === 'number' ? v.startedAt : 0;
    return { gameId: v.gameId, contextId: v.contextId, startedAt, lastActiveAt: typeof v.lastActiveAt === 'number' ? v.lastActiveAt : startedAt, ...(v.endSent === true ? { endSent: true } : {}) };
  } catch {
    return null;
  }
}

export function createSessionGuard(storage: GuardStorage = defaultStorage(), now: () => number = Date.now): SessionGuard {
  const write = (s: RunningSession | null) => {
    try {
      if (s) storage.setItem(KEY, JSON.stringify(s));
      else storage.removeItem(KEY);
    } catch {
      // Quota: the guard is a courtesy; the game itself goes on.
    }
  };
  const read = () => {
    try {
      return parse(storage.getItem(KEY));
    } catch {
      return null;
    }
  };
  return {
    remember(gameId, contextId) {
      const prev = read();
      const t = now();
      const same = prev && prev.gameId === gameId && prev.contextId === contextId;
      write({ gameId, contextId, startedAt: same ? prev.startedAt : t, lastActiveAt: t });
    },
    forget() {
      write(null);
    },
    endSent() {
      const s = read();
      if (s) write({ ...s, endSent: true });
    },
    interrupted: read,
    async recover(client, opts = {}) {
      const s = read();
      if (!s) return null;
      write(null); // never loop on a session whose ending itself crashes the page
      const clock = opts.now ?? now;
      const at = clock();
      const roundId = opts.startRound?.(RECOVERY_ROUND_TEXT);
      const ids = roundId ? { roundId } : {};
      let outcome = 'ended';
      try {
        // The page sent `end` as it went away: the child is told, the game is not asked twice.
        if (s.endSent) throw new EndAlreadySent();
        const req = client.request(s.gameId, s.contextId, gameInput('end', ''));
        opts.trace?.record({ kind: 'a2a_request', at, source: 'main', name: s.gameId, ...ids, requestId: req.requestId, contextId: s.contextId, data: { gameId: s.gameId, kind: 'end', text: '', reason: 'interrupted' } });
        const drained = (async () => {
          for await (const ev of req.replies) {
            // Recorded, not spoken: the child hears INTERRUPTED_GAME_TEXT instead of the game's goodbye.
            opts.trace?.record({ kind: 'reply', at: clock(), source: `game:${s.gameId}`, ...ids, requestId: req.requestId, contextId: s.contextId, data: { text: ev.reply.text, session: ev.reply.session, final: ev.final, spoken: false } });
          }
        })();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), opts.timeoutMs ?? 5000)));
        const first = await Promise.race([drained.then(
            () => 'done' as const,
            (err: unknown) => {
              outcome = `game error: ${(err as { code?: string })?.code ?? String(err)}`;
              return 'done' as const;
            },
          ), timeout]);
        clearTimeout(timer);
        if (first === 'timeout') {
          outcome = 'timeout';
          await req.cancel().catch(() => {});
        }
      } catch (err) {
        outcome = err instanceof EndAlreadySent ? 'end sent as the page went away' : `failed: ${err instanceof Error ? err.message : String(err)}`;
      }
      opts.trace?.record({ kind: 'main_tool', at, durationMs: clock() - at, source: 'main', name: 'end_interrupted_game', ...ids, contextId: s.contextId, data: { gameId: s.gameId, outcome } });
      if (opts.say && clock() - s.lastActiveAt <= (opts.maxAgeMs ?? 6 * 3600_000)) {
        await opts.say(INTERRUPTED_GAME_TEXT, roundId);
      }
      return s;
    },
  };
}
