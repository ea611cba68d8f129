/**
 * 你画我猜: the real game agent's requests (skills/draw-guess, demo policy) over one session:
 * start (say, draw, progress), a wrong animal, a hint, the right one (→ the next drawing), a skip
 * (→ the third drawing), one more wrong answer, and `end` (the child leaves; the answer is told).
 * The bench child peeks at the secret the game records for the trace, to be right on cue.
 */
import type { Child } from '../record-game.ts';
import type { BenchSequence } from '../measure.ts';
import { viteImport } from '../vite-runner.ts';

const DECOYS = ['老虎', '兔子', '大象', '企鹅'];

function currentAnswer(secrets: unknown[]): string {
  const s = [...secrets].reverse().find((x) => typeof (x as { answer?: unknown }).answer === 'string') as { answer: string } | undefined;
  return s?.answer ?? '';
}

/** Another animal than the one drawn now. */
function decoy(answer: string, skip = 0): string {
  return DECOYS.filter((d) => !d.includes(answer) && !answer.includes(d))[skip]!;
}

export const drawGuessChild: Child = ({ inputs, secrets }) => {
  const answer = currentAnswer(secrets);
  switch (inputs) {
    case 0:
      return { kind: 'start', text: '我们玩你画我猜吧' };
    case 1:
      return { kind: 'message', text: `是${decoy(answer)}吗` };
    case 2:
      return { kind: 'message', text: '给我一点提示' };
    case 3:
      return { kind: 'message', text: `是${answer}` };
    case 4:
      return { kind: 'message', text: '这个太难了，跳过吧' };
    case 5:
      return { kind: 'message', text: `我猜是${decoy(answer, 1)}` };
    case 6:
      return { kind: 'end', text: '不玩了' };
    default:
      return null;
  }
};

export async function load(): Promise<BenchSequence[]> {
  const { recordGame } = await viteImport<typeof import('../record-game.ts')>('/bench/llm/record-game.ts');
  const s = await recordGame('draw-guess', drawGuessChild);
  const said = s.turns.map((t) => (t.input.kind === 'message' ? t.input.text : t.input.kind)).join(' / ');
  return [{ agent: 'game:draw-guess', variant: 'session', title: `一局（答错、提示、答对、跳过、答错、不玩了）：${said}`, steps: s.steps }];
}
