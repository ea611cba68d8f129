/**
 * The parent's PIN and recovery code are kept only as salted PBKDF2-SHA-256 hashes (WebCrypto;
 * the app runs in a secure context). Nothing here can give the PIN back.
 */
const ITERATIONS = 100_000;

export interface HashedSecret {
  salt: string;
  hash: string;
}

const hex = (b: ArrayBuffer | Uint8Array) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
const unhex = (s: string) => new Uint8Array((s.match(/../g) ?? []).map((h) => parseInt(h, 16)));

async function derive(secret: string, salt: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations: ITERATIONS }, key, 256);
  return hex(bits);
}

export async function hashSecret(secret: string): Promise<HashedSecret> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: hex(salt), hash: await derive(secret, salt) };
}

export async function secretMatches(secret: string, stored: HashedSecret): Promise<boolean> {
  const hash = await derive(secret, unhex(stored.salt));
  // Compared whole (the answer takes the same time wherever a difference is).
  let diff = hash.length ^ stored.hash.length;
  for (let i = 0; i < Math.min(hash.length, stored.hash.length); i++) diff |= hash.charCodeAt(i) ^ stored.hash.charCodeAt(i);
  return diff === 0;
}

/** 12 random values for a recovery code (the browser's crypto source). */
export function randomValues(n: number): number[] {
  return [...crypto.getRandomValues(new Uint32Array(n))];
}
