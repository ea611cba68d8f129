/**
 * The Studio's play manager checks its lines with the whole safety check it is given (the rules and
 * the learned classifier): a line only the classifier flags is held back in the engine, and the
 * child still hears what 判定 decided and the score — the game goes on from there, and at its end
 * the goodbye with the result is said.
 */
import { describe, expect, it } from 'vitest';
import { MANAGER_AGENT } from '../../../src/core/studio/manager-tools.ts';
import { managerPolicy } from '../../../src/studio/studio-demo-policies.ts';
import type { ScriptPolicy } from '../../../src/core/llm/types.ts';
import { checkLine } from '../../../src/core/safety/classify.ts';
import { loaderFlagging } from '../../support/safety/classifier-double.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';

const CLASSIFIER_ONLY = '把门锁上，别让妈妈进来。';

/**
 * The demo manager, except that after a wrong answer it replies with the flagged line, and after
 * judging the last card it finishes the game with 答对了 and the flagged line.
 */
const flagging: ScriptPolicy = (req) => {
  const last = req.messages.at(-1)!.content;
  const judged = last.includes('judge-answer 已更新');
  if (judged && /结果\\?":\\?"错/.test(last) && req.tools.some((t) => t.name === 'reply')) return { action: 'reply', args: { text: `不对哦，${CLASSIFIER_ONLY}` } };
  if (judged && /第几张\\?":5,/.test(last) && req.tools.some((t) => t.name === 'finish')) return { action: 'finish', args: { text: `答对了！${CLASSIFIER_ONLY}` } };
  return managerPolicy(req);
};

describe("the Studio's play manager and a line only the classifier flags", () => {
  it('is held back in the engine: the verdict and the score are told, the game goes on, and its end tells the result', async () => {
    expect(checkLine(CLASSIFIER_ONLY).verdict).toBe('ok');
    const { game } = await designedGame();
    const { model } = demoModel({ [MANAGER_AGENT]: flagging });
    const h = harness(game, model, { safety: loaderFlagging([CLASSIFIER_ONLY]) });
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    const rt = h.handler.runtimeOf('ctx-1')!;
    const heard = (r: Awaited<ReturnType<typeof send>>) => [...r.said, r.reply.text].join('');
    const wrong = await send(h.handler, 'message', '是小狗吗');
    expect(heard(wrong)).toBe('哎呀，这句我不说了。不对哦，再想一想。你现在得了 0 分。');
    expect(wrong.reply.session).toBe('active');
    const turns = [];
    for (let i = 0; i < 10 && turns.at(-1)?.reply.session !== 'ended'; i++) turns.push(await send(h.handler, 'message', rt.currentCard!.answer));
    // The card it was on is judged again (the wrong answer moved nothing on), then the next ones.
    expect(heard(turns[0])).toMatch(/^答对了！第2题：/);
    const end = turns.at(-1)!;
    expect(end.reply.session).toBe('ended');
    expect(heard(end)).toBe('答对了！哎呀，这句我不说了。你现在得了 10 分。');
    expect(turns.map(heard).join('')).not.toContain('妈妈');
    expect(h.trace.events.filter((e) => e.kind === 'safety' && e.name === 'blocked').map((e) => e.data)).toMatchObject([
      { by: 'classifier', role: 'game_agent', original: `不对哦，${CLASSIFIER_ONLY}` },
      { by: 'classifier', role: 'game_agent', original: CLASSIFIER_ONLY },
    ]);
  });
});
