/**
 * The shapes of play beyond a quiz, through the same Studio engine and GameSessions as 恐龙问答:
 * 故事接龙 and 我说你做 with the demo brain, to the end; picture cards drawn on the robot; a
 * hand-written deck played by the demo brain; 「不玩了」 honest in every shape.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Book } from '../../../src/studio/book.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { loadPlayableGame } from '../../../src/studio/play-stage.ts';
import { handWrittenDesign } from '../../../src/core/studio/hand-written.ts';
import { clock, designedGame, demoModel, harness, send } from './helpers.ts';
import { quizPackage } from '../studio/helpers.ts';

async function play(words: string, moves: string[]) {
  const { game } = await designedGame(words);
  const { model, requests } = demoModel();
  const h = harness(game, model);
  const replies: string[] = [];
  let last = await send(h.handler, 'start', moves[0]);
  replies.push([...last.said, last.reply.text].join(''));
  for (const m of moves.slice(1)) {
    if (last.reply.session === 'ended') break;
    last = await send(h.handler, 'message', m);
    replies.push(last.reply.text);
  }
  return { game, h, replies, last, requests };
}

describe('故事接龙', () => {
  it('the robot and the child take turns; it stays gentle, ends after the rounds with a retelling; two model steps a turn', async () => {
    const { game, h, replies, last, requests } = await play('我想讲故事，不要问答', ['我们讲故事吧', '小兔子遇到了一只小猫', '它们一起去摘苹果', '突然来了一个大怪兽', '大家一起跳舞']);
    expect(game.declaration.title).toBe('森林故事接龙');
    expect(replies[0]).toMatch(/^好呀，我们来玩森林故事接龙！你好，我是故事姐姐！.*从前，森林里住着一只爱唱歌的小兔子。你来接下一句吧！$/);
    expect(replies[1]).toMatch(/该你接着讲啦！$/);
    expect(replies[3]).toContain('别怕'); // a scary turn is brought back gently
    expect(replies[3]).toMatch(/最后一句啦，你来接！$/);
    expect(last.reply.session).toBe('ended');
    expect(replies[4]).toMatch(/^天黑了，大家开开心心地回家睡觉了。我们的故事讲完啦！故事是这样的：从前，森林里住着一只爱唱歌的小兔子，后来小兔子遇到了一只小猫.*大家一起跳舞/);
    expect(replies[4]).not.toContain('怪兽');
    // The robot nods at every sentence added and shows how far the story is.
    expect(h.device.calls.filter((c) => c.op === 'showProgress').map((c) => (c as { progress: { current: number } }).progress.current)).toEqual([0, 1, 2, 3]);
    expect(h.device.reacts()).toEqual(['happy+nod', 'happy+nod', 'happy+nod']);
    // Per child turn: the manager once, the story helper once (a model writes only its sentence).
    const agents = requests.map((r) => r.agent);
    expect(agents.filter((a) => a === 'studio:helper:story-continue')).toHaveLength(3);
    expect(agents.filter((a) => a === 'studio:helper:story-end')).toHaveLength(1);
    expect(agents.filter((a) => a === 'studio:manager')).toHaveLength(5);
    const [pb] = h.books();
    expect(pb).toMatchObject({ shape: '故事接龙', cardsPlayed: 0 });
    expect(pb.turns).toHaveLength(5);
    expect(pb.endedAt).toBeDefined();
  });

  it('「不玩了」 in the middle ends the story with what was told; leaving without words gets a short goodbye, no retelling', async () => {
    const { game } = await designedGame('讲故事');
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始');
    await send(h.handler, 'message', '小兔子去游泳');
    const bye = await send(h.handler, 'end', '不玩了');
    expect(bye.reply).toMatchObject({ session: 'ended', text: expect.stringContaining('我们的故事讲完啦') });
    const quiet = harness(game, demoModel().model);
    await send(quiet.handler, 'start', '开始');
    expect((await send(quiet.handler, 'end', '')).reply).toMatchObject({ session: 'ended', text: '故事先讲到这里，今天的森林故事接龙就到这里，下次再来玩！' });
  });
});

describe('我说你做', () => {
  it('actions shown with the face and head, a trick round for a 6-year-old, praise and an honest count', async () => {
    const { h, replies, last, requests } = await play('给6岁的孩子玩我说你做', ['开始', '做好了', '做好了', '做好了', '我没做', '做好了']);
    expect(replies[0]).toContain('我说：摸摸鼻子！做完了告诉我「做好了」。');
    expect(replies[1]).toBe('太棒了！我说：点点头！');
    expect(replies[3]).toBe('太棒了！摇摇头！'); // round 4 of 5: the trick, no 「我说」
    expect(replies[4]).toBe('哈哈，没上当！我刚才没说「我说」。我说：笑一笑！');
    expect(last.reply).toMatchObject({ session: 'ended', text: '太棒了！5 个动作全都做对了，真了不起！今天的我说你做就到这里，下次再来玩！' });
    // 点点头 is shown with a nod, 摇摇头 with a shake, each action on the screen.
    const shown = h.device.calls.filter((c) => c.op === 'showText').map((c) => (c as { card: { text: string } }).card.text);
    expect(shown).toEqual(['我说：摸摸鼻子！', '我说：点点头！', '我说：拍拍手！', '摇摇头！', '我说：笑一笑！']);
    expect(h.device.reacts()).toContain('surprised+shake');
    expect(h.device.calls.at(-2)).toEqual({ op: 'showProgress', progress: { current: 5, total: 5, label: '做对 5 个' } });
    // All code: the manager's two decisions per turn, no other prompt.
    expect([...new Set(requests.map((r) => r.agent))]).toEqual(['studio:manager']);
  });

  it('doing the trick round is wrong; 「不玩了」 tells honestly how many were right', async () => {
    const { replies } = await play('给6岁的孩子玩我说你做', ['开始', '做好了', '做好了', '做好了', '做好了']);
    expect(replies[4]).toBe('嘿嘿，我刚才没说「我说」哦！我说：笑一笑！');
    const { game } = await designedGame('我说你做');
    const h = harness(game, demoModel().model);
    await send(h.handler, 'start', '开始');
    await send(h.handler, 'message', '做好了');
    expect((await send(h.handler, 'end', '不玩了')).reply).toMatchObject({ session: 'ended', text: '今天做对了 1 个，下次接着玩！' });
  });
});

describe('cards written by hand', () => {
  it('a picture card is drawn on the robot (the drawing only, never its name); the demo brain plays the parent\'s deck', async () => {
    const book = await Book.open('shapes-hand');
    const pkg = quizPackage();
    await book.createProject(pkg, 'h1', 1);
    const s = StudioSession.create({ pkg, model: demoModel().model, store: book, now: clock() }, 'h1');
    const cards = [
      { prompt: '汪汪汪，是谁在叫？', answer: '小狗', aliases: ['狗'], drawing: 'animal-dog' },
      { prompt: '喵喵喵，是谁在叫？', answer: '小猫' },
      { prompt: '哞哞哞，是谁在叫？', answer: '牛' },
    ];
    await s.author(handWrittenDesign(pkg, { title: '动物叫声', paradigm: '问答', rounds: 5, cards }));
    await s.declareByHand();
    const game = (await loadPlayableGame(book, 'h1'))!;
    const h = harness(game, demoModel().model);
    const first = await send(h.handler, 'start', '我们玩动物叫声吧');
    expect(first.reply.text).toContain('第1题：汪汪汪，是谁在叫？');
    const drawn = h.device.calls.find((c) => c.op === 'showDrawing') as { drawing: { id: string; label?: string; strokes: unknown[] } } | undefined;
    expect(drawn?.drawing).toMatchObject({ id: 'animal-dog' });
    expect(drawn!.drawing.strokes.length).toBeGreaterThan(0);
    expect(drawn!.drawing.label).toBeUndefined();
    expect((await send(h.handler, 'message', '狗')).reply.text).toMatch(/^答对了！第2题：喵喵喵/);
    expect(h.device.calls.at(-1)).toEqual({ op: 'showText', card: { text: '第2题：喵喵喵，是谁在叫？' } });
    await send(h.handler, 'message', '小猫');
    // Three cards are a game of three, whatever rounds were asked for.
    expect((await send(h.handler, 'message', '是牛')).reply).toMatchObject({ session: 'ended', text: expect.stringContaining('你答对了 3 张，一张不落') });
    book.close();
  });
});
