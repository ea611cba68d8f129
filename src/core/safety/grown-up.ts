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
  /** The device clock at the last wrong try (epoch ms). */
  triedAt: number;
  /** How long the last wrong try makes the next one wait (ms; 0: no wait). */
  waitLen: number;
  /**
   * How much of that wait is known to have passed (ms), counted on a clock the device clock cannot
   * move; kept so that a reload after the device clock was turned back goes on from there.
   */
  waited: number;
}

export const NO_ATTEMPTS: Attempts = { fails: 0, triedAt: 0, waitLen: 0, waited: 0 };

/**
 * Attempts as stored, read safely: an older record (`lockedUntil`, a wait ending at a device-clock
 * time) becomes a wait of at most its own length from now, never longer.
 */
export function readAttempts(raw: unknown, deviceNow: number): Attempts {
  if (!raw || typeof raw !== 'object') return NO_ATTEMPTS;
  const r = raw as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const fails = Math.floor(num(r.fails));
  if ('waitLen' in r) {
    const waitLen = Math.min(MAX_WAIT_MS, num(r.waitLen));
    return { fails, triedAt: num(r.triedAt), waitLen, waited: Math.min(waitLen, num(r.waited)) };
  }
  const left = Math.min(MAX_WAIT_MS, waitFor(fails), Math.max(0, num(r.lockedUntil) - deviceNow));
  return { fails, triedAt: deviceNow, waitLen: left, waited: 0 };
}

/**
 * How much of the wait has passed: what was counted (`waited`, from a clock that only moves
 * forward) or what the device clock says since the try, whichever is more. A device clock turned
 * back counts as no time passed, so a wait is never longer than its own length from the try.
 */
export function waitedSoFar(a: Attempts, deviceNow: number, countedMs = a.waited): number {
  const byDevice = deviceNow >= a.triedAt ? deviceNow - a.triedAt : 0;
  return Math.min(a.waitLen, Math.max(countedMs, byDevice));
}

/** How long to wait before the next try (0: now); never more than the wait's own length. */
export function waitMs(a: Attempts, deviceNow: number, countedMs = a.waited): number {
  return Math.max(0, a.waitLen - waitedSoFar(a, deviceNow, countedMs));
}

/** The wait after this many wrong tries: from the sixth on, twice as long each time (1 min, 2, 4 … up to 30 min). */
function waitFor(fails: number): number {
  const over = fails - FREE_TRIES;
  return over > 0 ? Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (over - 1)) : 0;
}

/** After a wrong PIN: counted, and from the sixth on the next try waits (1 min, 2, 4 … up to 30 min). */
export function afterWrong(a: Attempts, deviceNow: number): Attempts {
  const fails = a.fails + 1;
  return { fails, triedAt: deviceNow, waitLen: waitFor(fails), waited: 0 };
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
