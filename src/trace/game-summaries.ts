/**
 * Each built-in game's plain-Chinese lines for 记录: `skills/<id>/summary.ts` exporting `summarize`
 * (a ToolSummary, src/core/trace/reading.ts), found by the folder — a new game brings its own and
 * nothing else changes. A game without one still shows what was said.
 */
import type { ToolSummary } from '../core/trace/reading.ts';

const MODULES = import.meta.glob('/skills/*/summary.ts', { import: 'summarize', eager: true }) as Record<string, ToolSummary>;

/** game id → its summary. */
export const GAME_SUMMARIES: Readonly<Record<string, ToolSummary>> = Object.fromEntries(
  Object.entries(MODULES).map(([path, fn]) => [path.split('/')[2], fn]),
);
