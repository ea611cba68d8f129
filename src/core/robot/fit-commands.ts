/**
 * Commands as one robot can take them, from its hello: an expression it lacks is shown as
 * `neutral` (or not at all when it lacks that too), a gesture it lacks is left out. Before any
 * hello (`null`) every command goes as it is.
 */
import { cmd, type Command, type Hello } from './messages.ts';

export function fitCommands(hello: Hello | null | undefined, commands: Command[]): Command[] {
  return commands.map((c) => fitCommand(hello, c)).filter((c): c is Command => c !== null);
}

export function fitCommand(hello: Hello | null | undefined, c: Command): Command | null {
  if (!hello) return c;
  if (c.method === 'face.set') {
    const { expr } = c.params as { expr: string };
    if (hello.expressions.includes(expr)) return c;
    return hello.expressions.includes('neutral') ? cmd('face.set', { expr: 'neutral' }) : null;
  }
  if (c.method === 'head.gesture') return hello.gestures.includes((c.params as { name: string }).name) ? c : null;
  return c;
}
