/**
 * 隐私's words follow the brain really in use (not the saved choice, which is often 「自动」), where
 * listening really runs, and the voice really reading aloud.
 */
import { describe, expect, it } from 'vitest';
import { brainPrivacy, listeningPrivacy, speakingPrivacy } from '../../../src/ui/parental/privacy.ts';
import type { ControllerState } from '../../../src/llm/model-controller.ts';

type Model = Pick<ControllerState, 'active' | 'provider' | 'settings'>;
const model = (setting: string, provider: Model['provider'], active?: Model['active'], baseUrl = ''): Model =>
  ({ active, provider, settings: { provider: setting, remote: { baseUrl } } }) as unknown as Model;

describe('brainPrivacy', () => {
  it('a model on this device chosen automatically, or the CPU engine chosen by hand, is a local model — not the demo script', () => {
    for (const m of [model('auto', 'cpu', 'cpu'), model('auto', 'webllm', 'webllm'), model('cpu', 'cpu', 'cpu'), model('cpu', 'cpu')]) {
      const line = brainPrivacy(m);
      expect(line.leaves).toBe(false);
      expect(line.text).toMatch(/^本机模型/);
    }
  });

  it('the demo brain says nothing leaves; a remote brain names its host and says what leaves', () => {
    expect(brainPrivacy(model('scripted', 'scripted', 'scripted'))).toEqual({ leaves: false, text: '规则大脑：在这台设备上运行，什么都不发出去。' });
    const remote = brainPrivacy(model('remote', 'remote', 'remote', 'http://192.168.1.20:8080/v1'));
    expect(remote.leaves).toBe(true);
    expect(remote.text).toContain('远程大脑（192.168.1.20:8080）');
    expect(brainPrivacy(model('remote', 'remote', undefined, '')).text).toContain('还没填地址');
  });
});

describe('listening and speaking', () => {
  it('where recognition runs decides whether the voice leaves', () => {
    expect(listeningPrivacy('on-device').leaves).toBe(false);
    expect(listeningPrivacy('network').leaves).toBe(true);
    expect(listeningPrivacy('none')).toMatchObject({ leaves: false, text: expect.stringContaining('只能打字') });
  });

  it('an online voice is named and leaves; a local voice does not; no voice means subtitles', () => {
    expect(speakingPrivacy({ state: 'ready', voice: 'Google 普通话', local: false })).toMatchObject({ leaves: true, text: expect.stringContaining('Google 普通话') });
    expect(speakingPrivacy({ state: 'ready', voice: '婷婷', local: true })).toEqual({ leaves: false, text: '用这台设备自己的声音（婷婷）朗读。' });
    expect(speakingPrivacy({ state: 'none' }).text).toContain('只显示成字幕');
  });
});
