/**
 * Which structured-output mode a remote server supports: a tiny step (two actions, a short
 * string) is asked for in each mode of MODE_ORDER, strongest first, through the real remote
 * provider; the first mode whose request the server accepts *and* whose answer is a valid step is
 * the one to use. A server that ignores a field (answers 200 with free text) therefore does not
 * count as supporting it. Connection problems (network, key, timeout, mixed content, a bad
 * address) end the probe with that error, since no mode would help. Run at 测试连接 and after a request fails.
 */
import { checkStep } from '../core/llm/step-schema.ts';
import { buildStepSchema } from '../core/llm/step-schema.ts';
import type { ChatMessage, ToolSpec } from '../core/llm/types.ts';
import { ModelError } from '../core/llm/types.ts';
import { createRemoteProvider, type RemoteConfig, type RemoteDeps } from './remote-openai.ts';
import { MODE_ORDER, type OutputMode } from '../core/llm/output-modes.ts';

export const PROBE_AGENT = 'settings:probe';

const PROBE_TOOLS: ToolSpec[] = [
  {
    name: 'greet',
    description: '向小朋友打招呼',
    parameters: { type: 'object', properties: { text: { type: 'string', minLength: 1, maxLength: 24 } }, required: ['text'] },
  },
  { name: 'wait', description: '什么也不做', parameters: { type: 'object', properties: {} } },
];

const PROBE_MESSAGES: ChatMessage[] = [
  { role: 'system', content: '你是陪小朋友玩的机器人。' },
  { role: 'user', content: '跟我打个招呼吧。' },
];

export interface ModeTrial {
  mode: OutputMode;
  ok: boolean;
  /** Why the mode was not taken (HTTP error text, or the invalid answer). */
  detail?: string;
}

export interface ProbeResult {
  mode: OutputMode;
  trials: ModeTrial[];
}

/** Errors that no other mode would fix. */
function isConnectionProblem(err: unknown): boolean {
  const code = (err as ModelError)?.code;
  return (
    code === 'model_remote_network' ||
    code === 'model_remote_auth' ||
    code === 'model_remote_timeout' ||
    code === 'model_remote_mixed_content' ||
    code === 'model_bad_config' ||
    code === 'model_remote_bad_url' ||
    (err as Error)?.name === 'AbortError'
  );
}

export async function probeOutputMode(
  config: RemoteConfig,
  deps: RemoteDeps = {},
  opts: { signal?: AbortSignal; modes?: readonly OutputMode[] } = {},
): Promise<ProbeResult> {
  const schema = buildStepSchema(PROBE_TOOLS);
  const trials: ModeTrial[] = [];
  const modes = opts.modes ?? MODE_ORDER;
  let lastError: unknown;
  for (const mode of modes) {
    const provider = createRemoteProvider({ ...config, mode, timeoutMs: Math.min(config.timeoutMs ?? 30_000, 30_000) }, deps);
    try {
      const text = await provider.complete({
        agent: PROBE_AGENT,
        messages: PROBE_MESSAGES,
        tools: PROBE_TOOLS,
        schema,
        attempt: 0,
        maxTokens: 64,
        temperature: 0,
        signal: opts.signal,
      });
      const checked = checkStep(text, PROBE_TOOLS);
      if (checked.ok || mode === 'text') {
        trials.push({ mode, ok: true });
        return { mode, trials };
      }
      if (mode === 'json_object' && isJsonObject(text)) {
        trials.push({ mode, ok: true, detail: checked.reason });
        return { mode, trials };
      }
      trials.push({ mode, ok: false, detail: `${checked.reason}：${text.slice(0, 80)}` });
    } catch (err) {
      if (isConnectionProblem(err)) throw err;
      lastError = err;
      trials.push({ mode, ok: false, detail: (err as Error)?.message ?? String(err) });
    }
  }
  // Every mode failed, plain text included: the server refuses chat requests altogether.
  if (lastError) throw lastError;
  throw new ModelError('model_remote_http', '服务器不接受任何一种请求');
}

function isJsonObject(text: string): boolean {
  try {
    const v = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}
