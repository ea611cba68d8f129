/**
 * The facts the status line and 设置's status card show, gathered live from the runtime (model
 * controller, recognizer, voice, robot link, service worker, network) into Svelte state; the words
 * and the offline verdict come from src/core/status/readiness.ts.
 */
import { offlineVerdict, partStatuses, type PartStatus, type StatusFacts, type Verdict } from '../core/status/readiness.ts';
import { brainFacts } from '../llm/brain-status.ts';
import type { ControllerState } from '../llm/model-controller.ts';
import type { MicStatus } from '../speech/recognizer.ts';
import { appCached, canCacheApp } from '../trace/offline-ready.ts';
import type { AppRuntime } from './app-runtime.ts';

function micFact(s: MicStatus): StatusFacts['listening']['mic'] {
  return s === 'denied' || s === 'no-mic' || s === 'network' || s === 'error' ? s : 'ok';
}

export class AppStatus {
  /** The model controller's state, for the screens that show the brain in detail. */
  model: ControllerState = $state.raw(undefined as unknown as ControllerState);
  facts: StatusFacts = $state.raw(undefined as unknown as StatusFacts);
  readonly parts: PartStatus[] = $derived(partStatuses(this.facts));
  readonly verdict: Verdict = $derived(offlineVerdict(this.facts, this.parts));
  private readonly offs: Array<() => void> = [];

  constructor(rt: Pick<AppRuntime, 'controller' | 'recognizer' | 'synth' | 'robot'> & Partial<Pick<AppRuntime, 'bargeIn'>>) {
    const win = typeof window !== 'undefined' ? window : undefined;
    this.model = rt.controller.snapshot;
    this.facts = {
      online: typeof navigator === 'undefined' ? true : navigator.onLine !== false,
      app: { cached: false, canCache: canCacheApp() },
      brain: brainFacts(this.model),
      listening: { place: rt.recognizer.place, mic: micFact(rt.recognizer.status), bargeIn: rt.bargeIn?.status },
      speaking: { state: 'loading' },
      robot: { usb: rt.robot.link?.state ?? 'none', canConnect: rt.robot.canConnect },
    };
    const patch = (p: Partial<StatusFacts>) => (this.facts = { ...this.facts, ...p });
    const online = () => patch({ online: navigator.onLine !== false });
    win?.addEventListener('online', online);
    win?.addEventListener('offline', online);
    this.offs.push(
      () => win?.removeEventListener('online', online),
      () => win?.removeEventListener('offline', online),
      rt.controller.subscribe((s) => {
        this.model = s;
        patch({ brain: brainFacts(s) });
      }),
      appCached.subscribe((cached) => patch({ app: { ...this.facts.app, cached } })),
      rt.recognizer.onPlace((place) => patch({ listening: { ...this.facts.listening, place } })),
      rt.recognizer.onStatus((s) => patch({ listening: { ...this.facts.listening, mic: micFact(s) } })),
      rt.bargeIn?.onStatus((bargeIn) => patch({ listening: { ...this.facts.listening, bargeIn } })) ?? (() => undefined),
      rt.synth.onStatus((v) => patch({ speaking: { state: v.state, voice: v.name, local: v.local } })),
      rt.robot.output.on('status', () => patch({ robot: { ...this.facts.robot, usb: rt.robot.link?.state ?? 'none' } })),
    );
  }

  part(id: PartStatus['id']): PartStatus {
    return this.parts.find((p) => p.id === id)!;
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }
}
