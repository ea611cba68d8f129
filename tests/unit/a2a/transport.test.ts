/**
 * The A2A mapping of seed 000 (§A2A 映射, §出错处理) through the real SDK on both ends. Every scenario
 * runs through our MessagePortTransport, through the SDK's own JSON-RPC client over a fake fetch to
 * the same worker server (the oracle), so a divergence from the SDK shows, and over real HTTP on
 * loopback through the SDK's JSON-RPC and HTTP+JSON transports (how remote game agents are reached).
 */
import { TaskState } from '@a2a-js/sdk';
import { TaskNotCancelableError, TaskNotFoundError, isJsonRpcError, isRestError } from '@a2a-js/sdk/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { createEchoGame } from '../../support/a2a/echo-game.ts';
import { dataPart, textPart } from '../../../src/a2a/game-parts.ts';
import { PROTOCOL, gameReply } from '../../../src/core/protocol/game-protocol.ts';
import type { GameHandler } from '../../../src/core/protocol/handler.ts';
import { Role } from '@a2a-js/sdk';
import type { EngineReply, EngineTurn } from '../../../src/core/games/engine.ts';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { CLIENT_KINDS, HTTP_CLIENT_KINDS, closeAll, collect, connect, deferred, eventually, see, send } from './harness.ts';

/** GameSessions over a one-function engine (the one game runtime, as every game worker serves it). */
function sessionsOver(turn: (t: EngineTurn) => Promise<EngineReply>, graceMs?: number): GameHandler {
  return new GameSessions({ create: () => ({ turn, close() {} }), source: 'game:test', queue: { graceMs } });
}

afterEach(closeAll);

/** The SDK's typed A2A error, whichever binding carried it: its JSON-RPC code, or its HTTP status (REST). */
function expectA2AError(err: unknown, cls: typeof TaskNotFoundError, jsonRpcCode: number, httpStatus: number): void {
  expect(err).toBeInstanceOf(cls);
  if (isRestError(err)) expect(err.statusCode).toBe(httpStatus);
  else expect(isJsonRpcError(err) && err.envelopeCode).toBe(jsonRpcCode);
}

describe.each([...CLIENT_KINDS, ...HTTP_CLIENT_KINDS])('A2A transport via %s', (kind) => {
  it('streams the task, then WORKING replies, then exactly one COMPLETED reply, in order', async () => {
    const client = await connect(kind, createEchoGame());
    const start = await collect(send(client, 'ctx-1', 'start'));
    expect(start.map((e) => `${e.kind}:${e.state}`)).toEqual(['task:SUBMITTED', 'statusUpdate:COMPLETED']);
    expect(start[1].reply).toEqual({ protocol: PROTOCOL, text: '开始啦！你说一句，我学一句。', session: 'active' });

    const msg = await collect(send(client, 'ctx-1', 'message', '我猜10'));
    expect(msg.map((e) => `${e.kind}:${e.state}`)).toEqual(['task:SUBMITTED', 'statusUpdate:WORKING', 'statusUpdate:COMPLETED']);
    expect(msg[1].reply).toEqual({ protocol: PROTOCOL, text: '收到第1条消息。', session: 'active' });
    expect(msg[2].reply?.text).toBe('你说：我猜10');
    expect(new Set(msg.map((e) => e.taskId)).size).toBe(1);

    const end = await collect(send(client, 'ctx-1', 'end'));
    expect(end.at(-1)).toMatchObject({ state: 'COMPLETED', reply: { text: '本局结束，一共收到1条消息。', session: 'ended' } });
  });

  it('delivers several intermediate replies in the order they were said, and one final', async () => {
    const handler: GameHandler = {
      async handle(_input, { say }) {
        say('一');
        say('二');
        await Promise.resolve();
        say('三');
        return gameReply('完', 'ended');
      },
    };
    const client = await connect(kind, handler);
    const seen = await collect(send(client, 'c', 'message', '说三句'));
    expect(seen.filter((e) => e.state === 'WORKING').map((e) => e.reply?.text)).toEqual(['一', '二', '三']);
    expect(seen.filter((e) => e.state === 'COMPLETED')).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ state: 'COMPLETED', reply: { text: '完', session: 'ended' } });
  });

  it('fits an over-long reply into 500 characters instead of losing it', async () => {
    const long = '很长的一句话。'.repeat(100);
    const client = await connect(kind, { handle: async () => ({ protocol: PROTOCOL, text: long, session: 'active' as const }) });
    const seen = await collect(send(client, 'c', 'start'));
    const text = seen.at(-1)!.reply!.text;
    expect(Array.from(text).length).toBeLessThanOrEqual(500);
    expect(text.endsWith('。')).toBe(true);
  });

  it('ends the task FAILED with the reason when the handler throws', async () => {
    const client = await connect(kind, createEchoGame());
    await collect(send(client, 'c', 'start'));
    const seen = await collect(send(client, 'c', 'message', '请你出错'));
    expect(seen.map((e) => e.state)).toEqual(['SUBMITTED', 'WORKING', 'FAILED']);
    expect(seen.at(-1)!.detail).toContain('the echo game was asked to fail');
    expect(seen.some((e) => e.state === 'COMPLETED')).toBe(false);
  });

  it('ends the task FAILED when the handler returns an invalid reply', async () => {
    const client = await connect(kind, { handle: async () => ({ protocol: PROTOCOL, text: '   ', session: 'active' }) });
    const seen = await collect(send(client, 'c', 'start'));
    expect(seen.at(-1)).toMatchObject({ state: 'FAILED' });
    expect(seen.at(-1)!.detail).toMatch(/1\.\.500 characters/);
  });

  it('rejects an invalid GameInput with a FAILED task and a clear message, never calling the game', async () => {
    let called = 0;
    const client = await connect(kind, { handle: async () => (called++, gameReply('不应该')) });
    const bad = (parts: ReturnType<typeof dataPart>[]) =>
      collect(
        client.sendMessageStream({
          tenant: '',
          message: { messageId: crypto.randomUUID(), contextId: 'c', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [] },
          configuration: undefined,
          metadata: undefined,
        }),
      );
    const wrongProtocol = await bad([dataPart({ protocol: 'desktop-game/4', kind: 'message', text: '你好' })]);
    expect(wrongProtocol.at(-1)).toMatchObject({ state: 'FAILED' });
    expect(wrongProtocol.at(-1)!.detail).toContain('GameInput.protocol must be "desktop-game/5"');

    const emptyStart = await bad([dataPart({ protocol: PROTOCOL, kind: 'start', text: '' })]);
    expect(emptyStart.at(-1)!.detail).toContain('may be empty only for "end"');

    const textInstead = await bad([textPart('我猜10')]);
    expect(textInstead.at(-1)!.detail).toMatch(/exactly one data part, got text/);
    expect(called).toBe(0);
  });

  it('cancels a running turn: its signal aborts and the task ends CANCELED', async () => {
    const aborted = deferred<unknown>();
    const handler: GameHandler = {
      handle: (_i, { say, signal }) =>
        new Promise((_res, rej) => {
          say('我想想……');
          signal.addEventListener('abort', () => {
            aborted.resolve(signal.reason);
            rej(signal.reason);
          });
        }),
    };
    const client = await connect(kind, handler);
    const seen: ReturnType<typeof see>[] = [];
    const stream = send(client, 'c', 'message', '慢慢来');
    for await (const ev of stream) {
      seen.push(see(ev));
      if (seen.at(-1)!.state === 'WORKING') {
        const task = await client.cancelTask({ tenant: '', id: seen[0].taskId, metadata: undefined });
        expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      }
    }
    expect(seen.map((e) => e.state)).toEqual(['SUBMITTED', 'WORKING', 'CANCELED']);
    expect(String(await aborted.promise)).toContain('CancelTask');
    const stored = await client.getTask({ tenant: '', id: seen[0].taskId });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('cancels a turn whose handler ignores its signal without hanging', async () => {
    const never = deferred<never>();
    const client = await connect(kind, { handle: () => never.promise });
    const stream = send(client, 'c', 'message', '不理你');
    const first = await stream.next();
    const taskId = see(first.value!).taskId;
    const task = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = [];
    for await (const ev of stream) rest.push(see(ev).state);
    expect(rest).toEqual(['CANCELED']);
  });

  it('cancels a queued (idle) task: CANCELED at once, and its turn never runs', async () => {
    const gate = deferred();
    const ran: string[] = [];
    const client = await connect(
      kind,
      sessionsOver(async (t) => {
        ran.push(t.text);
        if (t.text === '第一') await gate.promise;
        return { text: `好：${t.text}`, ended: false };
      }),
    );
    await collect(send(client, 'c', 'start', '开始'));
    const first = collect(send(client, 'c', 'message', '第一'));
    const second = send(client, 'c', 'message', '第二');
    const secondTask = see((await second.next()).value!);
    expect(secondTask.state).toBe('SUBMITTED');
    const task = await client.cancelTask({ tenant: '', id: secondTask.taskId, metadata: undefined });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = [];
    for await (const ev of second) rest.push(see(ev).state);
    expect(rest).toEqual(['CANCELED']);
    gate.resolve();
    expect((await first).at(-1)).toMatchObject({ state: 'COMPLETED', reply: { text: '好：第一' } });
    const third = await collect(send(client, 'c', 'message', '第三'));
    expect(third.at(-1)!.reply?.text).toBe('好：第三');
    expect(ran).toEqual(['开始', '第一', '第三']);
  });

  it('refuses to cancel a finished task (TaskNotCancelable) and keeps it COMPLETED', async () => {
    const client = await connect(kind, createEchoGame());
    const seen = await collect(send(client, 'c', 'start'));
    const err = await client.cancelTask({ tenant: '', id: seen[0].taskId, metadata: undefined }).catch((e: unknown) => e);
    expectA2AError(err, TaskNotCancelableError, -32002, 400);
    const task = await client.getTask({ tenant: '', id: seen[0].taskId });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('an early client break is not a cancel: the stored task still reaches COMPLETED with its reply', async () => {
    const gate = deferred();
    let aborted = false;
    const client = await connect(kind, {
      async handle(_i, { say, signal }) {
        say('马上好');
        await gate.promise;
        // More events after the break: a server that stopped draining would never store COMPLETED.
        for (const text of ['还差一点', '快了', '就好']) {
          await new Promise((r) => setTimeout(r, 5));
          say(text);
        }
        aborted = signal.aborted;
        return gameReply('好了');
      },
    });
    let taskId = '';
    for await (const ev of send(client, 'c', 'message', '走开')) {
      const e = see(ev);
      taskId = e.taskId;
      if (e.state === 'WORKING') break;
    }
    gate.resolve();
    const task = await eventually(async () => {
      const t = await client.getTask({ tenant: '', id: taskId });
      expect(t.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      return t;
    });
    expect(see({ payload: { $case: 'task', value: task } }).reply?.text).toBe('好了');
    expect(aborted).toBe(false);
  });

  it('keeps the most recent 64 finished tasks: the 65th evicts the oldest', async () => {
    const client = await connect(kind, { handle: async (i) => gameReply(`收到${i.text}`) });
    const ids: string[] = [];
    for (let i = 1; i <= 65; i++) {
      const seen = await collect(send(client, `ctx-${i % 3}`, 'message', `第${i}个`));
      ids.push(seen[0].taskId);
    }
    const missing = await client.getTask({ tenant: '', id: ids[0] }).catch((e: unknown) => e);
    expectA2AError(missing, TaskNotFoundError, -32001, 404);
    for (const id of [ids[1], ids[32], ids[64]]) {
      const t = await client.getTask({ tenant: '', id });
      expect(t.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
  });

  it('honours a configured task limit', async () => {
    const client = await connect(kind, { handle: async () => gameReply('好') }, { maxTasks: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await collect(send(client, 'c', 'message', `m${i}`)))[0].taskId);
    await expect(client.getTask({ tenant: '', id: ids[0] })).rejects.toThrow(/not found/i);
    expect((await client.getTask({ tenant: '', id: ids[1] })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  // Ordering and `end` belong to GameSessions (the one game runtime); here they are shown end to end
  // through the real SDK transports.
  it('runs the requests of one session strictly in arrival order', async () => {
    const log: string[] = [];
    const gate = deferred();
    const client = await connect(
      kind,
      sessionsOver(async (t) => {
        log.push(`start ${t.text}`);
        if (t.text === 'A1') await gate.promise;
        await new Promise((r) => setTimeout(r, 1));
        log.push(`end ${t.text}`);
        return { text: t.text, ended: false };
      }),
    );
    await collect(send(client, 'A', 'start', 'A0'));
    log.length = 0;
    const a = ['A1', 'A2', 'A3'].map((t) => collect(send(client, 'A', 'message', t)));
    await eventually(() => expect(log).toEqual(['start A1']));
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['start A1']); // A2 waits for A1
    gate.resolve();
    const results = await Promise.all(a);
    expect(results.map((r) => r.at(-1)!.reply?.text)).toEqual(['A1', 'A2', 'A3']);
    expect(log).toEqual(['start A1', 'end A1', 'start A2', 'end A2', 'start A3', 'end A3']);
  });

  it('an end arriving mid-turn cancels that turn first, then runs the end flow', async () => {
    const log: string[] = [];
    const client = await connect(
      kind,
      sessionsOver(async (t) => {
        log.push(`start ${t.kind}`);
        if (t.kind === 'message') {
          t.say('让我想一想');
          await new Promise((_r, rej) => t.signal.addEventListener('abort', () => rej(t.signal.reason)));
        }
        log.push(`end ${t.kind} aborted=${t.signal.aborted}`);
        return { text: t.kind === 'end' ? '再见' : '好', ended: false };
      }),
    );
    await collect(send(client, 's', 'start', '开始'));
    log.length = 0;
    const turn = send(client, 's', 'message', '慢一点');
    const seen = [see((await turn.next()).value!), see((await turn.next()).value!)];
    expect(seen.map((e) => e.state)).toEqual(['SUBMITTED', 'WORKING']);
    const end = await collect(send(client, 's', 'end'));
    for await (const ev of turn) seen.push(see(ev));
    expect(seen.at(-1)).toMatchObject({ state: 'CANCELED' });
    expect(seen.at(-1)!.detail).toContain('cancelled by end');
    expect(end.at(-1)).toMatchObject({ state: 'COMPLETED', reply: { text: '再见', session: 'ended' } });
    expect(log).toEqual(['start message', 'start end', 'end end aborted=false']);
  });

  it('an end still runs when the turn it cancels ignores its signal (after the grace period)', async () => {
    const log: string[] = [];
    const client = await connect(
      kind,
      sessionsOver(async (t) => {
        log.push(t.kind);
        if (t.kind === 'message') await new Promise(() => undefined); // never settles
        return { text: t.kind === 'end' ? '结束了' : '好', ended: false };
      }, 20),
    );
    await collect(send(client, 's', 'start', '开始'));
    const turn = collect(send(client, 's', 'message', '卡住'));
    await eventually(() => expect(log).toEqual(['start', 'message']));
    const end = await collect(send(client, 's', 'end'));
    expect((await turn).at(-1)!.state).toBe('CANCELED');
    expect(end.at(-1)!.reply).toMatchObject({ text: '结束了', session: 'ended' });
  });
});
