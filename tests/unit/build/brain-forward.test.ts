/**
 * `AGENTCADE_BRAIN=http://localhost:<port> npm start`: the app's own server forwards `/brain/…` to the
 * brain program on that computer (vite.config.ts `brainForward`), without the browser's Origin
 * (Ollama refuses origins it does not know). Run against Vite's real preview server over a tiny
 * build folder and the local OpenAI-compatible test server; without the variable there is no forward.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preview, type PreviewServer } from 'vite';
import { brainForward } from '../../../vite.config.ts';
import { startOpenAITestServer, type OpenAITestServer } from '../../support/openai-test-server.ts';

describe('the /brain/ forward', () => {
  let brain: OpenAITestServer;
  let server: PreviewServer;
  let dir: string;
  let base: string;
  beforeAll(async () => {
    brain = await startOpenAITestServer();
    dir = mkdtempSync(join(tmpdir(), 'agentcade-forward-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>机器人游戏厅</title>');
    server = await preview({ configFile: false, root: dir, logLevel: 'silent', build: { outDir: dir }, preview: { port: 0, host: '127.0.0.1', proxy: brainForward(brain.baseUrl.replace(/\/v1$/, '')) } });
    base = server.resolvedUrls!.local[0].replace(/\/$/, '');
  });
  afterAll(async () => {
    await server.close();
    await brain.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches the brain program under the app\'s own address, without the page\'s Origin', async () => {
    const res = await fetch(`${base}/brain/v1/models`, { headers: { Origin: 'https://robot.local:4443' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toEqual(['test-model']);
    const seen = brain.requests.at(-1)!;
    expect(seen.path).toBe('/v1/models');
    expect(seen.headers.origin).toBeUndefined();
  });

  it('is off unless AGENTCADE_BRAIN names a program', () => {
    expect(brainForward('')).toBeUndefined();
    expect(brainForward(undefined)).toBeUndefined();
  });
});
