/**
 * What works now, and what still works without the network, part by part — the app itself, the
 * brain, listening, speaking, the robot — and one verdict: 「可以离线游戏」 only when every part a
 * game needs works offline. Pure: the facts are gathered at the edges (src/ui/app-status.svelte.ts)
 * and the words are decided here once, for the header's compact line and 设置's status card.
 *
 * Nothing here claims more than the facts say: a brain on the home computer is "set up", never
 * "connected", until a step or a connection test reached it; recognition by the browser's service
 * needs the network (Chrome's `webkitSpeechRecognition` sends audio to a server unless an on-device
 * language pack is installed); a voice that is not `localService` needs the network to speak.
 */

export type PartId = 'app' | 'brain' | 'listening' | 'speaking' | 'robot';

/** The brain, whichever engine it is (the engine's own facts are turned into these in src/llm/brain-status.ts). */
export interface BrainFacts {
  /** A grown-up has chosen a brain (the untouched default is not a choice). */
  chosen: boolean;
  /** Its name for a parent: 「规则大脑」, 「本机大脑 Qwen2.5-1.5B」, 「家里的电脑（192.168.1.20）」. */
  label: string;
  /** It answers now. */
  ready: boolean;
  /** It answers with the network off (a downloaded local model, the demo script). */
  offline: boolean;
  /** What it is doing or waiting for, for a parent (「下载中 42%」, 「上次连接失败：…」). */
  note?: string;
  /** Not ready: why, in a few words for the header (「下载中 42%」, 「没下载成功」, 「连不上」). */
  waiting?: string;
}

export type ListeningPlace = 'on-device' | 'network' | 'none';

export interface StatusFacts {
  /** navigator.onLine. */
  online: boolean;
  app: {
    /** The service worker holds the app (every screen and game loads without the network). */
    cached: boolean;
    /** This page can be kept at all (a service worker in a secure context). */
    canCache: boolean;
  };
  brain: BrainFacts;
  listening: {
    /** Where recognition runs: on this device, on the browser's service, or not at all. */
    place: ListeningPlace;
    /** The microphone's state: 'denied' and 'no-mic' mean it cannot listen now. */
    mic: 'ok' | 'denied' | 'no-mic' | 'network' | 'error';
    /**
     * Barge-in's voice-activity detector (runs on this device, in hands-free mode): 'unused' when
     * hands-free or 说话时可以打断 is off; a failure names its cause.
     */
    bargeIn?: 'unused' | 'loading' | 'on' | 'off' | 'denied' | 'no-mic' | 'no-wasm' | 'load-failed';
  };
  speaking: { state: 'loading' | 'ready' | 'none' | 'unsupported'; voice?: string; local?: boolean };
  robot: { usb: 'ready' | 'connecting' | 'lost' | 'none'; canConnect: boolean };
}

export interface PartStatus {
  id: PartId;
  /** 应用 / 大脑 / 听 / 说 / 机器人. */
  title: string;
  /** A few words for the header's line. */
  short: string;
  /** One plain sentence for 设置. */
  detail: string;
  /** Works now. */
  ok: boolean;
  /** Works with the network off. */
  offline: boolean;
}

export type VerdictLevel = 'offline' | 'partly' | 'online-only' | 'not-ready';

export interface Verdict {
  level: VerdictLevel;
  /** 「可以离线游戏」 only at level `offline`. */
  text: string;
  /** Each part that would stop (or is missing) with the network off, in plain words. */
  missing: string[];
}

function app(f: StatusFacts): PartStatus {
  if (f.app.cached) return { id: 'app', title: '应用', short: '应用已存好', detail: '应用已经存在这台设备上，断网也能打开。', ok: true, offline: true };
  if (!f.app.canCache)
    return { id: 'app', title: '应用', short: '应用不能离线', detail: '这个地址不能把应用存到设备上（要用 https 打开），断网后打不开。', ok: true, offline: false };
  return { id: 'app', title: '应用', short: '应用还没存好', detail: '应用还在存到这台设备上，请保持联网再打开一次。', ok: true, offline: false };
}

function brain(f: StatusFacts): PartStatus {
  const b = f.brain;
  if (!b.chosen) return { id: 'brain', title: '大脑', short: '还没有大脑', detail: `还没有选大脑：${b.note ?? '点「选大脑」选一个。'}`, ok: false, offline: false };
  const note = b.note ? `（${b.note}）` : '';
  if (!b.ready) return { id: 'brain', title: '大脑', short: `大脑：${b.label}（${b.waiting ?? '还没准备好'}）`, detail: `${b.label}还没准备好${note}。`, ok: false, offline: false };
  return b.offline
    ? { id: 'brain', title: '大脑', short: `大脑：${b.label}`, detail: `${b.label}，断网也能用${note}。`, ok: true, offline: true }
    : { id: 'brain', title: '大脑', short: `大脑：${b.label}（要联网）`, detail: `${b.label}，要联网才能用${note}。`, ok: true, offline: false };
}

/** One plain sentence about talking over the robot (hands-free), or '' when it is not in use. */
export function bargeInSentence(state: StatusFacts['listening']['bargeIn']): string {
  switch (state) {
    case 'on':
      return '说话时可以打断：在这台设备上听小朋友开口，断网也能用。';
    case 'loading':
      return '说话时可以打断：正在准备。';
    case 'off':
      return '说话时可以打断：等机器人开始听时打开。';
    case 'denied':
      return '说话时不能打断：麦克风没有被允许，要等机器人说完再说。';
    case 'no-mic':
      return '说话时不能打断：没有找到麦克风，要等机器人说完再说。';
    case 'no-wasm':
      return '说话时不能打断：这个浏览器太旧，听不出小朋友开口，要等机器人说完再说。';
    case 'load-failed':
      return '说话时不能打断：听声音的小程序没能打开，要等机器人说完再说。';
    default:
      return '';
  }
}

function listening(f: StatusFacts): PartStatus {
  const p = listeningPlace(f);
  const extra = bargeInSentence(f.listening.bargeIn);
  return extra ? { ...p, detail: `${p.detail}${extra}` } : p;
}

function listeningPlace(f: StatusFacts): PartStatus {
  const l = f.listening;
  const base = { id: 'listening' as const, title: '听' };
  if (l.place === 'none') return { ...base, short: '听：不能（请打字）', detail: '这个浏览器听不懂说话，请在游戏厅的文字框里打字。', ok: false, offline: false };
  if (l.mic === 'denied') return { ...base, short: '听：麦克风没被允许', detail: '麦克风没有被允许：请在浏览器的网站设置里允许麦克风，或者打字。', ok: false, offline: l.place === 'on-device' };
  if (l.mic === 'no-mic') return { ...base, short: '听：没有麦克风', detail: '没有找到麦克风：请检查连接，或者打字。', ok: false, offline: l.place === 'on-device' };
  if (l.place === 'on-device') return { ...base, short: '听：在本机', detail: '在这台设备上听懂说话，断网也能听。', ok: true, offline: true };
  if (!f.online) return { ...base, short: '听：断网了（请打字）', detail: '听懂说话要用浏览器的联网服务，现在断网了，请打字。', ok: false, offline: false };
  if (l.mic === 'network') return { ...base, short: '听：连不上识别服务', detail: '浏览器的语音识别服务连不上，请检查网络，或者打字。', ok: false, offline: false };
  return { ...base, short: '听：要联网', detail: '听懂说话要用浏览器的联网服务：断网后听不懂，要打字。', ok: true, offline: false };
}

function speaking(f: StatusFacts): PartStatus {
  const s = f.speaking;
  const base = { id: 'speaking' as const, title: '说' };
  if (s.state === 'loading') return { ...base, short: '说：正在找声音', detail: '正在找中文语音。', ok: false, offline: false };
  if (s.state !== 'ready') return { ...base, short: '说：无中文语音（只有字幕）', detail: '这台设备没有中文语音，机器人说的话只显示成字幕。', ok: false, offline: false };
  return s.local
    ? { ...base, short: `说：${s.voice}`, detail: `用「${s.voice}」说话，这个声音在本机，断网也能说。`, ok: true, offline: true }
    : { ...base, short: `说：${s.voice}（要联网）`, detail: `用「${s.voice}」说话，这个声音要联网：断网后只显示字幕。`, ok: true, offline: false };
}

function robot(f: StatusFacts): PartStatus {
  const r = f.robot;
  const base = { id: 'robot' as const, title: '机器人', ok: true, offline: true };
  switch (r.usb) {
    case 'ready':
      return { ...base, short: '机器人：已连接', detail: '桌上的机器人连好了（USB）。' };
    case 'connecting':
      return { ...base, short: '机器人：正在连接…', detail: '正在连接桌上的机器人，先用屏幕上的机器人。' };
    case 'lost':
      return { ...base, short: '机器人断开了 · 屏幕机器人', detail: '桌上的机器人断开了，屏幕上的机器人接着玩。' };
    default:
      return { ...base, short: '屏幕机器人', detail: r.canConnect ? '用屏幕上的机器人；插上桌上的机器人后点「连接机器人」。' : '这台设备连不了 USB 机器人，用屏幕上的机器人。' };
  }
}

/** Every part, in the order a parent reads them. */
export function partStatuses(f: StatusFacts): PartStatus[] {
  return [app(f), brain(f), listening(f), speaking(f), robot(f)];
}

/**
 * The offline verdict. A game needs the app, a brain, a way to hear the child and a way to answer;
 * typing and subtitles stand in for listening and speaking, so those make the verdict `partly`,
 * never `offline`. `parts` are `partStatuses(f)`, for a caller that has them already.
 */
export function offlineVerdict(f: StatusFacts, parts: readonly PartStatus[] = partStatuses(f)): Verdict {
  const get = (id: PartId) => parts.find((p) => p.id === id)!;
  if (!f.brain.chosen || !f.brain.ready) return { level: 'not-ready', text: f.brain.chosen ? '大脑还没准备好' : '还没有大脑', missing: [get('brain').detail] };
  const missing: string[] = [];
  if (!get('app').offline) missing.push(f.app.canCache ? '应用还没存到这台设备上' : '应用不能存到这台设备上');
  if (!get('brain').offline) missing.push('大脑要联网');
  if (missing.length) return { level: 'online-only', text: `断网后不能玩：${missing.join('，')}`, missing };
  const partly: string[] = [];
  if (f.listening.place !== 'none' && !get('listening').offline) partly.push('听不懂说话（要打字）');
  if (f.speaking.state === 'ready' && !get('speaking').offline) partly.push('不能出声（只有字幕）');
  if (partly.length) return { level: 'partly', text: `断网也能玩，但${partly.join('，')}`, missing: partly };
  return { level: 'offline', text: '可以离线游戏', missing: [] };
}
