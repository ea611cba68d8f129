/**
 * The main agent over the hub, the games and the speaking queue: the one speaking path, the instant
 * thinking cue (the face on every robot at once, the soft sound if wanted), the voice commands on
 * the parent's own speech settings. A brain chosen while the arcade is idle: the main agent's
 * prompt goes into its cache ahead of the first chat, and the likely next game's worker starts.
 */
import { MainAgent } from '../../arcade/main-agent.ts';
import { ThinkingCue } from '../../arcade/thinking-cue.ts';
import { turnBudget } from '../../arcade/turn-budget-setting.ts';
import { remoteWaitSeconds } from '../../a2a/remote-settings.ts';
import type { ModelHub } from '../../llm/model-hub.ts';
import type { ParentalControls } from '../../parental/parental-controls.ts';
import type { RobotSetup } from '../../robot/create-robot-output.ts';
import { createChime } from '../../speech/chime.ts';
import { applyVoiceCommand, type SpeechSettings } from '../../speech/settings.ts';
import type { SpeechQueue } from '../../speech/tts-queue.ts';
import type { TraceRecorder } from '../../trace/recorder.ts';
import type { SessionGuard } from '../../trace/session-guard.ts';
import type { Brain } from './brain.ts';
import type { GamesParts } from './games.ts';
import { testSwitch } from './browser.ts';

interface Deps {
  hub: ModelHub;
  brain: Brain;
  games: GamesParts;
  speech: SpeechQueue;
  settings: { current: SpeechSettings };
  updateSpeechSettings(patch: Partial<SpeechSettings>): void;
  recorder: TraceRecorder;
  guard: SessionGuard;
  robot: RobotSetup;
  parental: ParentalControls;
}

export function createMainAgent(d: Deps): MainAgent {
  const { hub, robot, recorder, settings } = d;
  const chime = createChime(window as unknown as Parameters<typeof createChime>[0]);
  const agent = new MainAgent({
    model: () => hub.model(),
    brainReady: () => hub.kind !== undefined,
    playsWithoutBrain: (game) => d.brain.playsWithoutBrain(game.declaration),
    games: d.games.games,
    catalog: d.games.catalog,
    speaker: d.speech,
    trace: recorder,
    startRound: (text) => recorder.startRound(text),
    sessions: d.guard,
    budget: turnBudget,
    // A remote game the grown-up allowed a longer wait keeps it (its server may run a big model).
    gameWaitMs: (gameId) => (d.games.remoteGames.isRemote(gameId) ? Math.max(turnBudget().answerMs, remoteWaitSeconds() * 1000 + 2000) : undefined),
    // A crash or a failed start/end cleared the session without the game's `ended`: the robot
    // leaves the old game's picture for its idle face (after the spoken error).
    onSessionCleared: () => void robot.output.idle().catch((e: unknown) => console.warn('robot idle failed', e)),
    cue: new ThinkingCue({
      robot: robot.output,
      sound: () => settings.current.thinkingSound && chime.play(settings.current.volume),
      record: (e) => recorder.record({ ...e, source: 'main', at: Date.now() }),
    }),
    // "大声点" / "说慢一点": the same settings the parent's sliders change (persisted).
    voice: {
      adjust(cmd) {
        const r = applyVoiceCommand(settings.current, cmd);
        if (r.changed) d.updateSpeechSettings({ volume: r.settings.volume, rate: r.settings.rate });
        return r.changed;
      },
    },
    gamesOnly: () => d.parental.gamesOnly,
    playAllowed: () => d.parental.playAllowed,
    // In a game, a brain measured too slow on this device for the turn budget leaves the chat to
    // the main agent's rules. A developer switch, only in the test build: `?main-in-game=model` —
    // the main agent's model decides in a game on every engine, as before its rules did.
    rulesInGame: () => (__TEST_BUILD__ && testSwitch('main-in-game') === 'model' ? 'never' : d.brain.tooSlowHere() ? 'always' : 'on-switch'),
  });
  // The robot's own notices ("机器人断开了…") go through the one speaking path too.
  robot.output.on('notice', (text) => void agent.voice.say(text, 'main'));
  let brainKind: string | undefined;
  hub.subscribe((s) => {
    if (s.kind === brainKind) return;
    brainKind = s.kind;
    if (!s.kind) return;
    agent.prewarm();
    d.games.ahead.idle();
  });
  return agent;
}
