/**
 * The Studio's real requests with its demo policies (bench/llm/record-studio.ts): one design
 * session of 问答卡牌 and one play session of the designed 恐龙问答 through the arcade's handler.
 * One sequence per agent (each agent's previous request is what its KV cache would hold), plus
 * the play session as one engine sees it: every agent's requests in the order they were sent.
 */
import type { StepRequest } from '../../../src/core/llm/types.ts';
import type { BenchSequence } from '../measure.ts';
import { viteImport } from '../vite-runner.ts';

function byAgent(steps: StepRequest[], variant: string, stage: string): BenchSequence[] {
  const agents = [...new Set(steps.map((s) => s.agent))];
  return agents.map((agent) => ({ agent, variant, title: `${stage}（每个 agent 单独计）`, steps: steps.filter((s) => s.agent === agent) }));
}

export async function load(): Promise<BenchSequence[]> {
  const { recordStudio } = await viteImport<typeof import('../record-studio.ts')>('/bench/llm/record-studio.ts');
  const r = await recordStudio();
  const said = r.turns.map((t) => (t.kind === 'message' ? t.text : t.kind)).join(' / ');
  return [
    ...byAgent(r.design, 'design', '设计：做问答卡牌、答主题“恐龙”、驳回一次卡牌、其余接受'),
    ...byAgent(r.play, 'play', `游玩恐龙问答：${said}`),
    { agent: 'studio:*', variant: 'play, all agents in order', title: `游玩恐龙问答，按发出顺序（一个引擎看到的）：${said}`, steps: r.play },
  ];
}
