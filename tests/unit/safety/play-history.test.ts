import { describe, expect, it } from 'vitest';
import { addPlay, dayTotal, HISTORY_DAYS, lastDays } from '../../../src/core/safety/play-time.ts';

describe('play history', () => {
  it('adds play per day and game, keeps the newest days, reads the last days across a month end', () => {
    let h = {};
    for (let d = 1; d <= 10; d++) h = addPlay(h, `2025-03-${String(d).padStart(2, '0')}`, 'chat', d * 1000);
    h = addPlay(h, '2025-03-10', 'guess-number', 5000);
    h = addPlay(h, '2025-03-10', 'guess-number', 0);
    expect(Object.keys(h)).toHaveLength(HISTORY_DAYS);
    expect(Object.keys(h).sort()[0]).toBe('2025-03-03');
    expect(dayTotal(h, '2025-03-10')).toBe(15_000);
    expect(dayTotal(h, '2025-02-01')).toBe(0);
    expect(lastDays('2025-03-02', 4)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
  });
});
