/**
 * The app's life around the main agent: the grown-up's controls (an unlock ends after a few idle
 * minutes), play time (counted while a game or a chat goes on; warned once; a gentle end at the
 * limit), a session interrupted by a reload or crash ended cleanly with the child told (once the
 * added remote games are read back, so an `end` to one of them finds its server), and leaving for
 * good with a game running: `end` with empty text (seed 000 §主 Agent).
 */
import type { MainAgent } from '../../arcade/main-agent.ts';
import type { GameClient } from '../../a2a/types.ts';
import { browserLocalTime, ParentalControls } from '../../parental/parental-controls.ts';
import { openParentalStore } from '../../parental/parental-store.ts';
import { PlayTimer } from '../../parental/play-timer.ts';
import { randomValues } from '../../parental/secret.ts';
import type { Recognizer } from '../../speech/recognizer.ts';
import type { SpeechQueue } from '../../speech/tts-queue.ts';
import type { VoiceLoop } from '../../speech/voice-loop.ts';
import type { TraceRecorder } from '../../trace/recorder.ts';
import type { SessionGuard } from '../../trace/session-guard.ts';

export function createParental(): { parental: ParentalControls; read: Promise<unknown> } {
  const parental = new ParentalControls({ store: openParentalStore(), now: () => Date.now(), mono: () => performance.now(), local: browserLocalTime, random: randomValues });
  const read = parental.load().catch((e: unknown) => console.error('parental controls', e));
  setInterval(() => parental.checkIdle(), 5000);
  return { parental, read };
}

interface Deps {
  agent: MainAgent;
  parental: { parental: ParentalControls; read: Promise<unknown> };
  recorder: TraceRecorder;
  loop: VoiceLoop;
  recognizer: Recognizer;
  speech: SpeechQueue;
  guard: SessionGuard;
  games: GameClient;
  remoteGamesRead: Promise<unknown>;
}

export function startLifecycle(d: Deps): void {
  const { agent, recorder } = d;
  const playTimer = new PlayTimer({
    controls: d.parental.parental,
    agent,
    mono: () => performance.now(),
    visible: () => document.visibilityState === 'visible',
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    openRound: (text) => recorder.startRound(text, { source: 'app' }),
    stopListening: () => {
      d.loop.setEnabled(false);
      d.recognizer.stop();
    },
  });
  void d.parental.read.then(() => playTimer.start());
  void d.remoteGamesRead
    .then(() => d.guard.recover(d.games, { say: (t, roundId) => agent.voice.say(t, 'main', { roundId }), trace: recorder, startRound: (t) => recorder.startRound(t, { source: 'app' }) }))
    .catch(() => undefined);
  window.addEventListener('pagehide', () => {
    agent.shutdown();
    d.speech.stop();
    void recorder.flush?.();
  });
}
