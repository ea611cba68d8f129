import { describe, expect, it } from 'vitest';
import { emptyBoard } from '../../../src/core/studio/blackboard.ts';
import { upgradeSnapshot } from '../../../src/core/studio/snapshot-upgrade.ts';
import type { SessionSnapshot } from '../../../src/core/studio/types.ts';
import { StudioSession } from '../../../src/studio/studio-session.ts';
import { demoModel, quizPackage } from './helpers.ts';

/** A session saved by the Studio before its sub-agents were called helpers: a card step asks the parent. */
const saved = {
  v: 1,
  projectId: 'p-old',
  packageId: 'quiz-cards',
  state: { stage: 'design', phase: 'waiting_user', burst: 2, burstCap: 8, burstNo: 3, ready: false, error: null, worker: null, waiting: { kind: 'worker_question', skill: 'card-deck', workerId: 'w4', question: '你来写几张吧？' } },
  board: emptyBoard(Object.keys(quizPackage().tags)),
  manager: [{ role: 'system', content: '…' }, { role: 'assistant', content: '{"run_worker":{"skill":"card-deck"}}' }],
  pendingWorker: { workerId: 'w4', skill: 'card-deck', messages: [{ role: 'user', content: 'worker' }] },
  transcript: [{ who: 'worker', skill: 'card-deck', text: '你来写几张吧？', at: 1 }],
  seq: 4,
  savedAt: 1,
} as unknown as SessionSnapshot;

describe('a snapshot saved with the old word for helpers', () => {
  it('reads as today’s: the waiting question, the pending helper, the speaker; the manager’s words as said', () => {
    const s = upgradeSnapshot(saved);
    expect(s.state.waiting).toEqual({ kind: 'helper_question', skill: 'card-deck', helperId: 'w4', question: '你来写几张吧？' });
    expect(s.state.helper).toBeNull();
    expect(s.pendingHelper).toEqual({ helperId: 'w4', skill: 'card-deck', messages: [{ role: 'user', content: 'worker' }] });
    expect(s.transcript[0].who).toBe('helper');
    expect(s.manager).toEqual(saved.manager);
    expect(upgradeSnapshot(s)).toBe(s);
  });

  it('resumes where it waited: the parent’s answer goes to the card step that asked', async () => {
    const { model, requests } = demoModel();
    const session = StudioSession.restore({ pkg: quizPackage(), model, now: () => 2 }, upgradeSnapshot(saved));
    expect(session.view.waiting?.kind).toBe('helper_question');
    const r = await session.input('你帮我写吧');
    expect(r).toEqual({ ok: true });
    expect(requests[0]?.agent).toBe('studio:helper:card-deck');
  });
});
