/**
 * The 5-phase machine (seed 004 §4): a pure `transition(state, event) → {state, effects}`.
 * It never calls a model and does no I/O; effects are data the phase runtime carries out, every
 * one of them (src/studio/studio-session.ts): `persist` is when the session is saved.
 * It decides (1) who may act now, (2) which tools are legal now, (3) the fact lifecycle
 * (draft → accepted only by the user) and (4) the precise `waitingReason`.
 *
 * phase: idle | running | waiting_user | done | error;  stage: design → play → done.
 * A user hard event (input, accept/reject/edit/revise that completes a review, a value the parent
 * wrote in answer to a helper's question, continue, a player's input) sets phase running and resets
 * the burst counter; every model round counts against the cap N,
 * and reaching N ends in waiting_user with reason `burst_cap` — not an exception.
 */
type Stage = 'design' | 'play' | 'done';
type Phase = 'idle' | 'running' | 'waiting_user' | 'done' | 'error';
type Who = 'user' | 'agent' | 'helper' | 'nobody';

/** What the user is asked for right now, with what the screen needs to ask it. */
export type WaitingReason =
  | { kind: 'review_drafts'; skill: string; helperId: string; tags: string[] }
  | { kind: 'agent_question'; question: string; options?: string[] }
  | { kind: 'helper_question'; skill: string; helperId: string; question: string; options?: string[] }
  | { kind: 'burst_cap'; rounds: number; cap: number }
  | { kind: 'helper_failed'; skill: string; helperId: string; message: string }
  | { kind: 'interrupted' }
  | { kind: 'player_input' };

export interface PhaseState {
  stage: Stage;
  phase: Phase;
  /** Model rounds since the last user hard event. */
  burst: number;
  burstCap: number;
  /** Bursts started in this session (1-based once running); recorded in provenance. */
  burstNo: number;
  waiting: WaitingReason | null;
  /** The helper executing now (phase running, actor helper). */
  helper: { helperId: string; skill: string } | null;
  /** Runtime-reported fact: every tag the run skills need is accepted. Gates declare_instance_ready. */
  ready: boolean;
  error: { code: string; message: string } | null;
}

export type PhaseEvent =
  // user hard events
  | { type: 'user_input'; text: string }
  | { type: 'user_accept'; tag: string }
  | { type: 'user_reject'; tag: string; reason: string }
  | { type: 'user_edit'; tag: string; value: unknown }
  | { type: 'user_continue' }
  /** The parent's words about the drafts under review: each is redone with the words as the reason. */
  | { type: 'user_revise'; text: string }
  /**
   * The parent writes design facts themselves (a hand-written deck): accepted at once, authored by
   * the parent. `writer` is the instantiate skill that produces these tags; if that skill's helper
   * asked the parent (e.g. "你来写几张吧"), the values answer it and the manager goes on.
   */
  | { type: 'user_author'; values: Record<string, unknown>; writer?: string }
  /** The parent finishes a design they wrote by hand (no manager): once every needed fact is there. */
  | { type: 'user_declare' }
  | { type: 'player_input'; text: string }
  | { type: 'player_end' }
  // the manager's tool calls (one per model round)
  | { type: 'agent_loop_tool'; name: string }
  | { type: 'agent_run_helper'; skill: string; helperId: string }
  | { type: 'agent_ask_user'; question: string; options?: string[] }
  | { type: 'agent_declare_ready' }
  | { type: 'agent_reply'; text: string }
  | { type: 'agent_finish'; text: string }
  /** A round whose step was not a legal tool call: counted, answered with an error, phase unchanged. */
  | { type: 'agent_tool_error'; message: string }
  // the helper's boundary
  /**
   * `reply` (play only): the run skill wrote `运行.回复` — the runtime says it and the burst ends
   * there, as the manager's `reply` / `finish` would, with no further model round.
   */
  | { type: 'helper_submitted'; helperId: string; tags: string[]; reply?: { text: string; session: 'active' | 'ended' } }
  | { type: 'helper_asked'; helperId: string; question: string; options?: string[] }
  | { type: 'helper_failed'; helperId: string; message: string }
  // runtime facts
  | { type: 'facts_changed'; ready: boolean }
  | { type: 'failure'; code: string; message: string }
  | { type: 'restored' };

export type Effect =
  | { type: 'call_model'; tools: string[] }
  | { type: 'run_helper'; skill: string; helperId: string }
  | { type: 'resume_helper'; helperId: string; skill: string; answer: string }
  | { type: 'record_user_words'; text: string }
  | { type: 'record_player_input'; text: string }
  | { type: 'accept_tag'; tag: string }
  | { type: 'reject_tag'; tag: string; reason: string }
  | { type: 'edit_tag'; tag: string; value: unknown }
  | { type: 'author_tags'; values: Record<string, unknown> }
  /** The helper waiting for the parent's answer is answered otherwise: it is dropped. */
  | { type: 'drop_helper'; helperId: string; skill: string }
  | { type: 'wait'; reason: WaitingReason }
  | { type: 'declare_ready' }
  | { type: 'send_reply'; text: string; session: 'active' | 'ended' }
  | { type: 'persist' }
  | { type: 'refused'; event: PhaseEvent['type']; message: string };

interface Transition {
  state: PhaseState;
  effects: Effect[];
}

const LOOP_TOOLS = ['read_blackboard', 'list_skills', 'missing_skills'] as const;
const DESIGN_BOUNDARY_TOOLS = ['run_helper', 'ask_user', 'declare_instance_ready'] as const;
const PLAY_BOUNDARY_TOOLS = ['run_helper', 'reply', 'finish'] as const;
const WORKER_TOOLS = ['submit', 'ask_user'] as const;

export function isLoopTool(name: string): boolean {
  return (LOOP_TOOLS as readonly string[]).includes(name);
}

export function initialPhaseState(burstCap: number, stage: Stage = 'design'): PhaseState {
  return { stage, phase: 'idle', burst: 0, burstCap, burstNo: 0, waiting: null, helper: null, ready: false, error: null };
}

/** Who may act now. */
export function whoActs(s: PhaseState): Who {
  if (s.phase === 'running') return s.helper ? 'helper' : 'agent';
  if (s.phase === 'done') return 'nobody';
  return 'user';
}

/** The tools legal right now for whoever acts (empty when the user acts). */
export function allowedTools(s: PhaseState): string[] {
  const who = whoActs(s);
  if (who === 'helper') return [...WORKER_TOOLS];
  if (who !== 'agent') return [];
  if (s.stage === 'design') {
    // declare_instance_ready only once every tag the run skills need is accepted (seed 004 §5).
    return [...LOOP_TOOLS, ...DESIGN_BOUNDARY_TOOLS.filter((t) => t !== 'declare_instance_ready' || s.ready)];
  }
  if (s.stage === 'play') return ['read_blackboard', ...PLAY_BOUNDARY_TOOLS];
  return [];
}

/** What the user may do now (for the screen). */
type UserAction = 'input' | 'accept' | 'reject' | 'edit' | 'revise' | 'author' | 'declare' | 'continue' | 'play';

export function userActions(s: PhaseState): UserAction[] {
  if (whoActs(s) !== 'user') return [];
  if (s.stage === 'play') return s.phase === 'error' || s.waiting?.kind === 'player_input' || s.phase === 'idle' ? ['play'] : [];
  const acts: UserAction[] = ['input', 'accept', 'reject', 'edit', 'author'];
  if (s.waiting?.kind === 'review_drafts') acts.push('revise');
  if (s.ready) acts.push('declare');
  if (s.phase === 'error' || s.waiting?.kind === 'burst_cap' || s.waiting?.kind === 'interrupted' || s.waiting?.kind === 'helper_failed') acts.push('continue');
  return acts;
}

function refuse(s: PhaseState, e: PhaseEvent, message: string): Transition {
  return { state: s, effects: [{ type: 'refused', event: e.type, message }] };
}

/** Start a burst: a user hard event hands the turn to the agent with a fresh counter. */
function startBurst(s: PhaseState, pre: Effect[]): Transition {
  const state: PhaseState = { ...s, phase: 'running', burst: 0, burstNo: s.burstNo + 1, waiting: null, helper: null, error: null };
  return { state, effects: [...pre, { type: 'call_model', tools: allowedTools(state) }] };
}

function waitFor(s: PhaseState, reason: WaitingReason, extra: Effect[] = []): Transition {
  return { state: { ...s, phase: 'waiting_user', waiting: reason, helper: null }, effects: [...extra, { type: 'wait', reason }, { type: 'persist' }] };
}

/** After a model round: continue the burst, or stop at the cap. */
function nextRound(s: PhaseState): Transition {
  if (s.burst >= s.burstCap) return waitFor(s, { kind: 'burst_cap', rounds: s.burst, cap: s.burstCap });
  return { state: s, effects: [{ type: 'call_model', tools: allowedTools(s) }] };
}

function userMayAct(s: PhaseState): boolean {
  return whoActs(s) === 'user';
}

export function transition(s: PhaseState, e: PhaseEvent): Transition {
  switch (e.type) {
    case 'user_input':
    case 'user_accept':
    case 'user_reject':
    case 'user_edit':
    case 'user_revise':
    case 'user_author':
    case 'user_declare':
    case 'user_continue':
      return userEvent(s, e);
    case 'player_input':
    case 'player_end':
      return playerEvent(s, e);
    case 'agent_loop_tool':
    case 'agent_tool_error':
    case 'agent_run_helper':
    case 'agent_ask_user':
    case 'agent_declare_ready':
    case 'agent_reply':
    case 'agent_finish':
      return agentEvent(s, e);
    case 'helper_submitted':
    case 'helper_asked':
    case 'helper_failed':
      return helperEvent(s, e);
    case 'facts_changed':
      return { state: { ...s, ready: e.ready }, effects: [] };
    case 'failure':
      return { state: { ...s, phase: 'error', helper: null, waiting: null, error: { code: e.code, message: e.message } }, effects: [{ type: 'persist' }] };
    case 'restored':
      // A reload interrupted a burst: nothing is half-applied (tools apply atomically), so ask to continue.
      if (s.phase === 'running') return waitFor(s, { kind: 'interrupted' });
      return { state: s, effects: [] };
  }
}

/** The parent's hard events in design (a new burst, a review answered, facts written by hand, a hand-written design declared). */
function userEvent(s: PhaseState, e: Extract<PhaseEvent, { type: 'user_input' | 'user_accept' | 'user_reject' | 'user_edit' | 'user_revise' | 'user_author' | 'user_declare' | 'user_continue' }>): Transition {
  switch (e.type) {
    case 'user_input': {
      if (s.stage !== 'design') return refuse(s, e, '设计已经完成了');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      if (!e.text.trim()) return refuse(s, e, '请先输入内容');
      const w = s.waiting;
      if (w?.kind === 'helper_question') {
        const state: PhaseState = { ...s, phase: 'running', burst: 0, burstNo: s.burstNo + 1, waiting: null, helper: { helperId: w.helperId, skill: w.skill }, error: null };
        return { state, effects: [{ type: 'record_user_words', text: e.text }, { type: 'resume_helper', helperId: w.helperId, skill: w.skill, answer: e.text }] };
      }
      return startBurst(s, [{ type: 'record_user_words', text: e.text }]);
    }
    case 'user_accept':
    case 'user_reject':
    case 'user_edit': {
      if (s.stage !== 'design') return refuse(s, e, '只有设计阶段的草稿需要验收');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      if (e.type === 'user_reject' && !e.reason.trim()) return refuse(s, e, '说一句哪里不满意');
      const op: Effect =
        e.type === 'user_accept' ? { type: 'accept_tag', tag: e.tag } : e.type === 'user_reject' ? { type: 'reject_tag', tag: e.tag, reason: e.reason } : { type: 'edit_tag', tag: e.tag, value: e.value };
      const w = s.waiting;
      if (w?.kind === 'review_drafts' && w.tags.includes(e.tag)) {
        const rest = w.tags.filter((t) => t !== e.tag);
        // The review is complete: that is the user's hard event that hands the turn back to the agent.
        if (rest.length === 0) return startBurst(s, [op]);
        return waitFor(s, { ...w, tags: rest }, [op]);
      }
      return { state: s, effects: [op, { type: 'persist' }] };
    }
    case 'user_revise': {
      if (s.stage !== 'design') return refuse(s, e, '只有设计阶段的草稿可以修改');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      const w = s.waiting;
      if (w?.kind !== 'review_drafts') return refuse(s, e, '现在没有等你看的草稿');
      if (!e.text.trim()) return refuse(s, e, '说说想怎么改');
      return startBurst(s, [{ type: 'record_user_words', text: e.text }, ...w.tags.map((tag): Effect => ({ type: 'reject_tag', tag, reason: e.text }))]);
    }
    case 'user_author': {
      if (s.stage !== 'design') return refuse(s, e, '设计已经完成，不能再改了');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      const tags = Object.keys(e.values);
      if (tags.length === 0) return refuse(s, e, '没有要写的内容');
      const w = s.waiting;
      if (w?.kind === 'review_drafts' && w.tags.some((t) => tags.includes(t))) return refuse(s, e, '这一项有草稿在等你看：采用它，或者点「改一改」');
      const op: Effect = { type: 'author_tags', values: e.values };
      // The helper asked the parent to write these themselves: that answers it, the manager goes on.
      if (w?.kind === 'helper_question' && e.writer === w.skill) return startBurst(s, [op, { type: 'drop_helper', helperId: w.helperId, skill: w.skill }]);
      return { state: s, effects: [op, { type: 'persist' }] };
    }
    case 'user_declare': {
      if (s.stage !== 'design') return refuse(s, e, '这个游戏已经做好了');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      if (!s.ready) return refuse(s, e, '还有内容没写好，写完才能放进游戏厅');
      return { state: { ...s, stage: 'play', phase: 'idle', waiting: null, helper: null }, effects: [{ type: 'declare_ready' }, { type: 'persist' }] };
    }
    case 'user_continue': {
      if (s.stage === 'done') return refuse(s, e, '已经结束了');
      if (!userMayAct(s)) return refuse(s, e, '设计室正在想，请稍等');
      const k = s.waiting?.kind;
      if (s.phase !== 'error' && k !== 'burst_cap' && k !== 'interrupted' && k !== 'helper_failed') return refuse(s, e, '现在在等你回答或验收，不能直接继续');
      return startBurst(s, []);
    }
  }
}

/** The player's events in play: an input starts a burst; the end ends the game. */
function playerEvent(s: PhaseState, e: Extract<PhaseEvent, { type: 'player_input' | 'player_end' }>): Transition {
  switch (e.type) {
    case 'player_input': {
      if (s.stage !== 'play') return refuse(s, e, s.stage === 'design' ? '游戏还在设计中，不能开始玩' : '这局游戏已经结束');
      if (!userMayAct(s)) return refuse(s, e, '上一句还在处理');
      return startBurst(s, [{ type: 'record_player_input', text: e.text }]);
    }
    case 'player_end': {
      if (s.stage !== 'play') return refuse(s, e, '没有正在进行的游戏');
      return { state: { ...s, stage: 'done', phase: 'done', waiting: null, helper: null }, effects: [{ type: 'persist' }] };
    }
  }
}

/** The manager's steps: loop tools go on, boundary tools run a helper, ask, declare, reply or finish. */
function agentEvent(s: PhaseState, e: Extract<PhaseEvent, { type: 'agent_loop_tool' | 'agent_tool_error' | 'agent_run_helper' | 'agent_ask_user' | 'agent_declare_ready' | 'agent_reply' | 'agent_finish' }>): Transition {
  const who = whoActs(s);
  switch (e.type) {
    case 'agent_loop_tool': {
      if (who !== 'agent') return refuse(s, e, '现在不是总管的回合');
      if (!isLoopTool(e.name) || !allowedTools(s).includes(e.name)) return refuse(s, e, `工具 ${e.name} 现在不可用`);
      return nextRound({ ...s, burst: s.burst + 1 });
    }
    case 'agent_tool_error': {
      if (who !== 'agent') return refuse(s, e, '现在不是总管的回合');
      return nextRound({ ...s, burst: s.burst + 1 });
    }
    case 'agent_run_helper': {
      if (who !== 'agent' || !allowedTools(s).includes('run_helper')) return refuse(s, e, '现在不能启动 helper');
      const state: PhaseState = { ...s, burst: s.burst + 1, helper: { helperId: e.helperId, skill: e.skill } };
      return { state, effects: [{ type: 'run_helper', skill: e.skill, helperId: e.helperId }] };
    }
    case 'agent_ask_user': {
      if (who !== 'agent' || !allowedTools(s).includes('ask_user')) return refuse(s, e, '现在不能提问');
      return waitFor({ ...s, burst: s.burst + 1 }, { kind: 'agent_question', question: e.question, ...(e.options?.length ? { options: e.options } : {}) });
    }
    case 'agent_declare_ready': {
      if (who !== 'agent' || s.stage !== 'design') return refuse(s, e, '现在不能宣布实例完成');
      if (!s.ready) return refuse(s, e, 'run skill 需要的标签还没有全部被家长采用');
      return { state: { ...s, stage: 'play', phase: 'idle', burst: s.burst + 1, waiting: null, helper: null }, effects: [{ type: 'declare_ready' }, { type: 'persist' }] };
    }
    case 'agent_reply':
    case 'agent_finish': {
      if (who !== 'agent' || s.stage !== 'play') return refuse(s, e, '现在不能回复玩家');
      if (e.type === 'agent_reply')
        return {
          state: { ...s, phase: 'waiting_user', burst: s.burst + 1, waiting: { kind: 'player_input' } },
          effects: [{ type: 'send_reply', text: e.text, session: 'active' }, { type: 'wait', reason: { kind: 'player_input' } }, { type: 'persist' }],
        };
      return { state: { ...s, stage: 'done', phase: 'done', burst: s.burst + 1, waiting: null }, effects: [{ type: 'send_reply', text: e.text, session: 'ended' }, { type: 'persist' }] };
    }
  }
}

/** A helper's outcome: drafts to review (design), live values or a reply (play), a question, a failure. */
function helperEvent(s: PhaseState, e: Extract<PhaseEvent, { type: 'helper_submitted' | 'helper_asked' | 'helper_failed' }>): Transition {
  const who = whoActs(s);
  switch (e.type) {
    case 'helper_submitted': {
      if (who !== 'helper' || s.helper?.helperId !== e.helperId) return refuse(s, e, '没有这个正在运行的 helper');
      const skill = s.helper.skill;
      // Design drafts wait for the user's verdict; play values are live and the agent continues its burst.
      if (s.stage === 'design') return waitFor(s, { kind: 'review_drafts', skill, helperId: e.helperId, tags: e.tags });
      if (e.reply?.session === 'ended')
        return { state: { ...s, stage: 'done', phase: 'done', helper: null, waiting: null }, effects: [{ type: 'send_reply', text: e.reply.text, session: 'ended' }, { type: 'persist' }] };
      if (e.reply) return waitFor({ ...s, helper: null }, { kind: 'player_input' }, [{ type: 'send_reply', text: e.reply.text, session: 'active' }]);
      return nextRound({ ...s, helper: null });
    }
    case 'helper_asked': {
      if (who !== 'helper' || s.helper?.helperId !== e.helperId) return refuse(s, e, '没有这个正在运行的 helper');
      if (s.stage !== 'design') return refuse(s, e, '运行阶段的 helper 不能向家长提问');
      return waitFor(s, { kind: 'helper_question', skill: s.helper.skill, helperId: e.helperId, question: e.question, ...(e.options?.length ? { options: e.options } : {}) });
    }
    case 'helper_failed': {
      if (who !== 'helper' || s.helper?.helperId !== e.helperId) return refuse(s, e, '没有这个正在运行的 helper');
      return waitFor(s, { kind: 'helper_failed', skill: s.helper.skill, helperId: e.helperId, message: e.message });
    }
  }
}
