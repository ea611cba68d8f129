/**
 * Every other built-in game: a folder `skills/<id>/` with SKILL.md + game.ts + demo.ts and no
 * `bench/llm/sequences/<id>.ts` of its own is recorded with the generic child (start, a hint,
 * no answer, a guess, leave) — so a new game is measured with no edit here.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSequence } from '../measure.ts';
import { REPO_ROOT, viteImport } from '../vite-runner.ts';

const here = dirname(fileURLToPath(import.meta.url));

export async function load(): Promise<BenchSequence[]> {
  const { discoverGames, recordGame, genericChild } = await viteImport<typeof import('../record-game.ts')>('/bench/llm/record-game.ts');
  const out: BenchSequence[] = [];
  for (const id of discoverGames(REPO_ROOT).filter((g) => !existsSync(join(here, `${g}.ts`)))) {
    const s = await recordGame(id, genericChild);
    const said = s.turns.map((t) => (t.input.kind === 'message' ? t.input.text : t.input.kind)).join(' / ');
    out.push({ agent: `game:${id}`, variant: 'generic', title: `通用脚本：${said}`, steps: s.steps });
  }
  return out;
}
