/**
 * Benchmark page (bench/a2a/run.ts drives it): request → first reply latency through the full A2A
 * transport, against a raw postMessage round trip of the same GameInput to the same worker. The two
 * are measured interleaved, in one run, so both see the same machine load.
 */
import { agentCardFor } from '../../src/a2a/card.ts';
import { createGameClient } from '../../src/a2a/game-host.ts';
import { ECHO_GAME } from '../support/a2a/echo-game.ts';
import { gameInput } from '../../src/core/protocol/game-protocol.ts';

export interface BenchStats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}
export interface BenchResult {
  a2a: BenchStats;
  raw: BenchStats;
  ratioP50: number;
  ratioP95: number;
}

const GAME = 'echo-instant'; // the test worker answers this id at once, with one final reply
const card = agentCardFor({ ...ECHO_GAME, id: GAME });
let raw: MessagePort | undefined;
const client = createGameClient({
  spawn: () => new Worker(new URL('../support/a2a/test-echo-agent.ts', import.meta.url), { type: 'module' }),
  cards: (id) => (id === GAME ? card : undefined),
  engineOf: () => 'skill',
  seed: () => 1,
  ports() {
    const ch = new MessageChannel();
    raw = ch.port1;
    return { raw: ch.port2 };
  },
});

async function viaA2A(contextId: string): Promise<number> {
  const t0 = performance.now();
  const it = client.request(GAME, contextId, gameInput('message', '我猜10'))[`replies`][Symbol.asyncIterator]();
  const first = await it.next();
  const dt = performance.now() - t0;
  if (first.done) throw new Error('no reply');
  while (!(await it.next()).done); // drain
  return dt;
}

function viaRaw(): Promise<number> {
  const port = raw!;
  return new Promise((resolve) => {
    const t0 = performance.now();
    port.onmessage = () => resolve(performance.now() - t0);
    port.postMessage(gameInput('message', '我猜10'));
  });
}

function stats(xs: number[]): BenchStats {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: q(0.5), p95: q(0.95), mean: s.reduce((a, b) => a + b, 0) / s.length };
}

export async function runA2ABench(n = 500, warmup = 50): Promise<BenchResult> {
  const contextId = crypto.randomUUID();
  await viaA2A(contextId); // starts the worker (and creates the raw port)
  for (let i = 0; i < warmup; i++) {
    await viaA2A(contextId);
    await viaRaw();
  }
  const a: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < n; i++) {
    a.push(await viaA2A(contextId));
    r.push(await viaRaw());
  }
  const a2a = stats(a);
  const rawStats = stats(r);
  return { a2a, raw: rawStats, ratioP50: a2a.p50 / rawStats.p50, ratioP95: a2a.p95 / rawStats.p95 };
}

(window as unknown as { runA2ABench: typeof runA2ABench }).runA2ABench = runA2ABench;
document.getElementById('run')!.addEventListener('click', async () => {
  const out = document.getElementById('out')!;
  out.textContent = '运行中……';
  out.textContent = JSON.stringify(await runA2ABench(), null, 2);
});
