/**
 * What the browser benchmarks share (bench/a2a, bench/cpu-engine, bench/voice): the app built with
 * its lab pages (AGENTCADE_LAB=1) into a bench's own folder, served by `vite preview`, and Debian's
 * Chromium driven by playwright-core.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '..');

/** `--name value` from the command line, or `fallback`. */
export function benchArg(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}

/** Builds the app and its lab pages into `dist`, unless `--no-build` is given and `dist` already holds `page`. */
export function buildLab(args: string[], dist: string, page: string): void {
  if (args.includes('--no-build') && existsSync(resolve(ROOT, dist, page))) return;
  console.log(`building into ${dist} …`);
  const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', dist], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, AGENTCADE_LAB: '1' } });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

export interface LabServer {
  /** The page's address on this server. */
  url(path: string): string;
  stop(): void;
}

/** Serves `dist` on `port` and resolves once `page` answers; the server stops when the process exits. */
export async function serveLab(dist: string, port: number, page: string): Promise<LabServer> {
  const server = spawn('npx', ['vite', 'preview', '--outDir', dist, '--port', String(port), '--strictPort'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const stop = () => {
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', stop);
  const url = (path: string) => `http://localhost:${port}/${path}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url(page))).ok) return { url, stop };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`the preview server did not answer at ${url(page)}`);
}

/** Debian's Chromium, with these extra command-line switches. */
export function launchChromium(extraArgs: string[] = [], options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', ...options, args: ['--no-first-run', '--disable-background-networking', ...extraArgs] });
}
