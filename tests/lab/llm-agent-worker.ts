/** Lab-only worker: stands in for a game worker asking the shared model for one step. */
import { connectModel } from '../../src/llm/model-port.ts';

self.onmessage = async (ev: MessageEvent<{ port: MessagePort; text: string }>) => {
  const model = connectModel(ev.data.port);
  try {
    const step = await model.step({
      agent: 'settings:test',
      messages: [{ role: 'user', content: ev.data.text }],
      tools: [
        {
          name: 'reply',
          description: '回答',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        },
      ],
    });
    self.postMessage({ ok: true, text: String(step.args.text), label: model.label });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    self.postMessage({ ok: false, code: e.code, message: e.message });
  }
};
