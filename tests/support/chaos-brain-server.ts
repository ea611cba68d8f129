/**
 * A chaos brain: a local OpenAI-compatible server (./openai-test-server.ts) that answers every
 * request like the demo brain (./demo-brain-server.ts) — or with a random valid step — and, with
 * probability `rate`, with a fault instead. Every draw comes from one seeded random source, so a
 * run is the same run every time. Faults:
 * - `broken_json`, `unknown_action`, `wrong_types`, `empty_content`: malformed output (the model
 *   layer's corrections);
 * - `http_500`, `http_429`, `cut_stream` (the connection dropped mid-answer), `stall` (headers and
 *   maybe a piece, then silence longer than any timeout): transient failures (its retries);
 * - `lie`: a reply that claims a result this turn did not decide — the truth check must never let
 *   it reach the child. Each lie is recorded with its kind (`LIE_KINDS`): a false verdict (你猜对了
 *   after a wrong guess), a wrong count of tries, a stale 大/小 for a new guess (the last verdict
 *   said again before the new number was judged), a verdict from the wrong game (猜数字's 太大了 in
 *   你画我猜), a game verdict from the main agent with no game running, and a restart claim when
 *   nothing restarts.
 */
import { seededRandom, type Random } from '../../src/core/random.ts';
import type { JsonSchema } from '../../src/core/llm/types.ts';
import { readToolResult } from '../../src/core/agent/messages.ts';
import { agentOf, demoStep, toolsOf } from './demo-brain-server.ts';
import { startOpenAITestServer, type OpenAITestServer, type TestReply } from './openai-test-server.ts';
import { stepJson } from '../../src/core/llm/step-format.ts';

export const FAULTS = ['broken_json', 'unknown_action', 'wrong_types', 'empty_content', 'http_500', 'http_429', 'cut_stream', 'stall', 'lie'] as const;
export type Fault = (typeof FAULTS)[number];

export interface ChaosOptions {
  seed: number;
  /** Probability that a request is answered with a fault. */
  rate: number;
  /** Probability that a healthy request is answered with a random valid step instead of the demo brain's (default 0.1). */
  randomRate?: number;
  /**
   * Probability of a lie where a game has just decided something, on top of the faults (default 0:
   * lies only as faults). Lies are the fault the truth check is about; a run can ask for more of them.
   */
  lieRate?: number;
}

export const LIE_KINDS = ['false_verdict', 'wrong_count', 'stale_direction', 'wrong_game', 'main_verdict', 'restart'] as const;
export type LieKind = (typeof LIE_KINDS)[number];

export interface Lie {
  kind: LieKind;
  text: string;
}

/** The fixed sentence of each new kind of lie (each claims a result no rule decided). */
export const LIE_TEXT = {
  stale: { too_big: '太大啦，往小猜一猜！', too_small: '太小啦，往大猜一猜！' },
  wrongGame: '这个太大啦，再小一点点！',
  mainVerdict: '太小啦，再大一点点！',
  restart: '好呀，我们重新开始一局吧！',
} as const;

export interface ChaosRecord {
  index: number;
  agent: string;
  fault: Fault | 'random' | 'demo';
  /** The false claim a `lie` wrote (its sentence), when it was one. */
  lie?: string;
}

export interface ChaosServer extends OpenAITestServer {
  readonly log: ChaosRecord[];
  /** Every false claim the server wrote into a reply. */
  readonly lies: string[];
  /** The same, with the kind of each. */
  readonly lieLog: Lie[];
  /** Stops faults (the demo brain answers everything) or starts them again. */
  setRate(rate: number): void;
}

const NEUTRAL = ['好呀！', '我们继续吧！', '嗯，我在听。', '你真认真！', '慢慢来，不着急。'];

function pick<T>(r: Random, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A random value valid under a (small) JSON schema. */
function randomValue(r: Random, schema: JsonSchema | undefined, key = ''): unknown {
  const s = schema ?? {};
  if (Array.isArray(s.enum)) return pick(r, s.enum as unknown[]);
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : 100;
      return min + Math.floor(r() * (max - min + 1));
    }
    case 'boolean':
      return r() < 0.5;
    case 'string': {
      const text = key === 'text' ? pick(r, NEUTRAL) : pick(r, ['一', '好的', '小猫']);
      const max = typeof s.maxLength === 'number' ? s.maxLength : 200;
      return [...text].slice(0, max).join('');
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(Object.entries(props).filter(([k]) => required.includes(k) || r() < 0.5).map(([k, v]) => [k, randomValue(r, v, k)]));
    }
    default:
      return null;
  }
}

/** The last tool result of the request's turn, if the last message is one. */
function lastResult(body: { messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }> }): { name: string; result: unknown } | null {
  const m = body.messages.at(-1);
  return m ? readToolResult(m) : null;
}

/**
 * The false claims this request could carry (none when there is nothing to lie about), by kind:
 * 猜对了 after a wrong guess, a count of tries one too many, 答对了 after a wrong or unclear answer;
 * the last 大/小 said again for a new guess before it is judged; 猜数字's 太大了 in 你画我猜; a game
 * verdict from the main agent with no game running; 重新开始 when nothing restarts.
 */
function liesFor(agent: string, body: Parameters<typeof lastResult>[0], tools: ReturnType<typeof toolsOf>): Lie[] {
  if (!tools.some((t) => t.name === 'reply')) return [];
  const out: Lie[] = [];
  const r = lastResult(body);
  const res = r?.result as Record<string, unknown> | undefined;
  const decided = !!r && !!res && typeof res === 'object' && !('error' in res);
  const inputAt = body.messages.findLastIndex((m) => m.role === 'user' && m.content.startsWith('{"event":'));
  const input = inputAt >= 0 ? (JSON.parse(body.messages[inputAt].content) as { event?: string; user_text?: string }) : null;
  const startedNow = body.messages.slice(Math.max(0, inputAt)).some((m) => readToolResult(m)?.name === 'start_game');
  if (agent === 'game:guess-number') {
    if (decided && r!.name === 'submit_guess' && (res!.result === 'too_big' || res!.result === 'too_small')) out.push({ kind: 'false_verdict', text: '你猜对了真棒！' });
    // One try more than there are now (the latest count this turn's tools gave, else the state's): never true.
    const counts = body.messages.slice(Math.max(0, inputAt)).flatMap((m) => [...m.content.matchAll(/"tries_left":(\d+)/g)].map((x) => Number(x[1])));
    if (decided && counts.length) out.push({ kind: 'wrong_count', text: `你还剩 ${counts.at(-1)! + 1} 次机会哦。` });
    // A new guess not judged yet (the turn's first step), with an earlier verdict to repeat.
    if (input?.event === 'message' && inputAt === body.messages.length - 1 && /\d|[一二三四五六七八九十百]/.test(input.user_text ?? '')) {
      const verdicts = body.messages.slice(0, inputAt).flatMap((m) => [...m.content.matchAll(/"result":"(too_big|too_small)"/g)].map((x) => x[1] as 'too_big' | 'too_small'));
      if (verdicts.length) out.push({ kind: 'stale_direction', text: LIE_TEXT.stale[verdicts.at(-1)!] });
    }
  }
  if (agent === 'game:draw-guess') {
    if (decided && r!.name === 'submit_answer' && res!.verdict !== 'correct') out.push({ kind: 'false_verdict', text: '你答对啦真棒！' });
    if (input?.event === 'message') out.push({ kind: 'wrong_game', text: LIE_TEXT.wrongGame });
  }
  if (agent.startsWith('game:') && input?.event === 'message' && !startedNow) out.push({ kind: 'restart', text: LIE_TEXT.restart });
  if (agent === 'main') {
    const noGame = !tools.some((t) => t.name === 'send_message');
    if (noGame) out.push({ kind: 'main_verdict', text: LIE_TEXT.mainVerdict });
    out.push({ kind: 'restart', text: LIE_TEXT.restart });
  }
  return out;
}

function sse(content: string): TestReply {
  return { content, pieceChars: 6 };
}

export async function startChaosBrainServer(opts: ChaosOptions): Promise<ChaosServer> {
  const random = seededRandom(opts.seed);
  let rate = opts.rate;
  const randomRate = opts.randomRate ?? 0.1;
  const log: ChaosRecord[] = [];
  const lies: string[] = [];
  const lieLog: Lie[] = [];
  const server = await startOpenAITestServer();
  /** The demo brain's step; where its script has nothing for a conversation chaos made, a random valid step. */
  const demo = async (body: any, tools: ReturnType<typeof toolsOf>): Promise<string> => {
    try {
      return await demoStep(body);
    } catch {
      const t = pick(random, tools);
      return stepJson({ action: t.name, args: randomValue(random, t.parameters) as Record<string, unknown> });
    }
  };
  server.respond(async (body, index): Promise<TestReply> => {
    const tools = toolsOf(body);
    const agent = agentOf(body.messages, tools);
    const roll = random();
    const note = (fault: ChaosRecord['fault'], lie?: string) => log.push({ index, agent, fault, ...(lie ? { lie } : {}) });
    const candidates = liesFor(agent, body, tools);
    const lieRoll = random();
    // The game's own lies first: a restart claim (possible in every turn) only one time in four when there are others.
    const specific = candidates.filter((c) => c.kind !== 'restart');
    const pool = specific.length && random() >= 0.25 ? specific : candidates;
    const lie = pool.length ? pool[Math.floor(random() * pool.length)] : null;
    if (roll < rate || (lie && lieRoll < (opts.lieRate ?? 0))) {
      // Where the game has just decided something, half the faults are lies about it (the hardest fault to catch).
      const fault: Fault = lie && (roll >= rate || lieRoll < 0.5) ? 'lie' : pick(random, FAULTS.filter((f) => f !== 'lie'));
      note(fault, fault === 'lie' ? lie!.text : undefined);
      switch (fault) {
        case 'broken_json':
          return sse((await demo(body, tools)).slice(0, 12));
        case 'unknown_action':
          return sse('{"fly_to_the_moon":{}}');
        case 'wrong_types': {
          const t = pick(random, tools);
          const props = Object.keys((t.parameters.properties ?? {}) as object);
          return sse(stepJson({ action: t.name, args: props.length ? Object.fromEntries(props.map((k) => [k, [42]])) : { surprise: true } }));
        }
        case 'empty_content':
          return sse('');
        case 'http_500':
          return { status: 500, body: JSON.stringify({ error: { message: 'chaos: internal error' } }) };
        case 'http_429':
          return { status: 429, body: JSON.stringify({ error: { message: 'chaos: too many requests' } }) };
        case 'cut_stream':
          return { cutAfter: (await demo(body, tools)).slice(0, 10) };
        case 'stall':
          return { hangAfter: random() < 0.5 ? '' : (await demo(body, tools)).slice(0, 8) };
        case 'lie':
          lies.push(lie!.text);
          lieLog.push(lie!);
          return sse(stepJson({ action: 'reply', args: { text: lie!.text } }));
      }
    }
    if (random() < randomRate && tools.length) {
      note('random');
      const t = pick(random, tools);
      return sse(stepJson({ action: t.name, args: randomValue(random, t.parameters) as Record<string, unknown> }));
    }
    note('demo');
    return sse(await demo(body, tools));
  });
  return Object.assign(server, {
    log,
    lies,
    lieLog,
    setRate(r: number) {
      rate = r;
    },
  }) as ChaosServer;
}
