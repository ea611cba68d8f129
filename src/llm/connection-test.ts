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
import { listRemoteModels, type RemoteConfig, type RemoteDeps } from './remote-openai.ts';

export interface ConnectionReport {
  ok: boolean;
  /** The models the server offers (ok only). */
  models: string[];
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

const REACH_TIPS = [
  '电脑开着，大脑程序已经启动。',
  '平板和电脑连着同一个 Wi-Fi。',
  '地址和端口没写错（Ollama 是 11434，llama.cpp 是 8080，LM Studio 是 1234），以 /v1 结尾。',
  '大脑程序允许别的设备和网页访问：Ollama 要设置 OLLAMA_HOST=0.0.0.0 和 OLLAMA_ORIGINS；LM Studio 要打开「Serve on Local Network」和「Enable CORS」；llama-server 要加 --host 0.0.0.0。',
];

function tipsFor(code: string, status: number | undefined): string[] {
  switch (code) {
    case 'model_remote_mixed_content':
      return [
        '在打开游戏厅的那台电脑上用「AGENTCADE_BRAIN=http://localhost:端口 npm start」启动游戏厅，再把地址改成这个页面的地址加「/brain/v1」。',
        '或者给大脑程序配上 https（例如用 Caddy 转发），再填 https:// 开头的地址。',
      ];
    case 'model_remote_bad_url':
      return ['地址要以 http:// 或 https:// 开头，例如 http://192.168.1.20:11434/v1。'];
    case 'model_remote_auth':
      return ['Ollama 会拒绝没被允许的网页：在电脑上设置 OLLAMA_ORIGINS（写这个页面的地址），再重启 Ollama。', '如果服务要密钥，检查 API 密钥有没有填对。'];
    case 'model_remote_http':
      return status === 404 ? ['找到了电脑，但这个地址下没有大脑的接口：地址要以 /v1 结尾，例如 http://192.168.1.20:11434/v1。'] : ['大脑程序出错了：看看电脑上它的窗口或日志。'];
    case 'model_remote_timeout':
      return ['电脑可能太忙或睡着了：唤醒电脑，或者在设置里把超时加长。'];
    default:
      return REACH_TIPS;
  }
}

function headline(code: ErrorCode, host: string): string {
  switch (code) {
    case 'model_remote_network':
      return `连不上 ${host}。`;
    case 'model_remote_timeout':
      return `${host} 没有回答（等太久了）。`;
    case 'model_remote_auth':
      return `${host} 不让这个页面用它。`;
    case 'model_remote_http':
      return `${host} 回答出错了。`;
    default:
      return `连不上：${describeModelError({ code, message: '' }).short}。`;
  }
}

/** Tests `remote` from this page; never throws. */
export async function testConnection(remote: Pick<RemoteConfig, 'baseUrl' | 'apiKey' | 'timeoutMs'> & Partial<RemoteConfig>, deps: RemoteDeps = {}): Promise<ConnectionReport> {
  try {
    const models = await listRemoteModels({ model: '', ...remote, timeoutMs: Math.min(remote.timeoutMs ?? 10_000, 10_000) }, deps);
    return models.length
      ? { ok: true, models, headline: `连上了！电脑上的模型：${models.join('、')}`, tips: [] }
      : { ok: true, models, headline: '连上了，但电脑上还没有模型。', tips: ['先在电脑上下载一个模型，例如「ollama pull qwen2.5:1.5b」。'] };
  } catch (err) {
    const e = toModelError(err);
    return { ok: false, models: [], code: e.code, headline: headline(e.code, remoteHost(remote.baseUrl)), why: describe(e.code).parent, tips: tipsFor(e.code, e.status), detail: e.message };
  }
}
