/**
 * The walls are checked by the build (scripts/check-deps.ts, `npm run check:deps` in `npm test`):
 * each folder rule and the cycle rule fire on a small fixture tree that breaks them, and a tree
 * that keeps them passes.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeps, RULES } from '../../../scripts/check-deps.ts';

const fixture = (name: string) => resolve(import.meta.dirname, 'fixtures', name);

describe('the folder rules and the cycle check', () => {
  it('every rule fires on the tree that breaks it', async () => {
    const r = await checkDeps(fixture('deps'));
    expect(r.ok).toBe(false);
    const fired = (rule: string) => r.violations.filter((v) => v.startsWith(`${rule}: `));
    expect(fired('no-circular').join('\n')).toMatch(/src\/core\/a\.ts → src\/core\/b\.ts → src\/core\/a\.ts/);
    expect(fired('pure-imports-pure')).toContain('pure-imports-pure: src/core/leak.ts → src/llm/m.ts');
    expect(fired('core-imports-no-node')).toEqual(['core-imports-no-node: src/core/fs.ts → fs']);
    expect(fired('skills-import-core-and-own-folder')).toEqual(['skills-import-core-and-own-folder: skills/g/game.ts → src/studio/s.ts']);
    expect(fired('services-stay-below')).toEqual(['services-stay-below: src/llm/m.ts → src/games/e.ts']);
    expect(fired('games-do-not-import-studio-or-arcade')).toContain('games-do-not-import-studio-or-arcade: src/games/e.ts → src/studio/s.ts');
    expect(fired('arcade-does-not-import-studio')).toContain('arcade-does-not-import-studio: src/arcade/r.ts → src/studio/s.ts');
    // The package's pure reader is allowed; the arcade is not.
    expect(fired('studio-does-not-import-arcade')).toEqual(['studio-does-not-import-arcade: src/studio/s.ts → src/arcade/q.ts']);
    expect(fired('ui-is-the-top')).toEqual(['ui-is-the-top: src/games/e2.ts → src/ui/app.ts']);
    expect(fired('nothing-imports-worker-entries')).toEqual(['nothing-imports-worker-entries: src/arcade/r.ts → workers/w.ts']);
    expect(fired('workers-reach-no-screens')).toEqual(['workers-reach-no-screens: workers/w.ts → src/ui/app.ts']);
    expect(fired('screens-call-the-runtime')).toEqual(['screens-call-the-runtime: src/ui/Screen.svelte → src/llm/m.ts']);
    expect(fired('src-imports-no-tests')).toEqual(['src-imports-no-tests: src/games/e.ts → tests/support/double.ts']);
    // Each rule has its fixture.
    expect(new Set(r.violations.map((v) => v.split(':')[0]))).toEqual(new Set(RULES.map((rule) => rule.name)));
  }, 30_000);

  it('a tree that keeps the walls passes', async () => {
    const r = await checkDeps(fixture('deps-clean'));
    expect(r.violations).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.modules).toBe(6);
  }, 30_000);
});
