/**
 * npm run safety — the child-safety check on lines of text (the same check the speaking path runs
 * before every spoken line, and the router on the child's own words).
 *
 * stdin: JSON lines {"text": "<a line>", "who"?: "robot" | "child"} (who defaults to "robot")
 * stdout: one JSON line per input line:
 *   {"verdict": "ok"} or {"verdict": "blocked", "category": ..., "label": "<plain Chinese>", "rule": ..., "view": ...}
 *   or {"error": "...", "line": n} for a bad line (invalid JSON, missing "text", unknown "who").
 * Blank lines are skipped. Exit code 0 once every line was processed. The check is the whole one
 * the app runs: the rules and the learned classifier ("by" says which found it).
 *
 * `npm run safety -- --report` (add --verbose for the corpus's misses): recall per category and the
 * false-block rate on the corpus and the frozen held-out set, and the project's own lines blocked.
 */
import { fullCheck } from './safety/check.ts';
import { report } from './safety/report.ts';
import { CATEGORY_LABEL } from '../src/core/safety/replies.ts';
import { parseObjectLine, runJsonLines } from './json-lines.ts';

export function checkJsonLine(line: string, n: number): Record<string, unknown> {
  const parsed = parseObjectLine(line, n);
  if ('error' in parsed) return parsed.error;
  const { text, who } = parsed.input;
  if (typeof text !== 'string') return { error: `第 ${n} 行缺少字符串字段 "text"`, line: n };
  if (who !== undefined && who !== 'robot' && who !== 'child') return { error: `第 ${n} 行的 "who" 只能是 "robot" 或 "child"`, line: n };
  const v = (check ??= fullCheck())(text, who ?? 'robot');
  return v.verdict === 'ok' ? { verdict: 'ok' } : { verdict: 'blocked', category: v.category, label: CATEGORY_LABEL[v.category], rule: v.rule, view: v.view, by: v.by };
}

let check: ReturnType<typeof fullCheck> | undefined;

if (process.argv.includes('--report')) report(process.argv.includes('--verbose'));
else await runJsonLines(checkJsonLine);
