/**
 * Play time (pure): a daily limit in 5-minute steps and a bedtime window, counted only while a game
 * or a chat is active. The state is what the app keeps in IndexedDB; `advance` is called with the
 * time that passed and whether the child was playing, and says what to do (warn once, end gently,
 * show the locked screen).
 *
 * The clock: a child (or a stray setting) may turn the device clock back. The app's own notion of
 * "now" (`clock`) never goes back: it is the larger of the device clock and the last one known plus
 * the time that really passed since (a monotonic timer). So going back does not give a new day and
 * does not leave bedtime; a new day comes when the app's clock passes midnight. When a parent
 * unlocks with the PIN, the device clock is taken as it is again (`resyncClock`).
 */

export interface PlaySettings {
  /** Minutes a day, a multiple of 5; null: no daily limit. */
  dailyLimitMin: number | null;
  bedtime: { on: boolean; /** Minutes after midnight. */ start: number; end: number };
}

export interface PlayState {
  /** The app's clock (epoch ms): never goes back. */
  clock: number;
  /** The local day `clock` is in, YYYY-MM-DD. */
  day: string;
  /** Play counted today. */
  usedMs: number;
  /** Extra time a parent gave today (the limit case). */
  extraMs: number;
  /** A parent's "no more limits today" (the day it was given). */
  unlimitedDay: string | null;
  /** A parent's grant during bedtime: play is open until this clock time. */
  bedtimeGrantUntil: number | null;
  /** The lock the child was already warned about (warned once per lock). */
  warnedFor: string | null;
}

export type LockReason = 'limit' | 'bedtime';

export type PlayStatus =
  | { kind: 'open'; /** Until the next lock, when there is one (ms of play for the limit, clock time for bedtime). */ remainingMs: number | null }
  | { kind: 'locked'; reason: LockReason; /** Minutes after midnight when bedtime ends (for the locked screen). */ untilMinute?: number };

/** What the app does after a step. */
export type PlayEvent = { type: 'warn'; reason: LockReason } | { type: 'lock'; reason: LockReason } | { type: 'unlock' };

/** The local calendar of a clock time: day and minute of the day (the edge knows the time zone). */
export type LocalTime = (clock: number) => { day: string; minute: number };

export const LIMIT_STEP_MIN = 5;
export const LIMIT_MAX_MIN = 240;
/** The warning comes this long before the lock (or at a third of a short limit). */
const WARN_BEFORE_MS = 5 * 60_000;
/** What one "再玩一会儿" of a parent gives. */
const GRANT_MS = 15 * 60_000;

const DEFAULT_PLAY_SETTINGS: PlaySettings = { dailyLimitMin: 30, bedtime: { on: true, start: 20 * 60 + 30, end: 7 * 60 } };

/** What the robot says (checked by the safety corpus like every other fixed line). */
export const PLAY_TIME_LINES = {
  warnLimit: '还可以玩五分钟哦，这一局玩完我们就休息。',
  warnBedtime: '快到睡觉时间啦，这一局玩完我们就去睡觉。',
  limit: '今天的游戏时间用完啦，休息一下眼睛和耳朵，我们明天见！',
  bedtime: '该睡觉啦，晚安，明天见！',
  /** The words the game's `end` carries (a game may answer them). */
  endWords: '今天的游戏时间到了',
} as const;

/** A limit snapped to the 5-minute steps (null stays null). */
export function snapLimit(min: number | null): number | null {
  if (min === null || !Number.isFinite(min)) return null;
  return Math.min(LIMIT_MAX_MIN, Math.max(LIMIT_STEP_MIN, Math.round(min / LIMIT_STEP_MIN) * LIMIT_STEP_MIN));
}

export function normalizeSettings(s: Partial<PlaySettings> | undefined): PlaySettings {
  const minute = (m: unknown, d: number) => (typeof m === 'number' && Number.isInteger(m) && m >= 0 && m < 24 * 60 ? m : d);
  const b: Partial<PlaySettings['bedtime']> = s?.bedtime ?? {};
  return {
    dailyLimitMin: s && 'dailyLimitMin' in s ? snapLimit(s.dailyLimitMin ?? null) : DEFAULT_PLAY_SETTINGS.dailyLimitMin,
    bedtime: { on: typeof b.on === 'boolean' ? b.on : DEFAULT_PLAY_SETTINGS.bedtime.on, start: minute(b.start, DEFAULT_PLAY_SETTINGS.bedtime.start), end: minute(b.end, DEFAULT_PLAY_SETTINGS.bedtime.end) },
  };
}

export function newPlayState(clock: number, local: LocalTime): PlayState {
  return { clock, day: local(clock).day, usedMs: 0, extraMs: 0, unlimitedDay: null, bedtimeGrantUntil: null, warnedFor: null };
}

/** The app's clock after `elapsedMs` really passed and the device now says `deviceNow`. */
function nextClock(clock: number, deviceNow: number, elapsedMs: number): number {
  return Math.max(deviceNow, clock + Math.max(0, elapsedMs));
}

export function inBedtime(minute: number, b: PlaySettings['bedtime']): boolean {
  if (!b.on || b.start === b.end) return false;
  return b.start < b.end ? minute >= b.start && minute < b.end : minute >= b.start || minute < b.end;
}

/** Minutes from `minute` until bedtime starts (0 inside it). */
function minutesToBedtime(minute: number, b: PlaySettings['bedtime']): number | null {
  if (!b.on || b.start === b.end) return null;
  if (inBedtime(minute, b)) return 0;
  return (b.start - minute + 24 * 60) % (24 * 60);
}

/** A new local day: today's counters start again. */
function rollDay(state: PlayState, local: LocalTime): PlayState {
  const day = local(state.clock).day;
  return day === state.day ? state : { ...state, day, usedMs: 0, extraMs: 0, unlimitedDay: null, warnedFor: null };
}

export function playStatus(state: PlayState, settings: PlaySettings, local: LocalTime): PlayStatus {
  if (state.unlimitedDay === state.day) return { kind: 'open', remainingMs: null };
  const { minute } = local(state.clock);
  const granted = state.bedtimeGrantUntil !== null && state.clock < state.bedtimeGrantUntil;
  if (inBedtime(minute, settings.bedtime) && !granted) return { kind: 'locked', reason: 'bedtime', untilMinute: settings.bedtime.end };
  const limit = settings.dailyLimitMin === null ? null : settings.dailyLimitMin * 60_000 + state.extraMs - state.usedMs;
  if (limit !== null && limit <= 0) return { kind: 'locked', reason: 'limit' };
  return { kind: 'open', remainingMs: nextLock(state, settings, local)?.inMs ?? null };
}

/** The lock coming next and the key the warning is given for (so it is given once per lock). */
function nextLock(state: PlayState, settings: PlaySettings, local: LocalTime): { reason: LockReason; inMs: number; key: string } | null {
  if (state.unlimitedDay === state.day) return null;
  const { minute } = local(state.clock);
  const granted = state.bedtimeGrantUntil !== null && state.clock < state.bedtimeGrantUntil;
  const limit = settings.dailyLimitMin === null ? null : settings.dailyLimitMin * 60_000 + state.extraMs - state.usedMs;
  const toBedMin = granted ? null : minutesToBedtime(minute, settings.bedtime);
  const toBed = granted ? state.bedtimeGrantUntil! - state.clock : toBedMin === null ? null : toBedMin * 60_000 - (state.clock % 60_000);
  const candidates: Array<{ reason: LockReason; inMs: number; key: string }> = [];
  if (limit !== null) candidates.push({ reason: 'limit', inMs: limit, key: `limit:${state.day}:${settings.dailyLimitMin}:${state.extraMs}` });
  if (toBed !== null) candidates.push({ reason: 'bedtime', inMs: toBed, key: `bed:${state.day}:${state.bedtimeGrantUntil ?? 'none'}` });
  return candidates.sort((a, b) => a.inMs - b.inMs)[0] ?? null;
}

/**
 * One step: `elapsedMs` of real time passed (monotonic), the device clock reads `deviceNow`, and
 * the child was `active` (a game or a chat going on) during it. Returns the new state and what to do.
 */
export function advance(
  state: PlayState,
  settings: PlaySettings,
  step: { deviceNow: number; elapsedMs: number; active: boolean; /** The child is still around (a chat a few minutes ago): warned too, though not counted. */ present?: boolean },
  local: LocalTime,
): { state: PlayState; events: PlayEvent[]; status: PlayStatus } {
  const before = playStatus(rollDay(state, local), settings, local);
  let next = rollDay({ ...state, clock: nextClock(state.clock, step.deviceNow, step.elapsedMs) }, local);
  if (step.active && before.kind === 'open') next = { ...next, usedMs: next.usedMs + Math.max(0, step.elapsedMs) };
  const status = playStatus(next, settings, local);
  const events: PlayEvent[] = [];
  if (status.kind === 'locked' && before.kind !== 'locked') events.push({ type: 'lock', reason: status.reason });
  else if (status.kind === 'open' && before.kind === 'locked') events.push({ type: 'unlock' });
  if (status.kind === 'open' && (step.active || step.present)) {
    const lock = nextLock(next, settings, local);
    const limitMs = settings.dailyLimitMin === null ? Infinity : settings.dailyLimitMin * 60_000;
    const warnAt = Math.min(WARN_BEFORE_MS, limitMs / 3);
    if (lock && lock.inMs <= warnAt && lock.inMs > 0 && next.warnedFor !== lock.key) {
      events.push({ type: 'warn', reason: lock.reason });
      next = { ...next, warnedFor: lock.key };
    }
  }
  return { state: next, events, status };
}

/** A parent's "再玩 15 分钟" on the locked screen (or before it). */
export function grantMore(state: PlayState, settings: PlaySettings, local: LocalTime, ms = GRANT_MS): PlayState {
  const status = playStatus(state, settings, local);
  if (status.kind === 'locked' && status.reason === 'bedtime') return { ...state, bedtimeGrantUntil: state.clock + ms, warnedFor: null };
  const limit = settings.dailyLimitMin === null ? 0 : settings.dailyLimitMin * 60_000;
  // From whatever was used: the child gets `ms` from now.
  const extra = Math.max(state.extraMs, state.usedMs - limit) + ms;
  return { ...state, extraMs: extra, warnedFor: null };
}

/** A parent's "今天不再限制". */
export function unlimitedToday(state: PlayState): PlayState {
  return { ...state, unlimitedDay: state.day };
}

/** A parent with the PIN vouches for the device clock: the app's clock follows it again. */
export function resyncClock(state: PlayState, deviceNow: number, local: LocalTime): PlayState {
  const next = { ...state, clock: deviceNow };
  return local(deviceNow).day === state.day ? next : rollDay(next, local);
}

/** Play time by day and by game (`chat` for talk with no game): what 记录 draws. Days are local YYYY-MM-DD. */
export type PlayHistory = Record<string, Record<string, number>>;

/** Days of play history kept (today and the seven before it). */
export const HISTORY_DAYS = 8;

/** `ms` of play on `day` added for `what` (a game id, or `chat`); only the newest HISTORY_DAYS days are kept. */
export function addPlay(history: PlayHistory, day: string, what: string, ms: number): PlayHistory {
  if (!(ms > 0)) return history;
  const today = { ...(history[day] ?? {}) };
  today[what] = (today[what] ?? 0) + ms;
  const next: PlayHistory = { ...history, [day]: today };
  const days = Object.keys(next).sort();
  for (const d of days.slice(0, Math.max(0, days.length - HISTORY_DAYS))) delete next[d];
  return next;
}

/** The `n` local days ending with `today` (oldest first), from a day string and a calendar step. */
export function lastDays(today: string, n: number): string[] {
  const [y, m, d] = today.split('-').map(Number);
  const out: string[] = [];
  for (let i = n - 1; i >= 0; i--) {
    const t = new Date(Date.UTC(y, m - 1, d - i));
    out.push(`${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`);
  }
  return out;
}

/** Total play of one day (ms). */
export function dayTotal(history: PlayHistory, day: string): number {
  return Object.values(history[day] ?? {}).reduce((a, b) => a + b, 0);
}
