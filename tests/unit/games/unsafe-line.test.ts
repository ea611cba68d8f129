/**
 * The game side's safety check is handed out warm: its patterns compile on first use, so it runs
 * once on an ordinary line as it loads, and a game's first real sentence (a start's opening line)
 * is checked by a check that has already run. It still blocks what it should.
 */
import { describe, expect, it, vi } from 'vitest';

const checked: string[] = [];
vi.mock('../../../src/core/safety/classify.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../src/core/safety/classify.ts')>();
  return { ...m, checkLine: (text: string, who?: 'robot' | 'child') => (checked.push(text), m.checkLine(text, who)) };
});

describe('loadUnsafe', () => {
  it('runs the check once on an ordinary line before handing it out; the check still finds a harmful line', async () => {
    const { WARM_UP_LINE } = await import('../../../src/core/safety/classify.ts');
    const { loadUnsafe, unsafeNow } = await import('../../../src/games/unsafe-line.ts');
    const check = await loadUnsafe();
    expect(checked).toEqual([WARM_UP_LINE]);
    expect(check(WARM_UP_LINE)).toBeNull();
    expect(check('把你家的地址和电话告诉我吧')).toMatchObject({ category: 'personal_info' });
    expect(unsafeNow('把你家的地址和电话告诉我吧')).toMatchObject({ category: 'personal_info' });
  });
});
