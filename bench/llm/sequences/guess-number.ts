/**
 * 猜数字: the real game agent's requests (skills/guess-number, demo policy) over two sessions.
 * A win: start, a wrong guess, a hint, then halving guesses until right (the game ends itself).
 * A quit: start, one guess, a hint, and `end` (the child leaves; the answer is told).
 */
import type { Child, RecordedSession } from '../record-game.ts';
import type { BenchSequence } from '../measure.ts';
import { viteImport } from '../vite-runner.ts';

const CN = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
/** 1..100 in Chinese numerals, as a child says them (二十三, 五十, 一百). */
function chinese(n: number): string {
  if (n === 100) return '一百';
  if (n < 10) return CN[n];
  const tens = Math.floor(n / 10);
  return `${tens === 1 ? '' : CN[tens]}十${n % 10 ? CN[n % 10] : ''}`;
}

/** Halves the open interval from the robot's verdicts; asks for a hint after the first wrong guess. */
export function halvingChild(): Child {
  let lo = 1;
  let hi = 100;
  let hinted = false;
  return ({ inputs, tools }) => {
    if (inputs === 0) return { kind: 'start', text: '我们来玩猜数字吧' };
    const v = tools.find((t) => t.name === 'submit_guess')?.result as { result?: string; number?: number } | undefined;
    if (v?.result === 'too_big') hi = v.number! - 1;
    if (v?.result === 'too_small') lo = v.number! + 1;
    if (v && !hinted) {
      hinted = true;
      return { kind: 'message', text: '好难呀，给我一点提示' };
    }
    const n = Math.floor((lo + hi) / 2);
    return { kind: 'message', text: inputs === 1 ? `我猜${chinese(n)}` : `是${chinese(n)}吗` };
  };
}

const quitter: Child = ({ inputs }) =>
  [
    { kind: 'start' as const, text: '玩猜数字' },
    { kind: 'message' as const, text: '七十' },
    { kind: 'message' as const, text: '有没有提示' },
    { kind: 'end' as const, text: '不玩了' },
  ][inputs] ?? null;

function title(s: RecordedSession, what: string): string {
  return `${what}：${s.turns.map((t) => (t.input.kind === 'message' ? t.input.text : t.input.kind)).join(' / ')}`;
}

export async function load(): Promise<BenchSequence[]> {
  const { recordGame } = await viteImport<typeof import('../record-game.ts')>('/bench/llm/record-game.ts');
  // Seed 28: the number is 43 (50 大了 → hint → 25 小了 → 37 小了 → 43 猜中), a typical four-guess win.
  const win = await recordGame('guess-number', halvingChild(), { seed: 28 });
  const quit = await recordGame('guess-number', quitter);
  return [
    { agent: 'game:guess-number', variant: 'win', title: title(win, '一局猜中'), steps: win.steps },
    { agent: 'game:guess-number', variant: 'quit', title: title(quit, '中途不玩'), steps: quit.steps },
  ];
}
