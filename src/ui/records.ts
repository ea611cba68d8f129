/**
 * The screens' way to the play records (记录): how many and how long they are kept
 * (src/trace/trace-settings.ts, set by the parent) and each built-in game's plain-Chinese lines
 * (src/trace/game-summaries.ts).
 */
export { traceSettings, TRACE_SETTINGS_LIMITS } from '../trace/trace-settings.ts';
export { GAME_SUMMARIES } from '../trace/game-summaries.ts';
