/**
 * The JSON-lines command-line tools (`npm run jev`, `npm run safety`): one JSON object per line on
 * stdin, one JSON answer per line on stdout; a bad line gets `{"error": …, "line": n}`; blank lines
 * are skipped; the exit code is 0 once every line was read.
 */
import { createInterface } from 'node:readline';

/** The object on line `n`, or the error line to print instead. */
export function parseObjectLine(line: string, n: number): { input: Record<string, unknown> } | { error: Record<string, unknown> } {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    return { error: { error: `第 ${n} 行不是合法的 JSON`, line: n } };
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { error: { error: `第 ${n} 行应当是一个 JSON 对象`, line: n } };
  return { input: input as Record<string, unknown> };
}

/** Reads stdin line by line and prints `answer(line, n)` for each non-blank line. */
export async function runJsonLines(answer: (line: string, n: number) => Record<string, unknown>): Promise<void> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    if (line.trim() === '') continue;
    process.stdout.write(JSON.stringify(answer(line, n)) + '\n');
  }
}
