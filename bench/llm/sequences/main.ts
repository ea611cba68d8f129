/** The main agent's real requests over one scripted session (bench/main-agent/record.ts), without the fast path. */
import { recordSession } from '../../main-agent/record.ts';
import type { BenchSequence } from '../measure.ts';

export async function load(): Promise<BenchSequence[]> {
  const { steps } = await recordSession(false);
  return [{ agent: 'main', title: '主 Agent：聊天、开始猜数字、局内五句、不玩了（无快速通道）', steps }];
}
