/**
 * npm run jev — audit the answer judge against recorded utterances.
 *
 * stdin: JSON lines {"answer": "<animal: catalogue name or any alias>", "text": "<what the child said>"}
 * stdout: one JSON line per input line:
 *   {"verdict": "correct"|"wrong"|"unclear", "matched": ..., "answer": "<catalogue name>", "text": ..., "mentioned": [...], "reason": ...}
 *   or {"error": "...", "line": n} for a bad line (invalid JSON, missing fields, unknown animal).
 * Blank lines are skipped. Exit code 0 once every line was processed.
 */
import { createInterface } from 'node:readline';
import { ANIMAL_VOCABULARY, findAnimal } from '../skills/draw-guess/animals.ts';
import { judge } from '../src/core/jev/index.ts';

export function judgeLine(line: string, n: number): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    return { error: `第 ${n} 行不是合法的 JSON`, line: n };
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { error: `第 ${n} 行应当是一个 JSON 对象`, line: n };
  const { answer, text } = input as { answer?: unknown; text?: unknown };
  if (typeof answer !== 'string' || answer.trim() === '') return { error: `第 ${n} 行缺少字符串字段 "answer"`, line: n };
  if (typeof text !== 'string') return { error: `第 ${n} 行缺少字符串字段 "text"`, line: n };
  const card = findAnimal(answer);
  if (!card) return { error: `第 ${n} 行的答案「${answer}」不在动物目录里`, line: n, answer };
  const r = judge(text, card, ANIMAL_VOCABULARY);
  return { verdict: r.verdict, matched: r.matched ?? null, answer: card.name, text, mentioned: r.mentioned, reason: r.reason };
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let n = 0;
for await (const line of rl) {
  n++;
  if (line.trim() === '') continue;
  process.stdout.write(JSON.stringify(judgeLine(line, n)) + '\n');
}
