/**
 * A designed game's name in the arcade: a child starts a game by saying its name, so two games may
 * not share one. Names are compared as the bare words (spaces and punctuation ignored: 「恐龙问答 2」
 * and 「恐龙问答2」 are one name). Pure.
 */
import { squash } from '../jev/normalize.ts';

function sameName(a: string, b: string): boolean {
  const x = squash(a);
  return x.length > 0 && x === squash(b);
}

export function nameTaken(name: string, taken: readonly string[]): boolean {
  return taken.some((t) => sameName(t, name));
}

/** The name itself when free, else the first free 「name 2」, 「name 3」, … */
export function freeName(name: string, taken: readonly string[]): string {
  const base = name.trim().replace(/\s*\d+$/, '') || name.trim();
  if (!nameTaken(name, taken)) return name.trim();
  for (let n = 2; ; n++) if (!nameTaken(`${base} ${n}`, taken)) return `${base} ${n}`;
}

/** The refusal a parent (or a helper) gets for a taken name, with a free one to take instead. */
export function takenNameMessage(name: string, taken: readonly string[]): string {
  return `游戏厅里已经有叫「${name.trim()}」的游戏了，换一个名字吧，比如「${freeName(name, taken)}」。`;
}
