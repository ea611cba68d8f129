/**
 * 测试连接: asks the remote API for its models and tells a parent, in plain words, what happened and
 * what to try — the page may not call an http:// address (mixed content), the computer cannot be
 * reached, it refused this page (Ollama answers 403 to an origin it does not allow), the address
 * has no /v1 API, it took too long. The reason's words come from the error catalogue; the tips
 * name what to change on the home computer.
 */
import { describe, type ErrorCode } from '../core/errors/catalogue.ts';
import { describeModelError } from './describe.ts';
import { remoteHost } from '../core/llm/remote-endpoint.ts';
import { toModelError } from './errors.ts';
import { remoteModelChoices } from '../core/llm/remote-models.ts';
import { listRemoteModels, type RemoteConfig, type RemoteDeps } from './remote-openai.ts';

export interface ConnectionReport {
  ok: boolean;
  /** The models the server offers that can chat, in its order (ok only). */
  models: string[];
  /** The models it lists that cannot chat (embeddings and the like), left out of the choice. */
  other: string[];
  /** The HTTP status of a refused request. */
  status?: number;
  /** The error's catalogue code (not ok). */
  code?: string;
  /** One sentence: what happened. */
  headline: string;
  /** The error catalogue's explanation for a parent (not ok). */
  why?: string;
  /** What to try, most likely first. */
  tips: string[];
  /** The technical detail (for 技术细节). */
  detail?: string;
}

/** What to check so the tablet reaches each kind of server (the preset's own advice, not another program's). */
function reachTips(preset: string | undefined): string[] {
  const common = ['电脑开着，大脑程序已经启动。', '平板和电脑连着同一个 Wi-Fi。'];
  switch (preset) {
    case 'ollama':
      return [...common, '地址的端口是 11434，以 /v1 结尾。', 'Ollama 要允许别的设备和网页访问：设置 OLLAMA_HOST=0.0.0.0 和 OLLAMA_ORIGINS（写这个页面的地址），再重启 Ollama。'];
    case 'llamacpp':
      return [...common, '地址的端口是 8080（或启动时写的 --port），以 /v1 结尾。', 'llama-server 要加 --host 0.0.0.0，别的设备才连得上。'];
    case 'lmstudio':
      return [...common, '地址的端口是 1234，以 /v1 结尾。', 'LM Studio 要打开「Serve on Local Network」和「Enable CORS」。'];
    case 'vllm':
      return [...common, '地址的端口是 8000（或启动时写的 --port），以 /v1 结尾。', 'vLLM 要用 --host 0.0.0.0 启动，别的设备才连得上；网页要访问它，还要允许跨域（--allowed-origins）。'];
    case 'cloud':
      return ['平板连着网络。', '地址是服务商给的（通常以 /v1 结尾），没有写错。'];
    default:
      return [...common, '地址和端口没写错，以 /v1 结尾。', '大脑程序允许别的设备和网页访问（监听 0.0.0.0、允许跨域）。'];
  }
}

/**
 * A refused request: 401 is a missing or wrong key; 403 is what Ollama answers a page it does not
 * allow (OLLAMA_ORIGINS), and what a cloud service answers a key without the right.
 */
function authTips(preset: string | undefined, status: number | undefined, hasKey: boolean): string[] {
  const key = hasKey ? '检查 API 密钥有没有填对（整段复制，不要多空格）。' : '在「API 密钥」里填上这个服务的密钥。';
  const origins = 'Ollama 会拒绝没被允许的网页：在电脑上设置 OLLAMA_ORIGINS（写这个页面的地址），再重启 Ollama。';
  if (!wantsKey('model_remote_auth', status, preset)) return preset === 'ollama' ? [origins] : [origins, key];
  switch (preset) {
    case 'llamacpp':
      return [key, 'llama-server 用 --api-key 启动时，要填同一个密钥。'];
    case 'vllm':
      return [key, 'vLLM 用 --api-key 启动时，要填同一个密钥。'];
    case 'cloud':
      return [key, '密钥在服务商的网站上（账户的 API Keys 页）；账户要有余额。'];
    default:
      return [key];
  }
}

function tipsFor(code: string, status: number | undefined, preset: string | undefined, hasKey: boolean): string[] {
  switch (code) {
    case 'model_remote_mixed_content':
      return [
        '在打开游戏厅的那台电脑上用「AGENTCADE_BRAIN=http://localhost:端口 npm start」启动游戏厅，再把地址改成这个页面的地址加「/brain/v1」。',
        '或者给大脑程序配上 https（例如用 Caddy 转发），再填 https:// 开头的地址。',
      ];
    case 'model_remote_bad_url':
      return ['地址要以 http:// 或 https:// 开头，例如 http://192.168.1.20:11434/v1。'];
    case 'model_remote_auth':
      return authTips(preset, status, hasKey);
    case 'model_remote_http':
      return status === 404 ? ['找到了电脑，但这个地址下没有大脑的接口：地址要以 /v1 结尾，例如 http://192.168.1.20:11434/v1。'] : ['大脑程序出错了：看看电脑上它的窗口或日志。'];
    case 'model_remote_timeout':
      return ['电脑可能太忙或睡着了：唤醒电脑，或者在设置里把超时加长。'];
    default:
      return reachTips(preset);
  }
}

/** True when the server refused for want of a (right) key, not a page it does not allow (Ollama's 403). */
export function wantsKey(code: string | undefined, status: number | undefined, preset: string | undefined): boolean {
  return code === 'model_remote_auth' && (status !== 403 || preset === 'cloud');
}

function headline(code: ErrorCode, status: number | undefined, host: string, preset: string | undefined, hasKey: boolean): string {
  switch (code) {
    case 'model_remote_network':
      return `连不上 ${host}。`;
    case 'model_remote_timeout':
      return `${host} 没有回答（等太久了）。`;
    case 'model_remote_auth':
      return wantsKey(code, status, preset) ? `需要密钥：${host} ${hasKey ? '不接受这个密钥' : '要 API 密钥才让用'}。` : `${host} 不让这个页面用它。`;
    case 'model_remote_http':
      return `${host} 回答出错了。`;
    default:
      return `连不上：${describeModelError({ code, message: '' }).short}。`;
  }
}

/** What to tell a parent about a failed request to `remote` (the model list, or a step). */
export function failureReport(err: unknown, remote: Pick<RemoteConfig, 'baseUrl' | 'apiKey'> & { preset?: string }): ConnectionReport {
  const e = toModelError(err);
  const hasKey = !!remote.apiKey?.trim();
  return {
    ok: false,
    models: [],
    other: [],
    code: e.code,
    ...(e.status !== undefined ? { status: e.status } : {}),
    headline: headline(e.code, e.status, remoteHost(remote.baseUrl), remote.preset, hasKey),
    why: describe(e.code).parent,
    tips: tipsFor(e.code, e.status, remote.preset, hasKey),
    detail: e.message,
  };
}

/** Tests `remote` from this page; never throws. */
export async function testConnection(
  remote: Pick<RemoteConfig, 'baseUrl' | 'apiKey' | 'timeoutMs'> & Partial<RemoteConfig> & { preset?: string },
  deps: RemoteDeps = {},
): Promise<ConnectionReport> {
  try {
    const listed = await listRemoteModels({ model: '', ...remote, timeoutMs: Math.min(remote.timeoutMs ?? 10_000, 10_000) }, deps);
    const { chat: models, other } = remoteModelChoices(listed);
    const left = other.length ? `（另有 ${other.length} 个不能聊天的模型没有列出）` : '';
    return models.length
      ? { ok: true, models, other, headline: `连上了！电脑上的模型：${models.join('、')}${left}`, tips: [] }
      : { ok: true, models, other, headline: `连上了，但电脑上还没有能聊天的模型${left}。`, tips: ['先在电脑上下载一个能聊天的模型，例如「ollama pull qwen2.5:1.5b」。'] };
  } catch (err) {
    return failureReport(err, remote);
  }
}
