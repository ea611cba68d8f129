/**
 * Test harness for the A2A transport: serves a GameHandler on one end of a MessageChannel and
 * returns an SDK Client on the other, through either our MessagePort transport or the SDK's own
 * JSON-RPC client over a fake fetch (the oracle).
 */
import { TaskState, type AgentCard, type StreamResponse } from '@a2a-js/sdk';
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { gameInputMessage, readGameReply, statusDetail } from '../../../src/a2a/game-parts.ts';
import { serveGameOverHttp, type HttpGameServer } from '../../support/a2a/http-game-server.ts';
import { createPortFetch } from '../../support/a2a/port-fetch.ts';
import { MessagePortTransportFactory } from '../../../src/a2a/port-transport.ts';
import { serveGameAgent, type ServedAgent } from '../../../src/a2a/worker-server.ts';
import type { GameDeclaration } from '../../../src/core/protocol/declaration.ts';
import { gameInput, type GameInput, type GameInputKind, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';
export { deferred } from '../../support/deferred.ts';

export type ClientKind = 'MessagePortTransport' | 'SDK JSON-RPC over fake fetch (oracle)' | HttpClientKind;
export const CLIENT_KINDS: ClientKind[] = ['MessagePortTransport', 'SDK JSON-RPC over fake fetch (oracle)'];
/** The SDK's own HTTP client transports against the same game agent on a real local HTTP server (remote games). */
export type HttpClientKind = 'SDK JSON-RPC over HTTP' | 'SDK HTTP+JSON over HTTP';
export const HTTP_CLIENT_KINDS: HttpClientKind[] = ['SDK JSON-RPC over HTTP', 'SDK HTTP+JSON over HTTP'];

export const TEST_GAME: GameDeclaration = {
  id: 'test-game',
  title: '测试游戏',
  description: 'A game for transport tests',
  aliases: ['测试'],
  capabilities: ['face'],
  engine: 'skill',
};

const openPorts: MessagePort[] = [];
const served: ServedAgent[] = [];
const httpServers: HttpGameServer[] = [];

/** Closes every port and server the harness opened (call in afterEach). */
export async function closeAll(): Promise<void> {
  for (const s of served.splice(0)) s.close();
  for (const p of openPorts.splice(0)) p.close();
  await Promise.all(httpServers.splice(0).map((s) => s.close()));
}

export async function connect(
  kind: ClientKind,
  handler: GameHandler,
  opts: { maxTasks?: number } = {},
): Promise<Client> {
  const card = agentCardFor(TEST_GAME);
  if (kind === 'SDK JSON-RPC over HTTP' || kind === 'SDK HTTP+JSON over HTTP') {
    const server = await serveGameOverHttp(card, handler, opts);
    httpServers.push(server);
    const transports = kind === 'SDK JSON-RPC over HTTP' ? [new JsonRpcTransportFactory()] : [new RestTransportFactory()];
    return new ClientFactory({ transports }).createFromUrl(server.baseUrl);
  }
  const ch = new MessageChannel();
  openPorts.push(ch.port1, ch.port2);
  served.push(serveGameAgent(ch.port2, { card, handler, ...opts }));
  if (kind === 'MessagePortTransport') {
    const factory = new MessagePortTransportFactory();
    factory.register(card.supportedInterfaces[0].url, ch.port1);
    return new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
  }
  const httpCard: AgentCard = {
    ...card,
    supportedInterfaces: [{ url: 'http://agent.invalid/a2a', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
  };
  const factory = new JsonRpcTransportFactory({ fetchImpl: createPortFetch(ch.port1) });
  return new ClientFactory({ transports: [factory] }).createFromAgentCard(httpCard);
}

export function send(client: Client, contextId: string, input: GameInput | GameInputKind, text = '你好', requestId?: string) {
  const gi = typeof input === 'string' ? gameInput(input, input === 'end' ? '' : text) : input;
  return client.sendMessageStream({
    tenant: '',
    message: gameInputMessage(gi, contextId, requestId ?? crypto.randomUUID()),
    configuration: undefined,
    metadata: undefined,
  });
}

/** One stream item, reduced to what the tests check. */
export interface Seen {
  kind: 'task' | 'statusUpdate' | 'message' | 'artifactUpdate';
  state: string;
  taskId: string;
  reply?: GameReply;
  detail?: string;
}

export function see(ev: StreamResponse): Seen {
  const p = ev.payload!;
  if (p.$case === 'message') return { kind: 'message', state: '', taskId: p.value.taskId };
  if (p.$case === 'artifactUpdate') return { kind: 'artifactUpdate', state: '', taskId: p.value.taskId };
  const status = p.value.status;
  const taskId = p.$case === 'task' ? p.value.id : p.value.taskId;
  const state = TaskState[status?.state ?? 0].replace('TASK_STATE_', '');
  const msg = status?.message;
  const isReply = msg?.parts.length === 1 && msg.parts[0].content?.$case === 'data';
  return {
    kind: p.$case,
    state,
    taskId,
    ...(isReply ? { reply: readGameReply(msg) } : {}),
    ...(msg && !isReply ? { detail: statusDetail(msg) } : {}),
  };
}

export async function collect(stream: AsyncIterable<StreamResponse>): Promise<Seen[]> {
  const out: Seen[] = [];
  for await (const ev of stream) out.push(see(ev));
  return out;
}


/** Waits until `check` passes (polling on the event loop); fails after `tries` rounds. */
export async function eventually<T>(check: () => Promise<T> | T, tries = 200): Promise<T> {
  let last: unknown;
  for (let i = 0; i < tries; i++) {
    try {
      return await check();
    } catch (e) {
      last = e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  throw last;
}
