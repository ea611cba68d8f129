/**
 * Lines that are said again and again (a fallback, "still thinking") take turns among the ways of
 * saying them, so the child never hears the same line twice in a row: each situation walks its
 * variants in order, and a variant equal to the last line said (by this rotation, or — when the
 * owner knows it — by anyone on the speaking path) is skipped. Deterministic: no random source.
 */
import { childLines, describeAny } from '../errors/catalogue.ts';

export class LineRotation {
  private readonly nextIndex = new Map<string, number>();
  private last: string | null = null;

  /** `recent`: the line said last on the speaking path, if the owner can tell (it is avoided too). */
  constructor(private readonly recent?: () => string | null | undefined) {}

  /** One of `lines` for `situation`: the next in turn that is not the line said last. */
  pick(situation: string, lines: readonly string[]): string {
    if (lines.length === 0) throw new Error(`LineRotation: no lines for ${situation}`);
    const avoid = new Set([this.last, this.recent?.() ?? null].filter((x): x is string => !!x).map((x) => x.trim()));
    const start = this.nextIndex.get(situation) ?? 0;
    let chosen = start % lines.length;
    for (let k = 0; k < lines.length; k++) {
      const i = (start + k) % lines.length;
      if (!avoid.has(lines[i].trim())) {
        chosen = i;
        break;
      }
    }
    this.nextIndex.set(situation, chosen + 1);
    this.last = lines[chosen];
    return lines[chosen];
  }

  /** The child's sentence of a catalogue code, in turn among its variants. */
  child(code: string): string {
    const lines = childLines(code);
    return this.pick(code, lines.length ? lines : [describeAny(code).child]);
  }
}
