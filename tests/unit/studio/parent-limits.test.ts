import { describe, expect, it } from 'vitest';
import { emptyBoard } from '../../../src/core/studio/blackboard.ts';
import { draftProblems } from '../../../src/core/studio/draft-check.ts';
import { handWrittenDesign } from '../../../src/core/studio/hand-written.ts';
import { unsayable } from '../../../src/core/text/speakable.ts';
import { quizExecutors } from '../../../skills/quiz-cards/quiz.ts';
import { quizPackage } from './helpers.ts';

const pkg = quizPackage();
const check = (title: string, cards: Array<Record<string, unknown>>) =>
  draftProblems(pkg, handWrittenDesign(pkg, { title, paradigm: '问答', rounds: 3, cards }), { board: emptyBoard(Object.keys(pkg.tags)), taken: ['猜数字'], by: 'user' });
const three = [{ prompt: '什么动物鼻子长？', answer: '大象' }, { prompt: '什么动物脖子长？', answer: '长颈鹿' }, { prompt: '什么动物会下蛋？', answer: '鸡' }];

describe('what a parent types is checked before it becomes a game', () => {
  it('a question, an answer or a title too long for the robot to say: a message with the limit and the length', () => {
    expect(check('猜动物', [{ ...three[0], prompt: '爸'.repeat(500) }, three[1], three[2]])).toEqual(['「卡片」第 1 张的「题目」太长了（最多 80 个字，现在 500 个字）']);
    expect(check('猜动物', [{ ...three[0], answer: '一头非常非常非常非常大的大象' }, three[1], three[2]])).toEqual(['「卡片」第 1 张的「答案」太长了（最多 12 个字，现在 14 个字）']);
    expect(check('我们一起来玩一个猜一猜动物的游戏吧', three)[0]).toMatch(/游戏名字」太长了（最多 16 个字/);
  });

  it('emoji and symbols that cannot be said are refused, wherever the child would hear them', () => {
    expect(unsayable('我们玩🐶小狗🐶吧')).toEqual(['🐶']);
    expect(unsayable('👨‍👩‍👧 ★ ♥ 🇨🇳')).toEqual(['👨‍👩‍👧', '★', '♥', '🇨🇳']);
    expect(unsayable('1+1=？三年级，小狗（汪汪）！ok')).toEqual([]);
    expect(check('我们玩🐶小狗🐶吧', three)).toEqual(['「名字和主题」的「游戏名字」里有机器人念不出来的符号（🐶），请换成文字']);
    expect(check('猜动物', [{ ...three[0], answer: '🐶' }, three[1], three[2]])).toEqual(['「卡片」第 1 张的「答案」里有机器人念不出来的符号（🐶），请换成文字']);
    expect(check('猜动物', [{ ...three[0], hints: ['它有长鼻子⭐'] }, three[1], three[2]])).toEqual(['「卡片」第 1 张的「提示」第 1 条里有机器人念不出来的符号（⭐），请换成文字']);
  });

  it('a name that is also one of its answers (the 「豆豆」 quiz) is refused with another name', () => {
    const family = [{ prompt: '谁最爱吃苹果？', answer: '豆豆' }, { prompt: '爸爸叫什么？', answer: '李雷' }, { prompt: '我们住在哪？', answer: '杭州' }];
    expect(check('豆豆', family)).toEqual(['游戏的名字「豆豆」也是一张卡片的答案：孩子回答「豆豆」时，会像是要开始这个游戏。换一个名字吧，比如「豆豆问答」。']);
    expect(check('猜猜', [{ ...three[0], aliases: ['猜猜'] }, three[1], three[2]])[0]).toContain('比如「猜猜问答」');
    expect(check('豆豆问答', family)).toEqual([]);
  });
});

describe('a card plays as the draft said: 「答错给提示」', () => {
  const code = quizExecutors();
  const deck = [{ id: 'c1', prompt: '什么动物鼻子长？', answer: '大象' }, { id: 'c2', prompt: '什么动物会下蛋？', answer: '鸡', hints: ['它早上会打鸣'] }];
  const board = (p: Record<string, unknown>, said: string) => ({ '设计.卡牌': deck, '运行.当前卡': { id: p.id }, '运行.进度': { 第几张: 1, 已用: [p.id], 本卡猜: p.tries ?? 0, 本卡提示: p.hints ?? 0 }, '运行.玩家输入': said });

  it('a card with no hint: a wrong answer is 「不对」 and another try, not the answer at once', () => {
    const j = code['judge-answer'](board({ id: 'c1' }, '鸡'));
    expect(j['运行.判定']).toEqual({ 结果: '错', 卡: 'c1' });
    const h = code['give-hint']({ ...board({ id: 'c1', tries: 1 }, '鸡'), '运行.判定': j['运行.判定'] });
    expect(h['运行.回复']).toMatch(/^不对哦。.*再想一想。再猜猜看！$/);
    expect(h['运行.回复']).not.toContain('大象');
    // The third wrong try ends the card: 「不对」, then the answer.
    const last = code['judge-answer'](board({ id: 'c1', tries: 2 }, '鸡'));
    expect(last['运行.判定']).toEqual({ 结果: '错', 答案: '大象', 卡: 'c1' });
  });

  it('a card with a hint gives it once, then more tries', () => {
    const j = code['judge-answer'](board({ id: 'c2' }, '大象'));
    expect(j['运行.判定']).toEqual({ 结果: '错', 卡: 'c2' });
    const h = code['give-hint']({ ...board({ id: 'c2', tries: 1 }, '大象'), '运行.判定': j['运行.判定'] });
    expect(h['运行.回复']).toContain('提示：它早上会打鸣。');
    const again = code['give-hint']({ ...board({ id: 'c2', tries: 2, hints: 1 }, '大象'), '运行.判定': j['运行.判定'] });
    expect(again['运行.回复']).toContain('再想一想');
  });
});
