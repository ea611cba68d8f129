import '../../support/xgrammar-node.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadXGrammar, stepGrammar } from '../../../src/llm/grammar.ts';
import { buildStepSchema } from '../../../src/core/llm/step-schema.ts';
import { guessNumberTools, startGameTool } from './fixtures.ts';

// Real XGrammar (wasm) in Node: the EBNF we send to WebLLM accepts exactly the legal steps.
let accepts: (ebnf: string, text: string) => Promise<boolean>;
beforeAll(async () => {
  const xg = await loadXGrammar();
  accepts = async (ebnf, text) => {
    const g = await xg.Grammar.fromEBNF(ebnf, 'root');
    try {
      return await xg.Testings.isGrammarAcceptString(g, text);
    } finally {
      g.dispose();
    }
  };
});

describe('step grammar for 猜数字', () => {
  let ebnf: string;
  beforeAll(async () => {
    ebnf = await stepGrammar(buildStepSchema(guessNumberTools));
  });

  it.each([
    '{"start_game":{}}',
    '{"submit_guess": {"number": 42}}',
    '{"submit_guess":{"number":100}}',
    '{"say":{"text":"我想一想……"}}',
    '{"reply":{"text":"太棒了！再猜一次吧。比 50 大哦～"}}',
    '{\n "end_game": {}\n}',
  ])('accepts %s', async (text) => {
    expect(await accepts(ebnf, text)).toBe(true);
  });

  it.each([
    ['number above maximum', '{"submit_guess":{"number":150}}'],
    ['number as string', '{"submit_guess":{"number":"42"}}'],
    ['a fraction', '{"submit_guess":{"number":4.5}}'],
    ['unknown action', '{"fly":{}}'],
    ['two actions', '{"get_hint":{},"end_game":{}}'],
    ['the paired form', '{"action":"get_hint","args":{}}'],
    ['missing args', '{"get_hint"}'],
    ['missing required arg', '{"say":{}}'],
    ['text too long', `{"say":{"text":"${'好'.repeat(61)}"}}`],
    ['a whitespace flood', `{"get_hint":${' '.repeat(40)}{}}`],
    ['prose before the JSON', '好的 {"get_hint":{}}'],
  ])('rejects %s', async (_name, text) => {
    expect(await accepts(ebnf, text)).toBe(false);
  });
});

it('a dynamic enum (installed game ids) is enforced by the grammar', async () => {
  const ebnf = await stepGrammar(buildStepSchema([startGameTool(['guess-number', 'draw-guess'])]));
  expect(await accepts(ebnf, '{"start_game":{"game_id":"draw-guess"}}')).toBe(true);
  expect(await accepts(ebnf, '{"start_game":{"game_id":"chess"}}')).toBe(false);
});
