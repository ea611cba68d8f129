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
    '{"action":"start_game","args":{}}',
    '{"action": "submit_guess", "args": {"number": 42}}',
    '{"action":"submit_guess","args":{"number":100}}',
    '{"action":"say","args":{"text":"我想一想……"}}',
    '{"action":"reply","args":{"text":"太棒了！再猜一次吧。比 50 大哦～"}}',
    '{\n "action": "end_game",\n "args": {}\n}',
  ])('accepts %s', async (text) => {
    expect(await accepts(ebnf, text)).toBe(true);
  });

  it.each([
    ['number above maximum', '{"action":"submit_guess","args":{"number":150}}'],
    ['number as string', '{"action":"submit_guess","args":{"number":"42"}}'],
    ['a fraction', '{"action":"submit_guess","args":{"number":4.5}}'],
    ['unknown action', '{"action":"fly","args":{}}'],
    ['extra key', '{"action":"get_hint","args":{},"note":"x"}'],
    ['missing args', '{"action":"get_hint"}'],
    ['missing required arg', '{"action":"say","args":{}}'],
    ['text too long', `{"action":"say","args":{"text":"${'好'.repeat(61)}"}}`],
    ['a whitespace flood', `{"action":"get_hint",${' '.repeat(40)}"args":{}}`],
    ['prose before the JSON', '好的 {"action":"get_hint","args":{}}'],
  ])('rejects %s', async (_name, text) => {
    expect(await accepts(ebnf, text)).toBe(false);
  });
});

it('a dynamic enum (installed game ids) is enforced by the grammar', async () => {
  const ebnf = await stepGrammar(buildStepSchema([startGameTool(['guess-number', 'draw-guess'])]));
  expect(await accepts(ebnf, '{"action":"start_game","args":{"game_id":"draw-guess"}}')).toBe(true);
  expect(await accepts(ebnf, '{"action":"start_game","args":{"game_id":"chess"}}')).toBe(false);
});
