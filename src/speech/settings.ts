/**
 * Voice settings a parent sets once (kept in localStorage: tiny, synchronous at start-up):
 * volume, rate, the voice, push-to-talk or hands-free, and which microphone to hear.
 */
import type { MicMode } from './voice-loop.ts';

export interface SpeechSettings {
  volume: number;
  rate: number;
  /** Voice name; '' = choose automatically (a local Mandarin voice). */
  voice: string;
  micMode: MicMode;
  /** MediaDeviceInfo.deviceId of the chosen input (robot / USB headset); '' = the tablet's default. */
  micDeviceId: string;
  micLabel: string;
}

const KEY = 'agentcade.speech-settings';

export function defaultSpeechSettings(): SpeechSettings {
  return { volume: 1, rate: 1, voice: '', micMode: 'push-to-talk', micDeviceId: '', micLabel: '' };
}

const clamp = (v: unknown, lo: number, hi: number, d: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : d);

export function parseSpeechSettings(raw: unknown): SpeechSettings {
  const d = defaultSpeechSettings();
  if (!raw || typeof raw !== 'object') return d;
  const r = raw as Record<string, unknown>;
  return {
    volume: clamp(r.volume, 0, 1, d.volume),
    rate: clamp(r.rate, 0.5, 1.5, d.rate),
    voice: typeof r.voice === 'string' ? r.voice : d.voice,
    micMode: r.micMode === 'hands-free' ? 'hands-free' : 'push-to-talk',
    micDeviceId: typeof r.micDeviceId === 'string' ? r.micDeviceId : '',
    micLabel: typeof r.micLabel === 'string' ? r.micLabel : '',
  };
}

export function loadSpeechSettings(storage: Pick<Storage, 'getItem'> | null = safeStorage()): SpeechSettings {
  try {
    return parseSpeechSettings(JSON.parse(storage?.getItem(KEY) ?? 'null'));
  } catch {
    return defaultSpeechSettings();
  }
}

export function saveSpeechSettings(s: SpeechSettings, storage: Pick<Storage, 'setItem'> | null = safeStorage()): void {
  try {
    storage?.setItem(KEY, JSON.stringify(s));
  } catch {
    /* storage full or disabled: the settings still apply for this visit */
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
