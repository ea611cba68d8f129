/**
 * Harness for the trace screen (until the lead puts it in the app): the real TraceStore and
 * TraceRecorder, the TraceScreen and StorageInfo components. `window.labTrace.seedRound()`
 * records one realistic round through the recorder, the way the main agent and a game will.
 */
import { mount } from 'svelte';
import TraceScreen from '../../src/ui/trace/TraceScreen.svelte';
import StorageInfo from '../../src/ui/settings/StorageInfo.svelte';
import UpdateLab from './UpdateLab.svelte';
import { TraceRecorder } from '../../src/trace/recorder.ts';
import { TraceStore } from '../../src/trace/trace-store.ts';
import { traceMaxBytes } from '../../src/trace/trace-settings.ts';

const store = await TraceStore.open({ maxBytes: traceMaxBytes });
const recorder = new TraceRecorder(store, { onError: (e) => console.error('trace write failed', e) });

async function seedRound(opts: { text?: string; reveal?: boolean; contextId?: string } = {}) {
  const t0 = Date.now();
  const text = opts.text ?? '我们来玩你画我猜吧';
  const contextId = opts.contextId ?? 'ctx-lab';
  const requestId = crypto.randomUUID();
  const game = 'game:draw-guess';
  recorder.startRound(text, { at: t0 });
  recorder.record({ kind: 'model_step', at: t0 + 5, source: 'main', name: 'start_game', durationMs: 420, data: { action: 'start_game', args: { game_id: 'draw-guess' }, provider: { apiKey: 'sk-lab-secret-key-123456' } } });
  recorder.record({ kind: 'main_tool', at: t0 + 430, source: 'main', name: 'start_game', durationMs: 3, data: { args: { game_id: 'draw-guess', text }, result: { requestId } } });
  recorder.record({ kind: 'a2a_request', at: t0 + 433, source: 'main', requestId, contextId, data: { gameId: 'draw-guess', kind: opts.reveal ? 'message' : 'start', text } });
  // Game-side records, as they come over the trace port (out of order on purpose).
  recorder.record({ kind: 'reply', at: t0 + 900, source: game, requestId, contextId, revealsSecret: opts.reveal, data: { text: opts.reveal ? '答案是长颈鹿，你真棒！' : '我画好了，猜猜是什么动物？', session: 'active' } });
  recorder.record({ kind: 'game_tool', at: t0 + 450, source: game, requestId, contextId, name: 'pick_animal', durationMs: 2, data: { args: {}, result: { secret: { answer: '长颈鹿' }, category: '动物' } } });
  recorder.record({ kind: 'device', at: t0 + 460, source: game, requestId, contextId, name: 'showDrawing', durationMs: 380, data: { args: { strokes: 14 }, result: { device_completed: true } } });
  recorder.record({ kind: 'speech', at: t0 + 910, source: 'speech', requestId, data: { text: '我画好了，猜猜是什么动物？' }, durationMs: 2100 });
  await recorder.flush();
  return requestId;
}

if (new URLSearchParams(location.search).has('sw')) mount(UpdateLab, { target: document.getElementById('storage')! });
mount(StorageInfo, { target: document.getElementById('storage')! });
mount(TraceScreen, { target: document.getElementById('app')!, props: { store, recorder } });

Object.assign(window, { labTrace: { store, recorder, seedRound } });
document.body.dataset.ready = '1';
