/**
 * Choosing a Chinese voice robustly (research hw-speech §5): voices load late, tags vary
 * (zh-CN, zh_CN, cmn, cmn-CN, cmn-Hans-CN), and network voices (Google 普通话) fail offline —
 * so a local Mandarin voice wins, then any Mandarin voice; Cantonese is a last resort.
 */
export interface VoiceLike {
  name: string;
  lang: string;
  localService: boolean;
  default?: boolean;
  voiceURI?: string;
}

function langScore(lang: string): number {
  const l = lang.replace(/_/g, '-').toLowerCase();
  if (/^(zh-cn|zh-hans-cn|zh-hans|cmn-cn|cmn-hans-cn|cmn-hans)$/.test(l) || l === 'cmn') return 3;
  if (l.startsWith('cmn')) return 2.5; // cmn-latn-pinyin and the like (espeak-ng)
  if (/^zh-(sg|my)/.test(l)) return 2.5;
  if (/^zh-(tw|hant)/.test(l)) return 2;
  if (l === 'zh') return 2.5;
  if (/^(zh-hk|yue)/.test(l)) return 0.5; // Cantonese: understood, but not Mandarin
  return 0;
}

export function voiceScore(v: VoiceLike, preferred?: string): number {
  const base = langScore(v.lang);
  if (base === 0) return 0;
  let s = base;
  if (v.localService) s += 1.5;
  if (v.default) s += 0.1;
  if (preferred && (v.name === preferred || v.voiceURI === preferred)) s += 10;
  return s;
}

/** The best Chinese voice, or null when none is installed (then the app shows subtitles only). */
export function pickVoice<V extends VoiceLike>(voices: readonly V[], preferred?: string): V | null {
  let best: V | null = null;
  let bestScore = 0;
  for (const v of voices) {
    const s = voiceScore(v, preferred);
    if (s > bestScore) {
      best = v;
      bestScore = s;
    }
  }
  return best;
}

/** All Chinese voices, best first (the settings screen offers them). */
export function chineseVoices<V extends VoiceLike>(voices: readonly V[]): V[] {
  return voices.filter((v) => voiceScore(v) > 0).sort((a, b) => voiceScore(b) - voiceScore(a));
}

export interface VoiceSource<V> {
  getVoices(): V[];
  addEventListener(type: 'voiceschanged', fn: () => void): void;
  removeEventListener(type: 'voiceschanged', fn: () => void): void;
}

/** Voices once they have loaded: on `voiceschanged` or by polling, giving up after `timeoutMs` (then []). */
export function waitForVoices<V>(src: VoiceSource<V>, timeoutMs = 3000, pollMs = 250): Promise<V[]> {
  const now = src.getVoices();
  if (now.length) return Promise.resolve(now);
  return new Promise((resolve) => {
    const finish = () => {
      clearInterval(poll);
      clearTimeout(limit);
      src.removeEventListener('voiceschanged', check);
      resolve(src.getVoices());
    };
    const check = () => {
      if (src.getVoices().length) finish();
    };
    src.addEventListener('voiceschanged', check);
    const poll = setInterval(check, pollMs);
    const limit = setTimeout(finish, timeoutMs);
  });
}
