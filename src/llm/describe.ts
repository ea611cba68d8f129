/** A ModelError → what the settings screen shows: a short reason and the parent's detail. */
import { describe, type ErrorCode } from '../core/errors/catalogue.ts';
import type { ModelError } from '../core/llm/types.ts';

const SHORT: Partial<Record<ErrorCode, string>> = {
  model_no_webgpu: '没有可用的显卡（WebGPU）',
  model_insecure_context: '页面不是 https，浏览器不提供 WebGPU',
  model_out_of_memory: '内存不足',
  model_cpu_unsupported: '浏览器不能运行 CPU 引擎',
  model_context_full: '对话太长',
  model_download_failed: '下载失败',
  model_file_bad: '这不是能用的模型文件，原来的大脑照常用',
  model_offline_not_cached: '离线且模型未下载',
  model_storage_full: '存储空间不足',
  model_bad_config: '模型地址或编号无效',
  model_not_loaded: '模型未加载',
  model_not_configured: '未选择模型',
  model_invalid_output: '模型输出无效',
  model_remote_http: '远程接口返回错误',
  model_remote_auth: '远程接口密钥无效',
  model_remote_network: '连不上远程接口',
  model_remote_timeout: '远程接口超时',
  model_remote_mixed_content: 'https 页面不能访问 http 接口',
  model_remote_bad_stream: '远程接口回答格式不对',
  model_too_slow: '这一步没有及时想好',
  model_remote_bad_url: '接口地址不是完整的网址',
};

/** What happened, as the error's detail says it (the status and address, "不是模型文件"), without the catalogue's sentence. */
export function errorDetail(e: Pick<ModelError, 'code' | 'message'>): string {
  const parent = describe(e.code).parent;
  let m = e.message ?? '';
  while (parent && m.startsWith(`${parent}（`) && m.endsWith('）')) m = m.slice(parent.length + 1, -1);
  return m === parent ? '' : m;
}

export function describeModelError(e: Pick<ModelError, 'code' | 'message'>): { short: string; child: string; parent: string } {
  const entry = describe(e.code);
  return { short: SHORT[e.code] ?? '未知错误', child: entry.child, parent: e.message || entry.parent };
}
