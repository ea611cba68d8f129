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
 * Pulls the cable right after the robot has drawn the first stroke of the current drawing. Checked in
 * the page, so a slow test runner cannot miss the window between the first and the last stroke.
 */
export const unplugOnFirstStroke = (page: Page): Promise<void> =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const sim = (globalThis as unknown as { __robotSim: { state: { content: { drawn?: number } }; unplug(): void } }).__robotSim;
        const timer = setInterval(() => {
          if ((sim.state.content.drawn ?? 0) > 0) {
            clearInterval(timer);
            sim.unplug();
            resolve();
          }
        }, 2);
      }),
  );
