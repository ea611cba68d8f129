/**
 * The Studio's play manager under the truth check: a reply that claims what 判定 did not decide is
 * refused back to the manager, and after the retries the rules' own line is said instead.
 */
import { describe, expect, it } from 'vitest';
import { MANAGER_AGENT } from '../../../src/core/studio/manager-tools.ts';
import { managerPolicy } from '../../../src/studio/studio-demo-policies.ts';
import type { ScriptPolicy } from '../../../src/core/llm/types.ts';
import { designedGame, demoModel, harness, send } from './helpers.ts';

const LIE = '答对了！你真棒。';

describe("the Studio's play manager and the truth", () => {
  it('a wrong answer called right is refused twice, then the child hears what 判定 decided', async () => {
    const { game } = await designedGame();
    const lies: string[] = [];
    // After a judged answer (and after each refusal) this manager says the child was right.
    const liar: ScriptPolicy = (req) => {
      const last = req.messages.at(-1)!.content;
      if (req.tools.some((t) => t.name === 'reply') && (last.includes('judge-answer 已更新') || last.includes('这句话没有说出去'))) {
        lies.push(last);
        return { action: 'reply', args: { text: LIE } };
      }
      return managerPolicy(req);
    };
    const { model } = demoModel({ [MANAGER_AGENT]: liar });
    const h = harness(game, model);
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    const r = await send(h.handler, 'message', '是小狗吗');
    expect(lies).toHaveLength(3);
    expect(lies[1]).toContain('这句话没有说出去');
    expect(r.reply.text).not.toContain('答对');
    expect(r.reply.text).toBe('不对哦，再想一想。你现在得了 0 分。');
  });

  it('words that end the game claim no 「接着玩」: refused back, then the rules\' own line, and the game ends', async () => {
    const { game } = await designedGame();
    const tries: string[] = [];
    // After judging the last card this manager finishes the game saying it goes on.
    const goesOn: ScriptPolicy = (req) => {
      const last = req.messages.at(-1)!.content;
      if (req.tools.some((t) => t.name === 'finish') && ((last.includes('judge-answer 已更新') && /第几张\\?":5,/.test(last)) || (tries.length && last.includes('这句话没有说出去')))) {
        tries.push(last);
        return { action: 'finish', args: { text: '答对了！我们接着玩吧！' } };
      }
      return managerPolicy(req);
    };
    const { model } = demoModel({ [MANAGER_AGENT]: goesOn });
    const h = harness(game, model);
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    const rt = h.handler.runtimeOf('ctx-1')!;
    let last = await send(h.handler, 'message', rt.currentCard!.answer);
    for (let i = 0; i < 10 && last.reply.session !== 'ended'; i++) last = await send(h.handler, 'message', rt.currentCard!.answer);
    expect(tries.length).toBeGreaterThan(1);
    expect(last.reply.session).toBe('ended');
    const heard = [...last.said, last.reply.text].join('');
    expect(heard).not.toContain('接着玩');
    expect(heard).toBe('答对了！你现在得了 10 分。');
  });

  it('words that end the game with nothing judged this turn: no 「接着玩」 either, the goodbye', async () => {
    const { game } = await designedGame();
    // When the child says 不玩了, this manager ends the game saying it goes on (and again after each refusal).
    let finishes = 0;
    const goesOn: ScriptPolicy = (req) => {
      const last = req.messages.at(-1)!.content;
      if (req.tools.some((t) => t.name === 'finish') && (last.includes('[孩子] 不玩了') || (finishes && last.includes('这句话没有说出去')))) {
        finishes++;
        return { action: 'finish', args: { text: '我们接着玩吧！' } };
      }
      return managerPolicy(req);
    };
    const { model } = demoModel({ [MANAGER_AGENT]: goesOn });
    const h = harness(game, model);
    await send(h.handler, 'start', '我们玩恐龙问答吧');
    const r = await send(h.handler, 'end', '不玩了');
    expect(finishes).toBeGreaterThan(1);
    expect(r.reply.session).toBe('ended');
    const heard = [...r.said, r.reply.text].join('');
    expect(heard).not.toMatch(/接着玩|继续/);
    expect(heard).toMatch(/^今天就玩到这里，下次再来玩吧！/);
  });
});
