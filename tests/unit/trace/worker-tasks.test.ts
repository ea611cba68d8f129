/**
 * "已完成的 A2A Task 默认保留最近 64 个" as a setting: the main thread's GameClient hands the trace
 * setting to each game worker it starts, and the worker's task store keeps only that many.
 */
import { TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCardFor } from '../../../src/a2a/card.ts';
import { createGameClient, type GameWorkerInit } from '../../../src/a2a/game-host.ts';
import { MessagePortTransportFactory } from '../../../src/a2a/port-transport.ts';
import { hostGameAgent } from '../../../src/a2a/worker-entry.ts';
import { gameInput, gameReply } from '../../../src/core/protocol/game-protocol.ts';
import { completedTasksToKeep, traceSettings } from '../../../src/trace/trace-settings.ts';
import { collect, send, TEST_GAME } from '../a2a/harness.ts';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

/** Runs the real worker entry in-process; returns what it was sent and an SDK client on its a2a port. */
function worker() {
  const inside = new EventTarget();
  const posted: unknown[] = [];
  hostGameAgent(
    { addEventListener: (t, l) => inside.addEventListener(t, l as EventListener), postMessage: (m) => posted.push(m) },
    async ({ gameId }) => ({ card: agentCardFor({ ...TEST_GAME, id: gameId }), handler: { handle: async () => gameReply('好') } }),
  );
  return { posted, init: (msg: GameWorkerInit) => inside.dispatchEvent(new MessageEvent('message', { data: msg })) };
}

describe('completed A2A tasks kept by a game worker', () => {
  it('the GameClient sends the current setting to every worker it starts', async () => {
    const inits: GameWorkerInit[] = [];
    const client = createGameClient({
      spawn: () =>
        ({
          postMessage: (m: GameWorkerInit) => inits.push(m),
          terminate() {},
          addEventListener() {},
        }) as unknown as Worker,
      cards: (id) => agentCardFor({ ...TEST_GAME, id }),
      engineOf: () => 'skill',
      seed: () => 1,
      maxTasks: completedTasksToKeep,
    });
    traceSettings.update({ completedTasksToKeep: 7 });
    client.request('a', 'ctx', gameInput('start', '开始'));
    traceSettings.update({ completedTasksToKeep: 64 });
    client.request('b', 'ctx', gameInput('start', '开始'));
    expect(inits.map((i) => [i.gameId, i.maxTasks])).toEqual([
      ['a', 7],
      ['b', 64],
    ]);
    client.stopAll();
    for (const i of inits) for (const p of Object.values(i.ports)) p.close();
  });

  it('the worker keeps only the last `maxTasks` completed tasks (older ones: task not found)', async () => {
    const w = worker();
    const ch = new MessageChannel();
    ports.push(ch.port1, ch.port2);
    w.init({ type: 'init', gameId: TEST_GAME.id, engine: 'skill', seed: 1, ports: { a2a: ch.port2 }, maxTasks: 2 });
    await expect.poll(() => w.posted.length).toBe(1);
    expect(w.posted[0]).toMatchObject({ type: 'ready' });

    const card = agentCardFor(TEST_GAME);
    const factory = new MessagePortTransportFactory();
    factory.register(card.supportedInterfaces[0].url, ch.port1);
    const client = await new ClientFactory({ transports: [factory] }).createFromAgentCard(card);
    const ids: string[] = [];
    for (const kind of ['start', 'message', 'message'] as const) ids.push((await collect(send(client, 'ctx', kind)))[0].taskId);

    await expect(client.getTask({ tenant: '', id: ids[0] })).rejects.toThrow(/not found/i);
    for (const id of ids.slice(1)) expect((await client.getTask({ tenant: '', id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
