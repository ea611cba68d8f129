/**
 * Deterministic random sources for the firmware simulator (its boot id) in tests, the lab page and
 * the e2e fakes. A stepping source gives a new boot id at every boot, so reboots stay detectable.
 */
export function steppingRandom(start = 0.1, step = 0.137): () => number {
  let r = start;
  return () => (r = (r + step) % 1);
}

/** The same number every time: every boot has the same id (for tests that never reboot). */
export const fixedRandom =
  (value = 0.5): (() => number) =>
  () =>
    value;
