/** Reading the safety line sets under tests/safety/ in tests: their `<label>\t<text>` rows, and a key that ignores punctuation and spaces. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, '../../safety');

/** A line's text without punctuation, symbols or spaces, lower-cased: two lines with one key are the same line. */
export function lineKey(text: string): string {
  return text.replace(/[\s\p{P}\p{S}]/gu, '').toLowerCase();
}

/** The cells of each row of a file under tests/safety/ (comment and blank lines skipped). */
export function tsvRows(file: string): string[][] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));
}

/** The written line files (tests/safety/corpus/written/), relative to tests/safety/. */
export function writtenFiles(): string[] {
  return readdirSync(join(dir, 'corpus/written'))
    .filter((f) => f.endsWith('.tsv'))
    .sort()
    .map((f) => `corpus/written/${f}`);
}
