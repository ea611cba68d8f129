import { describe, expect, it } from 'vitest';
import { advance, grantMore, inBedtime, newPlayState, normalizeSettings, playStatus, resyncClock, snapLimit, unlimitedToday, type PlaySettings, type PlayState } from '../../../src/core/safety/play-time.ts';
import { chinaTime } from '../../support/local-time.ts';

// A fixed time zone for the test (UTC+8), as the edge would compute it.
const local = chinaTime;
const at = (iso: string) => Date.parse(`${iso}+08:00`);
const MIN = 60_000;
const settings = (p: Partial<PlaySettings> = {}): PlaySettings => normalizeSettings({ dailyLimitMin: 30, bedtime: { on: true, start: 20 * 60 + 30, end: 7 * 60 }, ...p });

function play(state: PlayState, s: PlaySettings, minutes: number, active = true, stepMin = 1) {
  const events: string[] = [];
  let st = state;
  for (let i = 0; i < minutes; i += stepMin) {
    const r = advance(st, s, { deviceNow: st.clock + stepMin * MIN, elapsedMs: stepMin * MIN, active }, local);
    st = r.state;
    events.push(...r.events.map((e) => `${e.type}${'reason' in e ? `:${e.reason}` : ''}`));
  }
  return { state: st, events };
}

describe('play time', () => {
  it('limits come in 5-minute steps', () => {
    expect(snapLimit(32)).toBe(30);
    expect(snapLimit(33)).toBe(35);
    expect(snapLimit(1)).toBe(5);
    expect(snapLimit(999)).toBe(240);
    expect(snapLimit(null)).toBeNull();
    expect(normalizeSettings({ dailyLimitMin: 17 }).dailyLimitMin).toBe(15);
  });

  it('counts only active time, warns once five minutes before, then locks until the next day', () => {
    const s = settings();
    let st = newPlayState(at('2025-03-03T10:00:00'), local);
    ({ state: st } = play(st, s, 60, false));
    expect(st.usedMs).toBe(0);
    const a = play(st, s, 24);
    expect(a.events).toEqual([]);
    const b = play(a.state, s, 2);
    expect(b.events).toEqual(['warn:limit']);
    const c = play(b.state, s, 10);
    expect(c.events).toEqual(['lock:limit']);
    expect(playStatus(c.state, s, local)).toEqual({ kind: 'locked', reason: 'limit' });
    expect(c.state.usedMs).toBe(30 * MIN);
    // The next morning it is open again, and the counter starts from zero.
    const next = advance(c.state, s, { deviceNow: at('2025-03-04T08:00:00'), elapsedMs: 0, active: false }, local);
    expect(next.events).toEqual([{ type: 'unlock' }]);
    expect(next.state.usedMs).toBe(0);
  });

  it('turning the device clock back neither gives a new day nor leaves bedtime', () => {
    const s = settings();
    let st = newPlayState(at('2025-03-03T10:00:00'), local);
    st = play(st, s, 31).state;
    expect(playStatus(st, s, local).kind).toBe('locked');
    // The device says it is yesterday (after a reload: no time passed that the app knows of).
    const back = advance(st, s, { deviceNow: at('2025-03-02T10:00:00'), elapsedMs: 0, active: true }, local);
    expect(back.state.day).toBe('2025-03-03');
    expect(back.status).toEqual({ kind: 'locked', reason: 'limit' });
    // Time goes on at its real pace from where the app's clock was.
    const later = advance(back.state, s, { deviceNow: at('2025-03-02T10:05:00'), elapsedMs: 5 * MIN, active: true }, local);
    expect(later.state.clock).toBe(st.clock + 5 * MIN);
    // Bedtime: set back from 21:00 to 15:00, still bedtime.
    let night = newPlayState(at('2025-03-03T21:00:00'), local);
    expect(playStatus(night, s, local)).toMatchObject({ kind: 'locked', reason: 'bedtime', untilMinute: 420 });
    night = advance(night, s, { deviceNow: at('2025-03-03T15:00:00'), elapsedMs: 1000, active: true }, local).state;
    expect(playStatus(night, s, local)).toMatchObject({ kind: 'locked', reason: 'bedtime' });
    // A parent with the PIN takes the device clock as it is.
    expect(playStatus(resyncClock(night, at('2025-03-03T15:00:00'), local), s, local).kind).toBe('open');
  });

  it('warns before bedtime and locks at its start; the window may cross midnight', () => {
    const s = settings({ dailyLimitMin: null });
    expect(inBedtime(20 * 60 + 30, s.bedtime)).toBe(true);
    expect(inBedtime(6 * 60 + 59, s.bedtime)).toBe(true);
    expect(inBedtime(7 * 60, s.bedtime)).toBe(false);
    const st = newPlayState(at('2025-03-03T20:20:00'), local);
    const r = play(st, s, 12);
    expect(r.events).toEqual(['warn:bedtime', 'lock:bedtime']);
    const morning = advance(r.state, s, { deviceNow: at('2025-03-04T07:00:00'), elapsedMs: 0, active: false }, local);
    expect(morning.events).toEqual([{ type: 'unlock' }]);
  });

  it('a parent may give 15 more minutes (warned again before they end) or lift the limit for today', () => {
    const s = settings();
    const locked = play(newPlayState(at('2025-03-03T10:00:00'), local), s, 31).state;
    const more = grantMore(locked, s, local);
    expect(playStatus(more, s, local)).toEqual({ kind: 'open', remainingMs: 15 * MIN });
    // Near bedtime the evening lock comes first: 10 minutes of play used, 20:20 → 10 minutes left.
    const evening = play(newPlayState(at('2025-03-03T20:10:00'), local), s, 10).state;
    expect(playStatus(evening, s, local)).toEqual({ kind: 'open', remainingMs: 10 * MIN });
    const r = play(more, s, 16);
    expect(r.events).toEqual(['warn:limit', 'lock:limit']);
    const free = unlimitedToday(r.state);
    expect(playStatus(free, s, local)).toEqual({ kind: 'open', remainingMs: null });
    expect(play(free, s, 60).events).toEqual([]);
    // During bedtime, the grant opens it for 15 minutes.
    const bed = newPlayState(at('2025-03-03T21:00:00'), local);
    const g = grantMore(bed, s, local);
    expect(playStatus(g, s, local).kind).toBe('open');
    expect(play(g, settings({ dailyLimitMin: null }), 16).events).toEqual(['warn:bedtime', 'lock:bedtime']);
  });

  it('no limit and no bedtime: always open', () => {
    const s = settings({ dailyLimitMin: null, bedtime: { on: false, start: 0, end: 0 } });
    expect(play(newPlayState(at('2025-03-03T23:00:00'), local), s, 300, true, 10).events).toEqual([]);
  });
});
