/**
 * A WebLLM model's weight shards are checked before the model is offered: at a self-hosted address
 * before it is saved (each shard there, its size, not a web page), and once downloaded, in the
 * download cache, whole (its size and the MD5 its manifest gives). Real bytes over real HTTP from a
 * local server: a truncated, an HTML, a missing and a damaged shard are each refused naming the file
 * and what is wrong, and the brain in use stays.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { startFileServer, type FileServer } from '../../support/file-server.ts';
import { verifyDownloadedWebLlm, verifyWebLlmModel, webLlmModelUrl } from '../../../src/llm/model-file-check.ts';
import { LOCAL_MODELS } from '../../../src/core/llm/models.ts';
import { ModelController } from '../../../src/llm/model-controller.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { defaultModelSettings } from '../../../src/llm/settings-store.ts';
import type { LocalProvider } from '../../../src/llm/local-provider.ts';

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 131 + seed * 17 + (i >> 7)) & 255);
const SHARDS = [bytes(70_000, 1), bytes(40_000, 2)];
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const config = JSON.stringify({ model_type: 'qwen2', vocab_size: 151936, conv_template: { name: 'qwen2' } });
const manifest = JSON.stringify({ records: SHARDS.map((b, i) => ({ dataPath: `params_shard_${i}.bin`, format: 'raw-shard', nbytes: b.length, md5sum: md5(b), records: [] })) });
const page = new TextEncoder().encode('<!DOCTYPE html><html><body>Not found</body></html>');
const text = (t: string) => new TextEncoder().encode(t);

/** A model folder at /<name>/resolve/main/ with its second shard as given (undefined: missing). */
function folder(name: string, second: Uint8Array | undefined, list = 'tensor-cache.json'): Record<string, Uint8Array> {
  const at = `/${name}/resolve/main/`;
  return {
    [`${at}mlc-chat-config.json`]: text(config),
    [`${at}${list}`]: text(manifest),
    [`${at}params_shard_0.bin`]: SHARDS[0],
    ...(second ? { [`${at}params_shard_1.bin`]: second } : {}),
  };
}

const damaged = SHARDS[1].slice();
damaged[20_000] ^= 0xff;

let server: FileServer;
beforeAll(async () => {
  server = await startFileServer({
    ...folder('good', SHARDS[1]),
    ...folder('truncated', SHARDS[1].subarray(0, 25_000)),
    ...folder('html', page),
    ...folder('missing', undefined),
    ...folder('damaged', damaged),
    ...folder('old', SHARDS[1], 'ndarray-cache.json'),
  });
});
afterAll(() => server.close());

const at = (name: string) => server.url(`/${name}/`);
/** WebLLM's download cache as the check reads it: here its contents are the server's files (a real fetch). */
const cacheOf = async () => ({ match: async (u: RequestInfo | URL) => ((r) => (r.ok ? r : undefined))(await fetch(String(u))) });
const downloaded = (name: string) => verifyDownloadedWebLlm(webLlmModelUrl('x', at(name)), cacheOf);

describe('WebLLM weight shards', () => {
  it('the prebuilt models are fetched from where WebLLM fetches them', () => {
    for (const m of LOCAL_MODELS) {
      const record = prebuiltAppConfig.model_list.find((r) => r.model_id === m.id)!;
      expect(webLlmModelUrl(m.id)).toBe(new URL(`${record.model}/resolve/main/`).href);
    }
  });

  it('at a self-hosted address: a whole folder passes; a truncated, an HTML or a missing shard is refused naming it', async () => {
    await expect(verifyWebLlmModel(at('good'))).resolves.toBeUndefined();
    await expect(verifyWebLlmModel(at('truncated'))).rejects.toMatchObject({ code: 'model_file_bad', message: expect.stringContaining('权重文件 params_shard_1.bin 不完整：只有 25000 字节，清单上是 40000 字节') });
    await expect(verifyWebLlmModel(at('html'))).rejects.toMatchObject({ code: 'model_file_bad', message: expect.stringContaining('权重文件 params_shard_1.bin 是一个网页（HTML），不是权重') });
    await expect(verifyWebLlmModel(at('missing'))).rejects.toMatchObject({ code: 'model_download_failed', message: expect.stringMatching(/（HTTP 404：.*params_shard_1\.bin）$/) });
    await expect(verifyWebLlmModel(at('old'))).rejects.toMatchObject({ code: 'model_file_bad', message: expect.stringContaining('只有旧的 ndarray-cache.json，这个版本的 WebLLM 要 tensor-cache.json') });
  });

  it('downloaded: every shard read whole; a damaged one (right size, wrong MD5), a truncated or a missing one is refused', async () => {
    await expect(downloaded('good')).resolves.toBeUndefined();
    await expect(downloaded('damaged')).rejects.toMatchObject({ code: 'model_file_bad', message: expect.stringContaining('权重文件 params_shard_1.bin 坏了：内容的校验值（MD5）和清单上的不一样') });
    await expect(downloaded('truncated')).rejects.toMatchObject({ message: expect.stringContaining('不完整') });
    await expect(downloaded('missing')).rejects.toMatchObject({ message: expect.stringContaining('权重文件 params_shard_1.bin 不在下载里') });
  });

  it('a damaged download is not offered: the state names the file and the cause, the download is deleted, the brain in use stays', async () => {
    const hub = new ModelHub();
    const calls: string[] = [];
    const provider = {
      label: '本机大脑',
      load: async (req: { modelId: string }) => (calls.push('load'), req.modelId),
      unload: async () => void calls.push('unload'),
      deleteCached: async () => void calls.push('delete'),
      isCached: async () => false,
      complete: async () => '{"reply":{"text":"好"}}',
      details: async () => undefined,
    } as unknown as LocalProvider;
    const c = new ModelController({
      hub,
      webllm: () => provider,
      cpuProbe: () => ({ usable: false, isolated: false, cores: 4 }),
      demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
      probe: async () => ({ usable: true, f16: true }),
      load: async () => ({ ...defaultModelSettings(), localModelUrl: at('damaged') }),
      save: async () => undefined,
      checkDownloadedWebLlm: async (id, url) => verifyDownloadedWebLlm(webLlmModelUrl(id, url), cacheOf),
    });
    await c.init();
    await c.chooseProvider('scripted');
    await c.load('webllm');
    expect(c.snapshot.local).toMatchObject({ kind: 'failed', code: 'model_file_bad' });
    expect((c.snapshot.local as { reason: string }).reason).toContain('params_shard_1.bin 坏了：内容的校验值（MD5）和清单上的不一样');
    expect(calls).toEqual(['load', 'unload', 'delete']);
    expect(c.snapshot.settings.readyOffline).toEqual([]);
    expect(hub.kind).toBe('scripted');
  });
});
