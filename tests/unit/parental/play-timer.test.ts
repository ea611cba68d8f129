import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentSnapshot } from '../../../src/core/arcade/types.ts';
import { PLAY_TIME_LINES } from '../../../src/core/safety/play-time.ts';
import { ParentalControls } from '../../../src/parental/parental-controls.ts';
import { openParentalStore } from '../../../src/parental/parental-store.ts';
import { PlayTimer } from '../../../src/parental/play-timer.ts';
import { chinaTime } from '../../support/local-time.ts';

const local = chinaTime;
let n = 0;
const MIN = 60_000;

class FakeAgent {
  snap: AgentSnapshot = { phase: 'idle', session: null, gameBusy: false };
  said: string[] = [];
  ended: Array<{ words: string; goodbye: string; hadGame: boolean }> = [];
  private listeners = new Set<(e: AgentEvent) => void>();
  subscribe(fn: (e: AgentEvent) => void) {
    this.listeners.add(fn);
    fn({ type: 'state', snapshot: this.snap });
    return () => this.listeners.delete(fn);
  }
  snapshot() {
    return this.snap;
  }
  set(s: Partial<AgentSnapshot>) {
    this.snap = { ...this.snap, ...s };
    for (const fn of this.listeners) fn({ type: 'state', snapshot: this.snap });
  }
  async timeUp(o: { words: string; goodbye: string }) {
    this.ended.push({ words: o.words, goodbye: o.goodbye, hadGame: this.snap.session !== null });
    this.set({ session: null });
  }
  async announce(text: string) {
    this.said.push(text);
  }
}

async function setup(opts: { limit: number; bedtimeFrom?: number }) {
  const t = { wall: Date.parse('2025-03-03T10:00:00+08:00'), mono: 0, visible: true };
  const controls = new ParentalControls({ store: openParentalStore(`timer-${++n}`), now: () => t.wall, mono: () => t.mono, local, random: (k) => Array(k).fill(3) });
  await controls.load();
  await controls.setFirstPin('2580');
  await controls.updateSettings({ play: { dailyLimitMin: opts.limit, bedtime: opts.bedtimeFrom === undefined ? { on: false, start: 0, end: 0 } : { on: true, start: opts.bedtimeFrom, end: 7 * 60 } } });
  controls.lock();
  const agent = new FakeAgent();
  let stopped = 0;
  const timeouts: Array<() => void> = [];
  const timer = new PlayTimer({
    controls,
    agent,
    mono: () => t.mono,
    visible: () => t.visible,
    setInterval: () => 1,
    clearInterval: () => {},
    setTimeout: (fn) => timeouts.push(fn),
    openRound: () => 'round-1',
    stopListening: () => stopped++,
  });
  timer.start();
  const pass = (ms: number) => {
    t.mono += ms;
    t.wall += ms;
    timer.tick();
  };
  return { t, controls, agent, timer, pass, stopped: () => stopped, timeouts };
}

const game = { gameId: 'guess-number', title: '猜数字', contextId: 'c1' };
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('PlayTimer', () => {
  it('counts only while a game or chat goes on and the app is on screen', async () => {
    const s = await setup({ limit: 30 });
    s.pass(10 * MIN);
    expect(s.controls.view.usedMs).toBe(0);
    s.agent.set({ session: game });
    s.pass(MIN);
    expect(s.controls.view.usedMs).toBe(MIN);
    s.t.visible = false;
    s.pass(MIN);
    expect(s.controls.view.usedMs).toBe(MIN);
    // A chat lingers a minute after its round.
    s.t.visible = true;
    s.agent.set({ session: null, phase: 'speaking' });
    s.agent.set({ phase: 'idle' });
    s.pass(30_000);
    expect(s.controls.view.usedMs).toBe(MIN + 30_000);
    s.pass(2 * MIN);
    expect(s.controls.view.usedMs).toBe(MIN + 30_000);
  });

  it('warns once when the robot is free, then ends the game gently and says goodbye', async () => {
    const s = await setup({ limit: 30 });
    s.agent.set({ session: game, phase: 'speaking' });
    s.pass(26 * MIN);
    expect(s.agent.said).toEqual([]); // still talking
    s.agent.set({ phase: 'idle' });
    expect(s.agent.said).toEqual([PLAY_TIME_LINES.warnLimit]);
    s.pass(MIN);
    expect(s.agent.said).toHaveLength(1);
    s.agent.set({ phase: 'thinking', gameBusy: true });
    s.pass(4 * MIN);
    expect(s.controls.playAllowed).toBe(false);
    expect(s.controls.view.closing).toBe(true);
    expect(s.stopped()).toBe(1);
    await flush();
    expect(s.agent.ended).toEqual([]); // the turn under way finishes first
    s.agent.set({ phase: 'idle', gameBusy: false });
    await flush();
    expect(s.agent.ended).toEqual([{ words: PLAY_TIME_LINES.endWords, goodbye: PLAY_TIME_LINES.limit, hadGame: true }]);
    await flush();
    expect(s.controls.view).toMatchObject({ closing: false, play: { kind: 'locked', reason: 'limit' } });
  });

  it('a lock while nobody plays (bedtime comes at night) says nothing: just the locked screen', async () => {
    const s = await setup({ limit: 30, bedtimeFrom: 10 * 60 + 5 });
    s.pass(6 * MIN);
    await flush();
    expect(s.controls.view).toMatchObject({ closing: false, play: { kind: 'locked', reason: 'bedtime' } });
    expect(s.agent.ended).toEqual([]);
    expect(s.agent.said).toEqual([]);
    expect(s.stopped()).toBe(1);
  });
});

describe('PlayTimer in a chat (no game)', () => {
  it('a child chatting now and then before bedtime is warned, then told goodnight', async () => {
    const s = await setup({ limit: 60, bedtimeFrom: 10 * 60 + 12 });
    const chat = () => {
      s.agent.set({ phase: 'speaking' });
      s.agent.set({ phase: 'idle' });
    };
    // A round every three minutes: the pauses are longer than a counted minute.
    for (let i = 0; i < 3; i++) {
      chat();
      for (let k = 0; k < 36; k++) s.pass(5000);
    }
    // 10:09 now: the warning came during the chat.
    expect(s.agent.said).toEqual([PLAY_TIME_LINES.warnBedtime]);
    chat();
    for (let k = 0; k < 36; k++) s.pass(5000);
    await flush();
    await flush();
    expect(s.agent.ended).toEqual([{ words: PLAY_TIME_LINES.endWords, goodbye: PLAY_TIME_LINES.bedtime, hadGame: false }]);
    expect(s.controls.view.play).toMatchObject({ kind: 'locked', reason: 'bedtime' });
    // Only the minute after each round counted.
    expect(s.controls.view.usedMs).toBeLessThanOrEqual(4 * MIN + 4 * 5000);
  });
});
