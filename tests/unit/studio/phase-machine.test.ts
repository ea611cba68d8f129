import { describe, expect, it } from 'vitest';
import { allowedTools, initialPhaseState, transition, whoActs, type PhaseEvent, type PhaseState } from '../../../src/core/studio/phase-machine.ts';

const base = initialPhaseState(3);
const st = (o: Partial<PhaseState>): PhaseState => ({ ...base, ...o });
const agentRunning = st({ phase: 'running', burst: 1, burstNo: 1 });
const helperRunning = st({ phase: 'running', burst: 1, burstNo: 1, helper: { helperId: 'w1', skill: 'theme' } });
const review = st({ phase: 'waiting_user', burst: 2, burstNo: 1, waiting: { kind: 'review_drafts', skill: 'x', helperId: 'w1', tags: ['设计.a', '设计.b'] } });
const reviewOne = st({ ...review, waiting: { kind: 'review_drafts', skill: 'x', helperId: 'w1', tags: ['设计.b'] } });
const helperQ = st({ phase: 'waiting_user', burstNo: 1, waiting: { kind: 'helper_question', skill: 'theme', helperId: 'w1', question: '主题？' } });
const capped = st({ phase: 'waiting_user', burst: 3, burstNo: 1, waiting: { kind: 'burst_cap', rounds: 3, cap: 3 } });
const playIdle = st({ stage: 'play', ready: true });
const playAgent = st({ stage: 'play', phase: 'running', burst: 1, burstNo: 1, ready: true });
const playHelper = st({ ...playAgent, helper: { helperId: 'w2', skill: 'present-card' } });
const errored = st({ phase: 'error', error: { code: 'x', message: 'boom' } });

type Row = [string, PhaseState, PhaseEvent, Partial<PhaseState> | 'refused', string[]];

const rows: Row[] = [
  // user hard events
  ['idle: input starts a burst', base, { type: 'user_input', text: '做个游戏' }, { phase: 'running', burst: 0, burstNo: 1 }, ['record_user_words', 'call_model']],
  ['input while the agent runs is refused', agentRunning, { type: 'user_input', text: 'x' }, 'refused', ['refused']],
  ['empty input is refused', base, { type: 'user_input', text: '  ' }, 'refused', ['refused']],
  ['input answers a helper question and resumes that helper', helperQ, { type: 'user_input', text: '恐龙' }, { phase: 'running', helper: { helperId: 'w1', skill: 'theme' }, burst: 0 }, ['record_user_words', 'resume_helper']],
  ['input after the cap resets the burst', capped, { type: 'user_input', text: '继续吧' }, { phase: 'running', burst: 0, burstNo: 2 }, ['record_user_words', 'call_model']],
  ['accepting one of two drafts keeps waiting for the other', review, { type: 'user_accept', tag: '设计.a' }, { phase: 'waiting_user', waiting: { kind: 'review_drafts', skill: 'x', helperId: 'w1', tags: ['设计.b'] } }, ['accept_tag', 'wait', 'persist']],
  ['accepting the last draft hands the turn to the agent', reviewOne, { type: 'user_accept', tag: '设计.b' }, { phase: 'running', burst: 0, burstNo: 2, waiting: null }, ['accept_tag', 'call_model']],
  ['rejecting with a reason is a decision too', reviewOne, { type: 'user_reject', tag: '设计.b', reason: '太难' }, { phase: 'running', burst: 0 }, ['reject_tag', 'call_model']],
  ['rejecting without a reason is refused', reviewOne, { type: 'user_reject', tag: '设计.b', reason: ' ' }, 'refused', ['refused']],
  ['editing a draft accepts the edit', reviewOne, { type: 'user_edit', tag: '设计.b', value: 1 }, { phase: 'running' }, ['edit_tag', 'call_model']],
  ['accepting while the agent runs is refused', agentRunning, { type: 'user_accept', tag: '设计.a' }, 'refused', ['refused']],
  ['continue after the cap', capped, { type: 'user_continue' }, { phase: 'running', burst: 0 }, ['call_model']],
  ['continue after an error', errored, { type: 'user_continue' }, { phase: 'running', error: null }, ['call_model']],
  ['continue while a review waits is refused', review, { type: 'user_continue' }, 'refused', ['refused']],
  ['the parent\'s words on a review redo every draft in it with them as the reason', review, { type: 'user_revise', text: '玩3轮就好' }, { phase: 'running', burst: 0, burstNo: 2, waiting: null }, ['record_user_words', 'reject_tag', 'reject_tag', 'call_model']],
  ['revising with nothing under review is refused', base, { type: 'user_revise', text: '玩3轮' }, 'refused', ['refused']],
  ['revising with no words is refused', review, { type: 'user_revise', text: ' ' }, 'refused', ['refused']],
  ['a hand-written fact while idle: accepted, nobody is asked to think', base, { type: 'user_author', values: { '设计.卡牌': [] } }, { phase: 'idle', burstNo: 0 }, ['author_tags', 'persist']],
  ['cards written in answer to 「你来写几张吧」 drop that helper and the manager goes on', helperQ, { type: 'user_author', values: { '设计.主题': {} }, writer: 'theme' }, { phase: 'running', burst: 0, burstNo: 2, waiting: null, helper: null }, ['author_tags', 'drop_helper', 'call_model']],
  ['a fact written for another skill leaves the question open', helperQ, { type: 'user_author', values: { '设计.卡牌': [] }, writer: 'card-deck' }, { phase: 'waiting_user', waiting: helperQ.waiting }, ['author_tags', 'persist']],
  ['writing over a draft under review is refused (改一改 edits it)', review, { type: 'user_author', values: { '设计.a': 1 } }, 'refused', ['refused']],
  ['finishing by hand once ready goes to play', st({ ready: true }), { type: 'user_declare' }, { stage: 'play', phase: 'idle' }, ['declare_ready', 'persist']],
  ['finishing by hand before ready is refused', base, { type: 'user_declare' }, 'refused', ['refused']],
  // the agent's tools
  ['a loop tool counts a round and keeps running', agentRunning, { type: 'agent_loop_tool', name: 'read_blackboard' }, { phase: 'running', burst: 2 }, ['call_model']],
  ['the round that reaches the cap waits for the user', st({ ...agentRunning, burst: 2 }), { type: 'agent_loop_tool', name: 'missing_skills' }, { phase: 'waiting_user', burst: 3, waiting: { kind: 'burst_cap', rounds: 3, cap: 3 } }, ['wait', 'persist']],
  ['a boundary name is not a loop tool', agentRunning, { type: 'agent_loop_tool', name: 'run_helper' }, 'refused', ['refused']],
  ['an invalid step counts a round', agentRunning, { type: 'agent_tool_error', message: 'bad' }, { phase: 'running', burst: 2 }, ['call_model']],
  ['run_helper hands the turn to the helper', agentRunning, { type: 'agent_run_helper', skill: 'theme', helperId: 'w1' }, { phase: 'running', helper: { helperId: 'w1', skill: 'theme' }, burst: 2 }, ['run_helper']],
  ['ask_user waits with the question', agentRunning, { type: 'agent_ask_user', question: '几岁？', options: ['4岁'] }, { phase: 'waiting_user', waiting: { kind: 'agent_question', question: '几岁？', options: ['4岁'] } }, ['wait', 'persist']],
  ['declare is refused until the facts are ready', agentRunning, { type: 'agent_declare_ready' }, 'refused', ['refused']],
  ['declare when ready moves to play', st({ ...agentRunning, ready: true }), { type: 'agent_declare_ready' }, { stage: 'play', phase: 'idle' }, ['declare_ready', 'persist']],
  ['the agent cannot act while the user is asked', review, { type: 'agent_loop_tool', name: 'read_blackboard' }, 'refused', ['refused']],
  ['reply is a play tool only', agentRunning, { type: 'agent_reply', text: '你好' }, 'refused', ['refused']],
  // the helper's boundary
  ['a design helper submits drafts: the user reviews them', helperRunning, { type: 'helper_submitted', helperId: 'w1', tags: ['设计.主题'] }, { phase: 'waiting_user', helper: null, waiting: { kind: 'review_drafts', skill: 'theme', helperId: 'w1', tags: ['设计.主题'] } }, ['wait', 'persist']],
  ['a helper asks the user', helperRunning, { type: 'helper_asked', helperId: 'w1', question: '主题？' }, { phase: 'waiting_user', waiting: { kind: 'helper_question', skill: 'theme', helperId: 'w1', question: '主题？' } }, ['wait', 'persist']],
  ['a helper that failed waits for the user', helperRunning, { type: 'helper_failed', helperId: 'w1', message: 'x' }, { phase: 'waiting_user', waiting: { kind: 'helper_failed', skill: 'theme', helperId: 'w1', message: 'x' } }, ['wait', 'persist']],
  ['another helper id is refused', helperRunning, { type: 'helper_submitted', helperId: 'w9', tags: [] }, 'refused', ['refused']],
  // play
  ['design sessions cannot be played', base, { type: 'player_input', text: '开始' }, 'refused', ['refused']],
  ['a player input starts a play burst', playIdle, { type: 'player_input', text: '开始' }, { phase: 'running', burst: 0, burstNo: 1 }, ['record_player_input', 'call_model']],
  ['a play helper returns the turn to the agent', playHelper, { type: 'helper_submitted', helperId: 'w2', tags: ['运行.回复'] }, { phase: 'running', helper: null }, ['call_model']],
  ['a play skill that wrote the reply says it and waits for the player', playHelper, { type: 'helper_submitted', helperId: 'w2', tags: ['运行.回复'], reply: { text: '第1题', session: 'active' } }, { phase: 'waiting_user', helper: null, waiting: { kind: 'player_input' } }, ['send_reply', 'wait', 'persist']],
  ['a play skill whose reply ends the game', playHelper, { type: 'helper_submitted', helperId: 'w2', tags: ['运行.回复'], reply: { text: '再见', session: 'ended' } }, { stage: 'done', phase: 'done', helper: null }, ['send_reply', 'persist']],
  ['a design helper\'s reply is not a reply: the parent reviews', helperRunning, { type: 'helper_submitted', helperId: 'w1', tags: ['设计.主题'], reply: { text: 'x', session: 'ended' } }, { stage: 'design', phase: 'waiting_user' }, ['wait', 'persist']],
  ['play helpers cannot ask the parent', playHelper, { type: 'helper_asked', helperId: 'w2', question: '?' }, 'refused', ['refused']],
  ['reply waits for the player', playAgent, { type: 'agent_reply', text: '第1题' }, { phase: 'waiting_user', waiting: { kind: 'player_input' } }, ['send_reply', 'wait', 'persist']],
  ['finish ends the game', playAgent, { type: 'agent_finish', text: '再见' }, { stage: 'done', phase: 'done' }, ['send_reply', 'persist']],
  ['the player leaving ends the game', playAgent, { type: 'player_end' }, { stage: 'done', phase: 'done' }, ['persist']],
  // runtime
  ['facts change readiness only', agentRunning, { type: 'facts_changed', ready: true }, { ready: true, phase: 'running' }, []],
  ['a failure is the error phase', agentRunning, { type: 'failure', code: 'm', message: 'down' }, { phase: 'error', error: { code: 'm', message: 'down' } }, ['persist']],
  ['restoring a burst cut by a reload asks to continue', agentRunning, { type: 'restored' }, { phase: 'waiting_user', waiting: { kind: 'interrupted' } }, ['wait', 'persist']],
  ['restoring a waiting session changes nothing', helperQ, { type: 'restored' }, { waiting: helperQ.waiting }, []],
];

describe('phase machine transitions', () => {
  it.each(rows)('%s', (_name, from, event, want, effects) => {
    const t = transition(from, event);
    if (want === 'refused') expect(t.state).toBe(from);
    else expect(t.state).toMatchObject(want);
    expect(t.effects.map((e) => e.type)).toEqual(effects);
  });
});

describe('who acts and which tools are legal', () => {
  it.each([
    ['idle design', base, 'user', []],
    ['agent in design, not ready', agentRunning, 'agent', ['read_blackboard', 'list_skills', 'missing_skills', 'run_helper', 'ask_user']],
    ['agent in design, ready', st({ ...agentRunning, ready: true }), 'agent', ['read_blackboard', 'list_skills', 'missing_skills', 'run_helper', 'ask_user', 'declare_instance_ready']],
    ['helper', helperRunning, 'helper', ['submit', 'ask_user']],
    ['agent in play', playAgent, 'agent', ['read_blackboard', 'run_helper', 'reply', 'finish']],
    ['waiting for review', review, 'user', []],
    ['done', st({ stage: 'done', phase: 'done' }), 'nobody', []],
  ] as const)('%s', (_n, s, who, tools) => {
    expect(whoActs(s)).toBe(who);
    expect(allowedTools(s)).toEqual(tools);
  });
  it('call_model carries exactly the tools allowed in the new state', () => {
    const t = transition(st({ ...reviewOne, ready: true }), { type: 'user_accept', tag: '设计.b' });
    expect(t.effects.at(-1)).toEqual({ type: 'call_model', tools: allowedTools(t.state) });
    expect(allowedTools(t.state)).toContain('declare_instance_ready');
  });
});
