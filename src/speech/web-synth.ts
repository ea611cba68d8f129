/**
 * The browser's speechSynthesis as a SynthEngine. Chooses a local Mandarin voice once voices have
 * loaded (and again whenever they change), keeps a reference to every live utterance (GC bugs),
 * and nudges network voices with pause/resume every 10 s (Chromium's ~15 s cut-off).
 */
import { pickVoice, waitForVoices } from './voices.ts';
import type { PieceCallbacks, SynthEngine, SynthOptions } from './types.ts';

export interface VoiceStatus {
  state: 'loading' | 'ready' | 'none' | 'unsupported';
  name?: string;
  lang?: string;
  local?: boolean;
}

export interface WebSynth extends SynthEngine {
  readonly status: VoiceStatus;
  hasVoice(): boolean;
  /** Resolves once the first voice list is known (or the wait timed out). */
  ready: Promise<VoiceStatus>;
  /** Use this voice (name or voiceURI) when present; empty = automatic choice. */
  prefer(name: string): void;
  voices(): SpeechSynthesisVoice[];
  onStatus(fn: (s: VoiceStatus) => void): () => void;
}

export function createWebSynth(win: Window & typeof globalThis = window): WebSynth {
  const synth: SpeechSynthesis | undefined = win.speechSynthesis;
  const Utterance = win.SpeechSynthesisUtterance;
  let voice: SpeechSynthesisVoice | null = null;
  let preferred = '';
  let status: VoiceStatus = synth && Utterance ? { state: 'loading' } : { state: 'unsupported' };
  const live = new Set<SpeechSynthesisUtterance>();
  const listeners = new Set<(s: VoiceStatus) => void>();
  const alive = keepAlive(synth);

  const choose = () => {
    if (!synth) return;
    const list = synth.getVoices();
    voice = pickVoice(list, preferred || undefined);
    status = voice
      ? { state: 'ready', name: voice.name, lang: voice.lang, local: voice.localService }
      : { state: list.length || status.state !== 'loading' ? 'none' : 'loading' };
    for (const fn of listeners) fn(status);
  };

  const ready: Promise<VoiceStatus> = synth
    ? waitForVoices(synth).then(() => {
        if (status.state === 'loading') status = { state: 'none' };
        choose();
        synth.addEventListener('voiceschanged', choose);
        return status;
      })
    : Promise.resolve(status);

  win.addEventListener?.('pagehide', () => synth?.cancel());

  return {
    get status() {
      return status;
    },
    ready,
    hasVoice: () => voice !== null,
    voices: () => synth?.getVoices() ?? [],
    prefer(name: string) {
      preferred = name;
      choose();
    },
    onStatus(fn) {
      listeners.add(fn);
      fn(status);
      return () => listeners.delete(fn);
    },
    speak(piece: string, opts: SynthOptions, cb: PieceCallbacks) {
      if (!synth || !Utterance) {
        cb.onError('unsupported');
        return;
      }
      const u = utterance(Utterance, piece, voice, opts);
      live.add(u);
      const release = () => {
        live.delete(u);
        alive.stop();
      };
      u.onstart = () => {
        cb.onStart();
        if (voice && !voice.localService) alive.start();
      };
      u.onend = () => {
        release();
        cb.onEnd();
      };
      u.onerror = (e: SpeechSynthesisErrorEvent) => {
        release();
        cb.onError(e.error ?? 'failed');
      };
      synth.speak(u);
    },
    cancel() {
      alive.stop();
      synth?.cancel();
    },
  };
}

/** One piece as an utterance in the chosen voice (zh-CN when none is chosen), at the given rate and volume. */
function utterance(Utterance: typeof SpeechSynthesisUtterance, piece: string, voice: SpeechSynthesisVoice | null, opts: SynthOptions): SpeechSynthesisUtterance {
  const u = new Utterance(piece);
  u.lang = voice?.lang ?? 'zh-CN';
  if (voice) u.voice = voice;
  u.rate = opts.rate;
  u.volume = opts.volume;
  return u;
}

/** A network voice is nudged with pause/resume every 10 s while it speaks (Chromium cuts it off after ~15 s). */
function keepAlive(synth: SpeechSynthesis | undefined): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  return {
    stop,
    start() {
      stop();
      if (!synth) return;
      timer = setInterval(() => {
        synth.pause();
        synth.resume();
      }, 10_000);
    },
  };
}
