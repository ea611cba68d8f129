import type { ErrorTable } from './catalogue.ts';

export const generalErrors: ErrorTable = {
  unknown: { child: '哎呀，我刚才出了点小问题，我们再试一次吧。', parent: 'An unexpected error; see the trace for details.' },
};
