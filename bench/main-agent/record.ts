/**
 * Records the main agent's real model requests over one scripted session (demo policy, a fake
 * game that answers at once): chat, start 猜数字, five in-game guesses, "不玩了".
 * Used by bench/llm/sequences/main.ts (prompt tokens and KV reuse) and bench/main-agent/run.ts
 * (model calls per in-game turn, with and without the fast path).
 */
import type { GameClient, GameRequest, ReplyEvent } from '../../src/a2a/types.ts';
import { createScriptedModel } from '../../src/llm/scripted.ts';
import type { StepRequest } from '../../src/core/llm/types.ts';
import { mainDemoPolicy } from '../../src/arcade/demo-policy.ts';
import { MainAgent } from '../../src/arcade/main-agent.ts';
import type { ArcadeGame, RoundResult } from '../../src/core/arcade/types.ts';
import { gameReply, type GameInput } from '../../src/core/protocol/game-protocol.ts';

const GAMES: ArcadeGame[] = [
  { declaration: { id: 'guess-number', title: '猜数字', description: '猜数字', aliases: ['猜数', '数字游戏'], capabilities: [], engine: 'skill' }, available: true },
  { declaration: { id: 'draw-guess', title: '你画我猜', description: '你画我猜', aliases: ['猜动物'], capabilities: [], engine: 'skill' }, available: true },
];

/** Games that answer at once; `onStart` hears each game started. */
export function instantGames(onStart?: (gameId: string) => void): GameClient {
  let n = 0;
  return {
    request(gameId: string, _c: string, input: GameInput): GameRequest {
      if (input.kind === 'start') onStart?.(gameId);
      const text = input.kind === 'start' ? '我想好了一个 1 到 100 的数字，猜猜看吧！' : input.kind === 'end' ? '好的，下次再玩！' : '大了一点，再猜！';
      const ev: ReplyEvent = { reply: gameReply(text, input.kind === 'end' ? 'ended' : 'active'), final: true };
      return {
        requestId: `r${++n}`,
        replies: (async function* () {
          yield ev;
        })(),
        cancel: async () => {},
      };
    },
    stop() {},
    stopAll() {},
  };
}

export const SCRIPT = ['你好', '我们玩猜数字吧', '我猜50', '是25吗', '三十七', '我猜三十', '那是三十三吧', '不玩了'];
export const IN_GAME = new Set(['我猜50', '是25吗', '三十七', '我猜三十', '那是三十三吧']);

export async function recordSession(fastPath: boolean): Promise<{ steps: StepRequest[]; rounds: Array<{ words: string; result: RoundResult; calls: number }> }> {
  const steps: StepRequest[] = [];
  const model = createScriptedModel({
    main: (req) => {
      steps.push(req);
      return mainDemoPolicy(req);
    },
  });
  const agent = new MainAgent({
    model: () => model,
    games: instantGames(),
    catalog: () => GAMES,
    speaker: { say: async () => ({ completed: true }), stop() {} },
    fastPath,
  });
  const rounds: Array<{ words: string; result: RoundResult; calls: number }> = [];
  for (const words of SCRIPT) {
    const before = steps.length;
    const result = await agent.handle(words);
    await agent.settled();
    rounds.push({ words, result, calls: steps.length - before });
  }
  return { steps, rounds };
}
