import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cmd } from '../../../src/core/robot/messages.ts';
import { RobotLink } from '../../../src/robot/link.ts';
import { browserSerialSource, fixedPortSource, type SerialPortLike, type SerialSource } from '../../../src/robot/serial-port.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { SimPort } from '../../../src/robot/sim/sim-port.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { connected, outcome, robotRig, tick } from './harness.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('browserSerialSource', () => {
  it('uses Web Serial when there is one, else WebUSB with the polyfill, else nothing (iPad)', () => {
    const usb = { addEventListener() {}, removeEventListener() {} };
    expect(browserSerialSource({ serial: new EventTarget() } as unknown as Navigator)?.kind).toBe('serial');
    expect(browserSerialSource({ usb } as unknown as Navigator)?.kind).toBe('usb');
    expect(browserSerialSource({} as Navigator)).toBeNull();
  });
});

describe('RobotLink: connecting', () => {
  it('connects from a tap, reads the hello past the boot banner and sets the capabilities', async () => {
    const { link, serial, port } = await connected();
    expect(link.state).toBe('ready');
    expect(serial.requests).toBe(1);
    expect(link.hello?.serial).toBe('SIM00001');
    expect([...link.capabilities].sort()).toEqual(['draw', 'face', 'head', 'screen']);
    expect(port.openOptions?.bufferSize).toBeGreaterThanOrEqual(4096);
  });

  it('reconnects by itself to a granted robot after a reload (no chooser)', async () => {
    const { link, serial } = robotRig({ granted: true });
    const started = link.start();
    await tick(1200);
    await started;
    expect(link.state).toBe('ready');
    expect(serial.requests).toBe(0);
  });

  it('reports a robot that never says hello, within the hello timeout, and does not hang', async () => {
    const { link, sim, events } = robotRig();
    sim.faults.mute = true;
    const ok = outcome(link.connectByTap());
    await tick(2900);
    expect(ok.settled).toBe(false);
    await tick(400);
    expect(ok.value).toBe(false);
    expect(events).toContain('error:robot_no_hello');
    expect(link.state).toBe('none');
  });

  it('refuses a robot speaking another protocol version', async () => {
    const { link, events } = robotRig({ sim: { hello: { proto: 2 } } });
    const ok = outcome(link.connectByTap());
    await tick(1200);
    expect(ok.value).toBe(false);
    expect(events).toContain('error:robot_protocol_mismatch');
  });

  it('reads capabilities from a robot without a head', async () => {
    const { link } = await connected({ sim: { hello: { gestures: [], servos: [] } } });
    expect([...link.capabilities].sort()).toEqual(['draw', 'face', 'screen']);
  });
});

describe('RobotLink: commands', () => {
  it('matches ack and done per command; done comes when the motion ends', async () => {
    const { link, sim } = await connected();
    const nod = link.send(cmd('head.gesture', { name: 'nod' }));
    const face = link.send(cmd('face.set', { expr: 'happy' }));
    const ack = outcome(nod.acked);
    const nodDone = outcome(nod.done);
    const faceDone = outcome(face.done);
    await tick(5);
    expect(ack.value).toBe(900); // 2 × 450 ms, as the robot estimates it
    expect(sim.state.face).toBe('happy'); // the face shows at once, the nod runs
    expect(sim.state.head.gesture).toBe('nod');
    await tick(200);
    expect(faceDone.settled).toBe(true);
    expect(nodDone.settled).toBe(false);
    await tick(750);
    expect(nodDone.settled && !nodDone.error).toBe(true);
    expect(sim.state.head.gesture).toBeNull();
  });

  it('fails a refused command with robot_refused and the device code', async () => {
    const { link } = await connected();
    const r = outcome(link.send(cmd('face.set', { expr: 'angry' as never })).done);
    await tick(10);
    expect(r.error?.code).toBe('robot_refused');
    expect(r.error?.message).toContain('unsupported');
  });

  it('rejects at once when no robot is connected', async () => {
    const { link } = robotRig();
    const r = outcome(link.send(cmd('sys.stop', {})).done);
    await tick(0);
    expect(r.error?.code).toBe('robot_not_connected');
  });

  it('survives a corrupted ack: CRC error counted, the command is retransmitted and runs once', async () => {
    const { link, sim } = await connected();
    sim.faults.corruptOut = 1;
    const h = link.send(cmd('head.gesture', { name: 'shake' }));
    const done = outcome(h.done);
    await tick(1500);
    expect(done.settled && !done.error).toBe(true);
    expect(link.stats.crcErrors + link.stats.junk).toBeGreaterThanOrEqual(1);
    expect(sim.state.gestures).toEqual(['shake']);
  });

  it('survives a command corrupted on its way to the robot', async () => {
    const { link, sim } = await connected();
    sim.faults.corruptIn = 1;
    const done = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(1500);
    expect(sim.state.badFrames).toBe(1);
    expect(done.settled && !done.error).toBe(true);
    expect(sim.state.gestures).toEqual(['nod']);
  });

  it('a slow ack (400 ms) is waited out by a retransmit, without running the command twice', async () => {
    const { link, sim } = await connected();
    sim.faults.ackDelay = 400;
    const done = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(2000);
    expect(done.settled && !done.error).toBe(true);
    expect(sim.state.gestures).toEqual(['nod']);
  });

  it('no ack at all fails with robot_ack_timeout after three tries (~900 ms)', async () => {
    const { link, sim } = await connected();
    sim.faults.ackDelay = 5000;
    const done = outcome(link.send(cmd('face.set', { expr: 'sorry' })).done);
    await tick(850);
    expect(done.settled).toBe(false);
    await tick(100);
    expect(done.error?.code).toBe('robot_ack_timeout');
  });

  it('no done fails with robot_done_timeout after the estimate plus the margin', async () => {
    const { link, sim } = await connected();
    sim.faults.noDone = true;
    const h = link.send(cmd('head.gesture', { name: 'shake' })); // estimate 1000 ms
    const done = outcome(h.done);
    await tick(2900);
    expect(done.settled).toBe(false);
    await tick(200);
    expect(done.error?.code).toBe('robot_done_timeout');
    expect(link.state).toBe('ready'); // the link itself is fine (pongs still come)
  });
});

describe('RobotLink: the request window', () => {
  it('while the oldest request waits for its ack, at most 8 requests are out; the rest wait, unsent, and go once it is answered', async () => {
    const { link, sim } = await connected();
    sim.faults.loseAck['head.gesture'] = 1;
    const before = sim.state.commands;
    const nod = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    const faces = Array.from({ length: 20 }, (_, i) => outcome(link.send(cmd('face.set', { expr: i % 2 ? 'happy' : 'sorry' })).done));
    await tick(10);
    expect(sim.state.commands - before).toBe(8); // the nod and 7 more
    expect(link.stats.windowWaits).toBeGreaterThan(0);
    await tick(300); // the nod is sent again and its ack (re-sent) comes back: the window moves on
    expect(sim.state.commands - before).toBe(21);
    await tick(1500);
    expect(nod.settled && !nod.error).toBe(true);
    expect(faces.every((f) => f.settled && !f.error)).toBe(true);
    expect(sim.state.gestures).toEqual(['nod']);
    expect(link.stats).toMatchObject({ resends: 1, ackTimeouts: 0, requests: 21 });
  });

  it('counts link health: CRC failures, resends, timeouts, late replies, reconnects', async () => {
    const { link, sim, port } = await connected();
    sim.faults.corruptOut = 1;
    outcome(link.send(cmd('head.gesture', { name: 'nod' })).done); // its Ack is corrupted: resent at 300 ms
    await tick(1000);
    expect(link.stats.crcErrors).toBe(1);
    expect(link.stats.resends).toBe(1);
    sim.faults.ackDelay = 1000;
    const slow = outcome(link.send(cmd('face.clear', {})).done);
    await tick(1500);
    expect(slow.error?.code).toBe('robot_ack_timeout');
    expect(link.stats).toMatchObject({ ackTimeouts: 1, lateReplies: 1, slowestAckMs: 1000, ackTimeoutMs: 1500 });
    sim.faults.ackDelay = 0;
    port.unplug();
    await tick(10);
    port.plug();
    await tick(2000);
    expect(link.stats).toMatchObject({ connects: 2, reconnects: 1, unplugs: 1 });
  });
});

describe('RobotLink: losing the robot', () => {
  it('unplug mid-command fails that command with robot_unplugged at once, then reconnects on re-plug', async () => {
    const { link, port, events } = await connected();
    const done = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(100);
    port.unplug();
    await tick(0);
    expect(done.error?.code).toBe('robot_unplugged');
    expect(link.state).toBe('lost');
    expect(events).toContain('lost:robot_unplugged');
    port.plug();
    await tick(1500);
    expect(link.state).toBe('ready');
    expect(events.filter((e) => e === 'ready').length).toBe(2);
    const again = outcome(link.send(cmd('face.set', { expr: 'happy' })).done);
    await tick(300);
    expect(again.settled && !again.error).toBe(true);
  });

  it('heartbeat loss: a hung robot makes the link stale, then it reconnects when the robot answers again', async () => {
    const { link, sim, events } = await connected();
    sim.faults.mute = true;
    await tick(2500);
    expect(link.state).toBe('ready');
    await tick(2000);
    expect(link.state).toBe('lost');
    expect(events).toContain('lost:robot_link_stale');
    sim.faults.mute = false;
    await tick(6000);
    expect(link.state).toBe('ready');
  });

  it('a non-fatal line error (framing/parity) does not drop the link: reading resumes on the new stream', async () => {
    const { link, port, events } = await connected();
    port.lineError('FramingError');
    await tick(0);
    const done = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(1000);
    expect(done.settled && !done.error).toBe(true);
    expect(link.state).toBe('ready');
    expect(events.some((e) => e.startsWith('lost'))).toBe(false);
  });

  it('a reboot mid-command fails it with robot_rebooted and announces the new boot', async () => {
    const { link, sim, events } = await connected();
    const done = outcome(link.send(cmd('head.gesture', { name: 'shake' })).done);
    await tick(100);
    sim.reboot();
    await tick(400);
    expect(done.error?.code).toBe('robot_rebooted');
    expect(events).toContain('ready:rebooted');
    expect(link.state).toBe('ready');
  });

  it('closes in the right order: reader cancel → writer close → port close, leaving nothing locked', async () => {
    const { link, port } = await connected();
    const pending = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(10);
    port.log.length = 0;
    await link.close();
    expect(port.log).toEqual(['readable.cancel', 'writable.close', 'close']);
    expect(port.readable).toBeNull();
    expect(link.state).toBe('none');
    await tick(0);
    expect(pending.error?.code).toBe('robot_not_connected');
    // A closed link does not come back by itself.
    port.unplug();
    port.plug();
    await tick(3000);
    expect(link.state).toBe('none');
  });

  it('closing while the robot is still booting ends in none, with no error and no retry', async () => {
    const { link, sim, events } = robotRig({ granted: true });
    void link.start();
    await tick(100); // the port is open, the robot still in its ROM
    expect(link.state).toBe('connecting');
    await link.close();
    expect(link.state).toBe('none');
    await tick(6000);
    expect(link.state).toBe('none');
    expect(events.filter((e) => e.startsWith('error') || e === 'ready')).toEqual([]);
    expect(sim.state.commands).toBe(0);
  });

  it('closing while the port is still opening leaves the port closed once it has opened', async () => {
    const sim = new FirmwareSim({ random: steppingRandom() });
    const sp = new SimPort(sim);
    let letOpen!: () => void;
    const opening = new Promise<void>((resolve) => (letOpen = resolve));
    const port: SerialPortLike = {
      get readable() {
        return sp.readable;
      },
      get writable() {
        return sp.writable;
      },
      open: async (options) => {
        await opening;
        await sp.open(options);
      },
      close: () => sp.close(),
    };
    const link = new RobotLink({ source: fixedPortSource(port) });
    const ok = outcome(link.connectByTap());
    await tick(10);
    expect(link.state).toBe('connecting');
    await link.close();
    letOpen();
    await tick(3000);
    expect(ok.value).toBe(false);
    expect(link.state).toBe('none');
    expect(sp.readable).toBeNull();
    expect(sp.log.slice(sp.log.indexOf('open'))).toEqual(['open', 'writable.close', 'close']);
  });
});

describe('RobotLink: picking another robot', () => {
  it("a tap that picks another port fails the old port's commands with robot_not_connected and connects to the new one", async () => {
    const random = steppingRandom();
    const first = new SimPort(new FirmwareSim({ random, serial: 'FIRST' }));
    const second = new SimPort(new FirmwareSim({ random, serial: 'SECOND' }));
    const picks = [first, second];
    const source: SerialSource = { kind: 'fixed', requestPort: async () => picks.shift()!, getPorts: async () => [], onConnect: () => () => {} };
    const link = new RobotLink({ source });
    const ok = outcome(link.connectByTap());
    await tick(1200);
    expect(ok.value).toBe(true);
    expect(link.hello?.serial).toBe('FIRST');
    const pending = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(10);
    const again = outcome(link.connectByTap());
    await tick(1200);
    expect(pending.error?.code).toBe('robot_not_connected');
    expect(again.value).toBe(true);
    expect(link.hello?.serial).toBe('SECOND');
    expect(first.readable).toBeNull(); // the first port was closed
    const done = outcome(link.send(cmd('face.set', { expr: 'happy' })).done);
    await tick(300);
    expect(done.settled && !done.error).toBe(true);
    expect(second.sim.state.face).toBe('happy');
  });
});
