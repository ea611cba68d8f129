import { describe, expect, it } from 'vitest';
import { FrameClock } from '../../../src/core/speech/frame-clock.ts';

describe('FrameClock: frames stamped when they were heard, not when the page got to them', () => {
  it('frames that arrive on time keep their arrival times', () => {
    const c = new FrameClock(32);
    expect([1032, 1064, 1096].map((t) => c.stamp(t))).toEqual([1032, 1064, 1096]);
  });

  it('a burst after the page was busy for 700 ms keeps each frame at its own time', () => {
    const c = new FrameClock(32);
    c.stamp(1032);
    c.stamp(1064);
    // Frames 3..24 (heard 1096..1768) all arrive at 1800, one after another.
    const burst = Array.from({ length: 22 }, () => c.stamp(1800));
    expect(burst[0]).toBe(1096);
    expect(burst[21]).toBe(1768);
    expect(c.stamp(1800)).toBe(1800);
  });

  it('a late first frame is corrected by the first one that comes on time', () => {
    const c = new FrameClock(32);
    expect(c.stamp(1500)).toBe(1500); // the page was busy: heard at 1032, learnt at 1500
    c.stamp(1500);
    expect(c.stamp(1096)).toBe(1096); // frame 3 on time: the stream began at 1000
    expect(c.stamp(1128)).toBe(1128);
  });

  it('a stream whose audio stopped for seconds starts over at the frame that shows it', () => {
    const c = new FrameClock(32, 2000);
    c.stamp(1032);
    expect(c.stamp(5000)).toBe(5000);
    expect(c.stamp(5032)).toBe(5032);
  });

  it('reset: a new stream is counted from its own first frame', () => {
    const c = new FrameClock(32);
    c.stamp(1032);
    c.stamp(1064);
    c.reset();
    expect(c.stamp(9000)).toBe(9000);
    expect(c.stamp(9032)).toBe(9032);
  });
});
