/**
 * The grown-up's controls, as the app sees them: whether a PIN is set (the first run sets one), the
 * gate (verify, wrong-PIN waits, recovery with the written-down code, an unlock that ends when the
 * grown-up leaves or after a few idle minutes), the settings (play time, 「只玩游戏」) and today's
 * play time. The rules are pure (src/core/safety/grown-up.ts, play-time.ts); this keeps them in
 * IndexedDB (./parental-store.ts) and tells the screens.
 */
import { afterWrong, FREE_TRIES, NO_ATTEMPTS, normalizeRecoveryCode, pinProblem, readAttempts, recoveryCode, unlockExpired, waitedSoFar, waitMs, type Attempts } from '../core/safety/grown-up.ts';
import { addPlay, advance, grantMore, newPlayState, normalizeSettings, playStatus, resyncClock, unlimitedToday, type LocalTime, type PlayEvent, type PlayHistory, type PlayState, type PlayStatus } from '../core/safety/play-time.ts';
import type { ParentalSettings, ParentalStore, StoredPin } from './parental-store.ts';
import { hashSecret, secretMatches } from './secret.ts';

export interface ParentalView {
  /** Storage has been read. */
  ready: boolean;
  hasPin: boolean;
  /** The grown-up area is open (the PIN was given, and the grown-up is still there). */
  unlocked: boolean;
  settings: ParentalSettings;
  play: PlayStatus;
  usedMs: number;
  /** The gentle end is under way (the robot is saying goodbye): the locked screen comes after it. */
  closing: boolean;
  /** How far the app's clock is ahead of the device clock (ms): the device clock was turned back. */
  clockAheadMs: number;
  /** Play time by day and game (`chat`: talk with no game), the last few days. */
  history: PlayHistory;
  /** Today, as play time counts days (YYYY-MM-DD). */
  day: string;
}

export interface ParentalDeps {
  store: ParentalStore;
  /** The device clock (epoch ms). */
  now: () => number;
  /** A monotonic clock (ms): real time passing, whatever the device clock says. */
  mono: () => number;
  local: LocalTime;
  /** n random unsigned integers (the browser's crypto source). */
  random: (n: number) => number[];
}

export type VerifyResult = { ok: true } | { ok: false; waitMs: number; triesLeft: number };

const DEFAULT_PARENTAL_SETTINGS: ParentalSettings = { play: normalizeSettings(undefined), gamesOnly: false };

/** The device's own calendar (its time zone). */
export function browserLocalTime(clock: number): { day: string; minute: number } {
  const d = new Date(clock);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`, minute: d.getHours() * 60 + d.getMinutes() };
}

/**
 * Wrong tries and their wait, counted on the monotonic clock while the app runs: `base` is how much
 * of the wait had passed at `mono` (a reload or a wrong try sets both).
 */
interface Counted {
  a: Attempts;
  base: number;
  mono: number;
}

export class ParentalControls {
  private pin: StoredPin | undefined;
  /** Wrong PINs; the recovery code has its own count and wait, so a PIN wait never blocks it. */
  private tries: { pin: Counted; recovery: Counted };
  private settings: ParentalSettings = DEFAULT_PARENTAL_SETTINGS;
  private playState: PlayState;
  private history: PlayHistory = {};
  private unlocked = false;
  private lastTouch = 0;
  private closing = false;
  private ready = false;
  private readonly listeners = new Set<(v: ParentalView) => void>();
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ParentalDeps) {
    this.playState = newPlayState(deps.now(), deps.local);
    this.tries = { pin: this.counted(NO_ATTEMPTS), recovery: this.counted(NO_ATTEMPTS) };
  }

  private counted(a: Attempts): Counted {
    return { a, base: waitedSoFar(a, this.deps.now()), mono: this.deps.mono() };
  }

  private waitOf(kind: 'pin' | 'recovery'): number {
    const c = this.tries[kind];
    return waitMs(c.a, this.deps.now(), c.base + Math.max(0, this.deps.mono() - c.mono));
  }

  async load(): Promise<void> {
    const [pin, attempts, recoveryAttempts, settings, play] = await Promise.all([
      this.deps.store.get('pin'),
      this.deps.store.get('attempts'),
      this.deps.store.get('recoveryAttempts'),
      this.deps.store.get('settings'),
      this.deps.store.get('play'),
    ]);
    this.history = (await this.deps.store.get('history').catch(() => undefined)) ?? {};
    this.pin = pin;
    const now = this.deps.now();
    this.tries = { pin: this.counted(readAttempts(attempts, now)), recovery: this.counted(readAttempts(recoveryAttempts, now)) };
    this.settings = settings ? { play: normalizeSettings(settings.play), gamesOnly: !!settings.gamesOnly } : DEFAULT_PARENTAL_SETTINGS;
    // The app's clock goes on from where it was (never back); the time the app was closed is unknown.
    if (play) this.playState = advance(play, this.settings.play, { deviceNow: this.deps.now(), elapsedMs: 0, active: false }, this.deps.local).state;
    this.ready = true;
    this.emit();
  }

  get view(): ParentalView {
    return {
      ready: this.ready,
      hasPin: !!this.pin,
      unlocked: this.unlocked,
      settings: this.settings,
      play: playStatus(this.playState, this.settings.play, this.deps.local),
      usedMs: this.playState.usedMs,
      closing: this.closing,
      clockAheadMs: Math.max(0, this.playState.clock - this.deps.now()),
      history: this.history,
      day: this.playState.day,
    };
  }

  subscribe(fn: (v: ParentalView) => void): () => void {
    this.listeners.add(fn);
    fn(this.view);
    return () => this.listeners.delete(fn);
  }

  /** The child may play now (the gentle end and the locked screen stop new words). */
  get playAllowed(): boolean {
    return this.ready && !!this.pin && !this.closing && this.view.play.kind === 'open';
  }

  get gamesOnly(): boolean {
    return this.settings.gamesOnly;
  }

  // ---- the PIN ---------------------------------------------------------------------------

  /** The first run: the PIN and a recovery code to write down (returned once, kept only hashed). */
  async setFirstPin(pin: string): Promise<{ code: string } | { problem: string }> {
    if (this.pin) return { problem: '已经设置过密码了。' };
    return this.storePin(pin);
  }

  /** A new PIN while unlocked (settings). */
  async changePin(pin: string): Promise<{ code: string } | { problem: string }> {
    if (!this.unlocked) return { problem: '请先输入家长密码。' };
    return this.storePin(pin);
  }

  private async storePin(pin: string): Promise<{ code: string } | { problem: string }> {
    const problem = pinProblem(pin);
    if (problem) return { problem };
    const code = recoveryCode(this.deps.random(12));
    this.pin = { pin: await hashSecret(pin), recovery: await hashSecret(code), setAt: this.deps.now() };
    this.tries = { pin: this.counted(NO_ATTEMPTS), recovery: this.counted(NO_ATTEMPTS) };
    await this.persist(async (s) => {
      await s.put('pin', this.pin!);
      await s.put('attempts', NO_ATTEMPTS);
      await s.put('recoveryAttempts', NO_ATTEMPTS);
    });
    this.unlock();
    return { code };
  }

  /** How long before the next PIN try (0: now): never more than the wait's own length from the try, whatever the device clock does. */
  get waitMs(): number {
    return this.waitOf('pin');
  }

  /** How long before the next recovery-code try (its own count: a PIN wait does not block it). */
  get recoveryWaitMs(): number {
    return this.waitOf('recovery');
  }

  async verify(pin: string): Promise<VerifyResult> {
    if (!this.pin) return { ok: false, waitMs: 0, triesLeft: 0 };
    const wait = this.waitOf('pin');
    if (wait > 0) return { ok: false, waitMs: wait, triesLeft: 0 };
    if (await secretMatches(pin, this.pin.pin)) {
      this.tries.pin = this.counted(NO_ATTEMPTS);
      await this.persist((s) => s.put('attempts', NO_ATTEMPTS));
      this.unlock();
      return { ok: true };
    }
    await this.wrongTry('pin');
    return { ok: false, waitMs: this.waitOf('pin'), triesLeft: Math.max(0, FREE_TRIES - this.tries.pin.a.fails) };
  }

  /** Forgot the PIN: the written-down recovery code and a new PIN; a new code is returned. */
  async recover(code: string, newPin: string): Promise<{ code: string } | { problem: string }> {
    if (!this.pin) return { problem: '还没有设置密码。' };
    const wait = this.waitOf('recovery');
    if (wait > 0) return { problem: `请 ${Math.ceil(wait / 60_000)} 分钟后再试。` };
    const problem = pinProblem(newPin);
    if (problem) return { problem };
    if (!(await secretMatches(normalizeRecoveryCode(code), this.pin.recovery))) {
      await this.wrongTry('recovery');
      return { problem: '恢复码不对。请看第一次设置时抄下的那张纸。' };
    }
    return this.storePin(newPin);
  }

  /** A wrong PIN or recovery code: counted, and kept across a reload. */
  private async wrongTry(kind: 'pin' | 'recovery'): Promise<void> {
    const a = afterWrong(this.tries[kind].a, this.deps.now());
    this.tries[kind] = this.counted(a);
    await this.persist((s) => s.put(kind === 'pin' ? 'attempts' : 'recoveryAttempts', a));
  }

  /**
   * Keeps how much of a running wait has passed (counted on the monotonic clock), so a reload after
   * the device clock was turned back goes on from there instead of starting the wait again.
   */
  private keepWaits(): void {
    for (const kind of ['pin', 'recovery'] as const) {
      const c = this.tries[kind];
      if (c.a.waitLen === 0 || c.a.waited >= c.a.waitLen) continue;
      const waited = c.a.waitLen - this.waitOf(kind);
      if (waited - c.a.waited < 1000) continue;
      const a = { ...c.a, waited };
      this.tries[kind] = { a, base: waited, mono: this.deps.mono() };
      void this.persist((s) => s.put(kind === 'pin' ? 'attempts' : 'recoveryAttempts', a));
    }
  }

  // ---- the unlock ------------------------------------------------------------------------

  private unlock(): void {
    this.unlocked = true;
    this.touch();
    this.emit();
  }

  /** The grown-up left the area. */
  lock(): void {
    if (!this.unlocked) return;
    this.unlocked = false;
    this.emit();
  }

  /** The grown-up touched something in the area. */
  touch(): void {
    this.lastTouch = this.deps.mono();
  }

  /** Called now and then: an unlock idle for a few minutes ends. */
  checkIdle(): void {
    this.keepWaits();
    if (this.unlocked && unlockExpired(this.lastTouch, this.deps.mono())) this.lock();
  }

  // ---- settings --------------------------------------------------------------------------

  async updateSettings(patch: { play?: Partial<ParentalSettings['play']>; gamesOnly?: boolean }): Promise<void> {
    if (!this.unlocked) return;
    this.touch();
    const play = normalizeSettings({ ...this.settings.play, ...patch.play, bedtime: { ...this.settings.play.bedtime, ...patch.play?.bedtime } });
    this.settings = { play, gamesOnly: patch.gamesOnly ?? this.settings.gamesOnly };
    // Shown at once (the tap's own frame: the screen does not move under the next tap), then written.
    this.emit();
    const kept = this.settings;
    await this.persist((s) => s.put('settings', kept));
  }

  // ---- play time -------------------------------------------------------------------------

  /**
   * `elapsedMs` of real time passed; the child was playing or not (`what`: the game played, or
   * `chat`), or still around (`present`). Returns what to do.
   */
  step(elapsedMs: number, active: boolean, present = active, what = 'chat'): PlayEvent[] {
    if (!this.ready) return [];
    const r = advance(this.playState, this.settings.play, { deviceNow: this.deps.now(), elapsedMs, active, present }, this.deps.local);
    const counted = r.state.day === this.playState.day ? r.state.usedMs - this.playState.usedMs : r.state.usedMs;
    if (counted > 0) {
      this.history = addPlay(this.history, r.state.day, what, counted);
      const h = this.history;
      void this.persist((s) => s.put('history', h));
    }
    const changed = r.state.usedMs !== this.playState.usedMs || r.state.day !== this.playState.day || r.state.warnedFor !== this.playState.warnedFor || r.events.length > 0;
    this.playState = r.state;
    // Saved on every tick that moved the app's own clock (what a device clock turned back is caught
    // against) and whenever something a reload must keep changed.
    if (changed || elapsedMs > 0) void this.persist((s) => s.put('play', this.playState));
    if (changed) this.emit();
    return r.events;
  }

  /** A parent's "再玩 15 分钟" (needs the PIN first). */
  grantMore(): Promise<void> {
    return this.setPlay((p) => grantMore(p, this.settings.play, this.deps.local));
  }

  /** A parent's "今天不限时间" (needs the PIN first). */
  unlimitedToday(): Promise<void> {
    return this.setPlay(unlimitedToday);
  }

  /** A parent says the device clock is right (it was turned back on purpose, or fixed): the app follows it. */
  useDeviceClock(): Promise<void> {
    return this.setPlay((p) => resyncClock(p, this.deps.now(), this.deps.local));
  }

  /** A parent's change to today's play time (needs the PIN first), kept and told. */
  private async setPlay(change: (p: PlayState) => PlayState): Promise<void> {
    if (!this.unlocked) return;
    this.playState = change(this.playState);
    this.emit();
    const kept = this.playState;
    await this.persist((s) => s.put('play', kept));
  }

  /** The gentle end started / finished (the locked screen shows after the goodbye). */
  setClosing(on: boolean): void {
    this.closing = on;
    this.emit();
  }

  /** Resolves when everything asked so far is written. */
  flush(): Promise<void> {
    return this.saving;
  }

  private persist(write: (s: ParentalStore) => Promise<void>): Promise<void> {
    const run = this.saving.then(() => write(this.deps.store)).catch((e: unknown) => console.warn('parental settings not saved', e));
    this.saving = run;
    return run;
  }

  private emit(): void {
    const v = this.view;
    for (const fn of this.listeners) {
      try {
        fn(v);
      } catch {
        // A broken listener does not break the controls.
      }
    }
  }
}
