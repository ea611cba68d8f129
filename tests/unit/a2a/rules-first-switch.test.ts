/**
 * The test build's developer switch `?rules-first=off` (bench/latency --app's "before") reaches a
 * game's engine: the host puts `rulesFirst: false` in a new worker's init only when asked, the
 * worker entry hands it to the game's factory, and the built-in game's engine is then made with
 * `preExecute: false`. Without the switch nothing changes (the init carries no such field). The
 * same for `?muted=watched` (a muted step keeps its stall watch: `mutedInBackground: false`).
 */
import { describe, expect, it } from 'vitest';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { createGameClient, type GameWorkerInit } from '../../../src/a2a/game-host.ts';
import { hostGameAgent } from '../../../src/a2a/worker-entry.ts';
import { ECHO_GAME } from '../../support/a2a/echo-game.ts';
import { GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';

function initOf(rulesFirst?: () => boolean, mutedWatch?: () => boolean): GameWorkerInit {
  let init: GameWorkerInit | undefined;
  const client = createGameClient({
    spawn: () => ({ postMessage: (m: GameWorkerInit) => (init = m), terminate() {}, addEventListener() {} }) as unknown as Worker,
    cards: () => agentCardFor(ECHO_GAME),
    engineOf: () => 'skill',
    seed: () => 1,
    ...(rulesFirst ? { rulesFirst } : {}),
    ...(mutedWatch ? { mutedWatch } : {}),
  });
  client.request('echo', 'c1', { kind: 'start', text: '' } as never);
  client.stopAll();
  return init!;
}

describe('the rules-first switch', () => {
  it('is in a new worker’s init only when switched off', () => {
    expect(initOf(() => false).rulesFirst).toBe(false);
    expect('rulesFirst' in initOf(() => true)).toBe(false);
    expect('rulesFirst' in initOf()).toBe(false);
  });

  it('reaches the game factory through the worker entry', async () => {
    const seen: Array<boolean | undefined> = [];
    const inside = new EventTarget();
    hostGameAgent({ addEventListener: (t, l) => inside.addEventListener(t, l as EventListener), postMessage: () => undefined }, async (init) => {
      seen.push(init.rulesFirst);
      throw new Error('not needed');
    });
    const { port2 } = new MessageChannel();
    inside.dispatchEvent(new MessageEvent('message', { data: { type: 'init', gameId: 'echo', engine: 'skill', seed: 1, ports: { a2a: port2 }, rulesFirst: false } }));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([false]);
    port2.close();
  });

  it('makes the built-in game’s engine without pre-executed steps', async () => {
    const made: Array<boolean | undefined> = [];
    const { hostEngine } = await import('../../../src/games/skill-engine.ts');
    const ctx = { gameId: 'guess-number', model: {} as never, device: {} as never, trace: { record() {} }, random: () => 0.5, safety: GAME_SAFETY_CHECK };
    for (const rulesFirst of [false, undefined]) {
      const { create } = await hostEngine({ ...ctx, ...(rulesFirst === false ? { rulesFirst } : {}) });
      const engine = await create({ contextId: 'c1', requestId: 'r1', signal: new AbortController().signal });
      made.push((engine as unknown as { preExecute: boolean }).preExecute);
    }
    expect(made).toEqual([false, true]);
  });

  it('the muted-watch switch: in the init only when on, and the engine then keeps the watch on a muted step', async () => {
    expect(initOf(undefined, () => true).mutedWatch).toBe(true);
    expect('mutedWatch' in initOf(undefined, () => false)).toBe(false);
    const { hostEngine } = await import('../../../src/games/skill-engine.ts');
    const ctx = { gameId: 'guess-number', model: {} as never, device: {} as never, trace: { record() {} }, random: () => 0.5, safety: GAME_SAFETY_CHECK };
    const made: boolean[] = [];
    for (const mutedWatch of [true, undefined]) {
      const { create } = await hostEngine({ ...ctx, ...(mutedWatch ? { mutedWatch } : {}) });
      const engine = await create({ contextId: 'c1', requestId: 'r1', signal: new AbortController().signal });
      made.push((engine as unknown as { mutedInBackground: boolean }).mutedInBackground);
    }
    expect(made).toEqual([false, true]);
  });
});
