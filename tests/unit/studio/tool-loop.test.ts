import { describe, expect, it } from 'vitest';
import type { ChatModel, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { clock, demoModel, quizPackage } from './helpers.ts';

const pkg = quizPackage();

/** A manager that only ever reads the board: every round is a loop tool. */
function looping(): { model: ChatModel; calls: StepRequest[] } {
  const calls: StepRequest[] = [];
  return { calls, model: { label: 'loop', step: async (req) => (calls.push(req), { action: 'read_blackboard', args: {} }) } };
}

describe('manager tool loop', () => {
  it('loop tools append results and keep the phase; the cap N ends in waiting_user, not an exception', async () => {
    const { model, calls } = looping();
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    const r = await s.input('做个游戏');
    expect(r.ok).toBe(true);
    expect(calls).toHaveLength(pkg.burstCap);
    expect(s.view.state).toMatchObject({ phase: 'waiting_user', waiting: { kind: 'burst_cap', rounds: pkg.burstCap, cap: pkg.burstCap } });
    // every loop round appended its result to the next request
    expect(calls[1].messages.at(-1)!.content).toMatch(/^<tool_response>\{"name":"read_blackboard","result":/);
    expect(calls[2].messages.length).toBe(calls[1].messages.length + 2);
  });

  it('the burst counter resets at every user event (the cap is not a session budget)', async () => {
    const { model, calls } = looping();
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    await s.input('做个游戏');
    await s.input('再想想');
    expect(calls).toHaveLength(2 * pkg.burstCap);
    await s.continue();
    expect(calls).toHaveLength(3 * pkg.burstCap);
    expect(s.view.state.burstNo).toBe(3);
  });

  it('a boundary tool ends the burst at once', async () => {
    const steps: Step[] = [{ action: 'list_skills', args: {} }, { action: 'ask_user', args: { question: '给几岁的孩子玩？', options: ['4岁', '6岁'] } }];
    let i = 0;
    const model: ChatModel = { label: 'x', step: async () => steps[i++] };
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    await s.input('做个游戏');
    expect(i).toBe(2);
    expect(s.view.state).toMatchObject({ phase: 'waiting_user', burst: 2, waiting: { kind: 'agent_question', question: '给几岁的孩子玩？', options: ['4岁', '6岁'] } });
    expect(s.view.transcript.at(-1)).toMatchObject({ who: 'agent', text: '给几岁的孩子玩？' });
  });

  it('an illegal tool (declare before ready, or passing tags to a helper) is answered with an error, phase unchanged', async () => {
    const steps: Step[] = [
      { action: 'declare_instance_ready', args: {} },
      { action: 'run_helper', args: { skill: 'theme', inputs: { '设计.主题': '恐龙' } } },
      { action: 'run_helper', args: { skill: 'present-card' } },
      { action: 'ask_user', args: { question: '好的？' } },
    ];
    let i = 0;
    const seen: StepRequest[] = [];
    const model: ChatModel = { label: 'x', step: async (r) => (seen.push(r), steps[i++]) };
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    await s.input('做个游戏');
    expect(seen[1].messages.at(-1)!.content).toContain('现在不能用 declare_instance_ready');
    // Arguments are checked against the tool's schema first: no tag content, only this stage's skills.
    expect(seen[2].messages.at(-1)!.content).toContain('参数不对：不能有 inputs');
    expect(seen[3].messages.at(-1)!.content).toMatch(/参数不对：skill 必须是其中之一：interaction-paradigm/);
    expect(s.view.waiting).toMatchObject({ kind: 'agent_question' });
    expect(Object.keys(s.view.board.tags)).toEqual(['设计.家长要求']);
  });

  it('a model failure is the error phase with a message, and continue retries', async () => {
    let fail = true;
    const { model: demo } = demoModel();
    const model: ChatModel = { label: 'x', step: async (r) => { if (fail) throw new Error('模型没有加载'); return demo.step(r); } };
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    await s.input('恐龙问答');
    expect(s.view.state).toMatchObject({ phase: 'error', error: { message: '模型没有加载' } });
    fail = false;
    await s.continue();
    expect(s.view.waiting).toMatchObject({ kind: 'review_drafts', skill: 'interaction-paradigm' });
  });

  it('the user cannot act while the agent runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const model: ChatModel = { label: 'x', step: async () => (await gate, { action: 'ask_user', args: { question: '嗯？' } }) };
    const s = StudioSession.create({ pkg, model, now: clock() }, 'p');
    const first = s.input('做个游戏');
    expect(await s.input('再说一句')).toEqual({ ok: false, message: '上一步还在处理，请稍等' });
    release();
    await first;
    expect(s.view.waiting).toMatchObject({ kind: 'agent_question' });
  });
});
