/**
 * Voice settings a parent sets once (kept in localStorage: tiny, synchronous at start-up):
 * volume, rate, the voice, push-to-talk or hands-free, which microphone to hear, and whether a soft
 * sound says "I heard you, I'm thinking".
 */
import type { VoiceCommand } from '../core/arcade/intents.ts';
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
  /** A short soft sound when the child has finished speaking and the robot starts thinking. */
  thinkingSound: boolean;
  /** 说话时可以打断: in hands-free mode, a child talking over the robot stops it (barge-in). */
  bargeIn: boolean;
}

const KEY = 'agentcade.speech-settings';

export function defaultSpeechSettings(): SpeechSettings {
  return { volume: 1, rate: 1, voice: '', micMode: 'push-to-talk', micDeviceId: '', micLabel: '', thinkingSound: false, bargeIn: true };
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
    thinkingSound: r.thinkingSound === true,
    bargeIn: r.bargeIn !== false,
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

/**
 * Limits of a voice command ("大声点", "说慢一点"). A command never goes quieter
 * than 0.2 — a child must still hear the robot answer — and keeps the rate inside the settings
 * slider's range. One command moves one step.
 */
export const VOICE_STEPS = {
  volume: { step: 0.2, min: 0.2, max: 1 },
  rate: { step: 0.2, min: 0.6, max: 1.4 },
} as const;

/**
 * The settings after one voice command, and whether anything changed (false: already at the limit,
 * e.g. "大声点" at full volume). Values are rounded to one decimal so repeated steps stay exact.
 */
export function applyVoiceCommand(s: SpeechSettings, cmd: VoiceCommand): { settings: SpeechSettings; changed: boolean } {
  const key = cmd === 'louder' || cmd === 'quieter' ? 'volume' : 'rate';
  const { step, min, max } = VOICE_STEPS[key];
  const dir = cmd === 'louder' || cmd === 'faster' ? 1 : -1;
  const now = s[key];
  // Outside the command's range (a parent's slider): first bring it inside, in the asked direction.
  const next = Math.round(Math.min(max, Math.max(min, now + dir * step)) * 10) / 10;
  const changed = dir > 0 ? next > now : next < now;
  return { settings: changed ? { ...s, [key]: next } : s, changed };
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}
