import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { buildStepSchema, checkStep } from '../../../src/core/llm/step-schema.ts';
import { guessNumberTools, startGameTool } from './fixtures.ts';

describe('buildStepSchema', () => {
  it('is a union of exactly the legal actions, each {action: const, args} with no extra keys', () => {
    const schema = buildStepSchema(guessNumberTools) as { anyOf: Array<Record<string, any>> };
    expect(schema.anyOf.map((b) => b.properties.action.const)).toEqual([
      'start_game',
      'get_hint',
      'submit_guess',
      'end_game',
      'say',
      'reply',
    ]);
    for (const branch of schema.anyOf) {
      expect(branch.additionalProperties).toBe(false);
      expect(branch.required).toEqual(['action', 'args']);
      expect(branch.properties.args.additionalProperties).toBe(false);
    }
    const guess = schema.anyOf[2].properties.args;
    expect(guess.properties.number).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(guess.required).toEqual(['number']);
  });

  it('only offers the tools given: an action not legal now is rejected by the schema itself', () => {
    const now = guessNumberTools.filter((t) => t.name !== 'start_game');
    const validate = new Ajv({ strict: false }).compile(buildStepSchema(now));
    expect(validate({ action: 'get_hint', args: {} })).toBe(true);
    expect(validate({ action: 'start_game', args: {} })).toBe(false);
  });

  it('carries dynamic enums (installed game ids) from the tool parameters', () => {
    const validate = new Ajv({ strict: false }).compile(
      buildStepSchema([startGameTool(['guess-number', 'draw-guess'])]),
    );
    expect(validate({ action: 'start_game', args: { game_id: 'draw-guess' } })).toBe(true);
    expect(validate({ action: 'start_game', args: { game_id: 'chess' } })).toBe(false);
  });

  it('refuses an empty or duplicated tool list', () => {
    expect(() => buildStepSchema([])).toThrow(/at least one/);
    expect(() => buildStepSchema([guessNumberTools[0], guessNumberTools[0]])).toThrow(/duplicate/);
  });
});

describe('checkStep', () => {
  const ok = (raw: string) => checkStep(raw, guessNumberTools);
  it('accepts a valid step, Chinese text included, and a fenced one', () => {
    expect(ok('{"action":"reply","args":{"text":"太棒了！再猜一次吧。"}}')).toEqual({
      ok: true,
      step: { action: 'reply', args: { text: '太棒了！再猜一次吧。' } },
    });
    expect(ok('```json\n{"action":"get_hint","args":{}}\n```')).toMatchObject({ ok: true });
  });
  it.each([
    ['not json', '{"action":"reply",', /不是合法的 JSON/],
    ['an array', '[1,2]', /JSON 对象/],
    ['unknown action', '{"action":"fly","args":{}}', /没有动作 fly/],
    ['missing args', '{"action":"get_hint"}', /args 必须是一个对象/],
    ['extra key', '{"action":"get_hint","args":{},"why":"x"}', /多了 why/],
    ['wrong type', '{"action":"submit_guess","args":{"number":"五十"}}', /number must be integer/],
    ['out of range', '{"action":"submit_guess","args":{"number":150}}', /<= 100/],
    ['missing arg', '{"action":"submit_guess","args":{}}', /缺少 number/],
    ['undeclared arg', '{"action":"get_hint","args":{"level":2}}', /不能有 level/],
  ])('rejects %s with a reason the model can act on', (_name, raw, reason) => {
    const r = ok(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });
});
