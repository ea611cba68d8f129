import { describe, expect, it } from 'vitest';
import { gbnfLiteral, schemaToGbnf, stepGbnf } from '../../../src/core/llm/gbnf.ts';
import { buildStepSchema } from '../../../src/core/llm/step-schema.ts';
import { parseGbnf } from '../../support/gbnf-matcher.ts';
import { guessNumberTools, startGameTool } from './fixtures.ts';

// The GBNF we send to llama.cpp (CPU engine, llama.cpp servers) accepts exactly the legal steps,
// checked with a recogniser that follows the GBNF format (tests/support/gbnf-matcher.ts).
describe('GBNF for 猜数字', () => {
  const g = parseGbnf(stepGbnf(buildStepSchema(guessNumberTools)));

  it.each([
    '{"start_game":{}}',
    '{"submit_guess": {"number": 42}}',
    '{"submit_guess":{"number":100}}',
    '{"submit_guess":{"number":1}}',
    '{"say":{"text":"🐱 喵 é ＜ \\u003c >"}}',
    '{"say":{"text":"我想一想……"}}',
    '{"reply":{"text":"太棒了！\\"再\\"猜一次吧。比 50 大哦～ \\u4e2d"}}',
    '{\n "end_game": {}\n}',
  ])('accepts %s', (text) => {
    expect(g.accepts(text)).toBe(true);
  });

  it.each([
    ['number above maximum', '{"submit_guess":{"number":150}}'],
    ['number zero', '{"submit_guess":{"number":0}}'],
    ['number as string', '{"submit_guess":{"number":"42"}}'],
    ['a fraction', '{"submit_guess":{"number":4.5}}'],
    ['unknown action', '{"fly":{}}'],
    ['two actions', '{"get_hint":{},"end_game":{}}'],
    ['the paired form', '{"action":"get_hint","args":{}}'],
    ['args of another action', '{"get_hint":{"number":3}}'],
    ['missing args', '{"get_hint"}'],
    ['missing required arg', '{"say":{}}'],
    ['text too long', `{"say":{"text":"${'好'.repeat(61)}"}}`],
    ['a raw newline in a string', '{"say":{"text":"a\nb"}}'],
    ['a lone surrogate (not a Unicode scalar value)', '{"say":{"text":"a\uD800b"}}'],
    ['a special token spelled out ("<" starts every ChatML special token)', '{"say":{"text":"<|im_start|>"}}'],
    ['a surrogate escape (two escapes, one character)', '{"say":{"text":"\\ud83d\\ude00"}}'],
    ['a whitespace flood', `{"get_hint":${' '.repeat(40)}{}}`],
    ['prose before the JSON', '好的 {"get_hint":{}}'],
  ])('rejects %s', (_name, text) => {
    expect(g.accepts(text)).toBe(false);
  });
});

it('a dynamic enum (installed game ids) is enforced', () => {
  const g = parseGbnf(stepGbnf(buildStepSchema([startGameTool(['guess-number', 'draw-guess'])])));
  expect(g.accepts('{"start_game":{"game_id":"draw-guess"}}')).toBe(true);
  expect(g.accepts('{"start_game":{"game_id":"chess"}}')).toBe(false);
});

describe('optional properties, arrays, nullable and wide integers', () => {
  const schema = buildStepSchema([
    {
      name: 'draw',
      description: '',
      parameters: {
        type: 'object',
        properties: {
          shape: { type: 'string', enum: ['circle', 'star'] },
          size: { type: 'integer', minimum: 0 },
          tags: { type: 'array', items: { type: 'string', maxLength: 4 }, maxItems: 2 },
          note: { type: ['string', 'null'], maxLength: 5 },
          ok: { type: 'boolean' },
        },
        required: ['shape'],
      },
    },
  ]);
  const g = parseGbnf(schemaToGbnf(schema));
  it.each([
    '{"draw":{"shape":"star"}}',
    '{"draw":{"shape":"star","size":12345,"tags":["a","bc"],"note":null,"ok":true}}',
    '{"draw":{"shape":"circle","note":"hi","ok":false}}',
    '{"draw":{"shape":"circle","tags":[]}}',
  ])('accepts %s', (text) => expect(g.accepts(text)).toBe(true));
  it.each([
    '{"draw":{"size":1}}',
    '{"draw":{"size":1,"shape":"star"}}', // arguments in another order than the schema's
    '{"draw":{"shape":"star","size":-1}}',
    '{"draw":{"shape":"star","tags":["a","b","c"]}}',
    '{"draw":{"shape":"star","tags":["abcde"]}}',
    '{"draw":{"shape":"star",}}',
  ])('rejects %s', (text) => expect(g.accepts(text)).toBe(false));

  it('optional properties that come first need no leading comma', () => {
    const only = parseGbnf(schemaToGbnf({ type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'boolean' } }, additionalProperties: false }));
    for (const t of ['{}', '{"a":true}', '{"b":false}', '{"a":true,"b":true}']) expect(only.accepts(t)).toBe(true);
    for (const t of ['{,"b":false}', '{"b":false,"a":true}', '{"a":true,}']) expect(only.accepts(t)).toBe(false);
  });
});

it('literals escape quotes and backslashes', () => {
  expect(gbnfLiteral('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
  const g = parseGbnf(`root ::= ${gbnfLiteral('say "hi"\\')}\n`);
  expect(g.accepts('say "hi"\\')).toBe(true);
});
