/**
 * Pinned seeds for e2e: what a game worker will pick, known before the page opens. `pinSeeds` installs
 * tests/e2e/fakes/seed-fake.ts (the app's `crypto.getRandomValues(new Uint32Array(1))` calls return
 * the given seeds; the order is documented there: first the on-screen robot, then one per game
 * worker start; the last seed repeats). The functions below compute a seed's secrets with the games'
 * own pure rules and the same generator as the worker (`seededRandom`, src/core/random.ts), so a
 * test states the exact number or animals it expects.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { seededRandom } from '../../../src/core/random.ts';
import { DEFAULT_CONFIG as GUESS_CONFIG, GuessNumberGame } from '../../../skills/guess-number/rules.ts';
import { DEFAULT_CONFIG as DRAW_CONFIG, DrawGuessGame, type Card } from '../../../skills/draw-guess/rules.ts';
import { installSeedFake } from '../fakes/seed-fake.ts';

/** The seed `openApp` pins unless told otherwise: 猜数字 picks 63, 你画我猜 asks 鱼, 斑马, 熊猫. */
export const DEFAULT_SEED = 1;

/** Every seed the app draws from now on comes from `seeds` (a single seed: every call gets it). */
export async function pinSeeds(page: Page, seeds: number[]): Promise<void> {
  await page.addInitScript(installSeedFake, seeds);
}

/**
 * The app really drew its seeds through the fake (the on-screen robot draws one at start): if the
 * app ever draws them another way, this fails instead of the tests silently playing against luck.
 */
export async function expectSeedsPinned(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => (window as any).__seeds?.drawn.length ?? 0)).toBeGreaterThanOrEqual(1);
}

/**
 * The numbers of the first `games` games of 猜数字 in a worker seeded with `seed` (each `start_game`
 * draws the next one from the worker's one random source, also in a later session of the same worker).
 */
export function guessNumberSecrets(seed: number, games = 1): number[] {
  const game = new GuessNumberGame(GUESS_CONFIG, seededRandom(seed));
  return Array.from({ length: games }, () => {
    game.start();
    return game.peekSecret()!;
  });
}

/** The smallest seed whose first game of 猜数字 has the number `secret`. */
export function seedForSecret(secret: number): number {
  for (let seed = 1; seed < 100_000; seed++) if (guessNumberSecrets(seed)[0] === secret) return seed;
  throw new Error(`no seed below 100000 gives ${secret}`);
}

/** The smallest seed whose first games of 猜数字 (in one worker) have these numbers, in order. */
export function seedForSecrets(...secrets: number[]): number {
  for (let seed = 1; seed < 100_000; seed++) if (guessNumberSecrets(seed, secrets.length).every((x, i) => x === secrets[i])) return seed;
  throw new Error(`no seed below 100000 gives ${secrets.join(', ')}`);
}

/** The guesses a child halving the range makes until it finds `secret` (the last one is right). */
export function halvingGuesses(secret: number, lo = GUESS_CONFIG.min, hi = GUESS_CONFIG.max): number[] {
  const guesses: number[] = [];
  for (;;) {
    const g = Math.floor((lo + hi) / 2);
    guesses.push(g);
    if (g === secret) return guesses;
    if (g > secret) hi = g - 1;
    else lo = g + 1;
  }
}

/** The 你画我猜 catalogue, in the order the game's deck has it (skills/draw-guess/animals.json). */
export const ANIMAL_CARDS = JSON.parse(readFileSync('skills/draw-guess/animals.json', 'utf8')) as Card[];

/** The animals (in question order) of the first game of 你画我猜 in a worker seeded with `seed`. */
export function drawGuessCards(seed: number): Card[] {
  const game = new DrawGuessGame(ANIMAL_CARDS, DRAW_CONFIG, seededRandom(seed));
  game.start();
  const cards = [game.card];
  while (!game.isLast) {
    game.skip();
    game.next();
    cards.push(game.card);
  }
  return cards;
}
