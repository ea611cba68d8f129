import { describe, expect, it } from 'vitest';
import { routeParentWords, rowsFormTag, type StudioRoute, type StudioWordsContext } from '../../../src/core/studio/parent-router.ts';
import type { WaitingReason } from '../../../src/core/studio/phase-machine.ts';
import { quizPackage } from './helpers.ts';

const review: WaitingReason = { kind: 'review_drafts', skill: 'theme', helperId: 'w1', tags: ['设计.主题'] };
const askRows: WaitingReason = { kind: 'helper_question', skill: 'card-deck', helperId: 'w2', question: '你来写几张吧？' };
const askTheme: WaitingReason = { kind: 'helper_question', skill: 'theme', helperId: 'w3', question: '想要什么主题？' };
const agentAsks: WaitingReason = { kind: 'agent_question', question: '孩子几岁？', options: ['4岁', '6岁'] };

const at = (place: StudioWordsContext['place'], waiting: WaitingReason | null = null, writingRows = false): StudioWordsContext => ({ place, waiting, open: place === 'talk', writingRows });
const card = (prompt: string, answer: string, aliases: string[] = [], hints: string[] = []) => ({ prompt, answer, aliases, hints });

describe('routeParentWords: what a parent’s words mean where they are said', () => {
  const table: Array<[string, string, StudioWordsContext, StudioRoute]> = [
    // Nothing to say them to, or nothing said.
    ['blank words', '   ', at('talk', review), { kind: 'nothing' }],
    ['words on the list of games', '给5岁的孩子做个恐龙问答', at('home'), { kind: 'nothing' }],
    // The hand-written form: a card said in one breath is a row; anything else is not heard as one.
    ['a card on the hand form', '汪汪汪是谁在叫，答案是小狗', at('hand'), { kind: 'add_card', to: 'hand', card: card('汪汪汪是谁在叫', '小狗') }],
    ['a card with a hint and another name', '题目是喵喵喵是谁在叫，答案是小猫，提示是它爱吃鱼，也可以说猫咪', at('hand'), { kind: 'add_card', to: 'hand', card: card('喵喵喵是谁在叫', '小猫', ['猫咪'], ['它爱吃鱼']) }],
    ['a question mark parts question and answer', '什么动物会下蛋？母鸡', at('hand'), { kind: 'add_card', to: 'hand', card: card('什么动物会下蛋？', '母鸡') }],
    ['not a card on the hand form', '好的', at('hand'), { kind: 'card_unheard' }],
    ['a design request on the hand form is still not a card', '给5岁的孩子做个恐龙问答', at('hand'), { kind: 'card_unheard' }],
    // Drafts under review: 「好的」 takes them, anything else is how to change them.
    ['「好的」 under review', '好的', at('talk', review), { kind: 'accept' }],
    ['「可以。」 under review', '可以。', at('talk', review), { kind: 'accept' }],
    ['「就这样吧」 under review', '就这样吧', at('talk', review), { kind: 'accept' }],
    ['a change under review', '玩3轮就好', at('talk', review), { kind: 'revise', text: '玩3轮就好' }],
    ['「好的」 while the safety check flags a drafted card', '好的', { ...at('talk', review), draftsFlagged: true }, { kind: 'accept_flagged' }],
    ['a change while a drafted card is flagged', '换一张', { ...at('talk', review), draftsFlagged: true }, { kind: 'revise', text: '换一张' }],
    ['「好的，但是换成水果」 is a change', '好的，但是换成水果', at('talk', review), { kind: 'revise', text: '好的，但是换成水果' }],
    // A step asks for rows: a spoken card is one; other words answer the question.
    ['a card while rows are asked for', '汪汪汪是谁在叫，答案是小狗', at('talk', askRows, true), { kind: 'add_card', to: 'rows', card: card('汪汪汪是谁在叫', '小狗') }],
    ['an answer while rows are asked for', '你帮我写吧', at('talk', askRows, true), { kind: 'input', text: '你帮我写吧' }],
    // Otherwise: the parent's input, trimmed.
    ['the first request', '  给5岁的孩子做个恐龙问答 ', at('talk'), { kind: 'input', text: '给5岁的孩子做个恐龙问答' }],
    ['「好的」 with no draft to take', '好的', at('talk', agentAsks), { kind: 'input', text: '好的' }],
    ['a card-like answer to a question that asks for no rows', '汪汪汪是谁在叫，答案是小狗', at('talk', askTheme), { kind: 'input', text: '汪汪汪是谁在叫，答案是小狗' }],
  ];
  it.each(table)('%s', (_what, words, ctx, route) => {
    expect(routeParentWords(words, ctx)).toEqual(route);
  });

  it('words to a design that is not open go nowhere', () => {
    expect(routeParentWords('玩3轮', { place: 'talk', waiting: null, open: false, writingRows: false })).toEqual({ kind: 'nothing' });
  });
});

describe('rowsFormTag: which rows a step asks the parent to write', () => {
  const pkg = quizPackage();
  it('the card step asks for cards', () => expect(rowsFormTag(pkg, askRows)).toBe('设计.卡牌'));
  it('the theme step writes no rows', () => expect(rowsFormTag(pkg, askTheme)).toBeNull());
  it('a review or no wait asks for none', () => {
    expect(rowsFormTag(pkg, review)).toBeNull();
    expect(rowsFormTag(pkg, null)).toBeNull();
  });
});
