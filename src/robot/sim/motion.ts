/**
 * How long the robot takes to do things (ms). Realistic for SG90-class servos and a 240×240
 * SPI screen; the simulator and the on-screen robot use them, and the robot reports them in
 * its acks so the host can size its done timeouts.
 */
export const MOTION = {
  faceSet: 150,
  faceClear: 100,
  nod: { times: 2, period: 450, amp: 15 },
  shake: { times: 2, period: 500, amp: 25 },
  headHome: 300,
  idle: 300,
  drawBegin: 30,
  /** A stroke: a base plus a time per point, so long strokes take longer to draw. */
  strokeBase: 40,
  strokePerPoint: 12,
  drawEnd: 10,
  card: 80,
  image: 120,
  stop: 50,
  /** From power-on to the hello (after the ROM banner). */
  boot: 300,
} as const;

export function strokeMs(points: number, animate: boolean): number {
  return animate ? MOTION.strokeBase + MOTION.strokePerPoint * points : 5;
}
