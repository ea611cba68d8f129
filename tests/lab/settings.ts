/**
 * Lab page for the model settings screen (e2e: tests/e2e/llm.spec.ts). Mounts ModelSettings over
 * the app's hub, and checks the worker path: a module worker gets `hub.openPort().port` and steps through
 * `connectModel`, as a game worker does.
 */
import { mount } from 'svelte';
import ModelSettings from '../../src/ui/settings/ModelSettings.svelte';
import { modelHub } from '../../src/llm/model-hub.ts';
import { createModelController } from '../../src/llm/model-controller.ts';

const controller = createModelController(modelHub, () => import('../../src/ui/demo-brain.ts').then((m) => m.createDemoModel()));
mount(ModelSettings, { target: document.getElementById('app')!, props: { controller, hub: modelHub } });
void controller.init();

(globalThis as { __llmLab?: unknown }).__llmLab = { hub: modelHub, controller };

const out = document.getElementById('worker-result')!;
document.getElementById('worker-try')!.addEventListener('click', () => {
  out.textContent = '思考中…';
  const worker = new Worker(new URL('./llm-agent-worker.ts', import.meta.url), { type: 'module' });
  const port = modelHub.openPort().port;
  worker.onmessage = (ev: MessageEvent<{ ok: boolean; text?: string; label?: string; code?: string; message?: string }>) => {
    const r = ev.data;
    out.textContent = r.ok ? `工作线程收到回答：${r.text}（${r.label}）` : `工作线程失败：${r.code} ${r.message}`;
    worker.terminate();
  };
  worker.postMessage({ port, text: '从工作线程问好' }, [port]);
});

// e2e: the real model worker (WebLLM imported, no GPU needed) builds the grammar for a step schema.
import { createWebLlmProvider } from '../../src/llm/webllm-provider.ts';
import { buildStepSchema } from '../../src/core/llm/step-schema.ts';
import type { ToolSpec } from '../../src/core/llm/types.ts';
(globalThis as { __llmWorkerGrammar?: unknown }).__llmWorkerGrammar = async (tools: ToolSpec[]) => {
  const provider = createWebLlmProvider();
  try {
    return await provider.prepareGrammar(buildStepSchema(tools));
  } finally {
    provider.dispose();
  }
};
