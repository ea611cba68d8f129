/**
 * The robot as seen from a game worker: a DevicePort reached over a MessagePort with Comlink.
 * The main thread exposes the output module (`exposeDevice`); the worker wraps its end of the
 * channel (`connectDevice`) and hands the result to the game at construction.
 */
import * as Comlink from 'comlink';
import type { DevicePort, DeviceResult, Drawing, Expression, Gesture, Progress, TextCard } from '../core/robot/types.ts';

/** Main thread: serve `device` on `port` (one port per game worker). */
export function exposeDevice(device: DevicePort, port: MessagePort): void {
  // Only the DevicePort methods cross the channel, bound to the device.
  const surface: DevicePort = {
    react: (expression, gesture) => device.react(expression, gesture),
    showDrawing: (drawing) => device.showDrawing(drawing),
    showProgress: (progress) => device.showProgress(progress),
    showText: (card) => device.showText(card),
    idle: () => device.idle(),
  };
  Comlink.expose(surface, port);
}

/** Inside a game worker: a DevicePort whose calls go to the main thread's output module. */
export function connectDevice(port: MessagePort): DevicePort {
  const remote = Comlink.wrap<DevicePort>(port);
  return {
    react: (expression: Expression, gesture: Gesture) => remote.react(expression, gesture),
    showDrawing: (drawing: Drawing): Promise<DeviceResult> => remote.showDrawing(drawing),
    showProgress: (progress: Progress): Promise<DeviceResult> => remote.showProgress(progress),
    showText: (card: TextCard): Promise<DeviceResult> => remote.showText(card),
    idle: () => remote.idle(),
  };
}
