/**
 * WebLLM behind the engine service (imported by workers/model.ts only: the WebLLM bundle is
 * ~6 MB and belongs in the model worker's chunk). Builds the app config: the prebuilt record of
 * the chosen model, with self-hosted model/library URLs made absolute (WebLLM throws on
 * relative ones), cached with the Cache API.
 */
import {
  MLCEngine,
  deleteModelAllInfoInCache,
  hasModelInCache,
  prebuiltAppConfig,
  type AppConfig,
  type ModelRecord,
} from '@mlc-ai/web-llm';
import { absoluteUrl, type EngineChunk, type EngineLike, type EngineModule, type LoadRequest } from './engine-service.ts';
import { literalGrammar, stepGrammar } from './grammar.ts';
import { CHATML, continuation, sameMessage, type HeldConversation } from '../core/llm/continuation.ts';
import type { ChatMessage } from '../core/llm/types.ts';

/**
 * MLCEngine with the conversation it holds tracked, so a request that continues it with several
 * new messages (the input, then the steps the rules performed before the model) is sent folded
 * into one (core/llm/continuation.ts) and WebLLM reuses its cache instead of reading the whole
 * prompt again. Only for the ChatML models (every Qwen); others are sent as asked.
 *
 * WebLLM holds one conversation for every agent, so another agent's step (the main agent's chat
 * turn in the middle of a game) replaces the game's. A prewarm of the game's next request start
 * (`replay`) gives it back while the chat reply is spoken: the game's messages read again and its
 * last step decoded again under a grammar that admits only that step's text, so WebLLM holds
 * exactly the conversation the game's next request continues.
 */
export class ContinuingEngine implements EngineLike {
  private held: HeldConversation | null = null;
  private modelId: string | undefined;

  constructor(readonly inner: MLCEngine) {}

  async reload(modelId: string, chatOpts?: Record<string, unknown>): Promise<void> {
    this.held = null;
    this.modelId = modelId;
    await this.inner.reload(modelId, chatOpts);
  }

  async unload(): Promise<void> {
    this.held = null;
    await this.inner.unload();
  }

  interruptGenerate(): void {
    // An interrupted reply is not held in place (WebLLM starts over after it).
    this.held = null;
    this.inner.interruptGenerate();
  }

  private get chatml(): boolean {
    return /^qwen/i.test(this.modelId ?? '');
  }

  replay(messages: ChatMessage[]): { messages: ChatMessage[]; reply: string; grammar: string } | null {
    // Up to the last step: what follows it (the note of what the child heard after a muted step) is
    // the start of what the next request adds, folded into one new message then.
    const at = messages.findLastIndex((m) => m.role === 'assistant');
    const last = messages[at];
    if (!this.chatml || at < 1 || !last.content) return null;
    const asked = messages.slice(0, at);
    const h = this.held;
    if (h && h.reply === last.content && h.asked.length === asked.length && h.asked.every((m, i) => sameMessage(m, asked[i]))) return null;
    return { messages: asked, reply: last.content, grammar: literalGrammar(last.content) };
  }

  async chatCompletion(req: Record<string, unknown>): Promise<AsyncIterable<EngineChunk>> {
    const asked = req.messages as ChatMessage[];
    const chatml = this.chatml;
    const { send } = chatml ? continuation(this.held, asked, CHATML) : { send: asked };
    this.held = null;
    const stream = (await this.inner.chatCompletion({ ...req, messages: send } as never)) as unknown as AsyncIterable<EngineChunk & { choices: Array<{ finish_reason?: string | null }> }>;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const engine = this;
    return (async function* () {
      let reply = '';
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        reply += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        yield chunk;
      }
      // Held only after a reply that ended by itself (a stop): WebLLM keeps exactly that conversation.
      if (chatml && finish === 'stop') engine.held = { asked, sent: send, reply };
    })();
  }
}

export function appConfigFor(req: LoadRequest): AppConfig {
  const prebuilt = prebuiltAppConfig.model_list.find((m) => m.model_id === req.modelId);
  if (!req.modelUrl && !req.modelLibUrl) {
    if (!prebuilt) throw new Error(`Cannot find model record in appConfig for ${req.modelId}`);
    return { ...prebuiltAppConfig, cacheBackend: 'cache' };
  }
  if (!prebuilt && !(req.modelUrl && req.modelLibUrl))
    throw new Error(`Cannot find model record in appConfig for ${req.modelId}: give both the model URL and the library URL`);
  const record: ModelRecord = {
    ...(prebuilt ?? { model_id: req.modelId, model: '', model_lib: '' }),
    model_id: req.modelId,
    model: req.modelUrl ? absoluteUrl(req.modelUrl) : prebuilt!.model,
    model_lib: req.modelLibUrl ? absoluteUrl(req.modelLibUrl) : prebuilt!.model_lib,
  };
  return { model_list: [record], cacheBackend: 'cache' };
}

export const webLlmDeps: EngineModule = {
  async prepareEngine(current, req, onProgress) {
    const appConfig = appConfigFor(req);
    const initProgressCallback = (r: { progress: number; text: string }) => onProgress({ progress: r.progress, text: r.text });
    if (current instanceof ContinuingEngine) {
      current.inner.setAppConfig(appConfig);
      current.inner.setInitProgressCallback(initProgressCallback);
      return current;
    }
    return new ContinuingEngine(new MLCEngine({ appConfig, initProgressCallback, logLevel: 'WARN' }));
  },
  grammar: (schema) => stepGrammar(schema),
  isCached: (req) => hasModelInCache(req.modelId, appConfigFor(req)),
  deleteCached: (req) => deleteModelAllInfoInCache(req.modelId, appConfigFor(req)),
};
