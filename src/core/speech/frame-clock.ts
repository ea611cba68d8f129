/**
 * When each microphone frame was heard, on the audio's own clock: frame n of a stream ends
 * `(n + 1) × frameMs` after the stream began. The page learns of a frame only once the detector has
 * run on it, and a busy page runs it late (frames then arrive in bursts); stamping a frame when it
 * arrives would move a voice's onset by that delay. The stream's start is the earliest one its
 * frames allow (each arrival is at or after its frame's end), so a frame that arrives late keeps the
 * time it was heard. A stream that fell behind by more than `maxLagMs` (its audio stopped for a
 * while) starts again from the frame that showed it.
 */
export class FrameClock {
  private start: number | null = null;
  private count = 0;

  constructor(
    private readonly frameMs: number,
    private readonly maxLagMs = 2_000,
  ) {}

  /** A new stream (the microphone opened again): counting starts over. */
  reset(): void {
    this.start = null;
    this.count = 0;
  }

  /** The next frame arrived at `arrivedAt`: when it ended, on the audio's clock. */
  stamp(arrivedAt: number): number {
    this.count++;
    if (this.start === null) this.start = arrivedAt - this.count * this.frameMs;
    else {
      const onTime = this.start + this.count * this.frameMs;
      if (arrivedAt < onTime) {
        // Sooner than the start so far allows: the stream began earlier.
        this.start = arrivedAt - this.count * this.frameMs;
      } else if (arrivedAt - onTime > this.maxLagMs) {
        // Far behind: its audio stopped for a while; this frame is the new start.
        this.count = 1;
        this.start = arrivedAt - this.frameMs;
      }
    }
    return this.start + this.count * this.frameMs;
  }
}
