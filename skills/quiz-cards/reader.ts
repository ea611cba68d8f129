/**
 * The play manager's reader for the games designed with this package (src/core/games/reader.ts):
 * which run skill the rules call for after the child's words, read from what the manager sees (its
 * conversation: the child's words after 「[孩子] 」, the run skills' results 「<skill> 已更新：{…}」,
 * and the run skills on offer in `run_helper`). Performed before any manager model call (the phase
 * runtime), and, with a fixed reply when it has nothing, the rules brain's play manager.
 * - 问答／猜谜语: words that name one of the deck's answers, or give up → `judge-answer` (JEV judges
 *   them, scored in the same call; with no deck given — the rules brain — any words); a
 *   card that is over → `present-card` (the next card), or `wrap-up` after the last round; a wrong
 *   answer → `give-hint`; words that stop the game → `wrap-up`;
 * - 故事接龙: the child's line → `story-continue`, or `story-end` at the last round or on stop words;
 * - 我说你做: 「做好了」 → `action-check`, then `action-give` / `action-end`.
 * Nothing else: a burst that already has its answer is for the manager to say.
 */
import { toolResultsIn } from '../../src/core/agent/messages.ts';
import { judge, type JevTarget } from '../../src/core/jev/index.ts';
import type { ChatMessage, Step, ToolSpec } from '../../src/core/llm/types.ts';

interface PlayResult { skill: string; values: Record<string, unknown> }

/** The child's last words, this burst's run-skill results and every result of the session. */
export function playResults(messages: readonly ChatMessage[]): { child: string; results: PlayResult[]; all: PlayResult[] } {
  let child = '';
  let results: PlayResult[] = [];
  const all: PlayResult[] = [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    // A message may carry the last burst's result first, then the child's next words.
    for (const r of toolResultsIn(m)) {
      if (r.name !== 'run_helper' || typeof r.result !== 'string') continue;
      for (const line of r.result.split('\n')) {
        const x = /^(\S+) 已更新：(.*)$/.exec(line);
        if (!x) continue;
        let values: Record<string, unknown>;
        try {
          values = JSON.parse(x[2]) as Record<string, unknown>;
        } catch {
          continue;
        }
        const res = { skill: x[1], values };
        results.push(res);
        all.push(res);
      }
    }
    const words = /(?:^|\n)\[孩子\] ([\s\S]*)$/.exec(m.content);
    if (words) {
      child = words[1];
      results = [];
    }
  }
  return { child, results, all };
}

/** The words of a child who gives up on a card (judge-answer says 「不知道」, not 「错」). */
export const GIVE_UP = /不知道|不会|猜不到|想不出|告诉我|放弃/;

/** Words that stop the game (not a turn of it). */
export const QUIT = /不玩|结束|再见|不讲了|不想/;

/** The run skills on offer now (the `skill` enum of `run_helper`). */
function offered(tools: readonly ToolSpec[]): string[] {
  const run = tools.find((t) => t.name === 'run_helper');
  const skill = (run?.parameters as { properties?: { skill?: { enum?: string[] } } } | undefined)?.properties?.skill;
  return skill?.enum ?? [];
}

const run = (skill: string): Step => ({ action: 'run_helper', args: { skill } });

/** Whether the child's words are an answer the judge can read: they name an answer of the deck, or give up. */
function answers(words: string, deck: readonly JevTarget[]): boolean {
  return GIVE_UP.test(words) || (deck.length > 0 && judge(words, deck[0], [...deck]).mentioned.length > 0);
}

/**
 * The run skill the rules call for now, or null (the manager decides, or says its reply). `deck`:
 * every answer of the game's cards with its aliases (the runtime's own state, never a prompt's).
 */
export function reader(req: { messages: readonly ChatMessage[]; tools: readonly ToolSpec[]; deck?: readonly JevTarget[] }): Step | null {
  const { child, results, all } = playResults(req.messages);
  const skills = offered(req.tools);
  const ok = (s: string): Step | null => (skills.includes(s) ? run(s) : null);
  const started = (s: string) => all.some((r) => r.skill === s);
  if (skills.includes('story-open')) {
    if (!started('story-open')) return ok('story-open');
    if (results.length) return null;
    const story = [...all].reverse().find((r) => '运行.故事' in r.values)?.values['运行.故事'] as { 轮?: number; 轮数?: number } | undefined;
    if (QUIT.test(child) || (story?.轮 ?? 0) + 1 >= (story?.轮数 ?? 4)) return ok('story-end');
    return ok('story-continue');
  }
  if (skills.includes('action-give')) {
    const score = results.find((r) => r.skill === 'action-check')?.values['运行.得分'] as { 结束?: boolean } | undefined;
    if (!started('action-give')) return ok('action-give');
    if (results.length === 0) return ok(QUIT.test(child) ? 'action-end' : 'action-check');
    if (score) return ok(score.结束 ? 'action-end' : 'action-give');
    return null;
  }
  const verdict = results.find((r) => r.skill === 'judge-answer')?.values['运行.判定'] as { 结果?: string; 答案?: string } | undefined;
  const score = results.find((r) => r.skill === 'keep-score')?.values['运行.得分'] as { 结束?: boolean } | undefined;
  if (results.length === 0) {
    if (!started('present-card')) return ok('present-card');
    if (QUIT.test(child)) return ok('wrap-up');
    if (!child.trim() || (req.deck && !answers(child, req.deck))) return null;
    return ok('judge-answer');
  }
  if (verdict) {
    if (verdict.结果 === '对' || verdict.答案) return ok(score?.结束 ? 'wrap-up' : 'present-card');
    return ok('give-hint');
  }
  return null;
}
