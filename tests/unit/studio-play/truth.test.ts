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
});
