/**
 * The Studio's errors (what a parent reads when a design step fails).
 */
import type { ErrorTable } from './types.ts';

export const studioErrors = {
  studio_runtime: { child: '哎呀，游戏出了点小问题，我们等一下再玩。', parent: 'The Studio runtime failed while running a step; the session waits and “继续” retries it.' },
  studio_package_invalid: { child: '这个游戏还没准备好。', parent: 'A skill package under skills/ failed validation; the Studio lists its errors.' },
  studio_not_declared: { child: '这个游戏还没设计完。', parent: 'The project has not reached the play stage (declare_instance_ready).' },
} satisfies ErrorTable;
