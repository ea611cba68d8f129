/**
 * Play time at work: every few seconds the time that really passed (a monotonic clock) is added to
 * today's play — only while a game or a chat is going on and the app is on screen. Near the limit
 * (or bedtime) the robot says so once, when it is not in the middle of something; at the limit new
 * words are no longer taken, the current turn finishes, the running game ends through its normal end
 * (which tells the answer), the robot says a goodbye without guilt, and the locked screen follows.
 */
import type { AgentEvent, AgentSnapshot } from '../core/arcade/types.ts';
import { PLAY_TIME_LINES, type LockReason, type PlayEvent } from '../core/safety/play-time.ts';
import type { ParentalControls } from './parental-controls.ts';

export interface PlayTimerDeps {
  controls: ParentalControls;
  agent: {
    subscribe(fn: (e: AgentEvent) => void): () => void;
    snapshot(): AgentSnapshot;
    timeUp(o: { roundId: string; words: string; goodbye: string }): Promise<void>;
    announce(text: string, roundId?: string): Promise<void>;
  };
  mono: () => number;
  /** The app is on screen (a hidden page is not being played). */
  visible: () => boolean;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  setTimeout: (fn: () => void, ms: number) => unknown;
  /** Opens a trace round for something the app does by itself; returns its id. */
  openRound: (text: string) => string;
  /** The microphone stops listening (hands-free stays off on the locked screen). */
  stopListening: () => void;
  tickMs?: number;
}

/** A chat counts as going on this long after its last round. */
const CHAT_LINGERS_MS = 60_000;
/**
 * The child is taken to be still there this long after the last round (a chat has pauses): the
 * warning and the goodnight are said to them, though only CHAT_LINGERS_MS of a pause is counted.
 */
const PRESENT_MS = 5 * 60_000;
/** The gentle end waits at most this long for the current turn to finish. */
const TURN_WAIT_MS = 60_000;

export class PlayTimer {
  private last: number;
  private lastActive = -Infinity;
  private timer: unknown = null;
  private off: (() => void) | null = null;
  private pendingWarn: LockReason | null = null;
  private ending = false;

  constructor(private readonly deps: PlayTimerDeps) {
    this.last = deps.mono();
  }

  start(): void {
    if (this.timer !== null) return;
    this.last = this.deps.mono();
    this.off = this.deps.agent.subscribe((e) => {
      if (e.type !== 'state') return;
      if (this.busy(e.snapshot)) this.lastActive = this.deps.mono();
      if (this.pendingWarn && this.idle(e.snapshot)) this.sayWarning();
    });
    this.timer = this.deps.setInterval(() => this.tick(), this.deps.tickMs ?? 5000);
  }

  stop(): void {
    if (this.timer !== null) this.deps.clearInterval(this.timer);
    this.timer = null;
    this.off?.();
  }

  /** One step now (also called by the interval). */
  tick(): void {
    const now = this.deps.mono();
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    const snap = this.deps.agent.snapshot();
    if (this.busy(snap)) this.lastActive = now;
    const active = this.deps.visible() && (this.busy(snap) || now - this.lastActive < CHAT_LINGERS_MS);
    const present = this.deps.visible() && (this.busy(snap) || now - this.lastActive < PRESENT_MS);
    for (const e of this.deps.controls.step(elapsed, active, present, snap.session?.gameId ?? 'chat')) this.on(e, present);
  }

  private busy(s: AgentSnapshot): boolean {
    return s.session !== null || s.phase !== 'idle';
  }

  private idle(s: AgentSnapshot): boolean {
    return s.phase === 'idle' && !s.gameBusy;
  }

  private on(e: PlayEvent, active: boolean): void {
    if (e.type === 'warn') {
      this.pendingWarn = e.reason;
      if (this.idle(this.deps.agent.snapshot())) this.sayWarning();
    } else if (e.type === 'lock') {
      this.pendingWarn = null;
      void this.end(e.reason, active);
    }
  }

  private sayWarning(): void {
    const reason = this.pendingWarn;
    this.pendingWarn = null;
    if (!reason || this.ending) return;
    const text = reason === 'limit' ? PLAY_TIME_LINES.warnLimit : PLAY_TIME_LINES.warnBedtime;
    void this.deps.agent.announce(text, this.deps.openRound(text)).catch(() => undefined);
  }

  /** The gentle end: the turn under way finishes, the game ends telling its answer, a goodbye. */
  private async end(reason: LockReason, active: boolean): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.deps.stopListening();
    const playing = active || this.deps.agent.snapshot().session !== null;
    try {
      if (!playing) return;
      this.deps.controls.setClosing(true);
      await this.whenIdle();
      const goodbye = reason === 'limit' ? PLAY_TIME_LINES.limit : PLAY_TIME_LINES.bedtime;
      await this.deps.agent.timeUp({ roundId: this.deps.openRound(PLAY_TIME_LINES.endWords), words: PLAY_TIME_LINES.endWords, goodbye });
    } catch (err) {
      console.warn('the gentle end failed', err);
    } finally {
      this.ending = false;
      this.deps.controls.setClosing(false);
    }
  }

  private whenIdle(): Promise<void> {
    if (this.idle(this.deps.agent.snapshot())) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      let off: (() => void) | null = null;
      const done = () => {
        settled = true;
        off?.();
        resolve();
      };
      off = this.deps.agent.subscribe((e) => {
        if (e.type === 'state' && this.idle(e.snapshot)) done();
      });
      if (settled) off();
      this.deps.setTimeout(done, TURN_WAIT_MS);
    });
  }
}
