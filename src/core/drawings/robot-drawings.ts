/**
 * The drawings the robot can draw: line drawings in a 240×240 box, each with the name a parent
 * reads. One home for both users: 你画我猜's animal cards name theirs by id
 * (skills/draw-guess/animals.ts), and the Studio's picture cards let the parent pick one by name
 * (the play engine draws it while the card is asked). Only the drawing goes to the robot, never its
 * name (the answer). Data: animals.json (written by scripts/gen-animals.ts). Large (every stroke):
 * the Studio loads it with `import()` where it is needed.
 */
import type { Drawing } from '../robot/types.ts';
import data from './animals.json';

/** The drawing box (strokes are points in a DRAWING_BOX × DRAWING_BOX square). */
export const DRAWING_BOX = 240;

export interface RobotDrawing {
  id: string;
  /** What the parent reads in the picker. */
  name: string;
}

interface DrawingEntry extends RobotDrawing {
  strokes: Array<Array<[number, number]>>;
}

const DRAWINGS = data as DrawingEntry[];

export const ROBOT_DRAWINGS: readonly RobotDrawing[] = DRAWINGS.map(({ id, name }) => ({ id, name }));

/** The drawing to send to the robot, without its name; undefined for an unknown id. */
export function robotDrawing(id: string): Drawing | undefined {
  const d = DRAWINGS.find((e) => e.id === id);
  return d ? { id: d.id, strokes: d.strokes } : undefined;
}
