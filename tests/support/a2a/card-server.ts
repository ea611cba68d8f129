/**
 * A static server of Agent Cards on 127.0.0.1 (a free port), with CORS, for tests of cards the arcade
 * must refuse: `<base><folder>/.well-known/agent-card.json` answers the JSON given for that folder.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CardServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function serveCards(cards: Record<string, unknown>): Promise<CardServer> {
  const server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '*');
      res.writeHead(204).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const folder = path.replace(/\/\.well-known\/agent-card\.json$/, '');
    if (path.endsWith('/.well-known/agent-card.json') && folder in cards) {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(cards[folder]));
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
