import { describe, expect, it } from 'vitest';
import { Skill } from '../../../src/core/games/skill.ts';
import { COMMON_PROMPT, SkillAgent, ToolError, type AgentDeps, type GameTool } from '../../../src/games/skill-agent.ts';
import { MEMORY_ROUNDS } from '../../../src/core/agent/memory.ts';
import type { Turn } from '../../../src/core/games/turn.ts';
import { ModelError, type Step, type StepRequest } from '../../../src/core/llm/types.ts';
import { EngineFailure } from '../../../src/core/games/engine.ts';
import { ctx, deferred, FakeDevice, RecordingModel, RecordingTrace, rememberedInputs, turn } from './helpers.ts';
import { stepJson } from '../../../src/core/llm/step-format.ts';

const SKILL = Skill.load(
  '/skills/counter/SKILL.md',
  `---
name: counter
description: 数数游戏。
metadata:
  title: 数数
  capabilities: face
---
每次加一个数。`,
);

/** A tiny game to exercise the runtime: a counter, a tool that throws, one that ends, one that judges. */
class CounterAgent extends SkillAgent {
  readonly skill = SKILL;
  total = 0;
  state() {
    return { total: this.total };
  }
  tools(turn: Turn): GameTool[] {
    return [
      {
        name: 'add',
        description: '加一个数',
        parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'], additionalProperties: false },
        perform: (args) => {
          this.total += args.n as number;
          return { total: this.total };
        },
      },
      { name: 'boom', description: '会坏', parameters: { type: 'object', properties: {} }, perform: () => { throw new Error('disk on fire'); } },
      { name: 'refuse', description: '规则不允许', parameters: { type: 'object', properties: {} }, perform: () => { throw new ToolError('现在不能这样做'); } },
      { name: 'finish', description: '结束', parameters: { type: 'object', properties: {} }, perform: () => { turn.end_session(); return { over: true }; } },
      {
        name: 'judge',
        description: '判定',
        parameters: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        perform: async (args) => {
          await (args.ok ? this.react('happy', 'nod') : this.react('sorry', 'shake'));
          return { ok: args.ok };
        },
      },
    ];
  }
}

const reply = (text: string): Step => ({ action: 'reply', args: { text } });
const lastMessage = (req: StepRequest) => req.messages[req.messages.length - 1].content;

function agentWith(decide: (req: StepRequest, n: number) => Step | Promise<Step>, extra: Partial<AgentDeps> = {}) {
  const model = new RecordingModel(decide);
  const device = new FakeDevice();
  const trace = new RecordingTrace();
  const agent = new CounterAgent({ model, device, trace, random: () => 0.5, ...extra });
  return { agent, model, device, trace };
}

describe('SkillAgent: prompt and tool loop', () => {
  it('system prompt = common prompt + SKILL.md body; the input message = {event, user_text, state}', async () => {
    const { agent, model } = agentWith(() => reply('好的'));
    agent.total = 5;
    await turn(agent, 'start', '我们来数数吧', ctx());
    const [req] = model.requests;
    const system = req.messages[0];
    expect(system.role).toBe('system');
    expect(system.content.startsWith(COMMON_PROMPT)).toBe(true);
    expect(system.content).toContain('每次加一个数。');
    expect(system.content).not.toContain('"total"');
    expect(JSON.parse(req.messages[1].content)).toEqual({ event: 'start', user_text: '我们来数数吧', state: { total: 5 } });
    expect(req.agent).toBe('game:counter');
    expect(req.tools.map((t) => t.name)).toEqual(['add', 'boom', 'refuse', 'finish', 'judge', 'say', 'reply']);
  });

  it('the prompt only grows within a session: every request continues the previous one plus what the model wrote (a local engine keeps its cache)', async () => {
    const { agent, model } = agentWith((_r, n) => (n % 2 === 1 ? { action: 'add', args: { n: 1 }, raw: '{"add": {"n": 1}}' } : { ...reply(`好${n}`), raw: `{"reply":{"text":"好${n}"}}` }));
    for (const words of ['一', '二', '三']) {
      agent.total++;
      await turn(agent, 'message', words, ctx());
    }
    const reqs = model.requests;
    expect(new Set(reqs.map((r) => r.messages[0].content)).size).toBe(1);
    for (let i = 1; i < reqs.length; i++) {
      const prev = reqs[i - 1].messages;
      const next = reqs[i].messages;
      // The next history = the previous request + the assistant step exactly as decoded.
      expect(next.slice(0, prev.length)).toEqual(prev);
      expect(next[prev.length]).toEqual({ role: 'assistant', content: (await model.decided[i - 1]).raw });
    }
  });

  it('lets the model call tools one after another; results come back wrapped in <tool_response>; the reply action is the final reply', async () => {
    const { agent, model } = agentWith((_req, n) =>
      n === 1 ? { action: 'add', args: { n: 2 } } : n === 2 ? { action: 'add', args: { n: 3 } } : reply('现在一共是五。'),
    );
    const r = await turn(agent, 'message', '加二再加三', ctx());
    expect(r).toEqual({ text: '现在一共是五。', ended: false });
    expect(agent.total).toBe(5);
    expect(model.requests).toHaveLength(3);
    expect(lastMessage(model.requests[1])).toBe('<tool_response>{"name":"add","result":{"total":2}}</tool_response>');
    expect(model.requests[2].messages.at(-2)).toEqual({ role: 'assistant', content: '{"add":{"n":3}}' });
    expect(lastMessage(model.requests[2])).toBe('<tool_response>{"name":"add","result":{"total":5}}</tool_response>');
  });

  it('the built-in say tool sends its sentence at once as an intermediate reply, before the next step', async () => {
    const c = ctx();
    const { agent } = agentWith((_req, n) => {
      if (n === 1) return { action: 'say', args: { text: '等我一下，我在画画。' } };
      expect(c.intermediate).toEqual(['等我一下，我在画画。']);
      return reply('画好啦！');
    });
    const r = await turn(agent, 'message', '画一个', c);
    expect(c.intermediate).toEqual(['等我一下，我在画画。']);
    expect(r.text).toBe('画好啦！');
  });

  it('react() reaches the injected device (correct → happy + nod, wrong → sorry + shake)', async () => {
    const { agent, device } = agentWith((_r, n) =>
      n === 1 ? { action: 'judge', args: { ok: true } } : n === 2 ? { action: 'judge', args: { ok: false } } : reply('好'),
    );
    await turn(agent, 'message', '判一下', ctx());
    expect(device.reacts()).toEqual(['happy+nod', 'sorry+shake']);
  });

  it('a robot failure in react() does not break the turn', async () => {
    const { agent, device } = agentWith((_r, n) => (n === 1 ? { action: 'judge', args: { ok: true } } : reply('好')));
    device.fail = true;
    const r = await turn(agent, 'message', '判一下', ctx());
    expect(r.text).toBe('好');
  });

  it('traces every model step and tool call with the request id', async () => {
    const { agent, trace } = agentWith((_r, n) => (n === 1 ? { action: 'add', args: { n: 1 } } : reply('一')));
    const c = ctx();
    await turn(agent, 'message', '加一', c);
    const kinds = trace.events.map((e) => `${e.kind}:${e.name}`);
    expect(kinds).toEqual(['model_step:add', 'game_tool:add', 'model_step:reply']);
    for (const e of trace.events) {
      expect(e.requestId).toBe(c.requestId);
      expect(e.source).toBe('game:counter');
    }
    expect(trace.events[1].data).toEqual({ args: { n: 1 }, result: { total: 1 } });
  });
});

describe('SkillAgent: error table (seed 000 §出错处理)', () => {
  it.each([
    ['invalid arguments (wrong type)', { action: 'add', args: { n: 'two' } }, /参数不对/],
    ['invalid arguments (missing)', { action: 'add', args: {} }, /参数不对.*n/],
    ['invalid arguments (out of bounds)', { action: 'add', args: { n: 0 } }, /参数不对/],
    ['a tool that throws', { action: 'boom', args: {} }, /工具执行失败：disk on fire/],
    ['a rule that refuses', { action: 'refuse', args: {} }, /^现在不能这样做$/],
    ['an action that is not a tool', { action: 'fly', args: {} }, /现在不能用 fly/],
  ])('%s → {"error": …} back to the model, which can then recover', async (_case, bad, pattern) => {
    const { agent, model } = agentWith((_r, n) => (n === 1 ? (bad as Step) : reply('我们换个方法。')));
    const r = await turn(agent, 'message', '试试', ctx());
    const response = lastMessage(model.requests[1]);
    const m = /^<tool_response>(.*)<\/tool_response>$/.exec(response)!;
    const body = JSON.parse(m[1]) as { name: string; result: { error: string } };
    expect(body.name).toBe(bad.action);
    expect(body.result.error).toMatch(pattern);
    expect(agent.total).toBe(0);
    expect(r).toEqual({ text: '我们换个方法。', ended: false });
  });

  it('an empty reply goes back to the model as an error, not to the child', async () => {
    const { agent, model } = agentWith((_r, n) => (n === 1 ? reply('') : reply('好的。')));
    const r = await turn(agent, 'message', '你好', ctx());
    expect(lastMessage(model.requests[1])).toContain('"error"');
    expect(r.text).toBe('好的。');
  });

  it.each(['message', 'start', 'end'] as const)('model error on %s → EngineFailure (GameSessions speaks the fallback), the round is not remembered', async (kind) => {
    const { agent, trace } = agentWith(() => {
      throw new ModelError('model_out_of_memory', 'GPU lost');
    });
    const r = turn(agent, kind, kind === 'end' ? '' : '你好', ctx());
    await expect(r).rejects.toBeInstanceOf(EngineFailure);
    await expect(r).rejects.toMatchObject({ detail: { sessionOver: false, code: 'model_out_of_memory' } });
    expect(rememberedInputs(agent)).toEqual([]);
    expect(trace.events.some((e) => e.kind === 'error')).toBe(true);
  });

  it('a model error after a tool ended the game → EngineFailure that says the session is over', async () => {
    const { agent } = agentWith((_r, n) => {
      if (n === 1) return { action: 'finish', args: {} };
      throw new ModelError('model_out_of_memory', 'GPU lost');
    });
    await expect(turn(agent, 'message', '结束吧', ctx())).rejects.toMatchObject({ name: 'EngineFailure', detail: { sessionOver: true } });
  });

  it('no reply within the step budget → EngineFailure, round not remembered', async () => {
    const { agent, model } = agentWith(() => ({ action: 'add', args: { n: 1 } }), { maxSteps: 4 });
    await expect(turn(agent, 'message', '一直加', ctx())).rejects.toBeInstanceOf(EngineFailure);
    expect(model.requests).toHaveLength(4);
    expect(rememberedInputs(agent)).toEqual([]);
  });

  it('a failed round leaves earlier memory as it was; the next good round is remembered', async () => {
    let fail = false;
    const { agent, model } = agentWith(() => {
      if (fail) throw new ModelError('model_out_of_memory', 'x');
      return reply('好');
    });
    await turn(agent, 'message', '第一句', ctx());
    fail = true;
    await expect(turn(agent, 'message', '第二句', ctx())).rejects.toBeInstanceOf(EngineFailure);
    fail = false;
    await turn(agent, 'message', '第三句', ctx());
    expect(rememberedInputs(agent)).toEqual(['第一句', '第三句']);
    const last = model.requests.at(-1)!;
    expect(last.messages.map((m) => m.content).join('\n')).not.toContain('第二句');
  });
});

describe('SkillAgent: sessions end', () => {
  it('a tool calling turn.end_session() makes the final reply session: ended', async () => {
    const { agent } = agentWith((_r, n) => (n === 1 ? { action: 'finish', args: {} } : reply('游戏结束啦！')));
    const r = await turn(agent, 'message', '结束吧', ctx());
    expect(r).toEqual({ text: '游戏结束啦！', ended: true });
  });

  it('after a turn that received end the session is always over, even if no tool ended it', async () => {
    const { agent } = agentWith(() => reply('再见！'));
    const r = await turn(agent, 'end', '', ctx());
    expect(r.ended).toBe(true);
  });

  it('intermediate replies are never ended; only the final one is', async () => {
    const c = ctx();
    const { agent } = agentWith((_r, n) =>
      n === 1 ? { action: 'say', args: { text: '好的。' } } : n === 2 ? { action: 'finish', args: {} } : reply('拜拜！'),
    );
    const r = await turn(agent, 'message', '不玩了', c);
    expect(c.intermediate).toEqual(['好的。']);
    expect(r.ended).toBe(true);
  });
});

describe('SkillAgent: memory keeps the most recent 16 rounds', () => {
  it('after 20 rounds the prompt holds exactly rounds 5..20 before the new input', async () => {
    const { agent, model } = agentWith((req) => {
      const text = JSON.parse(lastMessage(req)).user_text as string;
      return reply(`收到${text}`);
    });
    for (let i = 1; i <= 20; i++) await turn(agent, 'message', `第${i}句`, ctx());
    await turn(agent, 'message', '第21句', ctx());
    const req = model.requests.at(-1)!;
    const history = req.messages.slice(1, -1);
    expect(history).toHaveLength(MEMORY_ROUNDS * 2);
    expect(JSON.parse(history[0].content).user_text).toBe('第5句');
    expect(history[1]).toEqual({ role: 'assistant', content: stepJson({ action: 'reply', args: { text: '收到第5句' } }) });
    expect(JSON.parse(history.at(-2)!.content).user_text).toBe('第20句');
    expect(JSON.parse(lastMessage(req)).user_text).toBe('第21句');
    expect(rememberedInputs(agent)).toHaveLength(MEMORY_ROUNDS);
  });
});

describe('SkillAgent: cancellation', () => {
  it('an aborted turn rejects, aborts the model step, and is not remembered', async () => {
    const gate = deferred<Step>();
    let sawSignal: AbortSignal | undefined;
    const { agent } = agentWith((req) => {
      sawSignal = req.signal;
      req.signal!.addEventListener('abort', () => gate.reject(new DOMException('aborted', 'AbortError')));
      return gate.promise;
    });
    const controller = new AbortController();
    const p = turn(agent, 'message', '慢慢想', ctx('c', controller.signal));
    await Promise.resolve();
    controller.abort(new Error('cancelled by end'));
    await expect(p).rejects.toThrow('cancelled by end');
    expect(sawSignal!.aborted).toBe(true);
    expect(rememberedInputs(agent)).toEqual([]);
  });
});
