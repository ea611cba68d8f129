/**
 * Init-script fake pinning the app's random seeds at the browser API boundary, so no e2e test plays
 * against a secret the browser happened to draw. Pass to `page.addInitScript(installSeedFake, seeds)`
 * (or use `pinSeeds` in tests/e2e/support/seeds.ts); it must stay self-contained (it is serialised
 * into the page).
 *
 * The app draws every seed as `crypto.getRandomValues(new Uint32Array(1))[0]` on the main thread
 * (`browserSeed()` in src/ui/runtime/browser.ts), in this order:
 *   1. once at start, for the on-screen robot's random source (its boot id);
 *   2. once for every game worker it starts (one per game id, on its first request; again when a
 *      crashed worker is replaced), in the order the workers start. A worker's seed drives every
 *      secret of every session in it (猜数字's number, 你画我猜's cards). A worker started ahead
 *      while the arcade is idle draws its seed then; stopped unused when another game starts, it
 *      hands that seed to the game's worker, so the played workers get the seeds in this order.
 * The n-th such call gets `seeds[n]`; once the list is used up, every further call gets its last
 * value, so `[s]` gives every call the same seed `s` whatever the order. Calls with any other array
 * (another type or length) get the real random values. The list starts again on every page load
 * (init scripts run on each navigation, reloads included).
 *
 * In the page, `window.__seeds.drawn`: every seed handed out so far, in order.
 */
export function installSeedFake(seeds: number[]): void {
  if (seeds.length === 0) throw new Error('installSeedFake: give at least one seed');
  const real = crypto.getRandomValues;
  const drawn: number[] = [];
  Object.defineProperty(window, '__seeds', { value: { drawn }, configurable: true });
  crypto.getRandomValues = function getRandomValues<T extends ArrayBufferView>(this: Crypto, array: T): T {
    if (!(array instanceof Uint32Array) || array.length !== 1) return real.call(this, array) as T;
    const seed = seeds[Math.min(drawn.length, seeds.length - 1)] >>> 0;
    array[0] = seed;
    drawn.push(seed);
    return array;
  };
}
