import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge } from '../../../src/core/jev/index.ts';
import { ANIMAL_VOCABULARY, findAnimal } from '../../../skills/draw-guess/animals.ts';

interface Case {
  answer: string;
  text: string;
  expect: 'correct' | 'wrong' | 'unclear';
  note: string;
}

const cases: Case[] = readFileSync(resolve(import.meta.dirname, 'utterances.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Case);

describe('JEV on recorded utterances (tests/unit/jev/utterances.jsonl)', () => {
  it('has at least 150 judged utterances of every verdict', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    for (const v of ['correct', 'wrong', 'unclear']) expect(cases.filter((c) => c.expect === v).length).toBeGreaterThan(20);
  });

  it.each(cases.map((c) => [`${c.answer} ← ${JSON.stringify(c.text)} → ${c.expect}（${c.note}）`, c] as const))('%s', (_, c) => {
    const target = findAnimal(c.answer) ?? ANIMAL_VOCABULARY.find((v) => v.name === c.answer);
    expect(target, `answer ${c.answer} is known`).toBeDefined();
    const r = judge(c.text, target!, ANIMAL_VOCABULARY);
    expect(r.verdict).toBe(c.expect);
    if (r.verdict === 'correct') expect(r.matched).toBe(target!.name);
    if (r.verdict === 'wrong') {
      expect(r.matched).not.toBe(target!.name);
      expect(r.mentioned).toContain(r.matched);
    }
    if (r.verdict === 'unclear') expect(r.matched).toBeUndefined();
    // The reason goes to the model: it never names the answer the player has not said.
    if (r.verdict !== 'correct' && !r.mentioned.includes(target!.name)) expect(r.reason).not.toContain(`「${target!.name}」`);
  });
});
