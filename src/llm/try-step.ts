/** Settings' "试一步": one real agent step through the hub, as a parent tries the brain in use. */
import type { ModelHub } from './model-hub.ts';

export const TRY_AGENT = 'settings:test';
const TRY_TOOLS = [
  {
    name: 'reply',
    description: '用一句简短的中文回答',
    parameters: { type: 'object', properties: { text: { type: 'string', maxLength: 80 } }, required: ['text'] },
  },
];

/** One real agent step through the hub; returns the reply text. */
export async function tryStep(hub: ModelHub, text: string, signal?: AbortSignal): Promise<string> {
  const step = await hub.model().step({
    agent: TRY_AGENT,
    messages: [
      { role: 'system', content: '你是陪孩子玩语音游戏的小机器人。用一句简短、温暖的中文回答。' },
      { role: 'user', content: text },
    ],
    tools: TRY_TOOLS,
    // Above what the grammar allows (80 characters, up to 4 bytes each for a byte-level vocabulary,
    // plus the JSON around them): a grammar-bound step always ends before the cap.
    maxTokens: 400,
    signal,
  });
  return String(step.args.text ?? '');
}
