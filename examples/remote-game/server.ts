/**
 * A reference remote game agent: a small Node A2A server, built on the server side of @a2a-js/sdk
 * (DefaultRequestHandler + its Express handlers), that serves one game over `desktop-game/5`.
 *
 *   GET  <base>/.well-known/agent-card.json   the Agent Card, built from ./SKILL.md
 *   POST <base>/a2a/jsonrpc                   A2A JSON-RPC (SendStreamingMessage, GetTask, CancelTask, …)
 *        <base>/a2a/rest/…                    A2A HTTP+JSON (the same operations)
 *
 * desktop-game/5 on A2A: one task per request; the request's message has one data part holding a
 * GameInput `{protocol, kind: start|message|end, text}`; the game's sentences come back as status
 * updates, WORKING for each sentence said on the way and exactly one COMPLETED with the last one, each
 * carrying one data part with a GameReply `{protocol, text, session: active|ended}`.
 *
 * The game agent keeps one game per A2A context (a session), plays its requests in arrival order, and
 * an `end` cancels the turn still running before it ends the game. CancelTask always publishes
 * CANCELED itself (otherwise a CancelTask waits forever).
 *
 * CORS: the tablet's page is on another origin, so every answer carries Access-Control-Allow-Origin,
 * preflights (the SDK's client sends `A2A-Version` and JSON bodies) are answered, and a page on the
 * internet reaching a server on the home network gets `Access-Control-Allow-Private-Network`.
 *
 * It imports nothing from the app (only @a2a-js/sdk, express and yaml), so this folder runs on its own.
 */
import { A2A_PROTOCOL_VERSION, Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';
import express, { type NextFunction, type Request, type Response } from 'express';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parse as parseYaml } from 'yaml';
import { AnimalSounds, seeded, type Turn, type TurnResult } from './game.ts';

export const PROTOCOL = 'desktop-game/5';
const JSON_MEDIA = 'application/json';

// ---- the card, from SKILL.md ------------------------------------------------------------------

export interface SkillFrontmatter {
  name: string;
  description: string;
  title: string;
  aliases: string[];
  capabilities: string[];
}

export function readSkill(path = new URL('./SKILL.md', import.meta.url)): SkillFrontmatter {
  const text = readFileSync(path, 'utf8');
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) throw new Error(`${String(path)}: no frontmatter`);
  const fm = parseYaml(m[1]) as { name?: string; description?: string; metadata?: Record<string, string> };
  const list = (s: string | undefined) => (s ?? '').split(/[,，、]/).map((x) => x.trim()).filter(Boolean);
  if (!fm.name || !fm.metadata?.title) throw new Error(`${String(path)}: name and metadata.title are required`);
  return { name: fm.name, description: fm.description ?? '', title: fm.metadata.title, aliases: list(fm.metadata.aliases), capabilities: list(fm.metadata.capabilities) };
}

/** The Agent Card of a desktop-game/5 game: streaming, one skill whose id is the game id. */
export function gameCard(skill: SkillFrontmatter, baseUrl: string): AgentCard {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    name: `${skill.title}（远程游戏）`,
    description: skill.description,
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [JSON_MEDIA],
    defaultOutputModes: [JSON_MEDIA],
    skills: [
      {
        id: skill.name,
        name: skill.title,
        description: skill.description,
        tags: [PROTOCOL, ...skill.capabilities.map((c) => `capability:${c}`)],
        examples: skill.aliases,
        inputModes: [JSON_MEDIA],
        outputModes: [JSON_MEDIA],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

// ---- the game agent ---------------------------------------------------------------------------

/** What the server asks of a game: play one turn of a session (may be async; honours `signal`). */
export interface GameLogic {
  /** `budgetMs`: how long the arcade gives this turn before the child must hear a reply, when it says (metadata `agentcade.budgetMs`). */
  play(turn: Turn & { contextId: string; signal: AbortSignal; budgetMs?: number }): TurnResult | Promise<TurnResult>;
}

/** 猜动物叫声, one AnimalSounds per session. */
export function animalSoundsLogic(random: () => number = Math.random): GameLogic {
  const sessions = new Map<string, AnimalSounds>();
  return {
    play(turn) {
      if (turn.kind === 'start') sessions.set(turn.contextId, new AnimalSounds(random));
      const game = sessions.get(turn.contextId);
      if (!game) return { text: turn.kind === 'end' ? '这一局已经结束啦。' : '这一局已经结束啦，想玩就说“猜动物叫声”。', ended: true };
      const result = game.play(turn);
      if (result.ended) sessions.delete(turn.contextId);
      return result;
    },
  };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: JSON_MEDIA, filename: '', metadata: undefined };
}

function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return { messageId: crypto.randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

function textMessage(text: string, taskId: string, contextId: string): Message {
  return agentMessage([{ content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined }], taskId, contextId);
}

const BUDGET_KEY = 'agentcade.budgetMs';

function readInput(msg: Message): { kind: Turn['kind']; text: string; budgetMs?: number } {
  const part = msg.parts.length === 1 ? msg.parts[0].content : undefined;
  if (part?.$case !== 'data') throw new Error('a desktop-game/5 request has exactly one data part');
  const v = part.value as { protocol?: unknown; kind?: unknown; text?: unknown };
  if (v?.protocol !== PROTOCOL) throw new Error(`protocol must be "${PROTOCOL}"`);
  if (v.kind !== 'start' && v.kind !== 'message' && v.kind !== 'end') throw new Error('kind must be start|message|end');
  if (typeof v.text !== 'string') throw new Error('text must be a string');
  const budget = (msg.metadata as Record<string, unknown> | undefined)?.[BUDGET_KEY];
  return { kind: v.kind, text: v.text, ...(typeof budget === 'number' && Number.isFinite(budget) && budget >= 0 ? { budgetMs: budget } : {}) };
}

interface Run {
  taskId: string;
  contextId: string;
  bus: ExecutionEventBus;
  abort: AbortController;
  done: boolean;
}

export class GameAgentExecutor implements AgentExecutor {
  private readonly runs = new Map<string, Run>();
  /** The last turn of each session: the next one waits for it. */
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly game: GameLogic) {}

  execute = async (ctx: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = ctx;
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() }, artifacts: [], history: [ctx.userMessage], metadata: {} }));
    const run: Run = { taskId, contextId, bus, abort: new AbortController(), done: false };
    let input: ReturnType<typeof readInput>;
    try {
      input = readInput(ctx.userMessage);
    } catch (e) {
      return this.finish(run, TaskState.TASK_STATE_FAILED, textMessage(`Invalid request: ${(e as Error).message}`, taskId, contextId));
    }
    // `end` cancels the session's turns still waiting or running, then ends the game.
    if (input.kind === 'end') for (const r of this.runs.values()) if (r.contextId === contextId) this.cancel(r, 'cancelled by end');
    this.runs.set(taskId, run);
    const before = this.tails.get(contextId) ?? Promise.resolve();
    const turn = before.then(() => this.play(run, input));
    this.tails.set(contextId, turn.catch(() => undefined));
    try {
      await turn;
    } finally {
      this.runs.delete(taskId);
      if (this.tails.get(contextId) === turn) this.tails.delete(contextId);
    }
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const run = this.runs.get(taskId);
    if (run) return this.cancel(run, 'cancelled by the client (CancelTask)');
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: now() }, metadata: {} }));
  };

  private async play(run: Run, input: ReturnType<typeof readInput>): Promise<void> {
    if (run.done) return; // cancelled while it waited
    const say = (text: string) => {
      if (run.done) return;
      const reply = { protocol: PROTOCOL, text, session: 'active' };
      run.bus.publish(AgentEvent.statusUpdate({ taskId: run.taskId, contextId: run.contextId, status: { state: TaskState.TASK_STATE_WORKING, message: agentMessage([dataPart(reply)], run.taskId, run.contextId), timestamp: now() }, metadata: {} }));
    };
    try {
      const result = await this.game.play({ ...input, say, contextId: run.contextId, signal: run.abort.signal });
      const reply = { protocol: PROTOCOL, text: result.text, session: result.ended || input.kind === 'end' ? 'ended' : 'active' };
      this.finish(run, TaskState.TASK_STATE_COMPLETED, agentMessage([dataPart(reply)], run.taskId, run.contextId));
    } catch (e) {
      if (run.abort.signal.aborted) return; // already CANCELED
      this.finish(run, TaskState.TASK_STATE_FAILED, textMessage(`The game failed: ${(e as Error)?.message ?? String(e)}`, run.taskId, run.contextId));
    }
  }

  private cancel(run: Run, why: string): void {
    if (run.done) return;
    run.abort.abort(new DOMException(why, 'AbortError'));
    this.finish(run, TaskState.TASK_STATE_CANCELED, textMessage(`Cancelled: ${why}`, run.taskId, run.contextId));
  }

  private finish(run: Run, state: TaskState, message: Message): void {
    if (run.done) return;
    run.done = true;
    run.bus.publish(AgentEvent.statusUpdate({ taskId: run.taskId, contextId: run.contextId, status: { state, message, timestamp: now() }, metadata: {} }));
  }
}

function now(): string {
  return new Date().toISOString();
}

// ---- the HTTP server --------------------------------------------------------------------------

export interface RemoteGameServerOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** The interface to listen on. Default 127.0.0.1 (this computer only); 0.0.0.0 for the home network. */
  host?: string;
  /**
   * The address the tablet uses (written into the card's interfaces), e.g. the https address of a
   * reverse proxy in front of this server. Default `http://<host>:<port><basePath>`.
   */
  publicUrl?: string;
  /** Serve under a folder named by the game id (`/animal-sounds`), to host several games on one server. */
  basePath?: string;
  /** Origins allowed by CORS (the arcade's address); default any origin (`*`). */
  allowOrigin?: string | string[];
  /** The game; default 猜动物叫声 with `seed`. */
  game?: GameLogic;
  /** Seeds the question order (default: random). */
  seed?: number;
  skill?: SkillFrontmatter;
  /**
   * '0.3': the server speaks only A2A 0.3 (as agents written for it do): a 0.3-shaped card (top-level
   * `url`, `protocolVersion`, `preferredTransport: JSONRPC`) and 0.3 JSON-RPC (`message/stream`),
   * through the SDK's own compatibility layer. Default '1.0'.
   */
  protocol?: '1.0' | '0.3';
}

/** The card of `gameCard` as an A2A 0.3 agent writes it (JSON-RPC at the top-level url). */
export function legacyGameCard(card: AgentCard): Record<string, unknown> {
  const jsonRpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC')!;
  return {
    protocolVersion: '0.3.0',
    name: card.name,
    description: card.description,
    url: jsonRpc.url,
    preferredTransport: 'JSONRPC',
    version: card.version,
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((k) => ({ id: k.id, name: k.name, description: k.description, tags: k.tags, examples: k.examples, inputModes: k.inputModes, outputModes: k.outputModes })),
  };
}

export interface RunningServer {
  /** The base address to add in the arcade. */
  url: string;
  card: AgentCard;
  /** Stops listening and drops every open connection (streams in flight break). */
  close(): Promise<void>;
}

function cors(allow: string | string[]) {
  const allowed = Array.isArray(allow) ? allow : [allow];
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (allowed.includes('*')) res.setHeader('Access-Control-Allow-Origin', '*');
    else if (origin && allowed.includes(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
    }
    res.setHeader('Access-Control-Expose-Headers', 'Content-Type, A2A-Version, A2A-Extensions');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'Content-Type, Accept, A2A-Version, A2A-Extensions');
      res.setHeader('Access-Control-Max-Age', '600');
      // A page on the internet calling a server on the home network (Chrome's Private Network Access).
      if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('Access-Control-Allow-Private-Network', 'true');
      res.status(204).end();
      return;
    }
    next();
  };
}

export async function startRemoteGameServer(opts: RemoteGameServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
  const skill = opts.skill ?? readSkill();
  const game = opts.game ?? animalSoundsLogic(opts.seed === undefined ? Math.random : seeded(opts.seed));

  const app = express();
  app.disable('x-powered-by');
  app.use(cors(opts.allowOrigin ?? '*'));

  const sockets = new Set<Socket>();
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(opts.port ?? 8787, host, () => resolve(s));
    s.once('error', reject);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = (opts.publicUrl ?? `http://${shownHost}:${port}${basePath}`).replace(/\/+$/, '');

  const card = gameCard(skill, url);
  // In 0.3 mode the agent declares 0.3 JSON-RPC too, so the SDK's handler takes 0.3 requests.
  const served = opts.protocol === '0.3' ? { ...card, supportedInterfaces: duplicateInterfacesForLegacy(card.supportedInterfaces, ['JSONRPC']) } : card;
  const handler = new DefaultRequestHandler(served, new InMemoryTaskStore(), new GameAgentExecutor(game));
  const router = express.Router();
  if (opts.protocol === '0.3') {
    // Only 0.3: its card whatever version the reader asks for, and 0.3 JSON-RPC (the SDK translates).
    const legacy = legacyGameCard(card);
    router.get('/.well-known/agent-card.json', (_req, res) => void res.json(legacy));
    router.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  } else {
    router.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
    router.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    router.use('/a2a/rest', restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  }
  app.use(basePath || '/', router);

  return {
    url,
    card,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
