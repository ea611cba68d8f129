/**
 * A local OpenAI-compatible `/v1/chat/completions` server for tests (unit and e2e). It listens on
 * 127.0.0.1 on a free port, answers CORS preflights, records every request, and replies as the
 * test's responder says: a streamed answer cut into small byte chunks (so lines and multi-byte
 * UTF-8 characters split across reads), an HTTP error, raw SSE bytes, or a stream that never ends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TestReply =
  /**
   * Streams `content` as SSE deltas of `pieceChars` characters, written `chunkBytes` bytes at a time;
   * with `pieceDelayMs`, one delta at a time with that pause before each (a slow model); with
   * `holdLastPiece` as well, the last delta waits until that promise settles (so a test can see the
   * client act while the answer is provably unfinished); with `markAt` (paced answers), the time the
   * piece holding that character index was written is recorded as `markedAt`.
   */
  | { content: string; pieceChars?: number; chunkBytes?: number; finishReason?: string; pieceDelayMs?: number; delayMs?: number; holdLastPiece?: Promise<unknown>; markAt?: number }
  /** A plain (non-streamed) JSON completion. */
  | { json: string }
  | { status: number; body: string }
  /** These exact bytes as the SSE body, written `chunkBytes` at a time. */
  | { rawSse: string; chunkBytes?: number }
  /** Sends the headers and `content` streamed, then never ends (for abort and timeout tests). */
  | { hangAfter: string }
  /** Sends the headers and `content` streamed, then cuts the connection (a stream cut mid-way). */
  | { cutAfter: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** When the request arrived (ms since the epoch). */
  receivedAt: number;
  /** When the last piece of the answer's content was written (streamed answers). */
  lastContentAt?: number;
  /** When the first piece of the answer's content was written (paced answers): the model's first byte. */
  firstContentAt?: number;
  /** Characters of the answer's content written so far (paced answers). */
  sentChars?: number;
  /** When the piece holding the reply's `markAt` character was written (paced answers). */
  markedAt?: number;
  /** When the answer's connection closed (finished, or closed by the client). */
  closedAt?: number;
}

export type Responder = (body: any, index: number) => TestReply | Promise<TestReply>;

export interface OpenAITestServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:43121/v1`. */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  /**
   * The app's prewarms of a home computer (src/llm/remote-prewarm.ts: one token, not streamed),
   * answered by the server itself with one space and kept apart from `requests`, so a test's script
   * of steps and its counts of requests see the steps only — unless the server was started with
   * `{ prewarms: 'respond' }`, which hands them to the responder and records them as requests.
   */
  readonly prewarms: RecordedRequest[];
  /** Replaces the responder for the following requests. */
  respond(fn: Responder): void;
  /** How many streams the client closed before the end (aborts seen by the server). */
  readonly closedEarly: number;
  close(): Promise<void>;
}

const pause = () => new Promise((r) => setTimeout(r, 1));

export function sseOfContent(content: string, pieceChars = 3, finishReason = 'stop', model = 'test-model'): string {
  const chars = [...content];
  let out = `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })}\n\n`;
  for (let i = 0; i < chars.length; i += pieceChars) {
    const piece = chars.slice(i, i + pieceChars).join('');
    out += `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`;
  }
  out += `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`;
  out += 'data: [DONE]\n\n';
  return out;
}

async function writeChunked(res: ServerResponse, text: string, chunkBytes: number): Promise<boolean> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += chunkBytes) {
    if (res.destroyed) return false;
    res.write(bytes.subarray(i, i + chunkBytes));
    await pause();
  }
  return true;
}

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'content-type, authorization',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
};

/** The app's prewarm of a home computer: one token asked for, not streamed. */
export function isPrewarmBody(body: { stream?: unknown; max_tokens?: unknown; options?: { num_predict?: unknown } } | undefined): boolean {
  return body?.stream === false && (body.max_tokens === 1 || body.options?.num_predict === 1);
}

export async function startOpenAITestServer(responder?: Responder, options: { prewarms?: 'apart' | 'respond' } = {}): Promise<OpenAITestServer> {
  let respond: Responder =
    responder ?? (() => ({ content: '{"reply":{"text":"你好，我是测试服务器。"}}' }));
  const requests: RecordedRequest[] = [];
  const prewarms: RecordedRequest[] = [];
  let closedEarly = 0;
  let chatIndex = 0;

  const server = createServer(async (req, res) => {
    const receivedAt = Date.now();
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const raw = await new Promise<string>((resolve) => {
      let s = '';
      req.setEncoding('utf8');
      req.on('data', (d) => (s += d));
      req.on('end', () => resolve(s));
    });
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const path = (req.url ?? '').split('?')[0];
    const record: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body, receivedAt };
    if (options.prewarms !== 'respond' && req.method === 'POST' && path === '/v1/chat/completions' && isPrewarmBody(body)) {
      prewarms.push(record);
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'w1', object: 'chat.completion', model: 'test-model', choices: [{ index: 0, message: { role: 'assistant', content: ' ' }, finish_reason: 'length' }] }));
      record.closedAt = Date.now();
      return;
    }
    requests.push(record);
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'test-model', object: 'model' }] }));
      return;
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      res.writeHead(404, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      return;
    }
    let finished = false;
    res.on('close', () => {
      record.closedAt = Date.now();
      if (!finished) closedEarly++;
    });
    const reply = await respond(body, chatIndex++);
    // A brain that thinks before it answers.
    if ('content' in reply && reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if ('status' in reply) {
      res.writeHead(reply.status, { ...cors, 'Content-Type': 'application/json' });
      res.end(reply.body);
      finished = true;
      return;
    }
    if ('json' in reply) {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: reply.json }, finish_reason: 'stop' }] }));
      finished = true;
      return;
    }
    res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    res.flushHeaders();
    if ('cutAfter' in reply) {
      await writeChunked(res, sseOfContent(reply.cutAfter).replace(/data: \{[^\n]*"finish_reason":"stop"[^\n]*\n\ndata: \[DONE\]\n\n$/, ''), 64);
      res.destroy();
      return;
    }
    if ('hangAfter' in reply) {
      await writeChunked(res, sseOfContent(reply.hangAfter).replace(/data: \{[^\n]*"finish_reason":"stop"[^\n]*\n\ndata: \[DONE\]\n\n$/, ''), 64);
      return; // never ends; the client must abort
    }
    if ('content' in reply && reply.pieceDelayMs) {
      const events = sseOfContent(reply.content, reply.pieceChars, reply.finishReason).split('\n\n').filter(Boolean);
      const pieceChars = reply.pieceChars ?? 3;
      record.sentChars = 0;
      for (const [i, ev] of events.entries()) {
        if (res.destroyed) return;
        // The first event is the role, the last two the finish and [DONE]: pieces are in between.
        if (i > 0 && i < events.length - 2) await new Promise((r) => setTimeout(r, reply.pieceDelayMs));
        if (i === events.length - 3 && reply.holdLastPiece) await reply.holdLastPiece;
        res.write(`${ev}\n\n`);
        if (i > 0 && i < events.length - 2) {
          record.sentChars = Math.min([...reply.content].length, i * pieceChars);
          if (reply.markAt !== undefined && record.markedAt === undefined && record.sentChars > reply.markAt) record.markedAt = Date.now();
        }
        if (i === 1) record.firstContentAt = Date.now();
        if (i === events.length - 3) record.lastContentAt = Date.now();
      }
      finished = true;
      res.end();
      return;
    }
    const text = 'rawSse' in reply ? reply.rawSse : sseOfContent(reply.content, reply.pieceChars, reply.finishReason);
    const ok = await writeChunked(res, text, reply.chunkBytes ?? 7);
    if (ok) {
      finished = true;
      res.end();
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    prewarms,
    respond(fn) {
      respond = fn;
    },
    get closedEarly() {
      return closedEarly;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
