/** The family's local day and minute for tests: a fixed UTC+8 (China), whatever the machine's zone. */
import type { LocalTime } from '../../src/core/safety/play-time.ts';

export const chinaTime: LocalTime = (clock) => {
  const d = new Date(clock + 8 * 3600_000);
  return { day: d.toISOString().slice(0, 10), minute: d.getUTCHours() * 60 + d.getUTCMinutes() };
};
