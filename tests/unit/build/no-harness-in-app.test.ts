/**
 * Nothing made only for tests ships: the production build (`npm run build`, `npm start`) has one
 * page, index.html, and nothing the app's module graph can reach lives under tests/ or bench/.
 * Checked on the resolved Vite config (what `vite build` uses) and on the app's sources, without
 * building: the graph from index.html grows only through references written in src/, workers/
 * and skills/ (imports, `new URL(…, import.meta.url)` workers, `import.meta.glob` patterns).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from 'vite';

const ROOT = resolve(import.meta.dirname, '../../..');

async function buildInputs(): Promise<Record<string, string>> {
  const config = await resolveConfig({ configFile: resolve(ROOT, 'vite.config.ts'), root: ROOT, logLevel: 'silent' }, 'build', 'production');
  const input = config.build.rollupOptions.input;
  expect(input && typeof input === 'object' && !Array.isArray(input)).toBe(true);
  return Object.fromEntries(Object.entries(input as Record<string, string>).map(([k, v]) => [k, relative(ROOT, v)]));
}

function filesUnder(dir: string): string[] {
  return readdirSync(resolve(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js|svelte|html|json)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

describe('the production build has no harness page', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('without AGENTCADE_LAB, the only build input is the app (index.html)', async () => {
    vi.stubEnv('AGENTCADE_LAB', '');
    expect(await buildInputs()).toEqual({ main: 'index.html' });
  });

  it('with AGENTCADE_LAB=1 (e2e, bench/a2a), the harness pages under tests/lab/ are added', async () => {
    vi.stubEnv('AGENTCADE_LAB', '1');
    const inputs = await buildInputs();
    expect(inputs.main).toBe('index.html');
    const lab = Object.values(inputs).filter((f) => f !== 'index.html');
    expect(lab.length).toBeGreaterThan(0);
    for (const f of lab) expect(f).toMatch(/^tests\/lab\/[\w-]+\.html$/);
    expect(lab).toContain('tests/lab/a2a.html');
  });

  it('no app source refers to tests/ or bench/ (so no harness module or echo worker joins the graph)', () => {
    // A path literal: relative ('./', '../') or root-absolute ('/'), reaching a tests/ or bench/ folder.
    const intoTests = /(['"`])(?:\.\.?\/|\/)[^'"`\n]*?\b(?:tests|bench)\/[^'"`\n]*\1/g;
    const found: string[] = [];
    const files = [...filesUnder('src'), ...filesUnder('workers'), ...filesUnder('skills'), 'index.html'];
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      for (const m of readFileSync(resolve(ROOT, f), 'utf8').matchAll(intoTests)) found.push(`${f}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
