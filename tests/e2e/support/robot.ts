/**
 * The fake robot hardware for e2e specs: init scripts bundled with esbuild from our real simulator
 * (tests/e2e/fakes/*-init.ts), and the cable pulled at a precise moment.
 */
import type { Page } from '@playwright/test';
import { build } from 'esbuild';

/** Bundles an init-script fake (e.g. 'tests/e2e/fakes/serial-init.ts') into one script for addInitScript. */
export async function bundleFake(entry: string): Promise<string> {
  const out = await build({ entryPoints: [entry], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'warning' });
  return out.outputFiles[0].text;
}

/**
 * Arms the cable pull for right after the robot has drawn the first stroke of the next drawing. Call
 * it before the tap that starts the drawing, then await the returned function. The pull comes from
 * the simulator's own state change, in the page, so no test runner or timer can miss the moment:
 * one microtask after the change (outside the simulator's own call), while the next stroke needs
 * at least 5 ms of the simulator's timers.
 */
export async function unplugOnFirstStroke(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    type Sim = { subscribe(cb: (s: { content: { drawn?: number } }) => void): () => void };
    const w = globalThis as unknown as { __robotSim: { sim: Sim; unplug(): void }; __unplugged?: Promise<void> };
    const robot = w.__robotSim;
    w.__unplugged = new Promise<void>((resolve) => {
      let pulled = false;
      const off = robot.sim.subscribe((s) => {
        if (pulled || (s.content.drawn ?? 0) === 0) return;
        pulled = true;
        queueMicrotask(() => {
          off();
          robot.unplug();
          resolve();
        });
      });
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as { __unplugged: Promise<void> }).__unplugged);
}
