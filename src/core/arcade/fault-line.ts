/**
 * Which line tells the child about a model fault, by the cause as far as it is known: a fault whose
 * cause is the setup (a wrong key or address, no engine on this device, no brain chosen) needs a
 * grown-up at once; a transient one (a server error, a stall, a dropped connection, a slow answer)
 * is first 「我有点卡住了，我们再试一次」, and sends the parent to 设置 only once it persists
 * (`PERSISTENT_AFTER` failed rounds in a row). A line that would claim a restart when nothing
 * restarts (「我们重新开始一局吧」) is never said for a fault: the stuck line is. Pure.
 */
import { claimsRestart } from '../games/claim-kinds.ts';

/** Failed rounds in a row after which a transient fault is told as the setup's problem. */
export const PERSISTENT_AFTER = 3;

/** The catalogue code of the short-outage line (src/arcade/errors.ts). */
export const STUCK = 'main_model_stuck';

/** Faults that retrying cannot mend: the grown-up is asked at once. */
const SETUP_FAULTS = new Set([
  'model_remote_auth',
  'model_remote_bad_url',
  'model_remote_mixed_content',
  'model_bad_config',
  'model_not_configured',
  'model_no_webgpu',
  'model_insecure_context',
  'model_cpu_unsupported',
  'model_offline_not_cached',
  'model_storage_full',
  'model_out_of_memory',
  'model_download_failed',
]);

/** Words that send the child to a grown-up or the settings. */
const ASKS_GROWN_UP = /设置|请大人|大人帮/;

/**
 * The code whose line to say for a fault `code`, the `streak`-th failed round in a row (1 for the
 * first); `line` is that code's own child sentence, when it has one.
 */
export function faultCode(code: string, streak: number, line: string | undefined): string {
  if (SETUP_FAULTS.has(code)) return code;
  if (line && claimsRestart(line)) return STUCK;
  if (line && ASKS_GROWN_UP.test(line) && streak < PERSISTENT_AFTER) return STUCK;
  return code;
}
