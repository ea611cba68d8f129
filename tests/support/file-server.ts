/**
 * A local static server for test files (a generated GGUF model): 127.0.0.1 on a free port, CORS
 * and Cross-Origin-Resource-Policy so a cross-origin-isolated page may fetch it, Content-Length,
 * HEAD, and a log of requests (a test shows that a cached model loads with no download).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileServer {
  url(path: string): string;
  readonly requests: Array<{ method: string; path: string }>;
  /** While set, every request fails (the network is gone). */
  offline: boolean;
  close(): Promise<void>;
}

export async function startFileServer(files: Record<string, Uint8Array>): Promise<FileServer> {
  const requests: Array<{ method: string; path: string }> = [];
  const state = { offline: false };
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    requests.push({ method: req.method ?? '', path });
    const headers = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': '*',
      'Access-Control-Expose-Headers': 'Content-Length, ETag',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    };
    if (state.offline) {
      req.socket.destroy();
      return;
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204, headers).end();
    const body = files[path];
    if (!body) return void res.writeHead(404, headers).end('not found');
    res.writeHead(200, { ...headers, 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length), ETag: `"${body.length}"` });
    if (req.method === 'HEAD') return void res.end();
    res.end(Buffer.from(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    get offline() {
      return state.offline;
    },
    set offline(v: boolean) {
      state.offline = v;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
