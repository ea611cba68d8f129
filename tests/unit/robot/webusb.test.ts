/**
 * The Android path: our RobotLink over web-serial-polyfill's real SerialPort, on a fake WebUSB
 * CDC-ACM robot (src/robot/sim/usb-sim.ts) whose far end is the firmware simulator. Node 20 has
 * no `navigator`, so the test provides one with only `usb` (no `serial`), as Android Chrome has.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRobotOutput } from '../../../src/robot/create-robot-output.ts';
import { RobotLink } from '../../../src/robot/link.ts';
import { SerialPort } from 'web-serial-polyfill';
import { encodeFrame, FrameType } from '../../../src/core/robot/frame.ts';
import { cmd } from '../../../src/core/robot/messages.ts';
import { browserSerialSource } from '../../../src/robot/serial-port.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { fixedRandom, steppingRandom } from '../../support/robot/random.ts';
import { TimedSpeech } from '../../support/robot/timed-speech.ts';
import { SimUsb, type SimUsbOptions } from '../../support/robot/usb-sim.ts';
import { outcome, tick } from './harness.ts';
import type { ConformanceReport } from '../../../src/core/robot/conformance/report.ts';
import { runKitOnPort } from '../../../src/robot/conformance/port-wire.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function usbRig(opts: SimUsbOptions = {}) {
  const sim = new FirmwareSim({ random: steppingRandom() });
  const usb = new SimUsb(sim, opts);
  const nav = { usb } as unknown as Navigator;
  vi.stubGlobal('navigator', nav); // the polyfill reads the global navigator.usb
  const source = browserSerialSource(nav);
  if (!source) throw new Error('no source');
  const link = new RobotLink({ source });
  const events: string[] = [];
  link.on('state', (s) => events.push(`state:${s}`));
  link.on('lost', (l) => events.push(`lost:${l.code}`));
  link.on('error', (e) => events.push(`error:${e.code}`));
  link.on('ready', (x) => events.push(`ready${x.rebooted ? ':rebooted' : ''}`));
  const usbEvents: string[] = [];
  usb.addEventListener('connect', () => usbEvents.push('connect'));
  usb.addEventListener('disconnect', () => usbEvents.push('disconnect'));
  return { sim, usb, source, link, events, usbEvents };
}

async function usbConnected(opts: SimUsbOptions = {}) {
  const rig = usbRig(opts);
  const ok = rig.link.connectByTap();
  await tick(1200);
  if (!(await ok)) throw new Error(`did not connect: ${rig.events.join(' ')}`);
  return rig;
}

describe('WebUSB + web-serial-polyfill: connecting', () => {
  it('is the path chosen on Android (no navigator.serial, navigator.usb present)', () => {
    const { source } = usbRig();
    expect(source.kind).toBe('usb');
  });

  it('connects from a tap through the polyfill: CDC-ACM set-up, hello, capabilities', async () => {
    const { link, usb } = await usbConnected();
    expect(link.state).toBe('ready');
    expect(usb.requests).toBe(1);
    // The polyfill asks the chooser for CDC communications devices (class 2).
    expect(usb.lastFilters).toEqual([{ classCode: 2 }]);
    const d = usb.device;
    expect(d.log.slice(0, 8)).toEqual([
      'open',
      'selectConfiguration(1)',
      'claimInterface(0)',
      'claimInterface(1)',
      'SET_LINE_CODING 115200 8N1',
      'SET_CONTROL_LINE_STATE DTR=1 RTS=0', // the polyfill's open() raises DTR …
      'SET_LINE_CODING 115200 8N1', // (reconfigure: one USB read at a time, see serial-port.ts)
      'SET_CONTROL_LINE_STATE DTR=0 RTS=0', // … and the link clears DTR/RTS (protocol §1)
    ]);
    expect(link.hello?.serial).toBe('SIM00001');
    expect([...link.capabilities].sort()).toEqual(['draw', 'face', 'head', 'screen']);
  });

  it('reconnects by itself to a granted robot after a reload (no chooser)', async () => {
    const { link, usb } = usbRig({ granted: true });
    const started = link.start();
    await tick(1200);
    await started;
    expect(link.state).toBe('ready');
    expect(usb.requests).toBe(0);
  });

  it('Android with the kernel driver holding the robot: a clear robot_port_busy error, nothing hangs', async () => {
    const { link, usb, events } = usbRig();
    usb.faults.claimDenied = true;
    const ok = outcome(link.connectByTap());
    await tick(0);
    expect(ok.value).toBe(false);
    expect(events).toContain('error:robot_port_busy');
    expect(link.state).toBe('none');
    expect(usb.device.opened).toBe(false); // the polyfill closes what it opened
  });
});

describe('WebUSB + web-serial-polyfill: commands', () => {
  it('a nod: ack with the estimate at once, done when the motion ends', async () => {
    const { link, sim } = await usbConnected();
    const nod = link.send(cmd('head.gesture', { name: 'nod' }));
    const ack = outcome(nod.acked);
    const done = outcome(nod.done);
    await tick(5);
    expect(ack.value).toBe(900);
    expect(sim.state.head.gesture).toBe('nod');
    await tick(800);
    expect(done.settled).toBe(false);
    await tick(200);
    expect(done.settled && !done.error).toBe(true);
    expect(sim.state.gestures).toEqual(['nod']);
  });

  it('a drawing from the output module arrives stroke by stroke and reports device_completed', async () => {
    const sim = new FirmwareSim({ random: fixedRandom() });
    const usb = new SimUsb(sim, { granted: true });
    vi.stubGlobal('navigator', { usb });
    const speech = new TimedSpeech();
    // Default source: createRobotOutput must find the polyfill path by itself.
    const robot = createRobotOutput({ speech, random: steppingRandom() });
    await tick(1200);
    expect(robot.link?.state).toBe('ready');
    expect(robot.output.active).toBe('robot');
    const strokes: Array<Array<[number, number]>> = [
      Array.from({ length: 30 }, (_, i) => [10 + i * 3, 20] as [number, number]),
      [[20, 20], [20, 200]],
      Array.from({ length: 150 }, (_, i) => [100 + (i % 50), 100 + Math.floor(i / 50) * 20] as [number, number]), // split in two
    ];
    const result = outcome(robot.output.showDrawing({ id: 'cat', strokes, label: '猫' }));
    const seen: number[] = [];
    const off = sim.subscribe((s) => {
      if (s.content.kind === 'drawing' && seen[seen.length - 1] !== s.content.drawn) seen.push(s.content.drawn);
    });
    await tick(10_000);
    off();
    expect(result.value).toEqual({ device_completed: true });
    const c = sim.state.content;
    expect(c.kind === 'drawing' && [c.strokes.length, c.drawn, c.complete]).toEqual([4, 4, true]);
    expect(seen).toEqual([0, 1, 2, 3, 4]); // one stroke after the other, not all at once
    await robot.dispose();
  });
});

describe('WebUSB + web-serial-polyfill: losing the robot', () => {
  it('unplug mid-command fails it with robot_unplugged at once; nothing is left pending', async () => {
    const { link, usb, events, usbEvents } = await usbConnected();
    const dead = usb.device;
    const nod = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(100);
    usb.unplug();
    await tick(0);
    expect(usbEvents).toEqual(['disconnect']);
    expect(nod.error?.code).toBe('robot_unplugged');
    expect(link.state).toBe('lost');
    expect(events).toContain('lost:robot_unplugged');
    // No transfer waits on the dead device, and the link does not spin on it.
    expect(dead.pendingTransfers).toBe(0);
    await tick(1000);
    expect(dead.pendingTransfers).toBe(0);
    const later = outcome(link.send(cmd('face.set', { expr: 'happy' })).done);
    await tick(0);
    expect(later.error?.code).toBe('robot_not_connected');
  });

  it('re-plug (navigator.usb connect) reconnects by itself to the new USBDevice, and commands work again', async () => {
    const { link, usb, events, usbEvents } = await usbConnected();
    usb.unplug();
    await tick(0);
    const dead = usb.device;
    usb.plug();
    expect(usb.device).not.toBe(dead); // Chrome hands out a new USBDevice after a re-plug
    await tick(1200); // less than the 2 s retry timer: the connect event did it
    expect(usbEvents).toEqual(['disconnect', 'connect']);
    expect(link.state).toBe('ready');
    expect(events.filter((e) => e === 'ready')).toHaveLength(2);
    expect(usb.requests).toBe(1);
    const again = outcome(link.send(cmd('face.set', { expr: 'happy' })).done);
    await tick(300);
    expect(again.settled && !again.error).toBe(true);
  });

  it('a robot without a USB serial number is forgotten on re-plug: it waits for a tap', async () => {
    const { link, usb } = await usbConnected({ serialNumber: '' });
    usb.unplug();
    await tick(0);
    usb.plug();
    await tick(5000);
    expect(link.state).toBe('lost');
    const ok = link.connectByTap();
    await tick(1200);
    expect(await ok).toBe(true);
    expect(usb.requests).toBe(2);
  });

  it('closes in the right order: the polyfill can close and the device really is closed', async () => {
    const { link, usb } = await usbConnected();
    const d = usb.device;
    const pending = outcome(link.send(cmd('head.gesture', { name: 'nod' })).done);
    await tick(10);
    d.log.length = 0;
    await link.close();
    // The polyfill's close() cancels its streams before closing the device; had a reader or
    // writer still been locked, that would throw and the device would stay open.
    expect(d.log).toEqual(['SET_CONTROL_LINE_STATE DTR=0 RTS=0', 'close']);
    expect(d.opened).toBe(false);
    expect(d.pendingTransfers).toBe(0);
    expect(link.state).toBe('none');
    await tick(0);
    expect(pending.error?.code).toBe('robot_not_connected');
    usb.unplug();
    usb.plug();
    await tick(3000);
    expect(link.state).toBe('none');
  });

  it('a long session keeps one USB read pending at a time (the bare polyfill piles them up)', async () => {
    const { link, usb } = await usbConnected();
    for (let i = 0; i < 100; i++) {
      const done = outcome(link.send(cmd('face.set', { expr: i % 2 ? 'happy' : 'neutral' })).done);
      await tick(300);
      expect(done.settled && !done.error).toBe(true);
    }
    expect(link.state).toBe('ready');
    expect(usb.device.maxPendingIn).toBe(1);

    // Canary: the polyfill's own SerialPort, read the usual way, adds a pending transferIn per
    // chunk. If this starts failing, a polyfill update fixed it and oneReadAtATime can go.
    const sim = new FirmwareSim({ random: fixedRandom() });
    const raw = new SimUsb(sim);
    const port = new SerialPort(raw.device as unknown as ConstructorParameters<typeof SerialPort>[0]);
    await port.open({ baudRate: 115200, bufferSize: 4096 });
    const reader = port.readable!.getReader();
    const reading = (async () => {
      while (!(await reader.read()).done);
    })();
    const writer = port.writable!.getWriter();
    await tick(1200);
    for (let i = 1; i <= 50; i++) {
      await writer.write(encodeFrame(FrameType.Ping, i));
      await tick(50);
    }
    expect(raw.device.maxPendingIn).toBeGreaterThan(40);
    await reader.cancel();
    await reading;
  });
});

describe('WebUSB + web-serial-polyfill: the conformance kit', () => {
  it('runs the whole suite through the polyfill on a CDC-ACM robot and passes', async () => {
    const { source } = usbRig();
    const port = await source.requestPort();
    let report: ConformanceReport | undefined;
    void runKitOnPort(port).then((r) => (report = r));
    for (let i = 0; i < 4000 && !report; i++) await tick(25);
    expect(report!.results.filter((r) => r.status !== 'pass').map((r) => r.id)).toEqual([]);
    expect(report!.device).toMatchObject({ serial: 'SIM00001' });
  });
});
