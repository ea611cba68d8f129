import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ParentalControls } from '../../../src/parental/parental-controls.ts';
import { openParentalStore } from '../../../src/parental/parental-store.ts';
import { UNLOCK_IDLE_MS } from '../../../src/core/safety/grown-up.ts';
import { chinaTime } from '../../support/local-time.ts';

const local = chinaTime;
let n = 0;

function setup(name = `parental-${++n}`) {
  const t = { wall: Date.parse('2025-03-03T10:00:00+08:00'), mono: 0 };
  const make = () => new ParentalControls({ store: openParentalStore(name), now: () => t.wall, mono: () => t.mono, local, random: (k) => Array.from({ length: k }, (_, i) => i * 31 + 7) });
  return { t, make };
}

describe('ParentalControls', () => {
  it('has no PIN at first (nothing to play), sets one with a recovery code, keeps it only hashed', async () => {
    const { make } = setup();
    const c = make();
    await c.load();
    expect(c.view).toMatchObject({ ready: true, hasPin: false, unlocked: false });
    expect(c.playAllowed).toBe(false);
    expect(await c.setFirstPin('1111')).toEqual({ problem: expect.stringContaining('太好猜') });
    const r = await c.setFirstPin('2580');
    expect(r).toEqual({ code: expect.stringMatching(/^\w{4}-\w{4}-\w{4}$/) });
    expect(await c.setFirstPin('3691')).toEqual({ problem: '已经设置过密码了。' });
    expect(c.view.unlocked).toBe(true);
    c.lock();
    expect(c.playAllowed).toBe(true);
    const stored = JSON.stringify(await openParentalStore(`parental-${n}`).get('pin'));
    expect(stored).not.toContain('2580');
    expect(stored).not.toContain((r as { code: string }).code);
  });

  it('verifies the PIN; wrong tries count across a reload; the recovery code sets a new one', async () => {
    const { make } = setup();
    const c = make();
    await c.load();
    const { code } = (await c.setFirstPin('2580')) as { code: string };
    c.lock();
    expect(await c.verify('2580')).toEqual({ ok: true });
    c.lock();
    for (let i = 0; i < 6; i++) await c.verify('0000');
    const again = make();
    await again.load();
    expect(again.waitMs).toBe(60_000);
    expect(await again.verify('2580')).toMatchObject({ ok: false, waitMs: 60_000 });
    // The recovery code has its own count: usable while the PIN waits.
    expect(await again.recover('wrong-code-xx', '3691')).toEqual({ problem: expect.stringContaining('恢复码不对') });
    expect(again.recoveryWaitMs).toBe(0);
    const r = await again.recover(code.toLowerCase(), '3691');
    expect(r).toEqual({ code: expect.any(String) });
    again.lock();
    expect(await again.verify('2580')).toMatchObject({ ok: false });
    expect(await again.verify('3691')).toEqual({ ok: true });
  });

  it('the device clock turned back during a wrong-PIN wait does not stretch it, across a reload either', async () => {
    const { t, make } = setup();
    const c = make();
    await c.load();
    await c.setFirstPin('2580');
    c.lock();
    for (let i = 0; i < 6; i++) await c.verify('0000');
    expect(c.waitMs).toBe(60_000);
    // The clock goes back an hour: the minute goes on counting (monotonic time).
    t.wall -= 3_600_000;
    t.mono += 45_000;
    expect(c.waitMs).toBe(15_000);
    c.checkIdle(); // keeps what has passed
    await c.flush();
    // A reload (the monotonic clock starts again): no more than what is left.
    t.mono = 0;
    const again = make();
    await again.load();
    expect(again.waitMs).toBe(15_000);
    t.mono += 15_000;
    expect(again.waitMs).toBe(0);
    expect(await again.verify('2580')).toEqual({ ok: true });
    // A clock back a day after a longer wait: at most the wait's own length.
    again.lock();
    for (let i = 0; i < 7; i++) await again.verify('0000');
    const len = again.waitMs;
    t.wall -= 86_400_000;
    expect(again.waitMs).toBeLessThanOrEqual(len);
    const third = make();
    await third.load();
    expect(third.waitMs).toBeLessThanOrEqual(len);
  });

  it('an unlock ends after a few idle minutes; a touch keeps it open', async () => {
    const { t, make } = setup();
    const c = make();
    await c.load();
    await c.setFirstPin('2580');
    t.mono += UNLOCK_IDLE_MS - 1000;
    c.touch();
    t.mono += UNLOCK_IDLE_MS - 1000;
    c.checkIdle();
    expect(c.view.unlocked).toBe(true);
    t.mono += 2000;
    c.checkIdle();
    expect(c.view.unlocked).toBe(false);
  });

  it('shows a changed setting at once, before it is written (the screen does not move under the next tap), and keeps it', async () => {
    const { make } = setup();
    const c = make();
    await c.load();
    await c.setFirstPin('2580');
    const seen: boolean[] = [];
    const off = c.subscribe((v) => seen.push(v.settings.play.bedtime.on));
    const on = c.view.settings.play.bedtime.on;
    const written = c.updateSettings({ play: { bedtime: { ...c.view.settings.play.bedtime, on: !on } } });
    // Nothing awaited yet: the store has not answered, the view already says it.
    expect(c.view.settings.play.bedtime.on).toBe(!on);
    expect(seen.at(-1)).toBe(!on);
    await written;
    off();
    const d = make();
    await d.load();
    expect(d.view.settings.play.bedtime.on).toBe(!on);
  });

  it('settings and play time survive a reload; only an unlocked grown-up changes them', async () => {
    const { t, make } = setup();
    const c = make();
    await c.load();
    await c.setFirstPin('2580');
    await c.updateSettings({ gamesOnly: true, play: { dailyLimitMin: 12, bedtime: { on: false, start: 0, end: 0 } } });
    c.step(7 * 60_000, true);
    c.lock();
    await c.updateSettings({ gamesOnly: false });
    await c.flush();
    const d = make();
    await d.load();
    expect(d.view.settings).toMatchObject({ gamesOnly: true, play: { dailyLimitMin: 10, bedtime: { on: false } } });
    expect(d.view.usedMs).toBe(7 * 60_000);
    expect(d.gamesOnly).toBe(true);
    // The device clock turned back: the app keeps its own.
    t.wall -= 24 * 3600_000;
    const e = make();
    await e.load();
    expect(e.view.clockAheadMs).toBeGreaterThan(23 * 3600_000);
    expect(e.view.usedMs).toBe(7 * 60_000);
    expect(e.step(4 * 60_000, true)).toEqual([{ type: 'lock', reason: 'limit' }]);
    expect(e.playAllowed).toBe(false);
  });
});

describe('play time by day and game (for 记录)', () => {
  it('counts each game and the chat on its day, kept across a reload, the last eight days only', async () => {
    const { t, make } = setup();
    const c = make();
    await c.load();
    await c.setFirstPin('2580');
    c.step(60_000, true, true, 'guess-number');
    c.step(30_000, true, true, 'chat');
    c.step(30_000, false, true, 'chat'); // present but not counted
    expect(c.view.history).toEqual({ '2025-03-03': { 'guess-number': 60_000, chat: 30_000 } });
    t.wall += 86_400_000;
    c.step(0, false);
    c.step(45_000, true, true, 'guess-number');
    await c.flush();
    const again = make();
    await again.load();
    expect(again.view.history['2025-03-04']).toEqual({ 'guess-number': 45_000 });
    expect(again.view.history['2025-03-03']['guess-number']).toBe(60_000);
    expect(again.view.day).toBe('2025-03-04');
  });
});
