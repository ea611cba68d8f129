/**
 * Own content always passes: every line the project ships (scripts/safety/shipped.ts — the games'
 * and the Studio's strings with their templates filled, SKILL.md examples, the animal catalogue,
 * the demo decks and stories, 我说你做's actions as said, riddles, the error catalogue's child
 * sentences, the safety redirects and caring answers) goes through the whole check — rules and
 * learned classifier — and none may be blocked.
 */
import { describe, expect, it } from 'vitest';
import { fullCheck } from '../../../scripts/safety/check.ts';
import { shippedLines } from '../../../scripts/safety/shipped.ts';

describe('the project’s own lines', () => {
  const lines = shippedLines();
  const check = fullCheck();

  it('are collected from every source', () => {
    expect(lines.length).toBeGreaterThanOrEqual(1000);
    for (const s of ['code:skills/', 'code:src/studio/', 'skill:', 'animals', 'deck', 'story', 'actions', 'errors', 'app']) expect(lines.some((l) => l.source.startsWith(s)), s).toBe(true);
    // 我说你做 as the robot says it, and a riddle of the demo deck.
    expect(lines.some((l) => l.text === '我说：摸摸鼻子！')).toBe(true);
    expect(lines.some((l) => l.text.includes('打一身体部位'))).toBe(true);
  });

  it('are never blocked', () => {
    const blocked = lines.map((l) => ({ ...l, v: check(l.text) })).filter((l) => l.v.verdict === 'blocked');
    expect(blocked.map((l) => `${l.source}: ${l.text} → ${JSON.stringify(l.v)}`)).toEqual([]);
  });
});
