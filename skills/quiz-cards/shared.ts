/** What the run skills of every shape read alike: the host's lines, the rounds, the score. */
export interface Persona { 名字?: string; 开场白?: string; 鼓励语?: string[]; 安慰语?: string[]; 结束语?: string }
export interface Score { 得分: number; 答对: number; 已出: number; 轮数: number; 结束: boolean; /** The card last counted (a card scores once). */ 计分卡?: string }

/** The first non-empty line of a list, or the fallback. */
export const first = (xs: unknown, fallback: string): string => (Array.isArray(xs) && typeof xs[0] === 'string' && xs[0].trim() ? xs[0].trim() : fallback);

/** Rounds of the game: `设计.交互范式.轮数` (5 when a design has none). */
export function roundsOf(paradigm: unknown, fallback = 5): number {
  const n = Number((paradigm as { 轮数?: unknown } | undefined)?.轮数);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export const opening = (role: Persona): string => role.开场白?.trim() ?? '';
export const closing = (role: Persona, fallback: string): string => role.结束语?.trim() || fallback;

/** The words "I want to stop" (not a turn of the game). */
export const STOP = /不玩了|不玩|不讲了|不想玩|不想讲|结束|再见|拜拜/;
