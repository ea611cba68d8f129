/**
 * Barge-in in hands-free mode: the voice-activity gate and the echo guards (pure), and the loop
 * with the speaking queue and a detector fed frame by frame.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_VOICE_ACTIVITY, followsPlayback, VoiceActivityGate, type VadFrame } from '../../../src/core/speech/voice-activity.ts';
import { echoSimilarity, isSubtitleEcho } from '../../../src/core/speech/echo.ts';
import { bargeInSentence, partStatuses, type StatusFacts } from '../../../src/core/status/readiness.ts';
import { BargeIn } from '../../../src/speech/barge-in.ts';
import { Recognizer } from '../../../src/speech/recognizer.ts';
import { SpeechQueue } from '../../../src/speech/tts-queue.ts';
import type { SpokenOutcome } from '../../../src/core/arcade/types.ts';
import { vadSupported, type MicFrame, type VadState } from '../../../src/speech/vad.ts';
import { VoiceLoop } from '../../../src/speech/voice-loop.ts';
import { FakeRecognition, FakeSynth } from './fakes.ts';

const F = DEFAULT_VOICE_ACTIVITY.frameMs;
/** Frames from `from` ms, one per 32 ms, with these probabilities. */
const frames = (from: number, probs: number[]): VadFrame[] => probs.map((prob, i) => ({ t: from + (i + 1) * F, prob }));
const run = (gate: VoiceActivityGate, fs: VadFrame[]) => fs.map((f) => gate.feed(f)).filter((e) => e !== null);

describe('the voice-activity gate', () => {
  it('speech starts once a voice has lasted minSpeechMs (160 ms), and ends after the quiet spell', () => {
    const g = new VoiceActivityGate();
    const ev = run(g, frames(0, [0.1, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.6, 0.9, ...Array(20).fill(0.05)]));
    expect(ev.map((e) => e.type)).toEqual(['speech-start', 'speech-end']);
    expect(ev[0].onset).toBe(F); // the first voiced frame began at 32 ms
    expect(ev[0].at - ev[0].onset).toBeGreaterThanOrEqual(DEFAULT_VOICE_ACTIVITY.minSpeechMs);
    expect(ev[0].at - ev[0].onset).toBeLessThan(DEFAULT_VOICE_ACTIVITY.minSpeechMs + F);
    expect(ev[1].at - (F * 10)).toBeGreaterThanOrEqual(DEFAULT_VOICE_ACTIVITY.redemptionMs);
  });
  it('a short blip (a clap, a cough) is no speech', () => {
    const g = new VoiceActivityGate();
    expect(run(g, frames(0, [0.9, 0.9, 0.9, ...Array(12).fill(0.05)])).map((e) => e.type)).toEqual(['misfire']);
  });
  it('frames between the thresholds keep a voice going but never start one', () => {
    const g = new VoiceActivityGate();
    expect(run(g, frames(0, Array(30).fill(0.4)))).toEqual([]);
  });
});

describe('the echo guard on a trigger: does the voice follow the robot playback?', () => {
  const piece = [{ start: 1000, end: 3000 }];
  const voiced = (from: number, to: number) => Array.from({ length: Math.floor((to - from) / F) }, (_, i) => from + i * F);
  it('a voice that begins as the piece begins and stays inside it is the robot', () => {
    expect(followsPlayback(1080, voiced(1080, 3100), piece)).toBe(true);
  });
  it('a voice that begins mid-piece is a child', () => {
    expect(followsPlayback(1900, voiced(1900, 2400), piece)).toBe(false);
  });
  it('a voice that goes on when the robot has stopped is a child', () => {
    expect(followsPlayback(1080, voiced(1080, 3600), piece)).toBe(false);
  });
  it('a voice that was there before the robot began is a child', () => {
    expect(followsPlayback(500, voiced(500, 2000), piece)).toBe(false);
  });
});

describe('the echo guard on words: the subtitle', () => {
  it('the robot line (or part of it) heard back matches; the child words do not', () => {
    expect(isSubtitleEcho('你来猜猜看', '我想好了一个数字，你来猜猜看吧。')).toBe(true);
    expect(isSubtitleEcho('我想好了一个数字', '我想好了一个数字，你来猜猜看吧！')).toBe(true);
    expect(isSubtitleEcho('停一下', '我想好了一个数字，你来猜猜看吧。')).toBe(false);
    expect(isSubtitleEcho('我猜五十', '我想好了一个 1 到 100 的数字。')).toBe(false);
    expect(isSubtitleEcho('好', '好的')).toBe(false); // one character is too little to tell
    expect(isSubtitleEcho('你好', null)).toBe(false);
    expect(echoSimilarity('猜猜看', '猜猜看')).toBe(1);
  });
});

describe('barge-in in the loop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(opts: { allowed?: boolean } = {}) {
    let clock = 0;
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const frameFns = new Set<(f: MicFrame) => void>();
    let stateFn: (s: VadState) => void = () => undefined;
    const vad = {
      started: 0,
      released: 0,
      onFrame: (fn: (f: MicFrame) => void) => (frameFns.add(fn), () => frameFns.delete(fn)),
      onState: (fn: (s: VadState) => void) => ((stateFn = fn), fn({ state: 'off' }), () => undefined),
      start: async () => (vad.started++, stateFn({ state: 'on' })),
      release: () => (vad.released++, stateFn({ state: 'off' })),
    };
    const allowed = { on: opts.allowed ?? true };
    const barge = new BargeIn({ vad, speech: q, allowed: () => allowed.on, now: () => clock });
    const mic = {
      log: [] as string[],
      final: null as ((t: string) => void) | null,
      interim: null as ((t: string) => void) | null,
      start: () => void mic.log.push('start'),
      stop: () => void mic.log.push('stop'),
      finish: () => void mic.log.push('finish'),
      onFinal: (fn: (t: string) => void) => ((mic.final = fn), () => undefined),
      onInterim: (fn: (t: string) => void) => ((mic.interim = fn), () => undefined),
    };
    const inputs: string[] = [];
    let saying: string | null = null;
    q.subscribe((e) => {
      if (e.type === 'utterance-start') saying = e.text;
    });
    const loop = new VoiceLoop({
      mic,
      speech: q,
      mode: 'hands-free',
      activity: barge,
      stopSpeaking: () => q.stop(),
      subtitle: () => saying,
      onInput: async (text) => void inputs.push(text),
    });
    /** The microphone hears these probabilities from now on, frame by frame. */
    const hear = (probs: number[]) => {
      for (const prob of probs) {
        clock += F;
        for (const fn of frameFns) fn({ t: clock, prob, rms: prob });
      }
    };
    const at = (t: number) => (clock = t);
    return { synth, q, vad, barge, mic, loop, inputs, hear, at, allowed, now: () => clock };
  }

  /** The robot starts a long line; its piece becomes audible now. */
  async function robotSays(t: ReturnType<typeof setup>, text: string): Promise<{ said: Promise<SpokenOutcome> }> {
    const said = t.q.say(text, 'main');
    t.synth.start();
    await vi.advanceTimersByTimeAsync(0);
    return { said };
  }

  it('a child talking over the robot mid-line stops it at once, the mic listens at once, and the words are a turn', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    expect(t.vad.started).toBe(1);
    t.hear([0.02, 0.02]);
    const { said } = await robotSays(t, '从前有一只小兔子，它住在森林里，每天都去河边喝水');
    t.hear(Array(15).fill(0.03)); // 480 ms into the line: the robot alone (echo cancelled)
    expect(t.mic.log).toEqual(['start', 'stop']);
    t.hear(Array(7).fill(0.9)); // the child: 224 ms of voice
    expect(t.loop.log).toContain('barge-in');
    expect(await said).toEqual({ completed: false, reason: 'stopped' });
    expect(t.synth.cancels).toBeGreaterThan(0);
    expect(t.mic.log.at(-1)).toBe('start'); // no 400 ms wait after a barge-in
    expect(t.loop.state).toBe('listening');
    // The detector hears the child stop: the recognizer is asked to finish its interim words.
    t.mic.interim!('停一下');
    t.hear(Array(20).fill(0.02));
    expect(t.mic.log.at(-1)).toBe('finish');
    t.mic.final!('停一下');
    expect(t.inputs).toEqual(['停一下']);
  });

  it("the robot's own line heard back after a barge-in is dropped, not a turn", async () => {
    const t = setup();
    t.loop.setEnabled(true);
    void robotSays(t, '我想好了一个数字，你来猜猜看吧。');
    t.hear(Array(10).fill(0.03));
    t.hear(Array(9).fill(0.9));
    expect(t.loop.log).toContain('barge-in');
    t.mic.final!('你来猜猜看吧');
    expect(t.inputs).toEqual([]);
    expect(t.loop.log).toContain('echo:你来猜猜看吧');
    t.mic.final!('我猜五十');
    expect(t.inputs).toEqual(['我猜五十']);
  });

  it('a voice that starts with the robot line and stops with it does not stop the robot (echo guard)', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    const { said } = await robotSays(t, '你来猜猜看吧');
    t.hear(Array(40).fill(0.9)); // the line's echo, 1.3 s, from its first frame
    expect(t.barge.log).toEqual(['echo']);
    t.synth.end(); // the line ends, and so does its echo
    await vi.advanceTimersByTimeAsync(0);
    t.hear(Array(20).fill(0.02));
    expect(await said).toEqual({ completed: true });
    expect(t.loop.log).not.toContain('barge-in');
  });

  it('the same voice going on into the robot pause is a child after all', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    void robotSays(t, '你来猜猜看吧。我等你哦。');
    t.hear(Array(20).fill(0.9));
    expect(t.loop.log).not.toContain('barge-in');
    // The first piece ends; the second has not begun to play: the voice goes on for 640 ms.
    t.synth.end();
    await vi.advanceTimersByTimeAsync(0);
    t.hear(Array(20).fill(0.9));
    t.synth.start();
    await vi.advanceTimersByTimeAsync(0);
    t.hear([0.9]);
    expect(t.loop.log).toContain('barge-in');
  });

  it('no barge-in with 说话时可以打断 off, in push-to-talk, or in the background: the mic is let go', async () => {
    const t = setup({ allowed: false });
    t.loop.setEnabled(true);
    expect(t.vad.started).toBe(0);
    expect(vadSupported({} as typeof globalThis)).toEqual({ ok: false, detail: 'no WebAssembly' });
    t.allowed.on = true;
    t.barge.refresh();
    expect(t.vad.started).toBe(1);
    t.barge.setVisible(false);
    expect(t.vad.released).toBe(1);
    expect(t.barge.status).toBe('off');
    t.barge.setVisible(true);
    expect(t.vad.started).toBe(2);
    t.loop.setMode('push-to-talk');
    expect(t.vad.released).toBe(2);
    expect(t.barge.status).toBe('unused');
    const { said } = await robotSays(t, '从前有一只小兔子，它住在森林里');
    t.hear(Array(20).fill(0.9));
    t.synth.end();
    expect(await said).toEqual({ completed: true });
  });

  it('play time over (listening turned off) lets the microphone go', () => {
    const t = setup();
    t.loop.setEnabled(true);
    expect(t.vad.started).toBe(1);
    t.loop.setEnabled(false);
    expect(t.vad.released).toBe(1);
  });

  it('silence while the robot speaks never stops it', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    const { said } = await robotSays(t, '从前有一只小兔子');
    t.hear(Array(200).fill(0.05));
    t.synth.end();
    expect(await said).toEqual({ completed: true });
  });
});

describe('the recognizer finishing when the child stops', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeRecognition.instances = [];
  });
  afterEach(() => vi.useRealTimers());

  it('finish() stops the session; with no final result, the last interim words are the final ones', async () => {
    const r = new Recognizer({ ctor: FakeRecognition });
    const finals: string[] = [];
    const interims: string[] = [];
    r.onFinal((t) => finals.push(t));
    r.onInterim((t) => interims.push(t));
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    const rec = FakeRecognition.instances[0];
    expect(rec.interimResults).toBe(true);
    rec.say('我猜', false);
    rec.say('我猜五十', false);
    expect(interims).toEqual(['我猜', '我猜五十']);
    expect(finals).toEqual([]); // interim words are never a round by themselves
    r.finish();
    expect(finals).toEqual(['我猜五十']);
  });

  it('a final result that differs from the interim words wins (the round waited for it)', async () => {
    const r = new Recognizer({ ctor: FakeRecognition });
    const finals: string[] = [];
    r.onFinal((t) => finals.push(t));
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    const rec = FakeRecognition.instances[0];
    rec.say('我猜无视', false);
    rec.say('我猜五十', true);
    r.finish(); // nothing pending any more: no second round
    await vi.advanceTimersByTimeAsync(0);
    expect(finals).toEqual(['我猜五十']);
  });
});

describe('设置 → 现在的状态 on barge-in', () => {
  const facts = (bargeIn: StatusFacts['listening']['bargeIn']): StatusFacts => ({
    online: true,
    app: { cached: true, canCache: true },
    brain: { chosen: true, label: '演示脚本', ready: true, offline: true },
    listening: { place: 'network', mic: 'ok', bargeIn },
    speaking: { state: 'ready', voice: 'v', local: true },
    robot: { usb: 'none', canConnect: true },
  });
  const detail = (b: StatusFacts['listening']['bargeIn']) => partStatuses(facts(b)).find((p) => p.id === 'listening')!.detail;
  it('says where it listens and why barge-in does not work, in plain words', () => {
    expect(detail('on')).toContain('在这台设备上听小朋友开口');
    expect(detail('denied')).toContain('麦克风没有被允许');
    expect(detail('no-wasm')).toContain('浏览器太旧');
    expect(detail('load-failed')).toContain('没能打开');
    expect(detail('unused')).not.toContain('打断');
    expect(bargeInSentence(undefined)).toBe('');
    // Recognition by the browser's service still needs the network, whatever the detector does.
    expect(detail('on')).toContain('联网服务');
  });
});
