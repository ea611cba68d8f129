/**
 * The trace: the store (rounds older than the parent's setting go by themselves, at start and every
 * hour) and the one recorder. The main agent and the built-in game agents record their own model
 * steps (with round and request id); the hub's steps of the other agents (the Studio's, the
 * settings try-out) are recorded here, timed from when they started.
 */
import type { ModelHub } from '../../llm/model-hub.ts';
import { TraceRecorder } from '../../trace/recorder.ts';
import { traceKeepSince, traceMaxBytes } from '../../trace/trace-settings.ts';
import { TraceStore } from '../../trace/trace-store.ts';

export function createTrace(hub: ModelHub): { traceStore: Promise<TraceStore>; recorder: TraceRecorder } {
  const traceStore = TraceStore.open({ maxBytes: traceMaxBytes });
  const forgetOld = () => void traceStore.then((s) => s.deleteOlderThan(traceKeepSince(Date.now()))).catch((e: unknown) => console.warn('old trace not deleted', e));
  forgetOld();
  setInterval(forgetOld, 3600_000);
  const recorder = new TraceRecorder(traceStore, { onError: (e) => console.warn('trace write failed', e) });
  hub.onStep((r) => {
    if (r.agent === 'main' || r.agent.startsWith('game:')) return;
    recorder.record({ kind: 'model_step', at: Date.now() - r.durationMs, source: r.agent, name: r.step?.action ?? 'error', durationMs: r.durationMs, contextId: r.session, data: { step: r.step, error: r.error, provider: r.kind } });
  });
  return { traceStore, recorder };
}
