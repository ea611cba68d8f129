/**
 * Harness for the game agents (tests/e2e/games.spec.ts): the real game Worker, the real A2A
 * transport (createGameClient), the real model port with the demo policies (演示脚本), and a
 * recording robot drawn on a canvas. A tiny text UI sends start / message / end.
 *
 * `window.lab` lets a test look at the robot and hold the next model step (to send `end` while a
 * turn is in flight).
 */
import { agentCardFor } from '../../src/a2a/card.ts';
import { createGameClient } from '../../src/a2a/game-host.ts';
import { builtinGames } from '../../src/games/catalog.ts';
import { demoPolicy } from '../../src/llm/demo-registry.ts';
import { exposeModel } from '../../src/llm/model-port.ts';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import type { ChatModel, Step, StepRequest } from '../../src/core/llm/types.ts';
import { gameInput, type GameInputKind } from '../../src/core/protocol/game-protocol.ts';
import { exposeDevice } from '../../src/robot/device-port.ts';
import type { DevicePort, Drawing } from '../../src/core/robot/types.ts';
import { exposeTrace } from '../../src/trace/trace-port.ts';
import type { TraceEvent } from '../../src/core/trace/types.ts';
import { ANIMALS } from '../../skills/draw-guess/animals.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// ── model: the demo policies, with a one-shot hold ───────────────────────────
const scripted = createScriptedModel((agent) => demoPolicy(agent));
let holdNext = false;
let held = 0;
let abortedSteps = 0;
let release: (() => void) | null = null;
const model: ChatModel = {
  label: scripted.label,
  step(req: StepRequest): Promise<Step> {
    if (!holdNext) return scripted.step(req);
    holdNext = false;
    held++;
    return new Promise<Step>((resolve, reject) => {
      req.signal?.addEventListener('abort', () => {
        abortedSteps++;
        reject(new DOMException('这一步已取消', 'AbortError'));
      });
      release = () => void scripted.step(req).then(resolve, reject);
    });
  },
};

// ── robot: records every call and draws on the canvas ───────────────────────
const deviceCalls: Array<{ op: string; arg?: unknown }> = [];
const canvas = $<HTMLCanvasElement>('screen');
function paint(d: Drawing | null) {
  const g = canvas.getContext('2d')!;
  g.clearRect(0, 0, 240, 240);
  if (!d) return;
  g.strokeStyle = d.color ?? '#222';
  g.lineWidth = d.width ?? 3;
  for (const stroke of d.strokes) {
    g.beginPath();
    stroke.forEach(([x, y], i) => (i === 0 ? g.moveTo(x, y) : g.lineTo(x, y)));
    g.stroke();
  }
  if (d.label) {
    g.fillStyle = '#222';
    g.font = '20px sans-serif';
    g.fillText(d.label, 100, 230);
  }
}
const device: DevicePort = {
  async react(expression, gesture) {
    deviceCalls.push({ op: 'react', arg: { expression, gesture } });
    $('face').textContent = expression;
    $('gesture').textContent = gesture;
  },
  async showDrawing(drawing) {
    deviceCalls.push({ op: 'showDrawing', arg: drawing });
    paint(drawing);
    return { device_completed: true };
  },
  async showProgress(progress) {
    deviceCalls.push({ op: 'showProgress', arg: progress });
    $('progress').textContent = `${progress.current}/${progress.total} ${progress.label ?? ''}`;
    return { device_completed: true };
  },
  async showText(card) {
    deviceCalls.push({ op: 'showText', arg: card });
    return { device_completed: true };
  },
  async idle() {
    deviceCalls.push({ op: 'idle' });
    paint(null);
    $('face').textContent = 'neutral';
    $('progress').textContent = '—';
  },
};

// ── trace ────────────────────────────────────────────────────────────────────
const traceEvents: TraceEvent[] = [];
const traceSink = { record: (e: TraceEvent) => void traceEvents.push(e) };

// ── the real game client over real workers ───────────────────────────────────
const games = builtinGames();
const cards = new Map(games.map((g) => [g.id, agentCardFor(g)]));
const client = createGameClient({
  spawn: () => new Worker(new URL('../../workers/game-agent.ts', import.meta.url), { type: 'module' }),
  cards: (id) => cards.get(id),
  engineOf: (id) => games.find((g) => g.id === id)?.engine,
  // A harness page pins the game's random source: `?seed=<n>` (1 by default).
  seed: () => Number(new URLSearchParams(location.search).get('seed') ?? 1),
  trace: traceSink,
  ports() {
    const m = new MessageChannel();
    const d = new MessageChannel();
    const t = new MessageChannel();
    exposeModel(model, m.port1);
    exposeDevice(device, d.port1);
    exposeTrace(traceSink, t.port1);
    return { model: m.port2, device: d.port2, trace: t.port2 };
  },
});

// ── the text UI ──────────────────────────────────────────────────────────────
const select = $<HTMLSelectElement>('game');
for (const g of games) select.add(new Option(`${g.title}（${g.id}）`, g.id));
const contexts = new Map<string, string>();
let requestNo = 0;

function log(text: string, cls: string, attrs: Record<string, string> = {}) {
  const li = document.createElement('li');
  li.className = cls;
  li.textContent = text;
  for (const [k, v] of Object.entries(attrs)) li.dataset[k] = v;
  $('log').append(li);
}

/** Sends one input; resolves when its replies have all arrived (or it failed). */
async function send(kind: GameInputKind, text: string): Promise<void> {
  const gameId = select.value;
  if (kind === 'start') contexts.set(gameId, crypto.randomUUID());
  const contextId = contexts.get(gameId) ?? crypto.randomUUID();
  contexts.set(gameId, contextId);
  const n = String(++requestNo);
  log(`${kind}：${text}`, 'input', { request: n, kind });
  try {
    const req = client.request(gameId, contextId, gameInput(kind, text));
    for await (const ev of req.replies) {
      log(ev.reply.text, ev.final ? 'reply final' : 'reply', { request: n, session: ev.reply.session });
    }
  } catch (e) {
    log(`（${(e as { code?: string }).code ?? 'error'}）${(e as Error).message}`, 'error', { request: n, code: (e as { code?: string }).code ?? '' });
  }
}

const input = $<HTMLInputElement>('text');
$('start').onclick = () => void send('start', input.value || '开始游戏');
$('send').onclick = () => {
  if (input.value.trim()) void send('message', input.value);
  input.value = '';
};
$('end').onclick = () => void send('end', input.value);

const byDrawingId = new Map(ANIMALS.map((a) => [a.drawing.id || a.id, a.name]));

declare global {
  interface Window {
    lab: unknown;
  }
}
window.lab = {
  deviceCalls,
  traceEvents,
  /** Holds the next model step until `releaseHeld()` (or until it is aborted). */
  holdNextStep() {
    holdNext = true;
  },
  heldSteps: () => held,
  abortedSteps: () => abortedSteps,
  releaseHeld() {
    release?.();
    release = null;
  },
  /** The animal on the robot's screen (the test plays the child who sees the picture). */
  animalOnScreen() {
    const d = [...deviceCalls].reverse().find((c) => c.op === 'showDrawing')?.arg as Drawing | undefined;
    return d ? (byDrawingId.get(d.id) ?? null) : null;
  },
  otherAnimal(name: string) {
    return ANIMALS.find((a) => a.name !== name && ![...a.name].some((ch) => name.includes(ch)))!.name;
  },
};
document.body.dataset.ready = 'true';
