/**
 * `npx tsx bench/main-agent/run.ts`: main-agent model calls and prompt size per in-game turn,
 * with the fast path (default) and without it. Prompt size in characters of the messages
 * (bench/llm counts Qwen tokens for the same requests: bench/llm/sequences/main.ts).
 */
import { IN_GAME, recordSession } from './record.ts';

for (const fastPath of [true, false]) {
  const { steps, rounds } = await recordSession(fastPath);
  const inGame = rounds.filter((r) => IN_GAME.has(r.words));
  const calls = inGame.reduce((n, r) => n + r.calls, 0);
  console.log(`\n主 Agent ${fastPath ? '开启快速通道' : '关闭快速通道'}：`);
  for (const r of rounds) console.log(`  ${r.words.padEnd(10, '　')} → ${r.result.route}/${r.result.action}，模型调用 ${r.calls} 次`);
  const chars = steps.map((s) => s.messages.reduce((n, m) => n + m.content.length, 0));
  console.log(`  局内每轮主 Agent 模型调用：${(calls / inGame.length).toFixed(2)} 次（共 ${inGame.length} 轮）`);
  console.log(`  主 Agent 每次调用的提示词：平均 ${Math.round(chars.reduce((a, b) => a + b, 0) / Math.max(1, chars.length))} 字，最多 ${Math.max(0, ...chars)} 字`);
}
