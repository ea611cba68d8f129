/**
 * What a robot's run of commands means for the game (DeviceResult): the catalogue's code with the
 * child's sentence, and which failures mean the USB robot is gone or did not answer in time.
 */
import { describeAny } from '../core/errors/catalogue.ts';
import type { DeviceResult } from '../core/robot/types.ts';
import type { RunFailure } from './command-run.ts';

/** Codes that mean the USB robot is gone (not just one command): the on-screen robot is in charge now. */
export const ROBOT_GONE = new Set(['robot_unplugged', 'robot_link_stale', 'robot_not_connected']);

/** Codes of a request the robot never answered in time: a restart (hello still to come) looks like this at first. */
export const TIMEOUTS = new Set(['robot_ack_timeout', 'robot_done_timeout']);

/** A result's `error`: the code and the catalogue's sentence for the child. */
export const errorText = (code: string) => `${code}: ${describeAny(code).child}`;

/** Which command failed and why, for the technical detail. */
export const failureDetail = (f: RunFailure) => `${f.method} (${f.index + 1}): ${f.detail}`;

export function failedResult(f: RunFailure): DeviceResult {
  return { device_completed: false, error: errorText(f.code), detail: failureDetail(f) };
}
