/**
 * The composition root: builds the model hub and its controller, the trace recorder, speech
 * (speaking queue + recognizer + half-duplex loop), the robot output, the GameClient with one
 * Web Worker per game (ports: a2a, model, device, trace) and the main agent, and wires them.
 * Svelte screens only read from and call into the object returned here (the Studio through the
 * controller `studio()` makes).
 */
import type { AgentCard } from '@a2a-js/sdk';
import { agentCardFor } from '../a2a/card.ts';
import type { GameWorker } from '../a2a/game-host.ts';
import { lazyGameClient } from '../a2a/lazy-client.ts';
import { RemoteGames, browserConnectivity } from '../a2a/remote-games.ts';
import { remoteWaitSeconds } from '../a2a/remote-settings.ts';
import { openRemoteStore } from '../a2a/remote-store.ts';
import { routeGameClients } from '../a2a/routed-client.ts';
import type { GameClient } from '../a2a/types.ts';
import { builtinGames } from '../games/catalog.ts';
import { warmAhead, whenIdle } from './warm-ahead.ts';
import { createModelController, type ModelController } from '../llm/model-controller.ts';
import { modelHub, type ModelHub } from '../llm/model-hub.ts';
import { MainAgent } from '../arcade/main-agent.ts';
import { warmSafetyCheck } from '../arcade/safety-screen.ts';
import type { SpeakingPath } from '../arcade/speaking-path.ts';
import { ThinkingCue } from '../arcade/thinking-cue.ts';
import { turnBudget } from '../arcade/turn-budget-setting.ts';
import { hangTimeoutMs, stepTimeouts } from '../core/arcade/turn-budget.ts';
import { createChime } from '../speech/chime.ts';
import type { ArcadeGame } from '../core/arcade/types.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import type { ChatModel } from '../core/llm/types.ts';
import { seededRandom } from '../core/random.ts';
import { gameAvailability } from '../core/robot/capabilities.ts';
import { createRobotOutput, type RobotSetup } from '../robot/create-robot-output.ts';
import { exposeDevice } from '../robot/device-port.ts';
import { trackSource } from '../speech/mic-devices.ts';
import { Recognizer, findRecognition, supportsStartTrack } from '../speech/recognizer.ts';
import { robotSpeechProgress } from '../speech/robot-progress.ts';
import { applyVoiceCommand, loadSpeechSettings, saveSpeechSettings, type SpeechSettings } from '../speech/settings.ts';
import { SpeechQueue } from '../speech/tts-queue.ts';
import { VoiceLoop } from '../speech/voice-loop.ts';
import { BargeIn } from '../speech/barge-in.ts';
import { createBrowserVad } from '../speech/vad.ts';
import { createWebSynth, type WebSynth } from '../speech/web-synth.ts';
import { TraceRecorder } from '../trace/recorder.ts';
import { createSessionGuard, type SessionGuard } from '../trace/session-guard.ts';
import { createStudioShelf } from '../studio/play/arcade-shelf.ts';
import type { StudioController } from '../studio/studio-controller.ts';
import { exposeTrace } from '../trace/trace-port.ts';
import { completedTasksToKeep, traceKeepSince, traceMaxBytes } from '../trace/trace-settings.ts';
import { browserLocalTime, ParentalControls } from '../parental/parental-controls.ts';
import { openParentalStore } from '../parental/parental-store.ts';
import { PlayTimer } from '../parental/play-timer.ts';
import { randomValues } from '../parental/secret.ts';
import { TraceStore } from '../trace/trace-store.ts';
import { followLocalModel } from '../trace/offline-ready.ts';

export interface AppRuntime {
  hub: ModelHub;
  controller: ModelController;
  recorder: TraceRecorder;
  traceStore: Promise<TraceStore>;
  /** The speaking queue, for its events and settings. Lines are said through `voice` only. */
  speech: Omit<SpeechQueue, 'say'>;
  /** The one speaking path (the main agent's): every line the robot says goes through it. */
  voice: SpeakingPath;
  synth: WebSynth;
  recognizer: Recognizer;
  loop: VoiceLoop;
  /** Hands-free barge-in and end of speech (the voice-activity detector, loaded when first wanted). */
  bargeIn: BargeIn;
  robot: RobotSetup;
  games: GameClient;
  /** The remote games a grown-up added by address (A2A servers elsewhere, played by voice). */
  remoteGames: RemoteGames;
  agent: MainAgent;
  guard: SessionGuard;
  /** The grown-up's controls: PIN gate, play time, 「只玩游戏」. */
  parental: ParentalControls;
  /** Installed games with availability on the robot in charge now. */
  catalog(): ArcadeGame[];
  /** A source of more games (the Studio's playable designs); the arcade lists them like built-ins. */
  addGames(source: () => GameDeclaration[]): void;
  /** Called when the game list changed (a design reached play in the Studio): re-read `catalog()`. */
  onGamesChanged(fn: () => void): () => void;
  speechSettings: SpeechSettings;
  updateSpeechSettings(patch: Partial<SpeechSettings>): void;
  /** The words as typed or heard: one round (the mic obeys half-duplex meanwhile). */
  input(text: string): Promise<unknown>;
  /** Tap anywhere: stop talking. */
  stopTalking(): void;
  /** The Studio's controller (the Book, design sessions, the parent's mic; its code loads on first use). */
  studio(): Promise<StudioController>;
}

export function createAppRuntime(): AppRuntime {
  const hub = modelHub;
  // One turn budget for the whole app (T1 "still thinking", T2 a real answer): the remote step
  // timeouts, the game host's hang detection and the main agent's rounds are all sized from it.
  const controller = createModelController(hub, () => import('./demo-brain.ts').then((m) => m.createDemoModel()), { stepTimeouts: () => stepTimeouts(turnBudget()), turnBudget });
  // A game designed in the Studio plays by its rules alone (the demo policies) while no brain is chosen.
  let rulesModel: Promise<ChatModel> | null = null;
  const rulesAlone = (): Promise<ChatModel> => (rulesModel ??= import('./demo-brain.ts').then((m) => m.createDemoModel()));
  const playsWithoutBrain = (d: GameDeclaration | undefined) => d?.engine === 'studio';
  void controller.init().catch((e) => console.error('model settings', e));
  followLocalModel(controller); // persistent storage when a model starts downloading

  // ---- the grown-up's controls -------------------------------------------------------------
  const parental = new ParentalControls({ store: openParentalStore(), now: () => Date.now(), mono: () => performance.now(), local: browserLocalTime, random: randomValues });
  const parentalRead = parental.load().catch((e: unknown) => console.error('parental controls', e));
  // An unlock ends after a few idle minutes.
  setInterval(() => parental.checkIdle(), 5000);

  // ---- trace -------------------------------------------------------------------------------
  const traceStore = TraceStore.open({ maxBytes: traceMaxBytes });
  // Rounds older than the parent's setting go by themselves (at start and every hour).
  const forgetOld = () => void traceStore.then((s) => s.deleteOlderThan(traceKeepSince(Date.now()))).catch((e: unknown) => console.warn('old trace not deleted', e));
  forgetOld();
  setInterval(forgetOld, 3600_000);
  const recorder = new TraceRecorder(traceStore, { onError: (e) => console.warn('trace write failed', e) });
  // The main agent and the built-in game agents record their own steps (with round and request id);
  // the hub records the others (Studio agents, the settings try-out), timed from when they started.
  hub.onStep((r) => {
    if (r.agent === 'main' || r.agent.startsWith('game:')) return;
    recorder.record({ kind: 'model_step', at: Date.now() - r.durationMs, source: r.agent, name: r.step?.action ?? 'error', durationMs: r.durationMs, contextId: r.session, data: { step: r.step, error: r.error, provider: r.kind } });
  });

  // ---- speech ------------------------------------------------------------------------------
  let speechSettings = loadSpeechSettings();
  const synth = createWebSynth(window);
  synth.prefer(speechSettings.voice);
  const speech = new SpeechQueue({
    engine: synth,
    // While voices are still loading, try to speak (zh-CN by lang); with none at all, subtitles only.
    hasVoice: () => synth.status.state === 'loading' || synth.hasVoice(),
    rate: speechSettings.rate,
    volume: speechSettings.volume,
  });
  speech.subscribe((e) => {
    if (e.type === 'utterance-end' && !e.completed && e.reason !== 'stopped')
      recorder.record({ kind: 'speech', at: Date.now(), source: 'speech', name: 'unfinished', data: { text: e.text, reason: e.reason } });
  });
  const ctor = findRecognition(window);
  // Hands-free's voice-activity detector holds its own microphone track (echo cancellation, noise
  // suppression, auto gain); recognition hears that same track where `start(track)` is honoured.
  const vad = createBrowserVad({ deviceId: () => speechSettings.micDeviceId });
  const chosenTrack = trackSource(() => speechSettings.micDeviceId);
  const recognizer = new Recognizer({
    ctor,
    lang: 'zh-CN',
    supportsTrack: supportsStartTrack(ctor),
    getTrack: async () => vad.track ?? (await chosenTrack()),
  });
  void recognizer.init();

  // ---- robot -------------------------------------------------------------------------------
  const robot = createRobotOutput({ speech: robotSpeechProgress(speech), random: seededRandom(browserSeed()), trace: recorder });

  // ---- games -------------------------------------------------------------------------------
  const sources: Array<() => GameDeclaration[]> = [builtinGames];
  // Games designed in the Studio come from the Book at runtime.
  const studioShelf = createStudioShelf();
  sources.push(studioShelf.list);
  // Games added by address (A2A servers elsewhere), kept in IndexedDB.
  const remoteGames = new RemoteGames({
    store: openRemoteStore(),
    installedIds: () => new Set(declarations().map((d) => d.id)),
    installedNames: () => declarations().map((d) => ({ id: d.id, title: d.title, aliases: d.aliases })),
    connectivity: browserConnectivity(),
  });
  sources.push(remoteGames.list);
  const remoteGamesRead = remoteGames.start();
  const declarations = (): GameDeclaration[] => {
    const seen = new Map<string, GameDeclaration>();
    for (const src of sources) for (const d of safe(src)) if (!seen.has(d.id)) seen.set(d.id, d);
    return [...seen.values()];
  };
  const catalog = (): ArcadeGame[] => {
    const caps = robot.output.capabilities();
    return declarations().map((declaration) => {
      const a = declaration.engine === 'remote' ? remoteGames.availability(declaration.id) : gameAvailability(declaration, caps);
      return a.available ? { declaration, available: true } : { declaration, available: false, reason: a.reason };
    });
  };
  // What `ports()` opened for each running worker; closed when the host stops it (crash, hang, stop),
  // so a dead worker's model steps leave the shared queue and its listeners go.
  const workerPorts = new Map<string, () => void>();
  const closeWorkerPorts = (gameId: string) => {
    workerPorts.get(gameId)?.();
    workerPorts.delete(gameId);
  };
  // Both game clients (the A2A SDK's client under them) load on the first game request, not with the first screen.
  const workerGames = lazyGameClient(async () => (await import('../a2a/game-host.ts')).createGameClient({
    spawn(gameId): GameWorker {
      return new Worker(new URL('../../workers/game-agent.ts', import.meta.url), { type: 'module', name: `game-${gameId}` });
    },
    ports(gameId) {
      closeWorkerPorts(gameId); // none expected: the host stops the old worker first
      const device = new MessageChannel();
      exposeDevice(robot.output, device.port1);
      const trace = new MessageChannel();
      const closeTrace = exposeTrace(recorder, trace.port1);
      const model = hub.openPort(playsWithoutBrain(declarations().find((x) => x.id === gameId)) ? rulesAlone : undefined);
      workerPorts.set(gameId, () => {
        model.close();
        device.port1.close();
        closeTrace();
      });
      return { model: model.port, device: device.port2, trace: trace.port2 };
    },
    onStop: closeWorkerPorts,
    cards(gameId): AgentCard | undefined {
      const d = declarations().find((x) => x.id === gameId);
      return d ? agentCardFor(d) : undefined;
    },
    engineOf: (gameId) => declarations().find((x) => x.id === gameId)?.engine,
    seed: browserSeed,
    maxTasks: completedTasksToKeep,
    // A developer switch, only in the test build (AGENTCADE_LAB=1): `?rules-first=off` plays every
    // game without pre-executed steps, as before the rules spoke first (bench/latency --app's "before").
    rulesFirst: () => !(__TEST_BUILD__ && testSwitch('rules-first') === 'off'),
    // The same, `?colour-cut=abort`: a model step the colour window cut is aborted instead of finishing muted.
    mutedFinish: () => !(__TEST_BUILD__ && testSwitch('colour-cut') === 'abort'),
    hangTimeoutMs: hangTimeoutMs(turnBudget()),
    trace: recorder,
  }));
  const ahead = warmAhead(routeGameClients({
    local: workerGames,
    remote: lazyGameClient(async () => (await import('../a2a/remote-host.ts')).createRemoteGameClient({
      game: (id) => remoteGames.game(id),
      onReach: (id, ok, detail) => remoteGames.reach(id, ok, detail),
      stallTimeoutMs: () => remoteWaitSeconds() * 1000,
      trace: recorder,
    })),
    isRemote: (id) => remoteGames.isRemote(id),
  }), catalog, { store: typeof localStorage === 'undefined' ? null : localStorage, later: whenIdle, enabled: () => !(__TEST_BUILD__ && testSwitch('warm-ahead') === 'off') });
  const games = ahead.games;

  // ---- the main agent and the voice loop ---------------------------------------------------
  const chime = createChime(window as unknown as Parameters<typeof createChime>[0]);
  const guard = createSessionGuard();
  const agent = new MainAgent({
    model: () => hub.model(),
    brainReady: () => hub.kind !== undefined,
    playsWithoutBrain: (game) => playsWithoutBrain(game.declaration),
    games,
    catalog,
    speaker: speech,
    trace: recorder,
    startRound: (text) => recorder.startRound(text),
    sessions: guard,
    budget: turnBudget,
    // A remote game the grown-up allowed a longer wait keeps it (its server may run a big model).
    gameWaitMs: (gameId) => (remoteGames.isRemote(gameId) ? Math.max(turnBudget().answerMs, remoteWaitSeconds() * 1000 + 2000) : undefined),
    // A crash or a failed start/end cleared the session without the game's `ended`: the robot
    // leaves the old game's picture for its idle face (after the spoken error).
    onSessionCleared: () => void robot.output.idle().catch((e: unknown) => console.warn('robot idle failed', e)),
    // The instant cue: the thinking face on every robot at once, and the soft sound if wanted.
    cue: new ThinkingCue({
      robot: robot.output,
      sound: () => speechSettings.thinkingSound && chime.play(speechSettings.volume),
      record: (e) => recorder.record({ ...e, source: 'main', at: Date.now() }),
    }),
    // "大声点" / "说慢一点": the same settings the parent's sliders change (persisted).
    voice: {
      adjust(cmd) {
        const r = applyVoiceCommand(speechSettings, cmd);
        if (r.changed) updateSpeechSettings({ volume: r.settings.volume, rate: r.settings.rate });
        return r.changed;
      },
    },
    gamesOnly: () => parental.gamesOnly,
    playAllowed: () => parental.playAllowed,
  });
  // The robot's own notices ("机器人断开了…") go through the one speaking path too.
  robot.output.on('notice', (text) => void agent.voice.say(text, 'main'));
  // A brain chosen while the arcade is idle: the main agent's prompt goes into its cache ahead of the first chat.
  let brainKind: string | undefined;
  hub.subscribe((s) => {
    if (s.kind === brainKind) return;
    brainKind = s.kind;
    if (!s.kind) return;
    agent.prewarm();
    ahead.idle();
  });
  let lastSpoken: string | null = null;
  agent.subscribe((e) => {
    if (e.type === 'spoken') lastSpoken = e.text;
  });
  // What the robot is saying right now (the subtitle), for the echo guard after a barge-in.
  let saying: string | null = null;
  speech.subscribe((e) => {
    if (e.type === 'utterance-start') saying = e.text;
    else if (e.type === 'idle') saying = null;
  });
  const bargeIn = new BargeIn({ vad, speech, allowed: () => speechSettings.bargeIn, now: () => performance.now() });
  const loop = new VoiceLoop({
    mic: recognizer,
    speech,
    mode: speechSettings.micMode,
    onInput: (text) => agent.handle(text),
    lastSpoken: () => lastSpoken,
    activity: bargeIn,
    stopSpeaking: () => agent.stopTalking(),
    subtitle: () => saying,
  });
  // A barge-in is recorded with what the robot was saying (the cut line itself is recorded by the
  // speaking path as spoken but not completed, as after a tap).
  bargeIn.onBargeIn(() => recorder.record({ kind: 'speech', at: Date.now(), source: 'speech', name: 'barge-in', data: { text: saying } }));
  // The microphone is let go while the app is in the background.
  const visibility = () => bargeIn.setVisible(document.visibilityState === 'visible');
  document.addEventListener('visibilitychange', visibility);
  visibility();
  // The child-safety check's tables load once someone uses the app (or at the first line), not with the first screen.
  warmSafetyCheck(window);

  // Play time: counted while a game or a chat goes on; warned once; a gentle end at the limit.
  const playTimer = new PlayTimer({
    controls: parental,
    agent,
    mono: () => performance.now(),
    visible: () => document.visibilityState === 'visible',
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    openRound: (text) => recorder.startRound(text, { source: 'app' }),
    stopListening: () => {
      loop.setEnabled(false);
      recognizer.stop();
    },
  });
  void parentalRead.then(() => playTimer.start());

  // A session interrupted by a reload or crash is ended cleanly, and the child is told (once the added
  // remote games are read back, so an `end` to one of them finds its server).
  void remoteGamesRead
    .then(() => guard.recover(games, { say: (t, roundId) => agent.voice.say(t, 'main', { roundId }), trace: recorder, startRound: (t) => recorder.startRound(t, { source: 'app' }) }))
    .catch(() => undefined);
  // Leaving for good with a game running: `end` with empty text (seed 000 §主 Agent).
  window.addEventListener('pagehide', () => {
    agent.shutdown();
    speech.stop();
    void recorder.flush?.();
  });

  // The parent's settings screen and the voice commands both come here (hoisted: the agent uses it).
  function updateSpeechSettings(patch: Partial<SpeechSettings>): void {
    speechSettings = { ...speechSettings, ...patch };
    saveSpeechSettings(speechSettings);
    speech.setOptions({ rate: speechSettings.rate, volume: speechSettings.volume });
    if (patch.voice !== undefined) synth.prefer(speechSettings.voice);
    if (patch.micMode) loop.setMode(speechSettings.micMode);
    if (patch.bargeIn !== undefined) bargeIn.refresh();
    if (patch.micDeviceId !== undefined && recognizer.listening) {
      recognizer.stop();
      recognizer.start();
    }
  }

  return {
    hub,
    controller,
    recorder,
    traceStore,
    speech,
    voice: agent.voice,
    synth,
    recognizer,
    loop,
    bargeIn,
    robot,
    games,
    remoteGames,
    agent,
    guard,
    parental,
    catalog,
    addGames(source) {
      sources.push(source);
    },
    onGamesChanged(fn) {
      const offStudio = studioShelf.onChange(fn);
      const offRemote = remoteGames.onChange(fn);
      return () => {
        offStudio();
        offRemote();
      };
    },
    get speechSettings() {
      return speechSettings;
    },
    updateSpeechSettings,
    input: (text) => loop.submit(text),
    stopTalking: () => agent.stopTalking(),
    studio: () => import('./studio/studio-setup.ts').then((m) => m.createStudio({ hub, voice: agent.voice, recognizer, speech, loop, catalog, stopTalking: () => agent.stopTalking() })),
  };
}

/** A developer switch of the test build (`?rules-first=off`, `?warm-ahead=off`, …), read from the page's address. */
function testSwitch(name: string): string | null {
  return typeof location === 'undefined' ? null : new URLSearchParams(location.search).get(name);
}

/** A fresh 32-bit seed from the browser's crypto source: everything random in the app starts here. */
function browserSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

function safe<T>(fn: () => T[]): T[] {
  try {
    return fn();
  } catch (e) {
    console.error('game source failed', e);
    return [];
  }
}
