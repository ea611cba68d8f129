/**
 * npm run jev — audit the answer judge against recorded utterances.
 *
 * stdin: JSON lines {"answer": "<animal: catalogue name or any alias>", "text": "<what the child said>"}
 * stdout: one JSON line per input line:
 *   {"verdict": "correct"|"wrong"|"unclear", "matched": ..., "answer": "<catalogue name>", "text": ..., "mentioned": [...], "reason": ...}
 *   or {"error": "...", "line": n} for a bad line (invalid JSON, missing fields, unknown animal).
 * Blank lines are skipped. Exit code 0 once every line was processed.
 */
import { ANIMAL_VOCABULARY, findAnimal } from '../skills/draw-guess/animals.ts';
import { judge } from '../src/core/jev/index.ts';
import { parseObjectLine, runJsonLines } from './json-lines.ts';

export function judgeLine(line: string, n: number): Record<string, unknown> {
  const parsed = parseObjectLine(line, n);
  if ('error' in parsed) return parsed.error;
  const { answer, text } = parsed.input;
  if (typeof answer !== 'string' || answer.trim() === '') return { error: `第 ${n} 行缺少字符串字段 "answer"`, line: n };
  if (typeof text !== 'string') return { error: `第 ${n} 行缺少字符串字段 "text"`, line: n };
  const card = findAnimal(answer);
  if (!card) return { error: `第 ${n} 行的答案「${answer}」不在动物目录里`, line: n, answer };
  const r = judge(text, card, ANIMAL_VOCABULARY);
  return { verdict: r.verdict, matched: r.matched ?? null, answer: card.name, text, mentioned: r.mentioned, reason: r.reason };
}

await runJsonLines(judgeLine);
