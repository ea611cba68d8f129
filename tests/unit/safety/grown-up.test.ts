import { describe, expect, it } from 'vitest';
import { afterWrong, FREE_TRIES, NO_ATTEMPTS, normalizeRecoveryCode, pinProblem, readAttempts, recoveryCode, unlockExpired, UNLOCK_IDLE_MS, waitMs } from '../../../src/core/safety/grown-up.ts';

describe('the grown-up gate', () => {
  it('takes a 4–6 digit PIN that a child would not guess first', () => {
    expect(pinProblem('2580')).toBe('');
    expect(pinProblem('730519')).toBe('');
    expect(pinProblem('123')).toMatch(/4 到 6 位/);
    expect(pinProblem('12a4')).toMatch(/4 到 6 位/);
    expect(pinProblem('0000')).toMatch(/太好猜/);
    expect(pinProblem('1234')).toMatch(/太好猜/);
    expect(pinProblem('9876')).toMatch(/太好猜/);
  });

  it('after five wrong PINs each try waits longer: 1, 2, 4 … up to 30 minutes', () => {
    let a = NO_ATTEMPTS;
    for (let i = 0; i < FREE_TRIES; i++) a = afterWrong(a, 1000);
    expect(waitMs(a, 1000)).toBe(0);
    a = afterWrong(a, 1000);
    expect(waitMs(a, 1000)).toBe(60_000);
    a = afterWrong(a, 61_000);
    expect(waitMs(a, 61_000)).toBe(120_000);
    for (let i = 0; i < 10; i++) a = afterWrong(a, 0);
    expect(waitMs(a, 0)).toBe(30 * 60_000);
  });

  it('a wait is never longer than its own length from the try, whatever the device clock does', () => {
    let a = NO_ATTEMPTS;
    const t0 = Date.parse('2025-03-03T10:00:00+08:00');
    for (let i = 0; i < FREE_TRIES + 1; i++) a = afterWrong(a, t0);
    expect(waitMs(a, t0)).toBe(60_000);
    // The device clock turned back an hour, or a day: still at most the minute.
    expect(waitMs(a, t0 - 3_600_000)).toBe(60_000);
    expect(waitMs(a, t0 - 86_400_000 + 45_000)).toBe(60_000);
    // Time counted on a clock that only moves forward still counts when the device clock is back.
    expect(waitMs(a, t0 - 3_600_000, 45_000)).toBe(15_000);
    expect(waitMs(a, t0 - 3_600_000, 90_000)).toBe(0);
    // The device clock moving forward counts too.
    expect(waitMs(a, t0 + 30_000)).toBe(30_000);
    // An old record that waited until a device-clock time an hour ahead waits at most its own length.
    const old = readAttempts({ fails: 6, lockedUntil: t0 + 60_000 }, t0 - 3_600_000);
    expect(waitMs(old, t0 - 3_600_000)).toBe(60_000);
    expect(readAttempts({ fails: 7, lockedUntil: t0 + 60_000 }, t0)).toMatchObject({ fails: 7, waitLen: 60_000 });
    expect(readAttempts('junk', t0)).toEqual(NO_ATTEMPTS);
  });

  it('makes a recovery code to write down, read back however it was typed', () => {
    const code = recoveryCode(Array.from({ length: 12 }, (_, i) => i * 7919));
    expect(code).toMatch(/^[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    expect(normalizeRecoveryCode(code.toLowerCase().replace(/-/g, ' '))).toBe(code);
    expect(() => recoveryCode([1, 2])).toThrow();
  });

  it('an unlock ends after a few idle minutes', () => {
    expect(unlockExpired(0, UNLOCK_IDLE_MS - 1)).toBe(false);
    expect(unlockExpired(0, UNLOCK_IDLE_MS)).toBe(true);
  });
});
