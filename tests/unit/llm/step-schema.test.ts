import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { buildStepSchema, checkStep } from '../../../src/core/llm/step-schema.ts';
import { guessNumberTools, startGameTool } from './fixtures.ts';

describe('buildStepSchema', () => {
  it('is a union of exactly the legal actions, each an object whose one key is the action, holding its args', () => {
    const schema = buildStepSchema(guessNumberTools) as { anyOf: Array<Record<string, any>> };
    expect(schema.anyOf.map((b) => Object.keys(b.properties))).toEqual([
      ['start_game'],
      ['get_hint'],
      ['submit_guess'],
      ['end_game'],
      ['say'],
      ['reply'],
    ]);
    expect(schema.anyOf.map((b) => b.required[0])).toEqual([
      'start_game',
      'get_hint',
      'submit_guess',
      'end_game',
      'say',
      'reply',
    ]);
    for (const branch of schema.anyOf) {
      expect(branch.additionalProperties).toBe(false);
      expect(branch.required).toHaveLength(1);
      expect(branch.properties[branch.required[0]].additionalProperties).toBe(false);
    }
    const guess = schema.anyOf[2].properties.submit_guess;
    expect(guess.properties.number).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(guess.required).toEqual(['number']);
  });

  it('only offers the tools given: an action not legal now is rejected by the schema itself', () => {
    const now = guessNumberTools.filter((t) => t.name !== 'start_game');
    const validate = new Ajv({ strict: false }).compile(buildStepSchema(now));
    expect(validate({ get_hint: {} })).toBe(true);
    expect(validate({ start_game: {} })).toBe(false);
    expect(validate({ get_hint: {}, end_game: {} })).toBe(false); // one action a step
  });

  it('carries dynamic enums (installed game ids) from the tool parameters', () => {
    const validate = new Ajv({ strict: false }).compile(
      buildStepSchema([startGameTool(['guess-number', 'draw-guess'])]),
    );
    expect(validate({ start_game: { game_id: 'draw-guess' } })).toBe(true);
    expect(validate({ start_game: { game_id: 'chess' } })).toBe(false);
  });

  it('refuses an empty or duplicated tool list', () => {
    expect(() => buildStepSchema([])).toThrow(/at least one/);
    expect(() => buildStepSchema([guessNumberTools[0], guessNumberTools[0]])).toThrow(/duplicate/);
    // The paired form's keys cannot name a tool: a step's shape is never ambiguous.
    expect(() => buildStepSchema([{ ...guessNumberTools[0], name: 'args' }])).toThrow(/cannot name a tool/);
  });
});

describe('checkStep', () => {
  const ok = (raw: string) => checkStep(raw, guessNumberTools);
  it('accepts a valid step, Chinese text included, and a fenced one', () => {
    expect(ok('{"reply":{"text":"太棒了！再猜一次吧。"}}')).toEqual({
      ok: true,
      step: { action: 'reply', args: { text: '太棒了！再猜一次吧。' } },
    });
    expect(ok('```json\n{"get_hint":{}}\n```')).toMatchObject({ ok: true });
  });
  it.each([
    ['not json', '{"action":"reply",', /不是合法的 JSON/],
    ['an array', '[1,2]', /JSON 对象/],
    ['unknown action', '{"fly":{}}', /没有动作 fly/],
    ['missing args', '{"get_hint":null}', /get_hint 的参数必须是一个对象/],
    ['two actions', '{"get_hint":{},"why":"x"}', /一次只能做一个动作.*多了 why/],
    ['no action', '{}', /缺少动作/],
    ['the paired form', '{"action":"get_hint","args":{}}', /一次只能做一个动作/],
    ['wrong type', '{"submit_guess":{"number":"五十"}}', /number must be integer/],
    ['out of range', '{"submit_guess":{"number":150}}', /<= 100/],
    ['missing arg', '{"submit_guess":{}}', /缺少 number/],
    ['undeclared arg', '{"get_hint":{"level":2}}', /不能有 level/],
  ])('rejects %s with a reason the model can act on', (_name, raw, reason) => {
    const r = ok(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });
});
