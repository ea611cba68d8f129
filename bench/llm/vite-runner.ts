/**
 * Runs app modules under Node the way the app builds them: game and studio code uses Vite-only
 * imports (`./SKILL.md?raw`, `import.meta.glob`), which plain tsx cannot load. One Vite dev server
 * (no config file, no watcher, no HTTP) with its SSR module runner is shared by every recorder of
 * this bench run; `closeVite()` ends it (run.ts does, after loading the sequences).
 *
 * Modules loaded here form their own graph (separate from the tsx one): pass only plain data and
 * functions across.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner, type ViteDevServer } from 'vite';
import type { ModuleRunner } from 'vite/module-runner';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let started: Promise<{ server: ViteDevServer; runner: ModuleRunner }> | null = null;

function start(): Promise<{ server: ViteDevServer; runner: ModuleRunner }> {
  started ??= (async () => {
    const server = await createServer({
      configFile: false,
      root: REPO_ROOT,
      logLevel: 'warn',
      appType: 'custom',
      server: { middlewareMode: true, watch: null, hmr: false, ws: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
    return { server, runner };
  })();
  return started;
}

/** Imports a module by its repo-root path (e.g. `/bench/llm/record-game.ts`) through Vite. */
export async function viteImport<T>(path: string): Promise<T> {
  const { runner } = await start();
  return (await runner.import(path)) as T;
}

export async function closeVite(): Promise<void> {
  if (!started) return;
  const { server, runner } = await started;
  started = null;
  await runner.close();
  await server.close();
}
