/**
 * The status of each part and the offline verdict: 「可以离线游戏」 only when the app is cached, the
 * brain answers offline, listening is on the device and the voice is local; the demo brain counts
 * once the app is cached; listening by the browser's service (which needs the network) or a voice
 * that needs the network make it 「断网也能玩，但…」, never 「可以离线游戏」.
 */
import { describe, expect, it } from 'vitest';
import { offlineVerdict, partStatuses, type StatusFacts } from '../../../src/core/status/readiness.ts';

const demo = { chosen: true, label: '规则大脑', ready: true, offline: true };
function facts(p: Partial<StatusFacts> = {}): StatusFacts {
  return {
    online: true,
    app: { cached: true, canCache: true },
    brain: demo,
    listening: { place: 'on-device', mic: 'ok' },
    speaking: { state: 'ready', voice: '婷婷', local: true },
    robot: { usb: 'none', canConnect: true },
    ...p,
  };
}
const part = (f: StatusFacts, id: string) => partStatuses(f).find((p) => p.id === id)!;

describe('the offline verdict', () => {
  it('the demo brain, the app cached, listening on the device, a local voice: 可以离线游戏', () => {
    expect(offlineVerdict(facts())).toEqual({ level: 'offline', text: '可以离线游戏', missing: [] });
    expect(offlineVerdict(facts({ online: false })).level).toBe('offline');
  });

  it('listening that needs the network: playable offline by typing, not 可以离线游戏', () => {
    const f = facts({ listening: { place: 'network', mic: 'ok' } });
    const v = offlineVerdict(f);
    expect(v.level).toBe('partly');
    expect(v.text).toBe('断网也能玩，但听不懂说话（要打字）');
    expect(part(f, 'listening')).toMatchObject({ short: '听：要联网', ok: true, offline: false });
    // Offline now: it cannot listen at all, and says so.
    expect(part({ ...f, online: false }, 'listening')).toMatchObject({ short: '听：断网了（请打字）', ok: false });
  });

  it('a voice that needs the network: only subtitles offline', () => {
    const v = offlineVerdict(facts({ speaking: { state: 'ready', voice: 'Google 普通话', local: false } }));
    expect(v).toMatchObject({ level: 'partly', text: '断网也能玩，但不能出声（只有字幕）' });
  });

  it('the app not cached yet, or a brain on the home computer: not offline', () => {
    expect(offlineVerdict(facts({ app: { cached: false, canCache: true } }))).toMatchObject({ level: 'online-only', text: '断网后不能玩：应用还没存到这台设备上' });
    const remote = facts({ brain: { chosen: true, label: '家里的电脑', ready: true, offline: false, note: '192.168.1.20:11434，上次连接成功' } });
    expect(offlineVerdict(remote)).toMatchObject({ level: 'online-only', text: '断网后不能玩：大脑要联网' });
    expect(part(remote, 'brain').detail).toBe('家里的电脑，要联网才能用（192.168.1.20:11434，上次连接成功）。');
  });

  it('no brain, or one not ready: never ready, never offline', () => {
    const none = facts({ brain: { chosen: false, label: '', ready: false, offline: false, note: '点「选大脑」选一个。' } });
    expect(offlineVerdict(none)).toMatchObject({ level: 'not-ready', text: '还没有大脑' });
    expect(part(none, 'brain')).toMatchObject({ short: '还没有大脑', ok: false, offline: false });
    const loading = facts({ brain: { chosen: true, label: '本机大脑 Qwen2.5-1.5B', ready: false, offline: false, note: '下载中 42%' } });
    expect(offlineVerdict(loading).level).toBe('not-ready');
    expect(part(loading, 'brain').short).toBe('大脑：本机大脑 Qwen2.5-1.5B（还没准备好）');
  });

  it('「可以离线游戏」 appears only at level offline, whatever the facts', () => {
    const brains = [demo, { ...demo, offline: false }, { ...demo, ready: false }, { ...demo, chosen: false }];
    for (const brain of brains)
      for (const cached of [true, false])
        for (const place of ['on-device', 'network', 'none'] as const)
          for (const local of [true, false]) {
            const v = offlineVerdict(facts({ brain, app: { cached, canCache: true }, listening: { place, mic: 'ok' }, speaking: { state: 'ready', voice: 'v', local } }));
            expect(v.text.includes('可以离线游戏')).toBe(v.level === 'offline');
            if (v.level === 'offline') expect(brain.offline && cached && place !== 'network' && local).toBe(true);
          }
  });
});

describe('each part', () => {
  it('the robot: USB or the one on the screen, in the words of the header', () => {
    expect(part(facts({ robot: { usb: 'ready', canConnect: true } }), 'robot').short).toBe('机器人：已连接');
    expect(part(facts({ robot: { usb: 'lost', canConnect: true } }), 'robot').short).toBe('机器人断开了 · 屏幕机器人');
    expect(part(facts({ robot: { usb: 'none', canConnect: false } }), 'robot').detail).toBe('这台设备连不了 USB 机器人，用屏幕上的机器人。');
  });
  it('listening with no recognition at all, or a refused microphone', () => {
    expect(part(facts({ listening: { place: 'none', mic: 'ok' } }), 'listening')).toMatchObject({ short: '听：不能（请打字）', ok: false });
    expect(part(facts({ listening: { place: 'network', mic: 'denied' } }), 'listening')).toMatchObject({ short: '听：麦克风没被允许', ok: false });
  });
  it('speaking without a Chinese voice shows subtitles', () => {
    expect(part(facts({ speaking: { state: 'none' } }), 'speaking')).toMatchObject({ short: '说：无中文语音（只有字幕）', ok: false });
  });
});
