/**
 * The checks a model passes before the controller offers it: a new self-hosted address before it is
 * saved (a GGUF file for the CPU engine, a WebLLM folder and library), and a WebLLM model just
 * downloaded, in the download cache (src/llm/model-file-check.ts, loaded only when needed). Each
 * throws a ModelError saying what is wrong; `ControllerDeps` may give its own.
 */
import type { LoadRequest } from './engine-service.ts';
import type { LocalProvider } from './local-provider.ts';
import type { ModelSettings } from './settings-store.ts';
import type { ControllerDeps } from './controller-state.ts';
import type { LocalEngine, ModelUrls } from './local-engines.ts';

const abs = (u: string) => new URL(u, globalThis.location?.href).href;

/** The real check, loaded only when a self-hosted address is saved. */
const defaultCheck = async (url: string) => (await import('./model-file-check.ts')).verifyModelFile(url);
const defaultWebLlmCheck = async (modelUrl: string, libUrl?: string) => (await import('./model-file-check.ts')).verifyWebLlmModel(modelUrl, libUrl);
const defaultDownloadCheck = async (modelId: string, modelUrl?: string) => {
  const check = await import('./model-file-check.ts');
  await check.verifyDownloadedWebLlm(check.webLlmModelUrl(modelId, modelUrl && abs(modelUrl)));
};

/** A new self-hosted address for the engine (one not saved yet), checked at the address. */
export async function checkNewAddress(engine: LocalEngine, urls: ModelUrls, s: ModelSettings, deps: Pick<ControllerDeps, 'checkModelFile' | 'checkWebLlmModel'>): Promise<void> {
  if (!urls.modelUrl) return;
  if (engine === 'cpu') {
    if (urls.modelUrl !== s.cpu.modelUrl) await (deps.checkModelFile ?? defaultCheck)(abs(urls.modelUrl));
    return;
  }
  // A WebLLM folder (and its library): its config, weight list, shards and library read first.
  const lib = urls.modelLibUrl ?? s.localModelLibUrl;
  if (urls.modelUrl !== s.localModelUrl || lib !== s.localModelLibUrl) await (deps.checkWebLlmModel ?? defaultWebLlmCheck)(abs(urls.modelUrl), lib ? abs(lib) : undefined);
}

/**
 * A WebLLM model just downloaded (`req`, as the engine loads it): every weight shard in the download
 * cache, whole, of the size and MD5 its manifest lists. A damaged download is let go (`stopUsing`:
 * the caller stops using it), unloaded and deleted (the next try downloads it again).
 */
export async function checkDownloaded(provider: LocalProvider, req: LoadRequest, deps: Pick<ControllerDeps, 'checkDownloadedWebLlm'>, stopUsing: () => void): Promise<void> {
  try {
    await (deps.checkDownloadedWebLlm ?? defaultDownloadCheck)(req.modelId, req.modelUrl);
  } catch (err) {
    stopUsing();
    await provider.unload().catch(() => {});
    await provider.deleteCached(req).catch(() => {});
    throw err;
  }
}
