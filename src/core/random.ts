/**
 * Seeded randomness for everything the child meets by chance (a game's secret, the order of
 * cards, the simulator's faults): one 32-bit seed, chosen by the app at the edge (the main thread
 * draws it from the browser's crypto source for every game worker), makes a deterministic
 * sequence. Tests and benches pass their own seed.
 */

/** A random source in [0, 1). */
export type Random = () => number;

/** mulberry32: a small, fast, well-distributed 32-bit generator; the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
