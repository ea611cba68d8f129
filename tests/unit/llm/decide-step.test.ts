import { describe, expect, it } from 'vitest';
import { createChatModel, type CompletionRequest, type StepProvider } from '../../../src/llm/decide-step.ts';
import { createScriptedModel, SCRIPTED_LABEL } from '../../../src/llm/scripted.ts';
import { playback } from '../../support/llm/playback.ts';
import { ModelError, type StepRequest } from '../../../src/core/llm/types.ts';
import { guessNumberTools } from './fixtures.ts';

/** A provider that answers with a fixed list of texts and records what it was asked. */
function replaying(outputs: string[]): StepProvider & { seen: CompletionRequest[] } {
  const seen: CompletionRequest[] = [];
  return {
    label: 'test',
    seen,
    async complete(req) {
      seen.push(req);
      const out = outputs[seen.length - 1];
      if (out === undefined) throw new Error('asked too often');
      return out;
    },
  };
}

const request = (over: Partial<StepRequest> = {}): StepRequest => ({
  agent: 'game:guess-number',
  messages: [
    { role: 'system', content: '你是猜数字游戏的主持人。' },
    { role: 'user', content: '{"event":"message","user_text":"五十"}' },
  ],
  tools: guessNumberTools,
  ...over,
});

describe('createChatModel', () => {
  it('returns the first valid step and always sends the schema and max_tokens', async () => {
    const p = replaying(['{"submit_guess":{"number":50}}']);
    const step = await createChatModel(p).step(request());
    expect(step).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    expect(p.seen[0].maxTokens).toBeGreaterThan(0);
    expect((p.seen[0].schema as { anyOf: unknown[] }).anyOf).toHaveLength(guessNumberTools.length);
  });

  it.each([
    ['bad JSON', '{"action": "submit_guess", "args": {"number": 5'],
    ['unknown action', '{"jump":{}}'],
    ['wrong argument type', '{"submit_guess":{"number":"fifty"}}'],
    ['out-of-range number', '{"submit_guess":{"number":101}}'],
  ])('sends %s back as a correction and accepts the corrected step', async (_name, bad) => {
    const p = replaying([bad, '{"submit_guess":{"number":50}}']);
    const invalid: string[] = [];
    const model = createChatModel(p, { onInvalid: (i) => invalid.push(i.reason) });
    const step = await model.step(request());
    expect(step).toMatchObject({ action: 'submit_guess', args: { number: 50 } });
    expect(p.seen).toHaveLength(2);
    const second = p.seen[1];
    expect(second.attempt).toBe(1);
    // The retry carries the bad output and a short correction naming the legal actions.
    expect(second.messages.slice(0, 2)).toEqual(request().messages);
    expect(second.messages[2]).toEqual({ role: 'assistant', content: bad });
    expect(second.messages[3].role).toBe('user');
    expect(second.messages[3].content).toContain('上一个输出无效');
    expect(second.messages[3].content).toContain('submit_guess');
    expect(invalid).toHaveLength(1);
  });

  it('gives up after the bounded retries with model_invalid_output, never crashing', async () => {
    const p = replaying(['nope', 'still nope', '{"x":{}}', 'never asked']);
    const err = await createChatModel(p, { maxRetries: 2 })
      .step(request())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('model_invalid_output');
    expect(err.message).toContain('没有动作 x');
    expect(p.seen).toHaveLength(3);
  });

  it('turns a provider failure into a ModelError with a catalogue code (no retry)', async () => {
    const p: StepProvider = {
      label: 't',
      complete: async () => {
        throw 'Error: Device was lost. This can happen due to insufficient memory (OOM)';
      },
    };
    const err = await createChatModel(p).step(request()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err.code).toBe('model_out_of_memory');
  });

  it('stops with AbortError when the request is cancelled', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await createChatModel(replaying(['{}'])).step(request({ signal: ac.signal })).catch((e) => e);
    expect(err.name).toBe('AbortError');
  });
});

describe('createScriptedModel', () => {
  it('dispatches on the agent and is labelled honestly', async () => {
    const model = createScriptedModel({
      main: () => ({ action: 'reply', args: { text: '你好呀' } }),
      'game:guess-number': () => ({ action: 'get_hint', args: {} }),
    });
    expect(model.label).toBe(SCRIPTED_LABEL);
    expect(await model.step(request({ agent: 'main' }))).toMatchObject({ action: 'reply', args: { text: '你好呀' } });
    expect(await model.step(request())).toMatchObject({ action: 'get_hint', args: {} });
  });

  it('goes through the same validation: a raw bad output is corrected by the retry path', async () => {
    const policy = playback([{ raw: '{"submit_guess":{"number":0}}' }, { action: 'get_hint', args: {} }]);
    const model = createScriptedModel((agent) => (agent.startsWith('game:') ? policy : undefined));
    expect(await model.step(request())).toMatchObject({ action: 'get_hint', args: {} });
  });

  it('a policy returning an illegal step fails like a model would', async () => {
    const model = createScriptedModel({ main: () => ({ action: 'launch_rocket', args: {} }) });
    const err = await model.step(request({ agent: 'main' })).catch((e) => e);
    expect(err.code).toBe('model_invalid_output');
  });

  it('an agent without a policy gets a clear error', async () => {
    const err = await createScriptedModel({}).step(request({ agent: 'studio:manager' })).catch((e) => e);
    expect(err.code).toBe('model_not_configured');
    expect(err.message).toContain('studio:manager');
  });
});
