/**
 * Runtime code of the package's `executor: code` skills, one file per shape of play: 问答／猜谜语
 * (quiz.ts), 故事接龙 (story.ts), 我说你做 (actions.ts). The manager (a model) decides which skill
 * the child's words call for; this code does what needs no judgement — judging against the card,
 * scoring, keeping the story, saying the parent-accepted lines — so the answer stays out of every
 * prompt and a child's turn costs two model steps.
 */
import { judge as jevJudge } from '../../src/core/jev/index.ts';
import type { CodeExecutor } from '../../src/studio/session-types.ts';
import { actionExecutors } from './actions.ts';
import { quizExecutors } from './quiz.ts';
import { storyExecutors } from './story.ts';

/** What the play manager's own words may claim (the truth rules over the `运行.*` tags). */
export { truth } from './truth.ts';

/** What the rules read without doubt in play: pre-executed before the manager's model is asked. */
export { reader } from './reader.ts';

export function createCodeExecutors(judge: typeof jevJudge = jevJudge): Record<string, CodeExecutor> {
  return { ...quizExecutors(judge), ...storyExecutors(), ...actionExecutors() };
}
