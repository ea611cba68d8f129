/**
 * The USB robot under faults a real one meets (lost acks and dones, a stroke nobody hears about, a
 * slow robot, a full lane, a robot with smaller limits), seen through the output module: every
 * gesture runs exactly once, a picture is complete or cleared and the game is told, nothing hangs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drawingOn, manyStrokes, outcome, outputRig, tick } from './harness.ts';
import { RobotLink } from '../../../src/robot/link.ts';
import { createOnScreenEngine } from '../../../src/robot/on-screen.ts';
import { RobotOutput } from '../../../src/robot/output-module.ts';
import { fixedPortSource } from '../../../src/robot/serial-port.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
import type { TraceEvent } from '../../../src/core/trace/types.ts';
import { OtherFirmware } from '../../support/robot/other-firmware.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { TimedSpeech } from '../../support/robot/timed-speech.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('duplicate suppression cannot be outrun', () => {
  it('one lost ack of a nod under a full drawing stream: the nod runs exactly once and the drawing completes', async () => {
    const { sim, link, output } = await outputRig();
    sim.faults.loseAck['head.gesture'] = 1;
    const drawing = manyStrokes('zebra', 40); // 42 requests, answered at once by the robot
    const shown = outcome(output.showDrawing(drawing));
    void output.react('happy', 'nod');
    await tick(6000);
    expect(sim.state.gestures).toEqual(['nod']);
    expect(shown.value).toEqual({ device_completed: true });
    expect(drawingOn(sim)).toMatchObject({ drawn: 40, complete: true });
    expect(link.stats.resends).toBe(1); // the nod, once
    expect(link.stats.windowWaits).toBeGreaterThan(0); // the drawing waited for the nod's ack
  });

  it('the same fault with no request window (the old host) makes the robot nod twice: the test sees the bug', async () => {
    const { sim, output } = await outputRig({ link: { window: Infinity } });
    sim.faults.loseAck['head.gesture'] = 1;
    void output.showDrawing(manyStrokes('zebra', 40));
    void output.react('happy', 'nod');
    await tick(6000);
    expect(sim.state.gestures).toEqual(['nod', 'nod']);
  });

  it('a lost ack of every gesture of a busy game: each runs once', async () => {
    const { sim, output, speech } = await outputRig();
    for (let round = 0; round < 4; round++) {
      sim.faults.loseAck['head.gesture'] = 1;
      sim.faults.loseAck['face.set'] = 1;
      void output.showDrawing(manyStrokes(`d${round}`, 25));
      void output.react(round % 2 ? 'sorry' : 'happy', round % 2 ? 'shake' : 'nod');
      void speech.say('好');
      await tick(4000);
    }
    expect(sim.state.gestures).toEqual(['nod', 'shake', 'nod', 'shake']);
  });
});

describe('a picture is complete or cleared, and the game is told', () => {
  it('every reply to one stroke lost: the half picture is cleared, device_completed is false with the reason, the link stays up', async () => {
    const { sim, link, output, trace } = await outputRig();
    sim.faults.loseReplies['draw.stroke'] = 5; // the robot draws the 5th piece; the tablet hears nothing about it
    const drawing = manyStrokes('cat', 14);
    const before = sim.state.commands;
    const shown = outcome(output.showDrawing(drawing));
    await tick(400);
    // The window: draw.begin and strokes 1–4 answered, then the silent 5th and at most 7 after it.
    expect(sim.state.commands - before).toBe(1 + 4 + 8);
    await tick(1500);
    expect(shown.value).toMatchObject({ device_completed: false, error: 'robot_picture_incomplete: 画到一半卡住了，我重新画一次。' });
    expect(shown.value?.detail).toMatch(/draw\.stroke \(6\).*robot_ack_timeout|no ack after 3 tries/);
    // Never half a picture: the robot shows a blank canvas, not 5 of 14 pieces.
    expect(drawingOn(sim)).toMatchObject({ id: 'cat', strokes: [], complete: false });
    expect(link.state).toBe('ready');
    expect(link.stats).toMatchObject({ ackTimeouts: 1, resends: 2 });
    const record = trace.find((e) => e.name === 'showDrawing')!;
    expect(record.data).toMatchObject({ device_completed: false, link: { ackTimeouts: 1, resends: 2 } });

    // The game draws it again: this time it is complete.
    const again = outcome(output.showDrawing(drawing));
    await tick(3000);
    expect(again.value).toEqual({ device_completed: true });
    expect(drawingOn(sim)).toMatchObject({ drawn: 14, complete: true });
  });

  it("a stroke whose Done alone is lost is covered by draw.end's Done: the picture is complete", async () => {
    const { sim, link, output } = await outputRig();
    sim.faults.loseDone['draw.stroke'] = 1;
    const shown = outcome(output.showDrawing(manyStrokes('owl', 6)));
    await tick(1500);
    expect(shown.value).toEqual({ device_completed: true });
    expect(drawingOn(sim)).toMatchObject({ drawn: 6, complete: true });
    await tick(3000);
    expect(link.stats.doneTimeouts).toBe(1); // counted for the parent, not a failure
  });

  it('a card whose replies are all lost is sent once more and shown', async () => {
    const { sim, output } = await outputRig();
    sim.faults.loseReplies['screen.text'] = 1;
    const shown = outcome(output.showText({ text: '第一题：它有长长的鼻子' }));
    await tick(2000);
    expect(shown.value).toEqual({ device_completed: true });
    expect(sim.state.content).toEqual({ kind: 'text', text: '第一题：它有长长的鼻子' });
  });

  it('a drawing longer than the lane takes: refused busy, sent again a little later, in order', async () => {
    const { sim, link, output } = await outputRig();
    const drawing = manyStrokes('snake', 90); // the screen lane holds 64
    const shown = outcome(output.showDrawing(drawing));
    await tick(20_000);
    expect(shown.value).toEqual({ device_completed: true });
    expect(link.stats.busy).toBeGreaterThan(0);
    const d = drawingOn(sim)!;
    expect(d.strokes).toEqual(drawing.strokes);
    expect(d.complete).toBe(true);
  });
});

describe('a slow robot (acks after 1.5 s)', () => {
  it('the shake still happens once, the timeout is reported, later commands are waited for, and nothing hangs', async () => {
    const { sim, link, output, speech } = await outputRig();
    sim.faults.ackDelay = 1500;
    void output.react('sorry', 'shake');
    await tick(3500);
    expect(sim.state.gestures).toEqual(['shake']); // it ran, once, although the tablet had given up
    expect(link.stats).toMatchObject({ ackTimeouts: 2, lateReplies: 2 }); // face.set and head.gesture
    expect(link.stats.slowestAckMs).toBeGreaterThanOrEqual(1500);
    expect(link.stats.ackTimeoutMs).toBe(2000);
    void speech.say('再猜猜');

    // From now on the tablet waits long enough for this robot.
    const timeouts = link.stats.ackTimeouts;
    const shown = outcome(output.showProgress({ current: 2, total: 3 }));
    void output.react('happy', 'nod');
    await tick(6000);
    expect(shown.value).toEqual({ device_completed: true });
    expect(sim.state.gestures).toEqual(['shake', 'nod']);
    expect(link.stats.ackTimeouts).toBe(timeouts);
    expect(link.state).toBe('ready');

    // A drawing on this robot: its acks overlap within the window, so its 22 requests wait for 5 acks in a row
    // (draw.begin, three windows of strokes, draw.end), about 7.5 s, not 22 × 1.5 s.
    const t0 = Date.now();
    const drawn = outcome(output.showDrawing(manyStrokes('slow', 20)));
    while (!drawn.settled) await tick(100);
    expect(drawn.value).toEqual({ device_completed: true });
    expect(Date.now() - t0).toBeLessThan(9000);
    expect(link.stats.ackTimeouts).toBe(timeouts);
  });
});

describe('commands fitted to what the robot says it can do', () => {
  it('a robot with fewer expressions, no shake and 50-point strokes: neutral face, no gesture, smaller pieces, nothing refused', async () => {
    const { sim, link, output } = await outputRig({
      sim: { hello: { expressions: ['neutral', 'happy'], gestures: ['nod'], draw: { strokes: true, maxPoints: 50 } } },
    });
    void output.react('surprised', 'shake');
    await tick(1500);
    expect(sim.state.face).toBe('neutral');
    expect(sim.state.gestures).toEqual([]);
    const long = { id: 'line', strokes: [Array.from({ length: 120 }, (_, i) => [i * 2, 100] as [number, number])] };
    const shown = outcome(output.showDrawing(long));
    await tick(4000);
    expect(shown.value).toEqual({ device_completed: true });
    expect(drawingOn(sim)!.strokes.map((s) => s.length)).toEqual([50, 50, 22]);
    expect(link.stats.refused).toBe(0);
  });
});

describe('the trace', () => {
  it('records every loss and reconnect of the link with its counters so far', async () => {
    const { port, trace } = await outputRig();
    port.unplug();
    await tick(10);
    port.plug();
    await tick(2000);
    const links = trace.filter((e) => e.name === 'link').map((e) => (e.data as { event: string }).event);
    expect(links).toEqual(['lost', 'ready']);
    const ready = trace.filter((e) => e.name === 'link').at(-1)!.data as { stats: { unplugs: number; reconnects: number }; serial: string };
    expect(ready).toMatchObject({ serial: 'SIM00001', stats: { unplugs: 1, reconnects: 1 } });
  });

  it("records the robot's own events (a log line at boot of the independent firmware)", async () => {
    const port = new SimPort(new OtherFirmware()); // powered now: its boot text, then hello and a log event after 150 ms
    const link = new RobotLink({ source: fixedPortSource(port) });
    const trace: TraceEvent[] = [];
    const screen = createOnScreenEngine({ random: steppingRandom() });
    new RobotOutput({ speech: new TimedSpeech(), screen: screen.link, robot: link, trace: { record: (e) => trace.push(e) } });
    void link.connectByTap();
    await tick(1500);
    expect(link.state).toBe('ready');
    expect(trace.find((e) => e.name === 'robot_event')?.data).toEqual({ event: 'log', msg: 'ready', robot: 'robot' });
  });
});
