/**
 * What game agents may ask of the robot (seed 000: `react`, device tools, idle screen).
 * Game workers reach the robot through a DevicePort injected at construction (over Comlink
 * from the game worker to the main thread's output module). Never through A2A.
 */
export type Expression = 'neutral' | 'happy' | 'sorry' | 'thinking' | 'surprised' | 'sleepy';
export type Gesture = 'nod' | 'shake' | 'none';

/** A vector drawing in a 240×240 box: strokes are polylines drawn in order, point by point. */
export interface Drawing {
  id: string;
  /** Shown under the picture once revealed; never sent before (the answer!). */
  label?: string;
  strokes: Array<Array<[number, number]>>;
  color?: string;
  width?: number;
}

export interface Progress {
  current: number;
  total: number;
  /** Short caption, e.g. "第 2 题". */
  label?: string;
}

/** A card of text (studio games: question or prompt), shown until replaced. */
export interface TextCard {
  text: string;
}

export interface DeviceResult {
  /** The picture is complete on the robot the child is looking at. */
  device_completed: boolean;
  /** Why not: "<code>: <a sentence the child may be told>" (robot_picture_incomplete: the half picture was cleared). */
  error?: string;
  /** For the trace: which command failed and how. */
  detail?: string;
  /** Set when the USB robot went away mid-way and the on-screen robot is the one that finished it. */
  shown_on?: 'screen';
}

export interface DevicePort {
  /** Expression shows at once, gesture starts without waiting; expression held until the next sentence is spoken. */
  react(expression: Expression, gesture: Gesture): Promise<void>;
  showDrawing(drawing: Drawing): Promise<DeviceResult>;
  showProgress(progress: Progress): Promise<DeviceResult>;
  showText(card: TextCard): Promise<DeviceResult>;
  /** Session over: back to the idle screen once the last sentence has been spoken. */
  idle(): Promise<void>;
}
