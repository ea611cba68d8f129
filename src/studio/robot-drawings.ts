/**
 * The drawings the robot can draw (the line drawings of 你画我猜's animal catalogue), for picture
 * cards: the parent picks one by name when writing a card, and the play engine draws it while the
 * card is asked. Only the drawing goes to the robot — never its name (the answer).
 * Large (every stroke of every animal): load it with `import()` where it is needed.
 */
import { ANIMALS } from '../../skills/draw-guess/animals.ts';
import type { Drawing } from '../core/robot/types.ts';

export interface RobotDrawing {
  id: string;
  /** What the parent reads in the picker. */
  name: string;
}

export const ROBOT_DRAWINGS: readonly RobotDrawing[] = ANIMALS.map((a) => ({ id: a.drawing.id, name: a.name }));

/** The drawing to send to the robot, without its label; undefined for an unknown id. */
export function robotDrawing(id: string): Drawing | undefined {
  const d = ANIMALS.find((a) => a.drawing.id === id)?.drawing;
  if (!d) return undefined;
  const { label: _answer, ...drawing } = d;
  return drawing;
}
