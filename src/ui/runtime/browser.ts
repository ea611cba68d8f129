/** What the composition root reads of the browser: fresh seeds and the test build's developer switches. */

/** A fresh 32-bit seed from the browser's crypto source: everything random in the app starts here. */
export function browserSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/** A developer switch of the test build (`?rules-first=off`, `?warm-ahead=off`, …), read from the page's address. */
export function testSwitch(name: string): string | null {
  return typeof location === 'undefined' ? null : new URLSearchParams(location.search).get(name);
}
