/**
 * Runs a list of commands on one robot, in order, within the protocol's rules
 * (docs/robot-protocol.md §3, §10 "What the host does when…"):
 * - commands are handed to the link at once and go out as its request window allows (8 from the
 *   oldest unacknowledged one), so a slow robot's acks overlap instead of adding up; `draw.begin`
 *   must be acknowledged before the strokes go, and every stroke before `draw.end`;
 * - retransmissions of a request whose Ack is lost are the link's (requests.ts), same seq;
 * - a command refused with `busy` is sent again as a new request after 100, 200, 400… ms (a
 *   stroke may then land after a later one: the finished picture is the same);
 * - a drawing ends with `draw.end`, whose Done means every stroke the robot acknowledged is
 *   drawn: a stroke whose own Done was lost is covered by it, not a failure.
 * A failure stops the run at the next barrier (a drawing whose stroke failed never gets its
 * `draw.end`). The result says which command failed and how; what to do about it is the
 * caller's (output-module.ts).
 */
import type { Clock } from './clock.ts';
import type { RobotLink } from './link.ts';
import { TIMING, type Command } from '../core/robot/messages.ts';
import { deviceCode, type CommandHandle } from './requests.ts';

export interface RunFailure {
  /** Index of the failed command in the list, and its method. */
  index: number;
  method: string;
  /** Host error code (robot_ack_timeout, robot_refused, robot_unplugged, …). */
  code: string;
  /** The robot's own code in a NAK or failed Done (busy, bad_params, stopped, …). */
  device?: string;
  detail: string;
}

export interface RunResult {
  ok: boolean;
  failed?: RunFailure;
  /** Commands sent again after a `busy` NAK. */
  busyRetries: number;
  /** Strokes whose Done never came, covered by the drawing's `draw.end` Done. */
  covered: number;
}

export interface RunOptions {
  clock: Clock;
  busyRetry?: number;
  busyRetries?: number;
}

type Outcome = { state: 'pending' } | { state: 'ok' } | { state: 'failed'; error: unknown };

function failure(index: number, method: string, e: unknown): RunFailure {
  const err = e as { code?: string; message?: string };
  return { index, method, code: err?.code ?? 'unknown', device: deviceCode(e), detail: err?.message ?? String(e) };
}

/** Tracks a promise's outcome synchronously readable later. */
function settle(p: Promise<unknown>): Outcome {
  const o: { state: Outcome['state']; error?: unknown } = { state: 'pending' };
  p.then(
    () => (o.state = 'ok'),
    (error: unknown) => Object.assign(o, { state: 'failed', error }),
  );
  return o as Outcome;
}

export async function runCommands(link: RobotLink, commands: Command[], opts: RunOptions): Promise<RunResult> {
  const retryMs = opts.busyRetry ?? TIMING.busyRetry;
  const retries = opts.busyRetries ?? TIMING.busyRetries;
  const sleep = (ms: number) => new Promise<void>((resolve) => opts.clock.setTimeout(resolve, ms));
  let busyRetries = 0;
  let stop: RunFailure | null = null;

  /** Sends one command until the robot accepts it (busy: again, later); resolves with its handle. */
  const accept = async (i: number): Promise<CommandHandle> => {
    const c = commands[i];
    for (let attempt = 0; ; attempt++) {
      const h = link.send(c);
      try {
        await h.acked;
        return h;
      } catch (e) {
        if (deviceCode(e) === 'busy' && attempt < retries && link.ready && !stop) {
          busyRetries++;
          await sleep(retryMs * 2 ** attempt);
          continue;
        }
        throw e;
      }
    }
  };

  const accepted: Array<Promise<CommandHandle>> = [];
  const fail = (i: number, e: unknown) => {
    const f = failure(i, commands[i].method, e);
    if (!stop || f.index < stop.index) stop = f;
  };
  /** Waits for every command handed over so far to be accepted (or the first failure). */
  const barrier = async () => {
    for (const [i, p] of accepted.entries()) await p.catch((e: unknown) => fail(i, e));
  };

  for (let i = 0; i < commands.length && !stop; i++) {
    const method = commands[i].method;
    if (method === 'draw.end') await barrier();
    if (stop) break;
    const p = accept(i);
    p.catch((e: unknown) => fail(i, e));
    accepted.push(p);
    if (method === 'draw.begin') await barrier();
  }
  await barrier();
  if (stop) return { ok: false, failed: stop, busyRetries, covered: 0 };

  const handles = await Promise.all(accepted);
  const outcomes = handles.map((h) => settle(h.done));
  const last = commands.length - 1;
  if (last < 0) return { ok: true, busyRetries, covered: 0 };
  if (commands[last].method === 'draw.end') {
    try {
      await handles[last].done;
    } catch (e) {
      return { ok: false, failed: failure(last, commands[last].method, e), busyRetries, covered: 0 };
    }
    let covered = 0;
    for (let i = 0; i < last; i++) {
      const o = outcomes[i];
      if (o.state === 'ok') continue;
      const code = o.state === 'failed' ? (o.error as { code?: string })?.code : undefined;
      // Acked, Done lost (or not in yet): drawn, as draw.end's Done says. A Done with ok:false is not.
      if (o.state === 'pending' || code === 'robot_done_timeout') covered++;
      else return { ok: false, failed: failure(i, commands[i].method, (o as { error: unknown }).error), busyRetries, covered };
    }
    return { ok: true, busyRetries, covered };
  }
  for (let i = 0; i <= last; i++) {
    try {
      await handles[i].done;
    } catch (e) {
      return { ok: false, failed: failure(i, commands[i].method, e), busyRetries, covered: 0 };
    }
  }
  return { ok: true, busyRetries, covered: 0 };
}
