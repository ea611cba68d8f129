/**
 * Reads a remote game's Agent Card with the SDK's card resolver (`<address>/.well-known/agent-card.json`;
 * an A2A 0.3 card is translated to the 1.0 shape by the SDK's compatibility layer) and checks it (src/core/protocol/remote-card.ts). A card that cannot be read says why: the server
 * does not answer (or forbids this page, CORS), answers with an HTTP error, or sends no JSON.
 */
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { cardUrl, checkGameCard, type CardContext, type Refusal, type RemoteGameCard } from '../core/protocol/remote-card.ts';

export type CardFetch =
  | { ok: true; raw: unknown; checked: RemoteGameCard }
  /** `unreachable`: nothing answered (the server may be off); otherwise the server answered and was refused. */
  | { ok: false; refusal: Refusal; unreachable: boolean };

export interface CardFetchOptions {
  fetchImpl?: typeof fetch;
  /** How long the card may take (default 8 s). */
  timeoutMs?: number;
}

export const CORS_HINT = '如果游戏是自己架的，它还要允许别的网页来访问（CORS），见 examples/remote-game 的说明。';

export async function fetchGameCard(ctx: CardContext, opts: CardFetchOptions = {}): Promise<CardFetch> {
  const base = opts.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 8_000;
  const url = cardUrl(ctx.address);
  let status = 0;
  // An A2A 0.3 card is read by the SDK's compatibility layer as a 1.0 card whose interfaces say 0.3.
  const resolver = new DefaultAgentCardResolver({
    legacyCompat: { enabled: true },
    fetchImpl: async (input, init) => {
      const res = await base(input, { ...init, signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
      status = res.status;
      return res;
    },
  });
  const host = ctx.address.host;
  let raw: unknown;
  try {
    try {
      raw = await resolver.resolve(url, '');
    } catch (e) {
      // A kept-alive connection the server closed meanwhile fails once without reaching it: retry once.
      if (!(e instanceof TypeError)) throw e;
      status = 0;
      raw = await resolver.resolve(url, '');
    }
  } catch (e) {
    const detail = `GET ${url}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    const timedOut = (e as { name?: unknown } | null)?.name === 'TimeoutError';
    if (timedOut) return { ok: false, unreachable: true, refusal: { field: 'address', reason: `「${host}」一直没有回答。请确认放游戏的电脑开着，再试一次。`, detail } };
    if (status === 404)
      return { ok: false, unreachable: false, refusal: { field: 'address', reason: `「${host}」上没有找到游戏名片（${new URL(url).pathname}）。请确认地址是游戏的地址。`, detail } };
    if (status >= 400)
      return { ok: false, unreachable: false, refusal: { field: 'address', reason: `「${host}」回答了一个错误（${status}），没有给出游戏名片。`, detail } };
    if (status >= 200 && status < 300)
      return { ok: false, unreachable: false, refusal: { field: '$', reason: '这个地址给的不是游戏名片（不是 JSON）。请确认地址是游戏的地址。', detail } };
    return { ok: false, unreachable: true, refusal: { field: 'address', reason: `连不上「${host}」。请确认放游戏的电脑开着、地址没写错。${CORS_HINT}`, detail } };
  }
  const checked = checkGameCard(raw, ctx);
  if (!checked.ok) return { ok: false, unreachable: false, refusal: checked.refusal };
  return { ok: true, raw, checked: checked.value };
}
