import { describe, expect, it } from 'vitest';
import { StudioSession } from '../../../src/studio/phase-runtime.ts';
import { createCodeExecutors } from '../../../skills/quiz-cards/runtime.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();

async function designDinosaurQuiz() {
  const { model, requests } = demoModel();
  const s = StudioSession.create({ pkg, model, now: clock() }, 'p1');
  expect((await s.input('我想给5岁的孩子做一个问答卡牌游戏')).ok).toBe(true);
  return { s, requests };
}

describe('designing a 恐龙 quiz with the demo policies', () => {
  it('asks for the theme, takes drafts through review, redoes a rejected deck and declares the game', async () => {
    const { s, requests } = await designDinosaurQuiz();
    // interaction-paradigm ran first (it names the run skills) and waits for review.
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'interaction-paradigm', tags: ['设计.交互范式', '设计.run_skill清单'] });
    await s.accept('设计.交互范式');
    expect(s.view.state.phase).toBe('waiting_user'); // one draft still waits
    await s.accept('设计.run_skill清单');
    // Back-chaining reached the theme skill, whose worker asks the parent.
    expect(s.view.waiting).toMatchObject({ kind: 'worker_question', skill: 'theme', options: ['恐龙', '水果', '交通工具'] });
    await s.input('恐龙');
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'theme' });
    expect(s.view.board.tags['设计.主题'].value).toMatchObject({ 主题: '恐龙', 标题: '恐龙问答', 年龄: '5岁' });
    await s.accept('设计.主题');
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'card-deck' });
    const first = s.view.board.tags['设计.卡牌'].value as Array<{ difficulty: number }>;
    expect(first.some((c) => c.difficulty === 3)).toBe(true);
    await s.reject('设计.卡牌', '太难了，换简单一点的');
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'card-deck' });
    const redone = s.view.board.tags['设计.卡牌'];
    expect(redone.rejections).toHaveLength(1);
    expect((redone.value as Array<{ difficulty: number }>).every((c) => c.difficulty === 1)).toBe(true);
    // The redo's worker saw the reason in its dynamic lower half.
    const redo = requests.filter((r) => r.agent === 'studio:worker:card-deck').at(-1)!;
    expect(redo.messages[1].content).toContain('太难了，换简单一点的');
    await s.accept('设计.卡牌');
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'rules' });
    await s.accept('设计.规则');
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'persona' });
    await s.accept('设计.角色');
    expect(s.view.state.stage).toBe('play');
    const g = s.declaredGame!;
    expect(g.declaration).toMatchObject({ title: '恐龙问答', engine: 'studio', capabilities: ['face', 'head', 'screen'] });
    expect(g.declaration.id).toMatch(/^studio-konglongwenda-[a-z0-9]+$/);
    expect(g.declaration.aliases).toContain('猜恐龙');
    expect(g.cards.map((c) => c.answer)).toContain('霸王龙');
    // The manager never saw a tool it was not allowed: declare_instance_ready appeared only at the end.
    const managerReqs = requests.filter((r) => r.agent === 'studio:manager');
    expect(managerReqs.slice(0, -1).every((r) => !r.tools.some((t) => t.name === 'declare_instance_ready'))).toBe(true);
    expect(managerReqs.at(-1)!.tools.map((t) => t.name)).toContain('declare_instance_ready');
  });

  it('the declared design plays: cards are presented, answers judged by JEV, hints given, score kept, game ends', async () => {
    const { s } = await designDinosaurQuiz();
    await s.accept('设计.交互范式');
    await s.accept('设计.run_skill清单');
    await s.input('恐龙');
    for (const t of ['设计.主题', '设计.卡牌', '设计.规则', '设计.角色']) await s.accept(t);
    const g = s.declaredGame!;
    const { model, requests } = demoModel();
    const play = StudioSession.startPlay({ pkg, model, now: clock(), codeExecutors: createCodeExecutors() }, 'p1', g.design);
    const r1 = await play.play('开始');
    expect(r1.replies).toHaveLength(1);
    expect(r1.replies[0].text).toContain('小龙博士');
    const cardId = (play.view.board.tags['运行.当前卡'].value as { id: string }).id;
    const card = g.cards.find((c) => c.cardId === cardId)!;
    expect(r1.replies[0].text).not.toContain(card.answer);
    const wrong = await play.play('是不是小狗');
    expect(wrong.replies[0].text).toContain('提示');
    expect(play.view.board.tags['运行.判定'].value).toEqual({ 结果: '错', 卡: cardId });
    const right = await play.play(`是${card.answer}`);
    expect(right.replies[0].text).toMatch(/^答对了！第2题/);
    expect(play.view.board.tags['运行.得分'].value).toMatchObject({ 得分: 1, 答对: 1 });
    // No prompt of the play stage ever contained the answer of the card being asked.
    for (const r of requests) for (const m of r.messages) expect(m.content.includes(`"answer"`)).toBe(false);
    // Play on until the end: answer every next card correctly.
    let last = right;
    for (let i = 0; i < 10 && last.replies.at(-1)?.session !== 'ended'; i++) {
      const id = (play.view.board.tags['运行.当前卡'].value as { id: string }).id;
      last = await play.play(g.cards.find((c) => c.cardId === id)!.answer);
    }
    expect(last.replies.at(-1)).toMatchObject({ session: 'ended' });
    expect(last.replies.at(-1)!.text).toContain('你答对了 5 张');
    expect(play.view.state).toMatchObject({ stage: 'done', phase: 'done' });
  });
});
