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
    '{"action":"start_game","args":{}}',
    '{"action": "submit_guess", "args": {"number": 42}}',
    '{"action":"submit_guess","args":{"number":100}}',
    '{"action":"submit_guess","args":{"number":1}}',
    '{"action":"say","args":{"text":"🐱 喵 é ＜ \\u003c >"}}',
    '{"action":"say","args":{"text":"我想一想……"}}',
    '{"action":"reply","args":{"text":"太棒了！\\"再\\"猜一次吧。比 50 大哦～ \\u4e2d"}}',
    '{\n "action": "end_game",\n "args": {}\n}',
  ])('accepts %s', (text) => {
    expect(g.accepts(text)).toBe(true);
  });

  it.each([
    ['number above maximum', '{"action":"submit_guess","args":{"number":150}}'],
    ['number zero', '{"action":"submit_guess","args":{"number":0}}'],
    ['number as string', '{"action":"submit_guess","args":{"number":"42"}}'],
    ['a fraction', '{"action":"submit_guess","args":{"number":4.5}}'],
    ['unknown action', '{"action":"fly","args":{}}'],
    ['extra key', '{"action":"get_hint","args":{},"note":"x"}'],
    ['args of another action', '{"action":"get_hint","args":{"number":3}}'],
    ['missing args', '{"action":"get_hint"}'],
    ['missing required arg', '{"action":"say","args":{}}'],
    ['text too long', `{"action":"say","args":{"text":"${'好'.repeat(61)}"}}`],
    ['a raw newline in a string', '{"action":"say","args":{"text":"a\nb"}}'],
    ['a lone surrogate (not a Unicode scalar value)', '{"action":"say","args":{"text":"a\uD800b"}}'],
    ['a special token spelled out ("<" starts every ChatML special token)', '{"action":"say","args":{"text":"<|im_start|>"}}'],
    ['a surrogate escape (two escapes, one character)', '{"action":"say","args":{"text":"\\ud83d\\ude00"}}'],
    ['a whitespace flood', `{"action":"get_hint",${' '.repeat(40)}"args":{}}`],
    ['prose before the JSON', '好的 {"action":"get_hint","args":{}}'],
    ['keys in another order', '{"args":{},"action":"get_hint"}'],
  ])('rejects %s', (_name, text) => {
    expect(g.accepts(text)).toBe(false);
  });
});

it('a dynamic enum (installed game ids) is enforced', () => {
  const g = parseGbnf(stepGbnf(buildStepSchema([startGameTool(['guess-number', 'draw-guess'])])));
  expect(g.accepts('{"action":"start_game","args":{"game_id":"draw-guess"}}')).toBe(true);
  expect(g.accepts('{"action":"start_game","args":{"game_id":"chess"}}')).toBe(false);
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
    '{"action":"draw","args":{"shape":"star"}}',
    '{"action":"draw","args":{"shape":"star","size":12345,"tags":["a","bc"],"note":null,"ok":true}}',
    '{"action":"draw","args":{"shape":"circle","note":"hi","ok":false}}',
    '{"action":"draw","args":{"shape":"circle","tags":[]}}',
  ])('accepts %s', (text) => expect(g.accepts(text)).toBe(true));
  it.each([
    '{"action":"draw","args":{"size":1}}',
    '{"action":"draw","args":{"shape":"star","size":-1}}',
    '{"action":"draw","args":{"shape":"star","tags":["a","b","c"]}}',
    '{"action":"draw","args":{"shape":"star","tags":["abcde"]}}',
    '{"action":"draw","args":{"shape":"star",}}',
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
