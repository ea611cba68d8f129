import { describe, expect, it } from 'vitest';
import { quizExecutors } from '../../../skills/quiz-cards/quiz.ts';

/** A manager that replies after 判定 without presenting the next card must not be able to score it again. */
describe('问答: a card is judged and scored once', () => {
  const code = quizExecutors();
  const deck = [{ id: 'c1', prompt: '什么动物鼻子长？', answer: '大象' }, { id: 'c2', prompt: '什么动物会下蛋？', answer: '鸡' }];
  type Board = Record<string, unknown>;
  const start: Board = { '设计.卡牌': deck, '设计.交互范式': { 轮数: 2 }, '运行.当前卡': { id: 'c1' }, '运行.进度': { 第几张: 1, 已用: ['c1'], 本卡猜: 0, 本卡提示: 0 }, '运行.得分': { 得分: 0, 答对: 0, 已出: 1, 轮数: 2, 结束: false } };
  /** One child answer: judge-answer, then keep-score (the manifest's `then`), written onto the board. */
  const answer = (board: Board, said: string): Board => {
    const judged = { ...board, '运行.玩家输入': said, ...code['judge-answer']({ ...board, '运行.玩家输入': said }) };
    return { ...judged, ...code['keep-score'](judged) };
  };

  it('saying the right answer again while the card is still on the table adds no points and counts no try', () => {
    const once = answer(start, '大象');
    expect(once['运行.得分']).toMatchObject({ 得分: 2, 答对: 1 });
    const twice = answer(answer(once, '大象'), '是大象');
    expect(twice['运行.得分']).toMatchObject({ 得分: 2, 答对: 1 });
    expect(twice['运行.进度']).toEqual(once['运行.进度']);
    expect(twice['运行.判定']).toEqual({ 结果: '对', 卡: 'c1' });
  });

  it('a revealed card stays revealed: a late right answer scores nothing', () => {
    let b = start;
    for (const said of ['鸡', '鸡', '鸡']) b = answer(b, said);
    expect(b['运行.判定']).toEqual({ 结果: '错', 答案: '大象', 卡: 'c1' });
    b = answer(b, '大象');
    expect(b['运行.得分']).toMatchObject({ 得分: 0, 答对: 0 });
  });

  it('the next card is judged and scored as usual', () => {
    const once = answer(start, '大象');
    const next: Board = { ...once, ...code['present-card'](once) };
    expect(next['运行.回复']).toBe('答对了！第2题：什么动物会下蛋？');
    const right = answer(next, '鸡');
    expect(right['运行.得分']).toMatchObject({ 得分: 4, 答对: 2, 结束: true });
  });
});
