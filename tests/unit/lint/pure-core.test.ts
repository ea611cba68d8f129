/**
 * The pure core is enforced: ESLint refuses a core file that touches the browser, timers,
 * randomness, storage libraries or an I/O module, and the neutral-platform bundle check refuses
 * a core that needs Node or touches a browser global when loaded.
 */
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCore, pureEntryPoints } from '../../../scripts/check-core.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const fixture = (name: string) => resolve(import.meta.dirname, 'fixtures', name);
const eslint = new ESLint({ cwd: ROOT });

/** Lints a fixture's text as if it were the file `src/core/lint-fixture/<name>`. */
async function lintAsCore(name: string): Promise<string[]> {
  const [result] = await eslint.lintText(readFileSync(fixture(name), 'utf8'), { filePath: resolve(ROOT, 'src/core/lint-fixture', name) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('lint keeps the core pure', () => {
  it('refuses a core module that touches window', async () => {
    const messages = await lintAsCore('touches-window.ts');
    expect(messages.some((m) => m.startsWith('no-restricted-globals') && m.includes('"window"'))).toBe(true);
  });

  it('refuses timers and Math.random in the core', async () => {
    const messages = await lintAsCore('uses-timer-and-random.ts');
    expect(messages.some((m) => m.includes('"setTimeout"'))).toBe(true);
    expect(messages.some((m) => m.startsWith('no-restricted-properties') && m.includes('Math.random'))).toBe(true);
  });

  it('refuses storage libraries and imports from outside the core', async () => {
    expect((await lintAsCore('imports-idb.ts')).some((m) => m.startsWith('no-restricted-imports'))).toBe(true);
    expect((await lintAsCore('imports-ui.ts')).some((m) => m.startsWith('pure/imports-stay-pure') && m.includes('src/ui/app-runtime.ts'))).toBe(true);
  });

  it('passes a pure function, and the same window access outside the core', async () => {
    expect(await lintAsCore('clean.ts')).toEqual([]);
    const [outside] = await eslint.lintText(readFileSync(fixture('touches-window.ts'), 'utf8'), { filePath: resolve(ROOT, 'src/ui/lint-fixture.ts') });
    expect(outside.messages).toEqual([]);
  });
});

describe('the core bundles for a neutral platform', () => {
  it('the real core passes', async () => {
    const r = await checkCore(pureEntryPoints());
    expect(r.problems).toEqual([]);
    expect(r.inputs.some((i) => i.startsWith('src/core/jev/'))).toBe(true);
  }, 60_000);

  it('a core module that needs Node fails', async () => {
    const r = await checkCore([fixture('needs-node.ts')]);
    expect(r.ok).toBe(false);
    expect(r.problems.join('\n')).toMatch(/node:fs/);
  });

  it('a module that touches document when loaded fails', async () => {
    const r = await checkCore([fixture('reads-document-at-load.js')]);
    expect(r.ok).toBe(false);
    expect(r.problems.join('\n')).toMatch(/document is not defined/);
  });
});
