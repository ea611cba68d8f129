import { describe, expect, it } from 'vitest';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import type { ChatModel, ScriptPolicy } from '../../../src/core/llm/types.ts';
import { StudioSession, type SessionDeps } from '../../../src/studio/studio-session.ts';
import { createCodeExecutors } from '../../../skills/quiz-cards/runtime.ts';
import { handWrittenDesign } from '../../../src/core/studio/hand-written.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();
/** Words a parent must never meet outside 技术细节. */
const DEVELOPER_TERMS = /helper|run_skill|设计\.|运行\.|黑板|总管|JSON|skill/i;

function session(overrides: Record<string, ScriptPolicy> = {}, extra: Partial<SessionDeps> = {}) {
  const { model, requests } = demoModel(overrides);
  return { s: StudioSession.create({ pkg, model, now: clock(), ...extra }, 'p1'), requests };
}

/** Takes every draft as it is until the design is done or something else is asked. */
async function acceptAll(s: StudioSession) {
  for (let i = 0; i < 10 && s.view.waiting?.kind === 'review_drafts'; i++) expect(await s.acceptDraft()).toEqual({ ok: true });
}

const value = (s: StudioSession, tag: string) => s.view.board.tags[tag]?.value as Record<string, unknown> & unknown[];

describe('the parent\'s words steer the design (demo brain)', () => {
  it('「猜谜语，玩 3 轮」: riddles, 3 rounds, a riddle deck — and it plays 3 rounds', async () => {
    const { s } = session();
    await s.input('猜谜语，玩 3 轮');
    expect(value(s, '设计.交互范式')).toMatchObject({ 范式: '猜谜语', 轮数: 3 });
    await acceptAll(s);
    expect(s.view.state.stage).toBe('play');
    const g = s.declaredGame!;
    expect(g.declaration.title).toBe('猜谜语');
    expect(g.cards.every((c) => c.prompt.startsWith('谜语来啦'))).toBe(true);

    const play = StudioSession.startPlay({ pkg, model: demoModel().model, now: clock(), codeExecutors: createCodeExecutors() }, 'p1', g.design);
    let r = await play.play('开始');
    let rounds = 1;
    while (r.replies.at(-1)?.session !== 'ended' && rounds < 10) {
      const id = (play.view.board.tags['运行.当前卡'].value as { id: string }).id;
      const before = (play.view.board.tags['运行.进度'].value as { 已用: string[] }).已用.length;
      r = await play.play(g.cards.find((c) => c.cardId === id)!.answer);
      if ((play.view.board.tags['运行.进度'].value as { 已用: string[] }).已用.length > before) rounds++;
    }
    expect(r.replies.at(-1)!.text).toContain('你答对了 3 张，一张不落');
    expect(rounds).toBe(3);
  });

  it('the shape, theme, age and rounds the parent names are honoured; no theme asked twice', async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
      ['我想讲故事，不要问答', { 范式: '故事接龙', 轮数: 4 }, { 标题: '森林故事接龙' }],
      ['给6岁的孩子玩我说你做', { 范式: '我说你做', 轮数: 5 }, { 标题: '我说你做', 年龄: '6岁' }],
      ['给5岁的孩子做一个恐龙问答，三道题', { 范式: '问答', 轮数: 3 }, { 主题: '恐龙', 标题: '恐龙问答', 年龄: '5岁' }],
    ];
    for (const [words, paradigm, theme] of cases) {
      const { s } = session();
      await s.input(words);
      expect(value(s, '设计.交互范式'), words).toMatchObject(paradigm);
      await s.acceptDraft();
      expect(value(s, '设计.主题'), words).toMatchObject(theme);
    }
  });

  it('我说你做 has a trick round for a 6-year-old, none for a 4-year-old', async () => {
    for (const [words, trick] of [['给6岁孩子玩我说你做', true], ['给4岁孩子玩我说你做', false]] as const) {
      const { s } = session();
      await s.input(words);
      await s.acceptDraft();
      await s.acceptDraft();
      expect(value(s, '设计.动作'), words).toMatchObject({ 陷阱: trick });
    }
  });

  it('「动物叫声」: no demo deck → 「你来写几张吧？」 → the parent\'s three cards are the deck and the design goes on', async () => {
    const { s } = session();
    await s.input('动物叫声');
    await s.acceptDraft(); // 玩法
    expect(value(s, '设计.主题')).toMatchObject({ 主题: '动物叫声', 标题: '动物叫声问答' });
    await s.acceptDraft(); // 名字和主题
    expect(s.view.waiting).toMatchObject({ kind: 'helper_question', skill: 'card-deck', question: '我还不会自己出「动物叫声」的题，你来写几张吧？' });
    const cards = [
      { prompt: '汪汪汪，是谁在叫？', answer: '小狗', aliases: ['狗'], hints: ['它会看家'], drawing: 'animal-dog' },
      { prompt: '喵喵喵，是谁在叫？', answer: '小猫', aliases: ['猫'] },
      { prompt: '哞哞哞，是谁在叫？', answer: '牛', aliases: ['奶牛'] },
    ];
    // Too few cards, or a card without an answer, is refused in words the parent understands.
    expect(await s.author({ '设计.卡牌': cards.slice(0, 2) })).toEqual({ ok: false, message: '「卡片」至少要 3 张（现在 2 张）' });
    expect(await s.author({ '设计.卡牌': [...cards.slice(0, 2), { prompt: '嘎嘎嘎' }] })).toEqual({ ok: false, message: '「卡片」第 3 张缺少「答案」' });
    expect(await s.author({ '设计.卡牌': cards })).toEqual({ ok: true });
    expect(s.view.board.tags['设计.卡牌']).toMatchObject({ status: 'accepted', provenance: { by: 'user' } });
    // The manager went on: the host is next.
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'persona' });
    await acceptAll(s);
    const g = s.declaredGame!;
    expect(g.cards.map((c) => c.answer)).toEqual(['小狗', '小猫', '牛']);
    expect(g.cards[0]).toMatchObject({ kind: 'picture', drawing: 'animal-dog' });
  });

  it('a rejection reason changes the redo — or the helper says why it cannot and asks', async () => {
    const { s, requests } = session();
    await s.input('给孩子做一个恐龙问答');
    // 改一改 in the parent's words: 「玩3轮就好」 redoes the shape with 3 rounds.
    expect(value(s, '设计.交互范式')).toMatchObject({ 轮数: 5 });
    await s.revise('玩3轮就好');
    expect(value(s, '设计.交互范式')).toMatchObject({ 范式: '问答', 轮数: 3 });
    await s.acceptDraft();
    await s.acceptDraft();
    const first = value(s, '设计.卡牌') as unknown as Array<{ answer: string; difficulty: number }>;
    expect(first.some((c) => c.difficulty === 3)).toBe(true);
    await s.revise('太难了');
    const easier = value(s, '设计.卡牌') as unknown as Array<{ answer: string; difficulty: number }>;
    expect(easier.every((c) => c.difficulty === 1)).toBe(true);
    expect(easier.map((c) => c.answer)).not.toContain('甲龙');
    // The redo's helper saw the reason in its context.
    expect(requests.filter((r) => r.agent === 'studio:helper:card-deck').at(-1)!.messages[1].content).toContain('理由：太难了');
    await s.revise('换一批');
    expect((value(s, '设计.卡牌') as unknown as Array<{ answer: string }>)[0].answer).not.toBe(easier[0].answer);
    // A reason it cannot follow: it says so and asks, it does not hand back the same deck.
    await s.revise('要有魔法的感觉');
    expect(s.view.waiting).toMatchObject({ kind: 'helper_question', skill: 'card-deck', question: expect.stringContaining('我不知道怎么按「要有魔法的感觉」改卡片') });
    // And 「换成动物叫声的题目」: a theme it has no cards for → the parent is asked to write them.
    await s.input('换成动物叫声的题目');
    expect(s.view.waiting).toMatchObject({ kind: 'helper_question', question: '我还不会自己出「动物叫声」的题，你来写几张吧？' });
  });

  it('「不要问答，讲故事」 as a reason turns the shape into 故事接龙', async () => {
    const { s } = session();
    await s.input('做一个游戏');
    expect(value(s, '设计.交互范式')).toMatchObject({ 范式: '问答' });
    await s.revise('不要问答，讲故事');
    expect(value(s, '设计.交互范式')).toMatchObject({ 范式: '故事接龙' });
    expect(value(s, '设计.run_skill清单')).toEqual(['story-open', 'story-continue', 'story-say', 'story-end', 'story-finish']);
  });

  it('spoken 「好的」 takes a draft; other words during a review change it', async () => {
    const { s } = session();
    await s.input('猜谜语');
    expect(await s.acceptDraft()).toEqual({ ok: true });
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'theme' });
  });
});

describe('the runtime holds every brain to the parent\'s words', () => {
  it('a draft that ignores the stated rounds is refused; the helper retries with the refusal in view', async () => {
    let tries = 0;
    const stubborn: ScriptPolicy = (req) => {
      tries++;
      const refused = readToolResult(req.messages.at(-1)!);
      const rounds = refused ? 3 : 5;
      return { action: 'submit', args: { values: { '设计.交互范式': { 范式: '问答', 说明: '出题', 轮数: rounds }, '设计.run_skill清单': ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up'] } } };
    };
    const { s, requests } = session({ 'studio:helper:interaction-paradigm': stubborn });
    await s.input('恐龙问答，玩三轮');
    expect(tries).toBe(2);
    const retry = requests.filter((r) => r.agent === 'studio:helper:interaction-paradigm')[1];
    expect(readToolResult(retry.messages.at(-1)!)).toEqual({ name: 'submit', result: { error: '家长说了玩 3 轮，「玩几轮」应该是 3' } });
    expect(value(s, '设计.交互范式')).toMatchObject({ 轮数: 3 });
  });

  it('the run skills must be the chosen shape\'s; a redo identical to the rejected draft is refused', async () => {
    const wrongList: ScriptPolicy = () => ({ action: 'submit', args: { values: { '设计.交互范式': { 范式: '故事接龙', 说明: '讲故事', 轮数: 4 }, '设计.run_skill清单': ['present-card'] } } });
    const { s } = session({ 'studio:helper:interaction-paradigm': wrongList });
    await s.input('讲故事');
    expect(s.view.waiting).toMatchObject({ kind: 'helper_failed', message: expect.stringContaining('玩法「故事接龙」的 run skill 清单应该是') });
    // The parent reads only that it did not work out; the why the helper was told is for 技术细节.
    expect(s.view.transcript.at(-1)!.text).toBe('「玩法」这一步没做成：连续 4 次都没有想出合格的结果。点「接着想」再试一次。');

    const same: ScriptPolicy = () => ({ action: 'submit', args: { values: { '设计.交互范式': { 范式: '问答', 说明: '出题', 轮数: 5 }, '设计.run_skill清单': ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up'] } } });
    const t = session({ 'studio:helper:interaction-paradigm': same });
    await t.s.input('做个问答');
    await t.s.revise('换一个');
    expect(t.s.view.waiting).toMatchObject({ kind: 'helper_failed', message: expect.stringContaining('和家长驳回的那一版一模一样') });
  });
});

describe('names in the arcade', () => {
  it('a taken name is refused with a free one suggested; the demo brain takes 「恐龙问答 2」, the parent may not accept a taken one', async () => {
    const taken = ['恐龙问答', '恐龙游戏', '猜数字'];
    const { s, requests } = session({}, { takenNames: () => taken });
    await s.input('做一个恐龙问答');
    await s.acceptDraft();
    expect(value(s, '设计.主题')).toMatchObject({ 标题: '恐龙问答 2' });
    const tries = requests.filter((r) => r.agent === 'studio:helper:theme');
    expect(readToolResult(tries[1].messages.at(-1)!)?.result).toEqual({ error: '游戏厅里已经有叫「恐龙问答」的游戏了，换一个名字吧，比如「恐龙问答 2」。' });
    // The parent's own edit to a taken name is refused the same way.
    expect(await s.edit('设计.主题', { ...value(s, '设计.主题'), 标题: '猜数字' })).toEqual({ ok: false, message: '游戏厅里已经有叫「猜数字」的游戏了，换一个名字吧，比如「猜数字 2」。' });
    await acceptAll(s);
    // Aliases another game already answers to are dropped: saying 「恐龙游戏」 starts only one game.
    expect(s.declaredGame!.declaration).toMatchObject({ title: '恐龙问答 2' });
    expect(s.declaredGame!.declaration.aliases).not.toContain('恐龙游戏');
  });
});

describe('cards written by hand, with no model at all', () => {
  const noModel: ChatModel = { label: '未选择模型', step: () => Promise.reject(new Error('没有选择模型')) };

  it('three cards, a name and the shape are a whole design: declared without one model step', async () => {
    const s = StudioSession.create({ pkg, model: noModel, now: clock(), takenNames: () => ['猜数字'] }, 'h1');
    const values = handWrittenDesign(pkg, {
      title: '动物叫声',
      paradigm: '问答',
      rounds: 3,
      cards: [
        { prompt: '汪汪汪，是谁在叫？', answer: '小狗', drawing: 'animal-dog' },
        { prompt: '喵喵喵，是谁在叫？', answer: '小猫' },
        { prompt: '嘎嘎嘎，是谁在叫？', answer: '鸭子' },
      ],
    });
    expect(await s.author(values)).toEqual({ ok: true });
    expect(s.view.state.ready).toBe(true);
    expect(await s.declareByHand()).toEqual({ ok: true });
    expect(s.declaredGame!.declaration).toMatchObject({ title: '动物叫声', engine: 'studio' });
    expect(s.declaredGame!.cards).toHaveLength(3);
    expect(s.view.transcript.map((t) => t.text).join('\n')).toContain('「动物叫声」已经放进游戏厅');
  });

  it('an unfinished hand-written design cannot go to the arcade, and a taken name is refused', async () => {
    const s = StudioSession.create({ pkg, model: noModel, now: clock(), takenNames: () => ['猜数字'] }, 'h2');
    expect(await s.declareByHand()).toEqual({ ok: false, message: '还有内容没写好，写完才能放进游戏厅' });
    const values = handWrittenDesign(pkg, { title: '猜数字', paradigm: '猜谜语', rounds: 3, cards: [{ prompt: 'a？', answer: 'b' }, { prompt: 'c？', answer: 'd' }, { prompt: 'e？', answer: 'f' }] });
    expect(await s.author(values)).toEqual({ ok: false, message: '游戏厅里已经有叫「猜数字」的游戏了，换一个名字吧，比如「猜数字 2」。' });
  });
});

describe('plain words for the parent', () => {
  it('a whole design — questions, drafts, a redo, a written deck — says nothing a parent would not understand', async () => {
    const { s } = session();
    await s.input('动物叫声');
    await s.revise('玩3轮就好');
    await s.acceptDraft();
    await s.acceptDraft();
    await s.author({ '设计.卡牌': [{ prompt: '汪汪汪？', answer: '狗' }, { prompt: '喵喵喵？', answer: '猫' }, { prompt: '嘎嘎嘎？', answer: '鸭子' }] });
    await acceptAll(s);
    expect(s.view.state.stage).toBe('play');
    for (const t of s.view.transcript) expect(t.text, t.text).not.toMatch(DEVELOPER_TERMS);
  });
});
