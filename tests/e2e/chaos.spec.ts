/**
 * When the brain misbehaves, in the real app: the chaos brain (tests/support/chaos-brain-server.ts)
 * answers with broken JSON, unknown actions, wrong types, empty content, HTTP 500/429, streams cut
 * mid-way, stalls longer than any timeout and false outcome claims, at a fixed seed. A child types
 * across chat and both games. The issue's targets hold: nothing silent beyond T1 + 1 s, a real
 * answer or a true fallback by T2, no false claim spoken, every secret told, no page error, no
 * fallback line twice in a row. The budget is short here (T1 2 s, T2 8 s: the remote step timeouts
 * follow it) so stalls cost seconds, not tens of seconds.
 *
 * `npm run chaos` runs the long runs (CHAOS_TURNS, CHAOS_RATES, CHAOS_T1/CHAOS_T2, CHAOS_LIE_RATE;
 * default 300 turns at 0.3 and 0.6 with the default budget, lies at 0.2 of the chances on top) and
 * prints the metrics.
 */
import { expect, test, type Page } from '@playwright/test';
import { HISTORY_KEPT } from '../../src/arcade/main-agent.ts';
import { DEFAULT_TURN_BUDGET, type TurnBudget } from '../../src/core/arcade/turn-budget.ts';
import { startChaosBrainServer, type ChaosServer } from '../support/chaos-brain-server.ts';
import { chooseChaosBrain, runChaos, useChaosBrain, type ChaosMetrics } from './support/chaos.ts';
import { openApp } from './support/child.ts';

const LONG = !!process.env.CHAOS_LONG;

function expectTargets(m: ChaosMetrics): void {
  expect(m.pageErrors, 'page errors').toEqual([]);
  expect(m.silentBeyondT1, 'turns with nothing said within T1 + 1 s').toBe(0);
  expect(m.beyondT2Tolerance, 'turns without a real answer or a true fallback within T2').toBe(0);
  expect(m.falseClaimsSpoken, 'false outcome claims spoken').toBe(0);
  for (const [kind, n] of Object.entries(m.liesByKind)) expect(n.spoken, `lies of kind ${kind} spoken`).toBe(0);
  expect(m.secretsUntold, 'secrets never told').toEqual([]);
  expect(m.fallbackRepeats, 'fallback lines said twice in a row').toBe(0);
  expect(m.historyLength).toBeLessThanOrEqual(HISTORY_KEPT);
}

/** The app on the chaos brain with `budget`; page errors are collected into the returned list. */
async function openOnChaos(page: Page, server: ChaosServer, budget: TurnBudget): Promise<string[]> {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await useChaosBrain(page, server, budget);
  await openApp(page);
  await chooseChaosBrain(page, server);
  return pageErrors;
}

test.describe('chaos brain', () => {
  test.skip(LONG, 'the long runs are `npm run chaos`');

  test('36 turns at fault rate 0.3: never silent for long, never a false result, every answer told', async ({ page }) => {
    test.setTimeout(300_000);
    const budget: TurnBudget = { stillThinkingMs: 2000, answerMs: 8000, colourMs: DEFAULT_TURN_BUDGET.colourMs };
    const server = await startChaosBrainServer({ seed: 16, rate: 0.3, lieRate: 0.5 });
    try {
      const pageErrors = await openOnChaos(page, server, budget);
      const m = await runChaos(page, server, { turns: 36, budget, pageErrors });
      console.log(`chaos (36 turns, rate 0.3): ${JSON.stringify(m)}`);
      expect(m.turns).toBeGreaterThanOrEqual(36);
      // The run met the faults it is about: transient ones, malformed output, and lies.
      const seen = (fs: string[]) => fs.reduce((n, f) => n + (m.faults[f] ?? 0), 0);
      expect(seen(['http_500', 'http_429', 'cut_stream', 'stall']), 'transient faults').toBeGreaterThan(0);
      expect(seen(['broken_json', 'unknown_action', 'wrong_types', 'empty_content']), 'malformed output').toBeGreaterThan(0);
      expect(m.liesWritten).toBeGreaterThan(0);
      console.log(`lies by kind (spoken of written): ${Object.entries(m.liesByKind).map(([k, n]) => `${k} ${n.spoken}/${n.written}`).join(', ')}`);
      expect(m.secrets).toBeGreaterThanOrEqual(2);
      expectTargets(m);
    } finally {
      await server.close();
    }
  });
});

test.describe('chaos brain, long runs', () => {
  test.skip(!LONG, 'set CHAOS_LONG=1 (npm run chaos)');
  const turns = Number(process.env.CHAOS_TURNS ?? 300);
  const rates = (process.env.CHAOS_RATES ?? '0.3,0.6').split(',').map(Number);
  const budget: TurnBudget = {
    stillThinkingMs: Number(process.env.CHAOS_T1 ?? DEFAULT_TURN_BUDGET.stillThinkingMs),
    answerMs: Number(process.env.CHAOS_T2 ?? DEFAULT_TURN_BUDGET.answerMs),
    colourMs: DEFAULT_TURN_BUDGET.colourMs,
  };
  for (const rate of rates) {
    test(`${turns} turns at fault rate ${rate}`, async ({ page }) => {
      test.setTimeout(turns * 60_000);
      const server = await startChaosBrainServer({ seed: Number(process.env.CHAOS_SEED ?? 16), rate, lieRate: Number(process.env.CHAOS_LIE_RATE ?? 0.2) });
      try {
        const pageErrors = await openOnChaos(page, server, budget);
        const started = Date.now();
        const m = await runChaos(page, server, { turns, budget, pageErrors, heapAt: Math.min(100, Math.floor(turns / 3)) });
        const report = [
          `chaos: ${m.turns} turns, fault rate ${rate}, budget T1 ${budget.stillThinkingMs} ms / T2 ${budget.answerMs} ms, ${Math.round((Date.now() - started) / 1000)} s`,
          `  turns with nothing said within T1 + 1 s : ${m.silentBeyondT1}   (worst first sound ${m.worstFirstSoundMs} ms)`,
          `  turns without a real answer within T2  : ${m.beyondT2}   (worst ${m.worstRealAnswerMs} ms; beyond T2 + 0.5 s: ${m.beyondT2Tolerance})`,
          `  false outcome claims spoken            : ${m.falseClaimsSpoken}   (lies the server wrote: ${m.liesWritten})`,
          ...Object.entries(m.liesByKind).map(([kind, n]) => `    ${kind.padEnd(36)}: ${n.spoken} spoken of ${n.written} written`),
          `  secrets left untold                    : ${m.secretsUntold.length} of ${m.secrets}${m.secretsUntold.length ? ` (${m.secretsUntold.join(', ')})` : ''}`,
          `  page errors                            : ${m.pageErrors.length}`,
          `  fallback lines repeated back to back   : ${m.fallbackRepeats}   (fallback lines said: ${m.fallbacksSaid}, "still thinking": ${m.stillThinkingLines})`,
          `  main-agent history entries             : ${m.historyLength} (kept at most ${HISTORY_KEPT})`,
          `  heap after GC                          : ${m.heapMB ? `${m.heapMB.early} MB at turn ${Math.min(100, Math.floor(turns / 3))} → ${m.heapMB.late} MB at the end (of which the test's own records: ${m.heapMB.recordsEarly} → ${m.heapMB.recordsLate} MB)` : 'n/a'}`,
          `  requests by answer                     : ${JSON.stringify(m.faults)}`,
        ].join('\n');
        console.log(report);
        expectTargets(m);
      } finally {
        await server.close();
      }
    });
  }
});
