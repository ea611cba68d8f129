import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Recognizer } from '../../../src/speech/recognizer.ts';
import { applyVoiceCommand, defaultSpeechSettings } from '../../../src/speech/settings.ts';
import { splitSentences } from '../../../src/core/speech/split.ts';
import { SpeechQueue } from '../../../src/speech/tts-queue.ts';
import type { SpeechEvent } from '../../../src/speech/types.ts';
import { VoiceLoop } from '../../../src/speech/voice-loop.ts';
import { robotSpeechProgress } from '../../../src/speech/robot-progress.ts';
import { chineseVoices, pickVoice, waitForVoices } from '../../../src/speech/voices.ts';
import { FakeRecognition, FakeSynth } from './fakes.ts';

describe('sentence splitting', () => {
  it('splits after sentence punctuation, keeping the punctuation', () => {
    expect(splitSentences('猜对啦！就是42。要不要再来一局？')).toEqual(['猜对啦！', '就是42。', '要不要再来一局？']);
  });
  it('keeps closing quotes with their sentence and drops empty pieces', () => {
    expect(splitSentences('它说：“你好！”然后走了。\n\n')).toEqual(['它说：“你好！”', '然后走了。']);
  });
  it('a sentence over the limit is packed at commas, then cut hard', () => {
    const long = '小兔子跑到了河边，看见一只乌龟，乌龟说你好呀，我们来比赛吧，看谁先跑到山顶上去。';
    const pieces = splitSentences(long, 20);
    expect(pieces.join('')).toBe(long);
    expect(pieces.every((p) => Array.from(p).length <= 20)).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
    const noBreaks = '啊'.repeat(130);
    expect(splitSentences(noBreaks, 60).map((p) => p.length)).toEqual([60, 60, 10]);
  });
});

describe('voice choice', () => {
  const v = (name: string, lang: string, localService: boolean) => ({ name, lang, localService });
  it('prefers a local Mandarin voice over a network one and over Cantonese', () => {
    const voices = [v('Google 普通话', 'zh-CN', false), v('Sin-ji', 'zh-HK', true), v('Tingting', 'zh_CN', true), v('Alex', 'en-US', true)];
    expect(pickVoice(voices)?.name).toBe('Tingting');
    expect(chineseVoices(voices).map((x) => x.name)).toEqual(['Tingting', 'Google 普通话', 'Sin-ji']);
  });
  it('accepts cmn tags (ChromeOS, espeak-ng) and returns null with no Chinese voice', () => {
    expect(pickVoice([v('x', 'cmn-CN-x-ccc-local', true)])?.name).toBe('x');
    expect(pickVoice([v('espeak', 'cmn-latn-pinyin', true)])?.name).toBe('espeak');
    expect(pickVoice([v('Alex', 'en-US', true)])).toBeNull();
  });
  it('a preferred voice wins when present', () => {
    expect(pickVoice([v('Tingting', 'zh-CN', true), v('Google 普通话', 'zh-CN', false)], 'Google 普通话')?.name).toBe('Google 普通话');
  });
  it('waits for voices that load late', async () => {
    let voices: string[] = [];
    const handlers: Array<() => void> = [];
    const src = {
      getVoices: () => voices,
      addEventListener: (_: 'voiceschanged', fn: () => void) => handlers.push(fn),
      removeEventListener: () => {},
    };
    const p = waitForVoices(src, 5000, 1000);
    setTimeout(() => {
      voices = ['Tingting'];
      handlers.forEach((h) => h());
    }, 5);
    expect(await p).toEqual(['Tingting']);
  });
});

describe('speaking queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('speaks utterances in order, piece by piece; each settles on end', async () => {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const events: string[] = [];
    q.subscribe((e) => events.push(e.type === 'utterance-end' ? `end:${e.text}:${e.completed}` : e.type));
    const a = q.say('你好！我是小方。', 'main');
    const b = q.say('你猜是几？', 'game_agent');
    expect(synth.pieces).toEqual(['你好！']);
    synth.start();
    synth.end();
    expect(synth.pieces).toEqual(['你好！', '我是小方。']);
    synth.end();
    expect(await a).toEqual({ completed: true });
    synth.end();
    expect(await b).toEqual({ completed: true });
    expect(events).toEqual(['speaking', 'utterance-start', 'piece-start', 'piece-playing', 'piece-start', 'end:你好！我是小方。:true', 'utterance-start', 'piece-start', 'end:你猜是几？:true', 'idle']);
  });

  it('a waiting line yields: a real sentence stops it at its next clause; one not started is dropped', async () => {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const waiting = q.say('嗯，让我想想。', 'main', { yields: true });
    synth.start();
    expect(synth.pieces).toEqual(['嗯，']);
    // The answer is ready while the waiting line plays: it is not held back by the rest of it.
    const answer = q.say('50 小了！', 'game_agent');
    synth.end();
    expect(await waiting).toEqual({ completed: false, reason: 'yielded' });
    expect(synth.pieces).toEqual(['嗯，', '50 小了！']);
    synth.end();
    expect(await answer).toEqual({ completed: true });
    // Queued behind something else and not started yet: dropped when a real sentence comes.
    const first = q.say('好的。', 'main');
    const queued = q.say('我还在想哦，请等一下。', 'main', { yields: true });
    const real = q.say('就是 63！', 'game_agent');
    expect(await queued).toEqual({ completed: false, reason: 'yielded' });
    synth.end();
    await first;
    synth.end();
    await real;
    expect(synth.pieces.slice(-2)).toEqual(['好的。', '就是 63！']);
  });

  it('the robot keeps its thinking face through a waiting line: only the answer counts as a sentence', () => {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const started: string[] = [];
    robotSpeechProgress(q).onSentenceStart((t) => started.push(t));
    void q.say('嗯，让我想想。', 'main', { yields: true });
    synth.end();
    synth.end();
    void q.say('画好啦！', 'game_agent');
    expect(started).toEqual(['画好啦！']);
  });

  it('an engine that never answers is settled by the watchdog, and the queue moves on', async () => {
    const synth = new FakeSynth();
    synth.behaviour = 'silent';
    const q = new SpeechQueue({ engine: synth, msPerChar: 250, graceMs: 2000, startTimeoutMs: 60_000 });
    const a = q.say('四个字啊', 'main');
    const b = q.say('下一句', 'main');
    synth.start(); // started, but `end` never comes (Chromium cut-off bug)
    await vi.advanceTimersByTimeAsync(2999);
    expect(synth.pieces).toEqual(['四个字啊']);
    await vi.advanceTimersByTimeAsync(2);
    expect(await a).toEqual({ completed: false, reason: 'watchdog' });
    expect(synth.cancels).toBe(1);
    expect(synth.pieces).toEqual(['四个字啊', '下一句']);
    // A late `end` of the cancelled piece must not settle the next one.
    expect(q.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await b).reason).toBe('watchdog');
    expect(q.busy).toBe(false);
  });

  it('a piece that never starts fails after the start timeout; synthesis errors settle too', async () => {
    const synth = new FakeSynth();
    synth.behaviour = 'silent';
    const q = new SpeechQueue({ engine: synth, startTimeoutMs: 1000 });
    const a = q.say('好', 'main');
    await vi.advanceTimersByTimeAsync(1001);
    expect(await a).toEqual({ completed: false, reason: 'no-start' });
    synth.behaviour = 'fail';
    expect(await q.say('好', 'main')).toEqual({ completed: false, reason: 'synthesis-failed' });
  });

  it('stop() (tap anywhere) settles everything at once and drains', async () => {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const seen: SpeechEvent['type'][] = [];
    q.subscribe((e) => seen.push(e.type));
    const a = q.say('第一句。', 'main');
    const b = q.say('第二句。', 'game_agent');
    q.stop();
    expect(await a).toEqual({ completed: false, reason: 'stopped' });
    expect(await b).toEqual({ completed: false, reason: 'stopped' });
    expect(seen.at(-1)).toBe('idle');
    synth.end(); // late end of the cancelled piece: ignored
    expect(synth.pieces).toEqual(['第一句。']);
  });

  it('without a Chinese voice, sentences are shown for a reading time instead (subtitles only)', async () => {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth, hasVoice: () => false, readMsPerChar: 100, readMaxMs: 6000 });
    const a = q.say('你好呀', 'main');
    await vi.advanceTimersByTimeAsync(299);
    expect(q.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(2);
    expect(await a).toEqual({ completed: false, reason: 'no-voice' });
    expect(synth.pieces).toEqual([]);
  });

  it('rate and volume settings reach the engine, and the watchdog scales with the rate', async () => {
    const synth = new FakeSynth();
    synth.behaviour = 'silent';
    const q = new SpeechQueue({ engine: synth, msPerChar: 1000, graceMs: 0, startTimeoutMs: 60_000 });
    q.setOptions({ rate: 0.5, volume: 0.3 });
    const a = q.say('一二', 'main');
    expect(synth.opts[0]).toEqual({ rate: 0.5, volume: 0.3 });
    await vi.advanceTimersByTimeAsync(3999); // 2 chars × 1000 ms / 0.5
    expect(q.busy).toBe(true);
    await vi.advanceTimersByTimeAsync(2);
    expect((await a).reason).toBe('watchdog');
  });
});

describe('half-duplex voice loop', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(mode: 'hands-free' | 'push-to-talk' = 'hands-free') {
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const mic = {
      log: [] as string[],
      fn: null as ((t: string) => void) | null,
      start() {
        this.log.push('start');
      },
      stop() {
        this.log.push('stop');
      },
      onFinal(fn: (t: string) => void) {
        this.fn = fn;
        return () => {
          if (this.fn === fn) this.fn = null;
        };
      },
      status: null as ((s: string) => void) | null,
      onStatus(fn: (s: string) => void) {
        this.status = fn;
        return () => {
          if (this.status === fn) this.status = null;
        };
      },
    };
    const inputs: string[] = [];
    let last: string | null = null;
    const loop = new VoiceLoop({
      mic,
      speech: q,
      mode,
      resumeDelayMs: 400,
      lastSpoken: () => last,
      onInput: async (text) => {
        inputs.push(text);
        const reply = `你说了${text}。`;
        last = reply;
        await q.say(reply, 'main');
      },
    });
    return { synth, q, mic, loop, inputs };
  }

  it('a recognition error (offline) returns the button to idle; a tap tries again', () => {
    const t = setup('push-to-talk');
    t.loop.pushToTalk();
    expect(t.loop.state).toBe('listening');
    t.mic.status!('network');
    expect(t.loop.state).toBe('idle');
    t.loop.pushToTalk();
    expect(t.loop.state).toBe('listening');
    expect(t.mic.log).toEqual(['start', 'start']);
  });

  it('mic off while thinking and speaking; on again only ~400 ms after the queue drains', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    expect(t.loop.log).toEqual(['mic-on']);
    t.mic.fn!('你好');
    expect(t.loop.log).toEqual(['mic-on', 'round:你好', 'mic-off', 'speaking']);
    expect(t.loop.state).toBe('speaking');
    t.synth.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.loop.log.slice(-2)).toEqual(['drained', 'round-over']);
    expect(t.loop.state).toBe('idle');
    await vi.advanceTimersByTimeAsync(399);
    expect(t.loop.log.at(-1)).toBe('round-over');
    await vi.advanceTimersByTimeAsync(2);
    expect(t.loop.log.at(-1)).toBe('mic-on');
    expect(t.loop.state).toBe('listening');
  });

  it('a later game reply (after the round) pauses the mic again', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    void t.q.say('游戏又说了一句。', 'game_agent');
    expect(t.loop.log.slice(-2)).toEqual(['speaking', 'mic-off']);
    t.synth.end();
    await vi.advanceTimersByTimeAsync(401);
    expect(t.loop.log.at(-1)).toBe('mic-on');
  });

  it('drops a late result after the mic stopped, and the robot hearing itself', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    t.mic.fn!('你好');
    t.mic.fn!('随便'); // the mic is off (thinking/speaking): a late result is ignored
    t.synth.end();
    await vi.advanceTimersByTimeAsync(401);
    expect(t.loop.state).toBe('listening');
    t.mic.fn!('你说了你好'); // its own last sentence, heard back
    expect(t.inputs).toEqual(['你好']);
    expect(t.loop.log).toContain('echo:你说了你好');
    t.mic.fn!('我猜50');
    expect(t.inputs).toEqual(['你好', '我猜50']);
  });

  it('push-to-talk listens once per tap; typed words work in every mode', async () => {
    const t = setup('push-to-talk');
    expect(t.loop.log).toEqual([]);
    t.loop.pushToTalk();
    expect(t.loop.log).toEqual(['mic-on']);
    t.mic.fn!('我猜50');
    t.synth.end();
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.loop.log.filter((x) => x === 'mic-on')).toHaveLength(1);
    const typed = t.loop.submit('打字也行');
    t.synth.end();
    await typed;
    expect(t.inputs).toEqual(['我猜50', '打字也行']);
  });

  it('a disposed loop stops the mic and lets go: later speech and words do not turn it on or reach it', async () => {
    const t = setup();
    t.loop.setEnabled(true);
    expect(t.mic.log).toEqual(['start']);
    t.loop.dispose();
    expect(t.mic.log).toEqual(['start', 'stop']);
    expect(t.mic.fn).toBeNull();
    void t.q.say('别的地方说了一句。', 'main');
    t.synth.end();
    await vi.advanceTimersByTimeAsync(1000);
    t.loop.setEnabled(true);
    t.loop.pushToTalk();
    expect(t.mic.log).toEqual(['start', 'stop']);
    expect(t.loop.log.filter((x) => x === 'speaking' || x === 'drained')).toEqual([]);
  });
});

describe('recognizer', () => {
  beforeEach(() => {
    FakeRecognition.instances = [];
    FakeRecognition.availability = 'unavailable';
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('zh-CN, rounds from final results only (interim words are reported apart), restarted after silence', async () => {
    const r = new Recognizer({ ctor: FakeRecognition, restartDelayMs: 250 });
    const heard: string[] = [];
    r.onFinal((t) => heard.push(t));
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeRecognition.instances[0];
    expect(first).toMatchObject({ lang: 'zh-CN', interimResults: true, continuous: true, started: true });
    expect(r.status).toBe('listening');
    first.say('我猜', false); // interim: ignored
    first.say('我猜五十');
    expect(heard).toEqual(['我猜五十']);
    await vi.advanceTimersByTimeAsync(1500);
    first.silence();
    expect(FakeRecognition.instances).toHaveLength(1); // not restarted before the delay
    await vi.advanceTimersByTimeAsync(260);
    expect(FakeRecognition.instances).toHaveLength(2);
    expect(FakeRecognition.instances[1].started).toBe(true);
    r.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(FakeRecognition.instances).toHaveLength(2);
    expect(r.status).toBe('off');
  });

  it('sessions that end at once back off instead of spinning', async () => {
    const r = new Recognizer({ ctor: FakeRecognition, restartDelayMs: 250 });
    r.start();
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(0);
      FakeRecognition.instances.at(-1)!.end();
      await vi.advanceTimersByTimeAsync(4001);
    }
    expect(FakeRecognition.instances.length).toBeLessThanOrEqual(7);
    r.stop();
  });

  it('uses on-device recognition when available', async () => {
    FakeRecognition.availability = 'available';
    const r = new Recognizer({ ctor: FakeRecognition });
    expect(await r.init()).toBe('on-device');
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances[0].processLocally).toBe(true);
  });

  it('a denied microphone stops restarting and says so', async () => {
    const r = new Recognizer({ ctor: FakeRecognition });
    const statuses: string[] = [];
    r.onStatus((s) => statuses.push(s));
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    FakeRecognition.instances[0].fail('not-allowed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(FakeRecognition.instances).toHaveLength(1);
    expect(r.status).toBe('denied');
    expect(statuses).toContain('denied');
  });

  it('the chosen microphone track is passed to start(track) where supported', async () => {
    const track = { kind: 'audio' } as MediaStreamTrack;
    const r = new Recognizer({ ctor: FakeRecognition, supportsTrack: true, getTrack: async () => track });
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances[0].startedWith).toBe(track);
    expect(r.source).toBe('chosen');
    const plain = new Recognizer({ ctor: FakeRecognition, supportsTrack: false, getTrack: async () => track });
    plain.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeRecognition.instances[1].startedWith).toBeUndefined();
    expect(plain.source).toBe('default');
  });
});

describe('speech progress for the robot output module', () => {
  it('reports sentence start/spoken per reply, busy until the queue drains, and whenIdle', async () => {
    const { robotSpeechProgress } = await import('../../../src/speech/robot-progress.ts');
    const synth = new FakeSynth();
    const q = new SpeechQueue({ engine: synth });
    const p = robotSpeechProgress(q);
    const log: string[] = [];
    p.onSentenceStart((t) => log.push(`start:${t}`));
    p.onSentenceSpoken((t) => log.push(`spoken:${t}:${p.isSpeaking()}`));
    let idle = false;
    void q.say('答对啦！真棒。', 'game_agent');
    void q.say('下一题。', 'game_agent');
    void p.whenIdle().then(() => (idle = true));
    synth.end();
    synth.end();
    synth.end();
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['start:答对啦！真棒。', 'spoken:答对啦！真棒。:true', 'start:下一题。', 'spoken:下一题。:false']);
    expect(idle).toBe(true);
  });
});

describe('voice commands on the speech settings', () => {
  it('one step each way, clamped; a parent value outside the range only moves inward', () => {
    const d = defaultSpeechSettings();
    expect(applyVoiceCommand(d, 'louder')).toEqual({ settings: d, changed: false }); // default is full volume
    expect(applyVoiceCommand(d, 'quieter').settings.volume).toBe(0.8);
    expect(applyVoiceCommand(d, 'slower').settings.rate).toBe(0.8);
    expect(applyVoiceCommand({ ...d, volume: 0.1 }, 'quieter').changed).toBe(false);
    expect(applyVoiceCommand({ ...d, volume: 0.1 }, 'louder').settings.volume).toBe(0.3);
    expect(applyVoiceCommand({ ...d, rate: 1.5 }, 'faster').changed).toBe(false);
    expect(applyVoiceCommand({ ...d, rate: 1.5 }, 'slower').settings.rate).toBe(1.3);
  });
});
