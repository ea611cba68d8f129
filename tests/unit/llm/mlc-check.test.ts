/**
 * A self-hosted WebLLM model is checked at its address before it is saved: its folder's config and
 * weight list read as an MLC model's, its library as WebAssembly; a page, another file or a missing
 * file is refused saying what it is, and the brain in use stays.
 */
import { describe, expect, it } from 'vitest';
import { checkMlcFolder, checkWasmHead, mlcFileUrl } from '../../../src/core/llm/mlc-check.ts';
import { ModelController } from '../../../src/llm/model-controller.ts';
import { ModelHub } from '../../../src/llm/model-hub.ts';
import { defaultModelSettings } from '../../../src/llm/settings-store.ts';
import { modelError } from '../../../src/llm/errors.ts';

const config = JSON.stringify({ model_type: 'qwen2', vocab_size: 151936, conv_template: { name: 'qwen2' } });
const cache = JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin', nbytes: 1000 }, { dataPath: 'params_shard_1.bin', nbytes: 500 }] });
const page = '<!DOCTYPE html><html><body>404</body></html>';

describe('a WebLLM model folder and library', () => {
  it('files are found where WebLLM fetches them', () => {
    expect(mlcFileUrl('https://robot.local/models/q/', 'mlc-chat-config.json')).toBe('https://robot.local/models/q/resolve/main/mlc-chat-config.json');
    expect(mlcFileUrl('https://hf.co/mlc-ai/q/resolve/v2/', 'ndarray-cache.json')).toBe('https://hf.co/mlc-ai/q/resolve/v2/ndarray-cache.json');
  });

  it('a whole folder passes with its shards counted; a page, other JSON or an empty weight list are named', () => {
    expect(checkMlcFolder(config, cache)).toMatchObject({ ok: true, shards: 2, bytes: 1500 });
    expect(checkMlcFolder(page, cache)).toMatchObject({ ok: false, detail: expect.stringContaining('网页（HTML）') });
    expect(checkMlcFolder('{"name":"not a model"}', cache)).toMatchObject({ ok: false, detail: expect.stringContaining('不是 MLC 模型的配置') });
    expect(checkMlcFolder(config, '{"records":[]}')).toMatchObject({ ok: false, detail: expect.stringContaining('没有列出权重文件') });
    expect(checkMlcFolder(config, page)).toMatchObject({ ok: false, detail: expect.stringContaining('没有权重清单') });
  });

  it('the library is WebAssembly, not a page', () => {
    expect(checkWasmHead(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]))).toMatchObject({ ok: true });
    expect(checkWasmHead(new TextEncoder().encode(page))).toMatchObject({ ok: false, detail: expect.stringContaining('网页') });
    expect(checkWasmHead(new Uint8Array([0x47, 0x47, 0x55, 0x46]))).toMatchObject({ ok: false, detail: expect.stringContaining('不是 WebAssembly') });
  });

  it('a refused folder is not saved: the address stays as it was and the state says what is wrong', async () => {
    const hub = new ModelHub();
    const checked: Array<[string, string | undefined]> = [];
    const c = new ModelController({
      hub,
      webllm: () => {
        throw new Error('not loaded in this test');
      },
      cpuProbe: () => ({ usable: false, isolated: false, cores: 4 }),
      demoModel: async () => (await import('../../../src/ui/demo-brain.ts')).createDemoModel(),
      probe: async () => ({ usable: true, f16: true }),
      load: async () => defaultModelSettings(),
      save: async () => undefined,
      checkWebLlmModel: async (url, lib) => {
        checked.push([url, lib]);
        throw modelError('model_file_bad', `mlc-chat-config.json 是一个网页（HTML），这不是模型文件夹：${url}`);
      },
    });
    await c.init().catch(() => undefined);
    await c.chooseModel('webllm', c.snapshot.settings.localModelId, { modelUrl: 'https://robot.local/models/q/', modelLibUrl: 'https://robot.local/libs/q.wasm' });
    expect(checked).toEqual([['https://robot.local/models/q/', 'https://robot.local/libs/q.wasm']]);
    expect(c.snapshot.settings.localModelUrl).toBe('');
    expect(c.snapshot.local).toMatchObject({ kind: 'failed', code: 'model_file_bad' });
    expect((c.snapshot.local as { reason: string }).reason).toContain('这不是模型文件夹');
  });
});
