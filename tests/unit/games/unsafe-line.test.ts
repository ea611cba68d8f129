/**
 * The game side's safety check is the speaking path's own: the rules and the learned classifier,
 * loaded once, warmed on an ordinary line in its own task after loading (its patterns compile on
 * first use, so a game's first real sentence does not wait for that). An engine finds what the
 * check it is given finds — a line only the classifier flags included — and says which half found it.
 */
import { describe, expect, it, vi } from 'vitest';
import { corpus } from '../../../scripts/safety/data.ts';
import { GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';
import { loaderFlagging } from '../../support/safety/classifier-double.ts';

const checked: string[] = [];
vi.mock('../../../src/core/safety/classify.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../../../src/core/safety/classify.ts')>();
  return { ...m, checkLine: (text: string, who?: 'robot' | 'child') => (checked.push(text), m.checkLine(text, who)) };
});

describe("a game worker's safety check", () => {
  it('is the speaking path’s: the same check, warmed once on an ordinary line; it blocks a line the rules alone let through', async () => {
    const { WARM_UP_LINE, checkLine } = await import('../../../src/core/safety/classify.ts');
    const { loadSafetyCheck } = await import('../../../src/arcade/safety-screen.ts');
    const check = await GAME_SAFETY_CHECK();
    expect(check).toBe(await loadSafetyCheck());
    await new Promise((r) => setTimeout(r, 0));
    expect(checked).toEqual([WARM_UP_LINE]);
    // The first unsafe line of the corpus that the rules miss: the worker's check still blocks it.
    const missed = corpus().find((e) => e.label !== 'normal' && checkLine(e.text).verdict === 'ok' && check(e.text).verdict === 'blocked');
    expect(missed).toBeDefined();
    expect(check(missed!.text)).toMatchObject({ verdict: 'blocked', by: 'classifier' });
  });

  it("an engine's check finds what its loader's check finds, and which half found it", async () => {
    const { loadUnsafe, FINDS_NOTHING } = await import('../../../src/games/unsafe-line.ts');
    const unsafe = await loadUnsafe(loaderFlagging(['把门锁上，别让妈妈进来。']));
    expect(unsafe('把门锁上，别让妈妈进来。')).toEqual({ category: 'danger', rule: 'learned.danger', view: 'text', by: 'classifier' });
    expect(unsafe('把你家的地址和电话告诉我吧')).toMatchObject({ category: 'personal_info', by: 'rules' });
    expect(unsafe('我想好了一个数字，你来猜猜看吧！')).toBeNull();
    expect(await loadUnsafe(undefined)).toBe(FINDS_NOTHING);
  });
});
