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
  let keepAlive: ReturnType<typeof setInterval> | null = null;

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

  const stopKeepAlive = () => {
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = null;
  };

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
      const u = new Utterance(piece);
      u.lang = voice?.lang ?? 'zh-CN';
      if (voice) u.voice = voice;
      u.rate = opts.rate;
      u.volume = opts.volume;
      live.add(u);
      const release = () => {
        live.delete(u);
        stopKeepAlive();
      };
      u.onstart = () => {
        cb.onStart();
        if (voice && !voice.localService) {
          stopKeepAlive();
          keepAlive = setInterval(() => {
            synth.pause();
            synth.resume();
          }, 10_000);
        }
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
      stopKeepAlive();
      synth?.cancel();
    },
  };
}
