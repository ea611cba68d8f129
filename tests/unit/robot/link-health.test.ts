/**
 * Link health tells the truth: the numbers it quotes are the ones in force, and a firmware that
 * hears everything but never finishes is not called a cable problem (nor a noisy cable a firmware one).
 * Counters come from a real link against the simulator with injected faults.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connected, outcome, tick } from './harness.ts';
import { emptyLinkStats, linkHealthSummary } from '../../../src/core/robot/link-health.ts';
import { cmd } from '../../../src/core/robot/messages.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('link health', () => {
  it('a firmware that acks but never sends Done: a firmware fault in plain words, not the cable', async () => {
    const { sim, link } = await connected();
    sim.faults.noDone = true;
    for (let i = 0; i < 12; i++) {
      const h = outcome(link.send(cmd('face.set', { expr: 'happy' })).done);
      await tick(2500);
      expect(h.error?.code).toBe('robot_done_timeout');
    }
    expect(link.stats).toMatchObject({ doneTimeouts: 12, crcErrors: 0, resends: 0 });
    const h = linkHealthSummary(link.stats);
    expect(h.level).toBe('poor');
    expect(h.headline).toContain('机器人的固件有问题');
    expect(h.headline).toContain('线没有问题');
    expect(h.headline).not.toContain('请检查 USB 线');
    expect(h.lines).toContain('有 12 个动作机器人回答“收到”了，却一直没说做完。');
  });

  it('a noisy cable (damaged replies, resends, give-ups): the cable, not the firmware', async () => {
    const { sim, link } = await connected();
    for (let i = 0; i < 6; i++) {
      sim.faults.corruptOut = 3; // the Ack and both resends' Acks arrive damaged
      void link.send(cmd('face.set', { expr: 'happy' })).done.catch(() => {});
      await tick(1500);
    }
    expect(link.stats.crcErrors).toBeGreaterThan(0);
    const h = linkHealthSummary(link.stats);
    expect(h.level).toBe('poor');
    expect(h.headline).toContain('请检查 USB 线');
    expect(h.headline).not.toContain('固件');
  });

  it('late replies: the ack timeout is named as changed only when it changed, with the value in force', () => {
    const late = { ...emptyLinkStats(300), connects: 1, requests: 100, lateReplies: 2, slowestAckMs: 250, ackTimeoutMs: 300 };
    const same = linkHealthSummary(late, 300).lines.join('');
    expect(same).toContain('平板仍然每次等 300 毫秒');
    expect(same).not.toContain('改成');
    const longer = linkHealthSummary({ ...late, slowestAckMs: 700, ackTimeoutMs: 1100 }, 300).lines.join('');
    expect(longer).toContain('现在等 1100 毫秒（原来 300 毫秒）');
  });

  it('a slow robot through the real link: the late Ack lengthens the timeout, and the line quotes the new one', async () => {
    const { sim, link } = await connected();
    sim.faults.ackDelay = 1000; // every Ack comes after the host gave up (900 ms)
    void link.send(cmd('face.set', { expr: 'happy' })).done.catch(() => {});
    await tick(3000);
    expect(link.stats.lateReplies).toBeGreaterThan(0);
    expect(link.stats.ackTimeoutMs).toBeGreaterThan(300);
    const line = linkHealthSummary(link.stats, 300).lines.find((l) => l.includes('太晚'))!;
    expect(line).toContain(`现在等 ${link.stats.ackTimeoutMs} 毫秒`);
  });
});
