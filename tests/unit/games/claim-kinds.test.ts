/**
 * Truth against THIS turn's judgement, for every speaker: a claim of a result passes only when a
 * tool result of this turn decided exactly that, for the value the child said this turn; each game
 * declares which kinds of result it can claim; the main agent claims none; restart, next-question,
 * end and continuation claims only as the session really goes; a short run of model faults is not
 * a settings problem.
 */
import { describe, expect, it } from 'vitest';
import { checkSentence, type TruthRules, type TurnResult } from '../../../src/core/games/truth.ts';
import { classClaims, declaredRules, lineFits, NO_OWN_RULES } from '../../../src/core/games/claim-kinds.ts';
import { faultCode, PERSISTENT_AFTER, STUCK } from '../../../src/core/arcade/fault-line.ts';
import { mainAgentRules } from '../../../src/arcade/model-loop.ts';
import { childLines, childSentence } from '../../../src/core/errors/catalogue.ts';
import { DEFAULT_CONFIG, GuessNumberGame } from '../../../skills/guess-number/rules.ts';
import { truth as guessTruth } from '../../../skills/guess-number/truth.ts';
import { truth as drawTruth } from '../../../skills/draw-guess/truth.ts';
import { ANIMALS } from '../../../skills/draw-guess/animals.ts';
import { DEFAULT_CONFIG as DRAW_CONFIG, DrawGuessGame, type Card } from '../../../skills/draw-guess/rules.ts';
import { secretRandom } from './helpers.ts';

const ok = (rules: TruthRules, s: string) => checkSentence(s, rules) === null;

/** A 猜数字 game with the secret 32 and 50 already judged 大 in an earlier turn. */
function guessGame() {
  const game = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(32));
  game.start();
  game.guess(50);
  return game;
}
const judge = (game: GuessNumberGame, n: number): TurnResult => ({ name: 'submit_guess', args: { number: n }, result: { result: game.guess(n), number: n, tries_left: game.triesLeft } });

describe('猜数字: 大/小 only as this turn judged the number the child said', () => {
  it('「我猜25」 before 25 is judged: no 太大了 from 50\'s earlier verdict, no 25 小了, no 不对', () => {
    const game = guessGame();
    const rules = guessTruth({ results: [], state: game, heard: '我猜25' });
    expect(ok(rules, '太大了，再小一点。')).toBe(false);
    expect(ok(rules, '再小一点哦。')).toBe(false);
    expect(ok(rules, '25 小了！')).toBe(false);
    expect(ok(rules, '不对哦。')).toBe(false);
    // A recap of an earlier guess is still true.
    expect(ok(rules, '50 大了。')).toBe(true);
  });

  it('「我猜60」 and 「我猜33」 never judged: neither direction may be said', () => {
    for (const heard of ['我猜60', '我猜33']) {
      const rules = guessTruth({ results: [], state: guessGame(), heard });
      expect(ok(rules, '太小了，再大一点。')).toBe(false);
      expect(ok(rules, '太大了。')).toBe(false);
    }
  });

  it('once this turn judged 25 小, only 小 passes — for 25 and bare', () => {
    const game = guessGame();
    const rules = guessTruth({ results: [judge(game, 25)], state: game, heard: '我猜25' });
    expect(ok(rules, '25 小了！再大一点哦。')).toBe(true);
    expect(ok(rules, '太大了，再小一点。')).toBe(false);
    expect(ok(rules, '25 大了。')).toBe(false);
    expect(ok(rules, '不对哦，再大一点。')).toBe(true);
  });

  it('重新开始 only when this turn started the game; 结束 only when it ended; no 下一题', () => {
    const game = guessGame();
    const none = guessTruth({ results: [judge(game, 40)], state: game, heard: '我猜40' });
    expect(ok(none, '我们重新开始一局吧！')).toBe(false);
    expect(ok(none, '游戏结束啦！')).toBe(false);
    expect(ok(none, '下一题来咯！')).toBe(false);
    expect(ok(none, '我们接着玩吧！')).toBe(true);
    expect(ok(none, '想再来一局吗？')).toBe(true); // a question claims nothing
    const fresh = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(32));
    fresh.start();
    const started = guessTruth({ results: [{ name: 'start_game', args: {}, result: { range: [1, 100], tries_left: 7 } }], state: fresh, heard: '再来一局' });
    expect(ok(started, '好，我们重新开始一局！')).toBe(true);
    const ending = new GuessNumberGame(DEFAULT_CONFIG, () => secretRandom(32));
    ending.start();
    const won = guessTruth({ results: [judge(ending, 32)], state: ending, heard: '32' });
    expect(ok(won, '猜对了！游戏结束啦！')).toBe(true);
    expect(ok(won, '我们接着玩吧！')).toBe(false);
  });
});

describe('你画我猜 declares what it can claim', () => {
  const deck = ANIMALS as readonly Card[];
  const vocabulary = deck.map((c) => ({ name: c.name, aliases: [...c.aliases] }));
  const game = () => {
    const g = new DrawGuessGame(deck, DRAW_CONFIG, () => 0);
    g.start();
    return g;
  };

  it('「是大象吗」 → no 太大了 / 再小一点, whatever the verdict', () => {
    const g = game();
    g.answer(false);
    const results: TurnResult[] = [{ name: 'submit_answer', args: { text: '是大象吗' }, result: { verdict: 'wrong', heard: '大象', attempts_left: 2 } }];
    const rules = drawTruth({ results, state: { game: g, animals: vocabulary }, heard: '是大象吗' });
    expect(ok(rules, '太大了，再小一点。')).toBe(false);
    expect(ok(rules, '不是大象哦！')).toBe(true);
    expect(ok(rules, '下一题来咯，看我画！')).toBe(false); // the question is not over
  });

  it('下一题 once this turn moved on to a new question', () => {
    const g = game();
    g.answer(true);
    const results: TurnResult[] = [{ name: 'submit_answer', args: { text: '狗' }, result: { verdict: 'correct', answer: '狗', question_over: true, score: 1 } }];
    const rules = drawTruth({ results, state: { game: g, animals: vocabulary }, heard: '狗' });
    expect(ok(rules, '答对啦！下一题来咯，看我画！')).toBe(true);
    expect(ok(rules, '我们重新开始一局吧。')).toBe(false);
  });
});

describe('the main agent claims no game result', () => {
  it.each([
    ['太小了，再大一点。', false],
    ['你猜对了！', false],
    ['答案是 32。', false],
    ['我们重新开始一局吧。', false],
    ['游戏结束啦！', false],
    ['下一题来咯！', false],
    ['你得了 3 分！', false],
    ['你长大了好多呀！', true],
    ['今天天气真好，我们聊聊天吧。', true],
    ['声音大一点吗？好的。', true],
  ])('no game running: %s → %s', (s, allowed) => {
    expect(ok(mainAgentRules(false), s)).toBe(allowed);
  });

  it('「我们接着玩吧」 only while a game runs', () => {
    expect(ok(mainAgentRules(false), '我们接着玩吧！')).toBe(false);
    expect(ok(mainAgentRules(true), '我们接着玩吧！')).toBe(true);
    expect(ok(mainAgentRules(true), '太小了。')).toBe(false);
  });

  it('an invitation for another day claims nothing about this session: 「下次接着玩」, 「明天再来一局」', () => {
    for (const s of ['好的，今天就玩到这里，下次接着玩！', '明天我们再来一局吧！', '改天继续玩哦。'])
      expect(classClaims(s).filter((c) => c.kind === 'continue' || c.kind === 'restart')).toEqual([]);
    for (const s of ['明天我们再来一局吧！', '改天继续玩哦。']) expect(ok(mainAgentRules(false), s)).toBe(true);
    expect(classClaims('我们接着玩，下次再说。').map((c) => c.kind)).toContain('continue');
  });

  it('the refusal tells the model what to do instead', () => {
    expect(checkSentence('太小了。', mainAgentRules(false))?.reason).toContain('send_message');
  });
});

describe('kinds of claim', () => {
  it('finds each kind, and none in a question', () => {
    const kinds = (s: string) => classClaims(s).map((c) => c.kind);
    expect(kinds('太大了')).toContain('direction');
    expect(kinds('我们重新开始一局吧')).toContain('restart');
    expect(kinds('下一题来咯')).toContain('next');
    expect(kinds('这局就玩到这里')).toContain('over');
    expect(kinds('你答对了')).toContain('verdict');
    expect(kinds('要不要重新开始？')).toEqual([]);
    expect(kinds('大象的鼻子长长的')).toEqual([]);
  });

  it('a speaker that declares nothing may say nothing of a result', () => {
    const rules = declaredRules(NO_OWN_RULES, { who: '某游戏', can: [], facts: {} });
    expect(ok(rules, '答对了！')).toBe(false);
    expect(ok(rules, '你好呀！')).toBe(true);
  });

  it('catalogue lines fit what happens to the session', () => {
    expect(lineFits(childSentence('game_timeout')!, { continues: true })).toBe(true);
    expect(lineFits(childSentence('game_timeout')!, { continues: false })).toBe(false);
    expect(lineFits(childSentence('model_context_full')!, { continues: true })).toBe(false);
  });
});

describe('the line after a model fault names the cause it knows', () => {
  it('a short outage (500, stall, 500) is 「我有点卡住了」, settings only once it persists', () => {
    for (let streak = 1; streak < PERSISTENT_AFTER; streak++) expect(faultCode('model_remote_http', streak, childSentence('model_remote_http'))).toBe(STUCK);
    expect(faultCode('model_remote_http', PERSISTENT_AFTER, childSentence('model_remote_http'))).toBe('model_remote_http');
    expect(faultCode('model_remote_network', 1, childSentence('model_remote_network'))).toBe(STUCK);
    expect(childSentence(STUCK)).toBe('我有点卡住了，我们再试一次。');
  });
  it('a setup fault asks a grown-up at once; a slow answer keeps its own line; no restart claimed', () => {
    expect(faultCode('model_remote_auth', 1, childSentence('model_remote_auth'))).toBe('model_remote_auth');
    expect(faultCode('model_too_slow', 1, childSentence('model_too_slow'))).toBe('model_too_slow');
    expect(faultCode('model_context_full', 1, childSentence('model_context_full'))).toBe(STUCK);
  });
});

describe("the child's lines for a brain that cannot be reached say what is known, from the catalogue", () => {
  it('a key or permission problem is a grown-up\'s task, never 「网络断了」; an unreachable computer never claims the network is down', () => {
    for (const line of childLines('model_remote_auth')) {
      expect(line).toMatch(/大人/);
      expect(line).not.toMatch(/网络/);
    }
    // A failed fetch may be the Wi-Fi, a computer that is off, or a page it refuses: no line claims one of them.
    for (const line of childLines('model_remote_network')) expect(line).not.toMatch(/断了|没有网|网络.*坏/);
    for (const code of ['model_remote_mixed_content', 'model_remote_bad_url', 'model_bad_config']) for (const line of childLines(code)) expect(line).not.toMatch(/网络/);
  });
});
