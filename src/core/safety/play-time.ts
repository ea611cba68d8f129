/** Play-time accounting (pure). */
export const PLAY_TIME_LINES = {
  warnLimit: '还可以玩五分钟哦，这一局玩完我们就休息。',
  warnBedtime: '快到睡觉时间啦，这一局玩完我们就去睡觉。',
  limit: '今天的游戏时间用完啦，休息一下眼睛和耳朵，我们明天见！',
  bedtime: '该睡觉啦，晚安，明天见！',
} as const;
