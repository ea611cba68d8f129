/**
 * The composition root: builds the model hub and its controller (./runtime/brain.ts), the trace
 * recorder (./runtime/trace.ts), speech (speaking queue + recognizer: ./runtime/speech.ts; the
 * half-duplex loop: ./runtime/voice-loop.ts), the robot output, the GameClient with one Web Worker
 * per game (ports: a2a, model, device, trace: ./runtime/games.ts) and the main agent
 * (./runtime/agent.ts), and wires them (./runtime/lifecycle.ts: the grown-up's controls, play
 * time, recovery, leaving). Svelte screens only read from and call into the object returned here
 * (the Studio through the controller `studio()` makes).
 */
import type { GameClient } from '../a2a/types.ts';
import type { RemoteGames } from '../a2a/remote-games.ts';
import type { ModelController } from '../llm/model-controller.ts';
import { modelHub, type ModelHub } from '../llm/model-hub.ts';
import type { MainAgent } from '../arcade/main-agent.ts';
import { warmSafetyCheck } from '../arcade/safety-screen.ts';
import type { SpeakingPath } from '../arcade/speaking-path.ts';
import type { ArcadeGame } from '../core/arcade/types.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import { seededRandom } from '../core/random.ts';
import { createRobotOutput, type RobotSetup } from '../robot/create-robot-output.ts';
import type { Recognizer } from '../speech/recognizer.ts';
import { robotSpeechProgress } from '../speech/robot-progress.ts';
import { saveSpeechSettings, type SpeechSettings } from '../speech/settings.ts';
import type { SpeechQueue } from '../speech/tts-queue.ts';
import type { VoiceLoop } from '../speech/voice-loop.ts';
import type { BargeIn } from '../speech/barge-in.ts';
import type { WebSynth } from '../speech/web-synth.ts';
import type { TraceRecorder } from '../trace/recorder.ts';
import { createSessionGuard, type SessionGuard } from '../trace/session-guard.ts';
import type { StudioController } from '../studio/studio-controller.ts';
import type { ParentalControls } from '../parental/parental-controls.ts';
import type { TraceStore } from '../trace/trace-store.ts';
import { createBrain } from './runtime/brain.ts';
import { createTrace } from './runtime/trace.ts';
import { createSpeech } from './runtime/speech.ts';
import { createGames } from './runtime/games.ts';
import { createMainAgent } from './runtime/agent.ts';
import { createVoiceLoop } from './runtime/voice-loop.ts';
import { createParental, startLifecycle } from './runtime/lifecycle.ts';
import { browserSeed } from './runtime/browser.ts';

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
  const brain = createBrain(hub);
  const parental = createParental();
  const { traceStore, recorder } = createTrace(hub);
  const sp = createSpeech(recorder);
  const { settings, synth, speech, recognizer } = sp;
  const robot = createRobotOutput({ speech: robotSpeechProgress(speech), random: seededRandom(browserSeed()), trace: recorder });
  const games = createGames({ hub, robot, recorder, brain });
  const guard = createSessionGuard();
  const agent = createMainAgent({ hub, brain, games, speech, settings, updateSpeechSettings, recorder, guard, robot, parental: parental.parental });
  const { loop, bargeIn } = createVoiceLoop(sp, agent, recorder);
  // The child-safety check's tables load once someone uses the app (or at the first line), not with the first screen.
  warmSafetyCheck(window);
  startLifecycle({ agent, parental, recorder, loop, recognizer, speech, guard, games: games.games, remoteGamesRead: games.remoteGamesRead });

  // The parent's settings screen and the voice commands both come here (hoisted: the agent uses it).
  function updateSpeechSettings(patch: Partial<SpeechSettings>): void {
    const now = (settings.current = { ...settings.current, ...patch });
    saveSpeechSettings(now);
    speech.setOptions({ rate: now.rate, volume: now.volume });
    if (patch.voice !== undefined) synth.prefer(now.voice);
    if (patch.micMode) loop.setMode(now.micMode);
    if (patch.bargeIn !== undefined) bargeIn.refresh();
    if (patch.micDeviceId !== undefined && recognizer.listening) {
      recognizer.stop();
      recognizer.start();
    }
  }

  const catalog = games.catalog;
  return {
    hub,
    controller: brain.controller,
    recorder,
    traceStore,
    speech,
    voice: agent.voice,
    synth,
    recognizer,
    loop,
    bargeIn,
    robot,
    games: games.games,
    remoteGames: games.remoteGames,
    agent,
    guard,
    parental: parental.parental,
    catalog,
    addGames: games.addSource,
    onGamesChanged: games.onGamesChanged,
    get speechSettings() {
      return settings.current;
    },
    updateSpeechSettings,
    input: (text) => loop.submit(text),
    stopTalking: () => agent.stopTalking(),
    studio: () => import('./studio/studio-setup.ts').then((m) => m.createStudio({ hub, voice: agent.voice, recognizer, speech, loop, catalog, stopTalking: () => agent.stopTalking() })),
  };
}
