/**
 * What the (simulated) robot is showing and doing: the state the on-screen robot renders and
 * tests assert on. Plain data, replaced (never mutated) on every change.
 */
import type { Expression } from '../../core/robot/types.ts';
import type { Point } from '../../core/robot/messages.ts';

export type ScreenContent =
  | { kind: 'idle' }
  | {
      kind: 'drawing';
      id: string;
      color: string;
      width: number;
      /** Every stroke received so far, in order. */
      strokes: Point[][];
      /** How many strokes are fully drawn. */
      drawn: number;
      /** The stroke being drawn now (index into strokes) and how long it takes. */
      drawing: { index: number; ms: number } | null;
      label?: string;
      complete: boolean;
    }
  | { kind: 'progress'; current: number; total: number; label?: string }
  | { kind: 'text'; text: string }
  | { kind: 'image'; w: number; h: number; bits: Uint8Array };

interface HeadState {
  /** The gesture running now. */
  gesture: 'nod' | 'shake' | null;
  /** Increases with every gesture started (a renderer restarts its animation on change). */
  seq: number;
  times: number;
  period: number;
  amp: number;
}

export interface RobotState {
  powered: boolean;
  /** Hello sent: the robot talks the protocol (false while booting). */
  booted: boolean;
  boot: number;
  /** Face overlay shown on top of the content (an expression from react), or none. */
  face: Expression | null;
  content: ScreenContent;
  head: HeadState;
  /** Every gesture ever started, in order (tests, lab). */
  gestures: Array<'nod' | 'shake'>;
  /** No host traffic for the watchdog period: went to rest. */
  hostLost: boolean;
  /** Commands executed (duplicates not counted). */
  commands: number;
  /** Frames received with a bad CRC (or dropped by fault injection). */
  badFrames: number;
}

/** What the firmware screen shows right now: the face overlay wins over the content. */
type ScreenMode = 'face' | ScreenContent['kind'];

export function screenMode(s: RobotState): ScreenMode {
  return s.face ? 'face' : s.content.kind;
}

/** A robot switched off: nothing shown, nothing moving, nothing counted. */
export function initialRobotState(): RobotState {
  return {
    powered: false,
    booted: false,
    boot: 0,
    face: null,
    content: { kind: 'idle' },
    head: { gesture: null, seq: 0, times: 0, period: 0, amp: 0 },
    gestures: [],
    hostLost: false,
    commands: 0,
    badFrames: 0,
  };
}
