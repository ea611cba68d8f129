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
import { absoluteUrl, type EngineLike, type EngineModule, type LoadRequest } from './engine-service.ts';
import { stepGrammar } from './grammar.ts';

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
    if (current instanceof MLCEngine) {
      current.setAppConfig(appConfig);
      current.setInitProgressCallback(initProgressCallback);
      return current;
    }
    return new MLCEngine({ appConfig, initProgressCallback, logLevel: 'WARN' }) as unknown as EngineLike;
  },
  grammar: (schema) => stepGrammar(schema),
  isCached: (req) => hasModelInCache(req.modelId, appConfigFor(req)),
  deleteCached: (req) => deleteModelAllInfoInCache(req.modelId, appConfigFor(req)),
};
