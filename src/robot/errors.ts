/** The robot area's error codes (their entries: src/core/errors/robot.ts) and its notices. */
import type { robotErrors } from '../core/errors/robot.ts';

export type RobotErrorCode = keyof typeof robotErrors;


/** What the app says when it switches between the real robot and the on-screen one. */
export const ROBOT_NOTICES = {
  unplugged: '机器人断开了，我先在屏幕上陪你玩',
  reconnected: '机器人回来啦！',
} as const;
