/**
 * A game agent served over real HTTP on 127.0.0.1 (a free port), for tests: the same server side as
 * a game worker (the SDK's DefaultRequestHandler over our BoundedTaskStore and GameExecutor), behind
 * the SDK's Express handlers for JSON-RPC and HTTP+JSON, with CORS. The in-browser transport's
 * conformance scenarios run against it through the SDK's own HTTP client transports.
 */
import { A2A_PROTOCOL_VERSION, type AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import type { AddressInfo, Socket } from 'node:net';
import { BoundedTaskStore, DEFAULT_MAX_FINISHED_TASKS } from '../../../src/a2a/bounded-task-store.ts';
import { GameExecutor } from '../../../src/a2a/game-executor.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';

export interface HttpGameServer {
  baseUrl: string;
  /** The card as served (JSON-RPC and HTTP+JSON interfaces on this server). */
  card: AgentCard;
  close(): Promise<void>;
}

export async function serveGameOverHttp(card: AgentCard, handler: GameHandler, opts: { maxTasks?: number } = {}): Promise<HttpGameServer> {
  const app = express();
  app.use((req, res, next) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '*');
    res.status(204).end();
  });
  const sockets = new Set<Socket>();
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served: AgentCard = {
    ...card,
    supportedInterfaces: [
      { url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${baseUrl}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
  };
  const requestHandler = new DefaultRequestHandler(served, new BoundedTaskStore(opts.maxTasks ?? DEFAULT_MAX_FINISHED_TASKS), new GameExecutor(handler));
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    baseUrl,
    card: served,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
