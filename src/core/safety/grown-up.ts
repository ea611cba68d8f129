/**
 * The grown-up gate's rules (pure): what a parent PIN may be, how wrong tries slow down (a child
 * cannot try all 10 000 PINs), the recovery code a parent writes down at the first run (the way back
 * in without the PIN, which a child cannot do alone), and how long an unlock lasts.
 */

/** An unlock ends when the grown-up leaves the area or after this long without a touch. */
export const UNLOCK_IDLE_MS = 3 * 60_000;
/** Wrong PINs allowed before the gate makes the next try wait. */
export const FREE_TRIES = 5;
const FIRST_WAIT_MS = 60_000;
const MAX_WAIT_MS = 30 * 60_000;

/** Why a PIN cannot be used ('' when it can): 4 to 6 digits, not one a child would guess first. */
export function pinProblem(pin: string): string {
  if (!/^\d{4,6}$/.test(pin)) return '密码要用 4 到 6 位数字。';
  if (/^(\d)\1+$/.test(pin)) return '这个密码太好猜了（数字都一样），换一个吧。';
  const digits = [...pin].map(Number);
  const step = digits[1] - digits[0];
  if ((step === 1 || step === -1) && digits.every((d, i) => i === 0 || d - digits[i - 1] === step)) return '这个密码太好猜了（连着的数字），换一个吧。';
  return '';
}

export interface Attempts {
  /** Wrong tries since the last right one. */
  fails: number;
  /** No try before this time (epoch ms). */
  lockedUntil: number;
}

export const NO_ATTEMPTS: Attempts = { fails: 0, lockedUntil: 0 };

/** How long to wait before the next try (0: now). */
export function waitMs(a: Attempts, now: number): number {
  return Math.max(0, a.lockedUntil - now);
}

/** After a wrong PIN: from the sixth on, each one waits twice as long (1 min, 2, 4 … up to 30 min). */
export function afterWrong(a: Attempts, now: number): Attempts {
  const fails = a.fails + 1;
  const over = fails - FREE_TRIES;
  return { fails, lockedUntil: over > 0 ? now + Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (over - 1)) : 0 };
}

/** The alphabet of recovery codes: no 0/O, 1/I/L to misread when copying by hand. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A recovery code like "K7P3-9XQ2-M4TB" from 12 random values (any unsigned integers). */
export function recoveryCode(random: readonly number[]): string {
  if (random.length < 12) throw new Error('a recovery code needs 12 random values');
  const chars = random.slice(0, 12).map((r) => CODE_ALPHABET[r % CODE_ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)].map((g) => g.join('')).join('-');
}

/** A typed recovery code in the written form (spaces, dashes and case do not matter). */
export function normalizeRecoveryCode(typed: string): string {
  const c = typed.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return c.length === 12 ? [c.slice(0, 4), c.slice(4, 8), c.slice(8)].join('-') : c;
}

/** An unlock that has been idle too long is over. */
export function unlockExpired(lastTouch: number, now: number): boolean {
  return now - lastTouch >= UNLOCK_IDLE_MS;
}
