/**
 * The test build's developer switches (bench/latency --app's variants) reach a game's engine as one
 * bag, GameLab: the host puts it in a new worker's init only when a switch is set, the worker entry
 * hands it to the game's factory, and the built-in game's engine is made with what each switch
 * brings back (`rulesFirst: false` → no pre-executed steps; `mutedWatch: true` → a muted step keeps
 * its stall watch; `notedLines: false` → the rules' line after a result is a `say` step). Without a
 * switch nothing changes (the init carries no lab).
 */
import { describe, expect, it } from 'vitest';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { createGameClient, type GameWorkerInit } from '../../../src/a2a/game-host.ts';
import { hostGameAgent } from '../../../src/a2a/worker-entry.ts';
import type { GameLab } from '../../../src/core/games/engine-host.ts';
import { ECHO_GAME } from '../../support/a2a/echo-game.ts';
import { GAME_SAFETY_CHECK } from '../../../workers/game-engines.ts';

function initOf(lab?: () => GameLab): GameWorkerInit {
  let init: GameWorkerInit | undefined;
  const client = createGameClient({
    spawn: () => ({ postMessage: (m: GameWorkerInit) => (init = m), terminate() {}, addEventListener() {} }) as unknown as Worker,
    cards: () => agentCardFor(ECHO_GAME),
    engineOf: () => 'skill',
    seed: () => 1,
    ...(lab ? { lab } : {}),
  });
  client.request('echo', 'c1', { kind: 'start', text: '' } as never);
  client.stopAll();
  return init!;
}

/** The built-in 猜数字's engine made under `lab`. */
async function engineUnder(lab: GameLab | undefined): Promise<Record<string, unknown>> {
  const { hostEngine } = await import('../../../src/games/skill-engine.ts');
  const ctx = { gameId: 'guess-number', model: {} as never, device: {} as never, trace: { record() {} }, random: () => 0.5, safety: GAME_SAFETY_CHECK };
  const { create } = await hostEngine({ ...ctx, ...(lab ? { lab } : {}) });
  return (await create({ contextId: 'c1', requestId: 'r1', signal: new AbortController().signal })) as unknown as Record<string, unknown>;
}

describe('the games’ developer switches', () => {
  it('are in a new worker’s init only when one is set', () => {
    expect(initOf(() => ({ rulesFirst: false, notedLines: false })).lab).toEqual({ rulesFirst: false, notedLines: false });
    expect('lab' in initOf(() => ({}))).toBe(false);
    expect('lab' in initOf()).toBe(false);
  });

  it('reach the game factory through the worker entry', async () => {
    const seen: Array<GameLab | undefined> = [];
    const inside = new EventTarget();
    hostGameAgent({ addEventListener: (t, l) => inside.addEventListener(t, l as EventListener), postMessage: () => undefined }, async (init) => {
      seen.push(init.lab);
      throw new Error('not needed');
    });
    const { port2 } = new MessageChannel();
    inside.dispatchEvent(new MessageEvent('message', { data: { type: 'init', gameId: 'echo', engine: 'skill', seed: 1, ports: { a2a: port2 }, lab: { rulesFirst: false } } }));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([{ rulesFirst: false }]);
    port2.close();
  });

  it('make the built-in game’s engine as each switch says, and as it ships without them', async () => {
    const shipped = await engineUnder(undefined);
    expect([shipped.preExecute, shipped.mutedInBackground, shipped.notedLines, shipped.askAhead, shipped.finishMuted]).toEqual([true, true, true, true, true]);
    expect((await engineUnder({ rulesFirst: false })).preExecute).toBe(false);
    expect((await engineUnder({ mutedWatch: true })).mutedInBackground).toBe(false);
    expect((await engineUnder({ notedLines: false })).notedLines).toBe(false);
    expect((await engineUnder({ askAhead: false })).askAhead).toBe(false);
    expect((await engineUnder({ mutedFinish: false })).finishMuted).toBe(false);
  });
});
