/**
 * The agent tool loop itself (src/core/agent/tool-loop.ts), under a model that answers a list of
 * steps in order and records what it was asked: bursts of loop tools, refusals sent back as
 * corrections, boundaries, the burst cap, abort, streamed text and the rules' pre-executed steps.
 */
import { describe, expect, it } from 'vitest';
import { runToolLoop, ToolError, type AgentTool, type StepRecord } from '../../../src/core/agent/tool-loop.ts';
import { readToolResult, stepMessage, toolResultMessage } from '../../../src/core/agent/messages.ts';
import type { ChatMessage, ChatModel, Step, StepRequest } from '../../../src/core/llm/types.ts';

type Answer = Step | ((req: StepRequest) => Step | Promise<Step>);

/** A model that answers `answers` in order and keeps every request (a copy of its messages and the tools' names). */
function listModel(answers: Answer[]) {
  const asked: Array<{ messages: ChatMessage[]; tools: string[] }> = [];
  const model: ChatModel = {
    label: 'list model',
    async step(req) {
      asked.push({ messages: [...req.messages], tools: req.tools.map((t) => t.name) });
      const next = answers.shift();
      if (!next) throw new Error('the model was asked once too often');
      return typeof next === 'function' ? next(req) : next;
    },
  };
  return { model, asked };
}

const step = (action: string, args: Record<string, unknown> = {}): Step => ({ action, args });
const TEXT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
const NONE = { type: 'object', properties: {}, additionalProperties: false };

function tool(name: string, kind: AgentTool['kind'], perform: AgentTool['perform'] = () => ({ ok: true }), parameters: AgentTool['parameters'] = NONE): AgentTool {
  return { name, description: name, kind, parameters, perform };
}

const clock = () => {
  let t = 0;
  return () => (t += 5);
};
const start: ChatMessage[] = [
  { role: 'system', content: '你是测试用的 agent。' },
  { role: 'user', content: '孩子说：你好' },
];

function loop(model: ChatModel, tools: () => readonly AgentTool[], extra: Partial<Parameters<typeof runToolLoop>[0]> = {}) {
  const steps: StepRecord[] = [];
  const run = runToolLoop({ agent: 'test', model, messages: start, tools, maxSteps: 4, now: clock(), onStep: (r) => steps.push(r), ...extra });
  return { run, steps };
}

describe('runToolLoop: a burst of loop tools ends at a boundary tool', () => {
  it('each loop result goes back to the model; the boundary ends the loop with its result', async () => {
    let count = 0;
    const tools = [tool('look', 'loop', () => ({ seen: ++count })), tool('reply', 'boundary', (a) => ({ said: a.text }), TEXT)];
    const { model, asked } = listModel([step('look'), step('look'), step('reply', { text: '看到两次了。' })]);
    const { run, steps } = loop(model, () => tools);
    const out = await run;

    expect(out).toMatchObject({ kind: 'boundary', step: step('reply', { text: '看到两次了。' }), result: { said: '看到两次了。' }, steps: 3 });
    // The model saw each loop step and its result, in the one message format.
    expect(asked[1].messages.slice(2)).toEqual([stepMessage(step('look')), toolResultMessage('look', { seen: 1 })]);
    expect(asked[2].messages.at(-1)).toEqual({ role: 'user', content: '<tool_response>{"name":"look","result":{"seen":2}}</tool_response>' });
    // The returned conversation ends with the boundary step (its result is the caller's to write).
    expect(out.messages.slice(0, 2)).toEqual(start);
    expect(out.messages.at(-1)).toEqual(stepMessage(step('reply', { text: '看到两次了。' })));
    expect(out.messages).toHaveLength(2 + 5);
    expect(steps.map((s) => [s.index, s.step.action, s.kind, s.refused])).toEqual([
      [0, 'look', 'loop', false],
      [1, 'look', 'loop', false],
      [2, 'reply', 'boundary', false],
    ]);
    // The caller's conversation is not changed.
    expect(start).toHaveLength(2);
  });

  it('a tool that returns nothing reads as {ok: true}', async () => {
    const tools = [tool('wave', 'loop', () => undefined), tool('done', 'boundary')];
    const { model, asked } = listModel([step('wave'), step('done')]);
    await loop(model, () => tools).run;
    expect(readToolResult(asked[1].messages.at(-1)!)).toEqual({ name: 'wave', result: { ok: true } });
  });

  it('the registry is asked again before every step: a loop tool can make another tool legal', async () => {
    let unlocked = false;
    const open = tool('open', 'loop', () => {
      unlocked = true;
      return { opened: true };
    });
    const finish = tool('finish', 'boundary');
    const { model, asked } = listModel([step('open'), step('finish')]);
    const out = await loop(model, () => (unlocked ? [finish] : [open])).run;
    expect(asked.map((a) => a.tools)).toEqual([['open'], ['finish']]);
    expect(out.kind).toBe('boundary');
  });

  it('after maxSteps loop steps the outcome is exhausted, with every step in the conversation', async () => {
    const tools = [tool('look', 'loop'), tool('reply', 'boundary', undefined, TEXT)];
    const { model, asked } = listModel([step('look'), step('look'), step('look')]);
    const out = await loop(model, () => tools, { maxSteps: 3 }).run;
    expect(out).toMatchObject({ kind: 'exhausted', steps: 3 });
    expect(asked).toHaveLength(3);
    expect(out.messages).toHaveLength(2 + 6);
  });
});

describe('runToolLoop: refusals go back to the model as corrections, and the loop goes on', () => {
  it('a ToolError, wrong arguments, a tool not on offer and a tool that threw each come back as {"error": …}', async () => {
    const tools = [
      tool('guess', 'loop', (a) => {
        if (a.text === '七') throw new ToolError('这个数已经猜过了');
        return { ok: true };
      }, TEXT),
      tool('broken', 'loop', () => {
        throw new Error('磁盘坏了');
      }),
      tool('reply', 'boundary', () => ({ ok: true }), TEXT),
    ];
    const { model, asked } = listModel([step('guess', { text: '七' }), step('guess', { number: 7 }), step('teleport'), step('broken'), step('reply', { text: '好。' })]);
    const { run, steps } = loop(model, () => tools, { maxSteps: 6 });
    const out = await run;

    const corrections = asked.slice(1).map((a) => readToolResult(a.messages.at(-1)!));
    expect(corrections[0]).toEqual({ name: 'guess', result: { error: '这个数已经猜过了' } });
    expect(corrections[1]?.result).toEqual({ error: expect.stringMatching(/^参数不对：/) });
    expect(corrections[2]).toEqual({ name: 'teleport', result: { error: '现在不能用 teleport；可以用：guess、broken、reply' } });
    expect(corrections[3]).toEqual({ name: 'broken', result: { error: '工具执行失败：磁盘坏了' } });
    expect(steps.map((s) => s.refused)).toEqual([true, true, true, true, false]);
    expect(steps[2].kind).toBeNull();
    expect(out.kind).toBe('boundary');
  });

  it('a refused boundary tool does not end the loop: the model hears why and tries again', async () => {
    let tries = 0;
    const tools = [
      tool('reply', 'boundary', (a) => {
        if (++tries === 1) throw new ToolError('这句话不对，换一句');
        return { said: a.text };
      }, TEXT),
    ];
    const { model, asked } = listModel([step('reply', { text: '第一句' }), step('reply', { text: '第二句' })]);
    const out = await loop(model, () => tools).run;
    expect(readToolResult(asked[1].messages.at(-1)!)).toEqual({ name: 'reply', result: { error: '这句话不对，换一句' } });
    expect(out).toMatchObject({ kind: 'boundary', result: { said: '第二句' }, steps: 2 });
  });

  it('a model failure rejects the loop', async () => {
    const { model } = listModel([
      () => {
        throw new Error('model down');
      },
    ]);
    await expect(loop(model, () => [tool('reply', 'boundary')]).run).rejects.toThrow('model down');
  });
});

describe('runToolLoop: abort', () => {
  it('an already aborted signal rejects with its reason before the model is asked', async () => {
    const { model, asked } = listModel([step('reply')]);
    const ac = new AbortController();
    ac.abort(new Error('cancelled by the child'));
    await expect(loop(model, () => [tool('reply', 'boundary')], { signal: ac.signal }).run).rejects.toThrow('cancelled by the child');
    expect(asked).toHaveLength(0);
  });

  it('aborted while the model decides: the step is not performed', async () => {
    const ac = new AbortController();
    let performed = 0;
    const { model } = listModel([
      (req) => {
        expect(req.signal).toBe(ac.signal);
        ac.abort(new Error('cut'));
        return step('reply');
      },
    ]);
    await expect(loop(model, () => [tool('reply', 'boundary', () => performed++)], { signal: ac.signal }).run).rejects.toThrow('cut');
    expect(performed).toBe(0);
  });

  it('a tool that fails because the turn was aborted rejects with the abort, not a refusal', async () => {
    const ac = new AbortController();
    const steps: StepRecord[] = [];
    const tools = [
      tool('draw', 'loop', () => {
        ac.abort(new Error('new start'));
        throw new Error('drawing interrupted');
      }),
    ];
    const { model } = listModel([step('draw')]);
    await expect(runToolLoop({ agent: 'test', model, messages: start, tools: () => tools, maxSteps: 4, now: clock(), signal: ac.signal, onStep: (r) => steps.push(r) })).rejects.toThrow('new start');
    expect(steps).toEqual([]);
  });
});

describe('runToolLoop: streamed text', () => {
  it('a speaking tool hears its text as the step is decoded, with the attempt number', async () => {
    const heard: Array<[string, number]> = [];
    const reply: AgentTool = { ...tool('reply', 'boundary', undefined, TEXT), streamText: (text, attempt) => heard.push([text, attempt]) };
    const { model } = listModel([
      (req) => {
        for (const piece of ['{"reply": {"te', 'xt": "你', '好。', '再见', '"}}']) req.onStream!(piece, 0);
        // A correction after invalid output starts a new attempt: its text starts again.
        for (const piece of ['{"reply": {"text": "重', '来"}}']) req.onStream!(piece, 1);
        return step('reply', { text: '重来' });
      },
    ]);
    await loop(model, () => [reply]).run;
    // The text after each piece (a piece that only closes the string hands the finished text once more).
    expect(heard).toEqual([
      ['你', 0],
      ['你好。', 0],
      ['你好。再见', 0],
      ['你好。再见', 0],
      ['重', 1],
      ['重来', 1],
    ]);
  });

  it('no tool speaks: the model is asked without a stream', async () => {
    let onStream: unknown = 'unset';
    const { model } = listModel([
      (req) => {
        onStream = req.onStream;
        return step('done');
      },
    ]);
    await loop(model, () => [tool('done', 'boundary')]).run;
    expect(onStream).toBeUndefined();
  });
});

describe('runToolLoop: the rules\' pre-executed steps', () => {
  it('performed and written like model steps before the first model call; the model takes over when the rules stop', async () => {
    const tools = [tool('check', 'loop', (a) => ({ checked: a.text }), TEXT), tool('reply', 'boundary', undefined, TEXT)];
    const rules = [step('check', { text: '七' })];
    const offered: string[][] = [];
    let handedOver: readonly ChatMessage[] | null = null;
    const { model, asked } = listModel([step('reply', { text: '猜对了！' })]);
    const { run, steps } = loop(model, () => tools, {
      pre: (_messages, specs) => {
        offered.push(specs.map((s) => s.name));
        return rules.shift() ?? null;
      },
      onHandover: (m) => (handedOver = [...m]),
    });
    const out = await run;

    expect(offered).toEqual([
      ['check', 'reply'],
      ['check', 'reply'],
    ]);
    const written = [stepMessage(step('check', { text: '七' })), toolResultMessage('check', { checked: '七' })];
    expect(asked[0].messages.slice(2)).toEqual(written);
    expect(handedOver!.slice(2)).toEqual(written);
    expect(steps.map((s) => [s.index, s.step.action, s.pre ?? false, s.modelMs])).toEqual([
      [0, 'check', true, 0],
      [0, 'reply', false, 5],
    ]);
    expect(out).toMatchObject({ kind: 'boundary', result: { ok: true } });
  });

  it('a boundary step of the rules ends the loop without a model call', async () => {
    const { model, asked } = listModel([]);
    const out = await loop(model, () => [tool('reply', 'boundary', (a) => ({ said: a.text }), TEXT)], { pre: () => step('reply', { text: '规则说完了。' }) }).run;
    expect(out).toMatchObject({ kind: 'boundary', result: { said: '规则说完了。' }, steps: 1 });
    expect(asked).toHaveLength(0);
  });

  it('a refused step of the rules goes to the model, which decides the rest', async () => {
    let asks = 0;
    const tools = [tool('check', 'loop', () => {
      throw new ToolError('不能这样查');
    }), tool('reply', 'boundary', undefined, TEXT)];
    const { model, asked } = listModel([step('reply', { text: '好。' })]);
    await loop(model, () => tools, {
      pre: () => {
        asks++;
        return step('check');
      },
    }).run;
    expect(asks).toBe(1);
    expect(readToolResult(asked[0].messages.at(-1)!)).toEqual({ name: 'check', result: { error: '不能这样查' } });
  });

  it("a line the rules say right after a result they got is noted in that result; a line first in the round, after a noted one, or refused is a step of its own", async () => {
    const SAID = { said: true };
    const sayTool: AgentTool = {
      ...tool('say', 'loop', (a) => {
        if (a.text === '不能说。') throw new ToolError('这句不能说');
        return SAID;
      }, TEXT),
      expected: () => SAID,
      notedInResult: true,
    };
    const tools = [tool('check', 'loop', () => ({ checked: true })), sayTool, tool('reply', 'boundary', undefined, TEXT)];
    const rules = [step('say', { text: '先说。' }), step('check'), step('say', { text: '查好了。' }), step('say', { text: '还有。' }), step('check'), step('say', { text: '不能说。' })];
    const { model, asked } = listModel([step('reply', { text: '好。' })]);
    const { run, steps } = loop(model, () => tools, { pre: () => rules.shift() ?? null });
    const out = await run;
    expect(asked[0].messages.slice(2)).toEqual([
      stepMessage(step('say', { text: '先说。' })),
      toolResultMessage('say', SAID),
      stepMessage(step('check')),
      toolResultMessage('check', { checked: true }, '查好了。'),
      stepMessage(step('say', { text: '还有。' })),
      toolResultMessage('say', SAID),
      stepMessage(step('check')),
      toolResultMessage('check', { checked: true }),
      stepMessage(step('say', { text: '不能说。' })),
      toolResultMessage('say', { error: '这句不能说' }),
    ]);
    expect(readToolResult(asked[0].messages[5])).toEqual({ name: 'check', result: { checked: true }, said: '查好了。' });
    // Every step of the rules is still a step of the trace.
    expect(steps.filter((r) => r.pre).map((r) => r.step.action)).toEqual(['say', 'check', 'say', 'say', 'check', 'say']);
    // What the model was asked is what the round remembers.
    expect(out.messages.slice(0, -1)).toEqual(asked[0].messages);
  });

  it('rules that never stop are cut after 8 steps and the model decides', async () => {
    let asks = 0;
    const { model, asked } = listModel([step('reply', { text: '好。' })]);
    await loop(model, () => [tool('tick', 'loop'), tool('reply', 'boundary', undefined, TEXT)], {
      pre: () => {
        asks++;
        return step('tick');
      },
    }).run;
    expect(asks).toBe(8);
    expect(asked[0].messages).toHaveLength(2 + 16);
  });
});

describe('runToolLoop: the model\'s step asked ahead while a device step of the rules works', () => {
  /** A device tool finished by the test, and `say`, both with the result they give when they do what they are asked. */
  function deviceTools(said: string[]) {
    let finish!: (r: unknown) => void;
    const draw: AgentTool = { ...tool('draw', 'loop', () => new Promise((r) => (finish = r))), awaitsDevice: true, expected: () => ({ done: true }) };
    const say: AgentTool = { ...tool('say', 'loop', (a) => (said.push(String(a.text)), { said: true }), TEXT), expected: () => ({ said: true }), streamText: (t) => said.push(`~${t}`) };
    return { tools: [draw, say, { ...tool('reply', 'boundary', undefined, TEXT), streamText: (t: string) => said.push(`~${t}`) }], finish: (r: unknown) => finish(r) };
  }
  /** The rules: draw, then say what the drawing's result says, then hand over. */
  const rules = (messages: readonly ChatMessage[]) => {
    const last = readToolResult(messages.at(-1)!);
    if (messages.length === 2) return step('draw');
    if (last?.name === 'draw') return step('say', { text: (last.result as { done?: boolean }).done ? '画好啦。' : '没画完。' });
    return null;
  };

  it('asked with the foreseen conversation while the device works; taken when it came true, its streamed words held until then', async () => {
    const said: string[] = [];
    const { tools, finish } = deviceTools(said);
    const requests: StepRequest[] = [];
    const warmed: number[] = [];
    const model: ChatModel = {
      label: 'ahead',
      async step(req) {
        requests.push(req);
        req.onStream?.('{"reply":{"text":"你真棒。"}}', 0);
        return step('reply', { text: '你真棒。' });
      },
    };
    const run = runToolLoop({ agent: 'test', model, messages: start, tools: () => tools, maxSteps: 4, now: clock(), pre: rules, onDeviceWait: () => warmed.push(1) });
    await new Promise((r) => setTimeout(r, 0));
    expect(requests).toHaveLength(1);
    expect(requests[0].messages.slice(2)).toEqual([stepMessage(step('draw')), toolResultMessage('draw', { done: true }), stepMessage(step('say', { text: '画好啦。' })), toolResultMessage('say', { said: true })]);
    expect(said).toEqual([]);
    expect(warmed).toEqual([]);
    finish({ done: true });
    const out = await run;
    expect(requests).toHaveLength(1);
    expect(said).toEqual(['画好啦。', '~你真棒。']);
    expect(out).toMatchObject({ kind: 'boundary', step: step('reply', { text: '你真棒。' }) });
    expect(out.messages.slice(0, -1)).toEqual(requests[0].messages);
  });

  it('dropped when the device did otherwise: the model is asked again with what happened, the dropped words never said', async () => {
    const said: string[] = [];
    const { tools, finish } = deviceTools(said);
    const requests: StepRequest[] = [];
    const model: ChatModel = {
      label: 'ahead',
      async step(req) {
        requests.push(req);
        const text = requests.length === 1 ? '画得真好看。' : '我们换个办法。';
        req.onStream?.(JSON.stringify({ reply: { text } }), 0);
        return step('reply', { text });
      },
    };
    const run = runToolLoop({ agent: 'test', model, messages: start, tools: () => tools, maxSteps: 4, now: clock(), pre: rules });
    await new Promise((r) => setTimeout(r, 0));
    finish({ done: false });
    await run;
    expect(requests).toHaveLength(2);
    expect(requests[0].signal?.aborted).toBe(true);
    expect(readToolResult(requests[1].messages.at(-3)!)).toEqual({ name: 'draw', result: { done: false } });
    expect(said).toEqual(['没画完。', '~我们换个办法。']);
  });

  it('not asked when a later step of the rules has no result known ahead: the conversation is read while the device works instead', async () => {
    const said: string[] = [];
    const { tools, finish } = deviceTools(said);
    const noExpectation = tools.map((t) => (t.name === 'say' ? { ...t, expected: undefined } : t));
    const { model, asked } = listModel([step('reply', { text: '好。' })]);
    const warmed: ChatMessage[][] = [];
    const run = runToolLoop({ agent: 'test', model, messages: start, tools: () => noExpectation, maxSteps: 4, now: clock(), pre: rules, onDeviceWait: (m) => warmed.push([...m]) });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toHaveLength(0);
    expect(warmed).toEqual([[...start, stepMessage(step('draw'))]]);
    finish({ done: true });
    await run;
    expect(asked).toHaveLength(1);
  });

  it("the rules' line after the device step is foreseen noted in the device's result, as the loop writes it: the step asked ahead is taken", async () => {
    const said: string[] = [];
    const { tools, finish } = deviceTools(said);
    const noting = tools.map((t) => (t.name === 'say' ? { ...t, notedInResult: true } : t));
    // The rules say the drawing's line once: after a result that notes no line yet.
    const notingRules = (messages: readonly ChatMessage[]) => (readToolResult(messages.at(-1)!)?.said === undefined ? rules(messages) : null);
    const requests: StepRequest[] = [];
    const model: ChatModel = { label: 'ahead', step: async (req) => (requests.push(req), step('reply', { text: '你真棒。' })) };
    const run = runToolLoop({ agent: 'test', model, messages: start, tools: () => noting, maxSteps: 4, now: clock(), pre: notingRules });
    await new Promise((r) => setTimeout(r, 0));
    expect(requests).toHaveLength(1);
    expect(requests[0].messages.slice(2)).toEqual([stepMessage(step('draw')), toolResultMessage('draw', { done: true }, '画好啦。')]);
    finish({ done: true });
    const out = await run;
    expect(requests).toHaveLength(1);
    expect(said).toEqual(['画好啦。']);
    expect(out.messages.slice(0, -1)).toEqual(requests[0].messages);
  });

  it('the loop stopped while the device works stops the step asked ahead too', async () => {
    const { tools } = deviceTools([]);
    const requests: StepRequest[] = [];
    const model: ChatModel = { label: 'ahead', step: (req) => (requests.push(req), new Promise<Step>(() => undefined)) };
    const stop = new AbortController();
    const run = runToolLoop({ agent: 'test', model, messages: start, tools: () => tools, maxSteps: 4, now: clock(), pre: rules, signal: stop.signal });
    run.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 0));
    stop.abort(new Error('the child left'));
    expect(requests[0].signal?.aborted).toBe(true);
  });
});
