/**
 * Ready-made settings for the servers families actually run: the base path each one serves its
 * OpenAI-compatible API on, and what a parent has to know to reach it from a tablet. Small and
 * synchronous (the settings screen reads it). The three programs of a home computer take their
 * steps and address from the home-computer guide (src/core/llm/home-brain.ts), so 设置 and
 * 选大脑 give the same advice.
 */
import { HOME_BRAIN_PROGRAMS, type HomeBrainProgramId } from './home-brain.ts';

/** A home program's own address on this computer (the guide gives the one for the page). */
function programUrl(id: HomeBrainProgramId): string {
  return `http://localhost:${HOME_BRAIN_PROGRAMS.find((p) => p.id === id)!.port}/v1`;
}

export interface RemotePreset {
  id: string;
  label: string;
  /** The base URL to start from (the parent replaces localhost with the computer's address). */
  baseUrl: string;
  placeholderModel: string;
  /** What a parent has to know (a home program's steps come from the guide instead). */
  note?: string;
  /** The service needs an API key. */
  needsKey: boolean;
  /** A home computer's program: its steps and address come from the guide for the page the app is open on. */
  program?: HomeBrainProgramId;
}

const LAN =
  '平板上的“localhost”是平板自己：请换成运行它的电脑在局域网里的地址。本页面是 https，浏览器不允许它访问 http:// 的局域网地址，请给服务配上 https（例如用 Caddy 反向代理）。';

export const REMOTE_PRESETS: RemotePreset[] = [
  {
    id: 'ollama',
    label: 'Ollama',
    baseUrl: programUrl('ollama'),
    placeholderModel: 'qwen2.5:1.5b',
    needsKey: false,
    program: 'ollama',
  },
  {
    id: 'llamacpp',
    label: 'llama.cpp 服务器（llama-server）',
    baseUrl: programUrl('llama-server'),
    placeholderModel: 'qwen2.5-1.5b-instruct',
    needsKey: false,
    program: 'llama-server',
  },
  {
    id: 'lmstudio',
    label: 'LM Studio',
    baseUrl: programUrl('lm-studio'),
    placeholderModel: 'qwen2.5-1.5b-instruct',
    needsKey: false,
    program: 'lm-studio',
  },
  {
    id: 'vllm',
    label: 'vLLM',
    baseUrl: 'http://localhost:8000/v1',
    placeholderModel: 'Qwen/Qwen2.5-1.5B-Instruct',
    note: `需要带显卡的电脑，启动：vllm serve Qwen/Qwen2.5-1.5B-Instruct --port 8000，模型名称与启动时相同。${LAN}`,
    needsKey: false,
  },
  {
    id: 'cloud',
    label: 'OpenAI 兼容的云服务',
    baseUrl: 'https://',
    placeholderModel: 'gpt-4o-mini',
    note: '填写服务商给的地址（通常以 /v1 结尾）和 API 密钥。需要联网，按用量付费，孩子说的话会发给服务商。',
    needsKey: true,
  },
  { id: 'custom', label: '其他（自己填写）', baseUrl: '', placeholderModel: '', note: '任何 OpenAI 兼容的 /v1/chat/completions 接口。', needsKey: false },
];

export function remotePreset(id: string): RemotePreset {
  return REMOTE_PRESETS.find((p) => p.id === id) ?? REMOTE_PRESETS[REMOTE_PRESETS.length - 1];
}
