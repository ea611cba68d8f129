import { describe, expect, it } from 'vitest';
import { connectDevice, exposeDevice } from '../../../src/robot/device-port.ts';
import type { DevicePort, DeviceResult } from '../../../src/core/robot/types.ts';

describe('device port over a MessageChannel (Comlink)', () => {
  it('carries every DevicePort call from the worker side to the main-thread device and back', async () => {
    const calls: string[] = [];
    const device: DevicePort = {
      async react(e, g) {
        calls.push(`react:${e}:${g}`);
      },
      async showDrawing(d): Promise<DeviceResult> {
        calls.push(`drawing:${d.id}:${d.strokes.length}`);
        return { device_completed: true };
      },
      async showProgress(p) {
        calls.push(`progress:${p.current}/${p.total}`);
        return { device_completed: false, error: 'robot_unplugged: 机器人断开了' };
      },
      async showText(c) {
        calls.push(`text:${c.text}`);
        return { device_completed: true };
      },
      async idle() {
        calls.push('idle');
      },
    };
    const { port1, port2 } = new MessageChannel();
    exposeDevice(device, port1 as unknown as MessagePort);
    const remote = connectDevice(port2 as unknown as MessagePort);
    await remote.react('happy', 'nod');
    expect(await remote.showDrawing({ id: 'cat', strokes: [[[1, 2], [3, 4]]] })).toEqual({ device_completed: true });
    expect(await remote.showProgress({ current: 1, total: 3 })).toEqual({ device_completed: false, error: 'robot_unplugged: 机器人断开了' });
    expect(await remote.showText({ text: '你好' })).toEqual({ device_completed: true });
    await remote.idle();
    expect(calls).toEqual(['react:happy:nod', 'drawing:cat:1', 'progress:1/3', 'text:你好', 'idle']);
    port1.close();
    port2.close();
  });
});
