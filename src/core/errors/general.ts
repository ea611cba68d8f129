/** The catalogue's fallback: what the child hears when nothing more precise is known. */
import type { ErrorTable } from './types.ts';

export const generalErrors = {
  unknown: { child: '哎呀，我刚才出了点小问题，我们再试一次吧。', parent: 'An unexpected error; see the trace for details.' },
} satisfies ErrorTable;
