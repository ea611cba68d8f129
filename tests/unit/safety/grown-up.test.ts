import { describe, expect, it } from 'vitest';
import { afterWrong, FREE_TRIES, NO_ATTEMPTS, normalizeRecoveryCode, pinProblem, recoveryCode, unlockExpired, UNLOCK_IDLE_MS, waitMs } from '../../../src/core/safety/grown-up.ts';

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
