/** One entry of the error catalogue, and an area's table of them (src/core/errors/catalogue.ts merges the tables). */
export interface ErrorEntry {
  /** Spoken / shown to the child. */
  child: string;
  /**
   * Other ways to say `child`, meaning exactly the same (a line said again and again sounds broken):
   * a LineRotation takes turns among them.
   */
  also?: readonly string[];
  /** Shown to the parent (settings, trace). */
  parent: string;
}

export type ErrorTable = Record<string, ErrorEntry>;
