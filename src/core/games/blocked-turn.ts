/**
 * A line blocked by the child-safety check never swallows the turn: the engine says the gentle
 * redirect, then the rest of the turn rebuilt from this turn's tool results (the verdict, the next
 * question, the score, the goodbye — the rules' own line), so the child always knows what to answer
 * and the session's state is told right. The redirect claims the game goes on only when it does.
 * Pure: the engine passes the rules' line and whether the session continues.
 */
import { sentencesOf } from '../speech/split.ts';
import { lineFits } from './claim-kinds.ts';

/** The redirect a game says instead of a blocked line (the speaking path's own, src/core/safety/replies.ts). */
export function redirectFor(redirect: string, continues: boolean): string {
  if (lineFits(redirect, { continues })) return redirect;
  // Only the sentences that stay true: 「哎呀，这句我不说了。」 without 「我们接着玩游戏吧！」.
  return sentencesOf(redirect)
    .filter((s) => lineFits(s, { continues }))
    .join('');
}

/**
 * What the child hears for the turn instead of the model's words from the blocked line on: the
 * redirect, then the rules' line (its sentences the turn has not said yet); the redirect alone when
 * the rules decided nothing this turn.
 */
export function rebuiltTurn(o: { redirect: string; rulesLine: string | null; continues: boolean; said: readonly string[] }): string {
  const rest = o.rulesLine ? sentencesOf(o.rulesLine).filter((s) => !o.said.includes(s.trim())) : [];
  // With a rest to say, the redirect need not promise anything: the rest tells what happens next.
  const redirect = redirectFor(o.redirect, rest.length ? false : o.continues);
  return `${redirect}${rest.join('')}`;
}
