/**
 * How a game worker makes an engine kind's engines: the kind's host is given the worker's I/O
 * (EngineContext) and answers with the game's declaration and its sessions' engine factory.
 * The composition root that serves games (workers/game-engines.ts) registers the hosts by kind;
 * src/games/engines.ts serves whichever registry it is given.
 */
import type { ChatModel } from '../llm/types.ts';
import type { GameDeclaration } from '../protocol/declaration.ts';
import type { Random } from '../random.ts';
import type { CheckLine } from '../safety/classify.ts';
import type { DevicePort } from '../robot/types.ts';
import type { TraceSink } from '../trace/types.ts';
import type { EngineFactory, EngineKind } from './engine.ts';

/** What an engine kind is given inside a game worker: everything with I/O, over the worker's ports. */
export interface EngineContext {
  gameId: string;
  model: ChatModel;
  device: DevicePort;
  trace: TraceSink;
  /** Seeded per worker by the host: a game's secrets and card order come from here. */
  random: Random;
  /**
   * The child-safety check — the rules and the learned classifier, the speaking path's own — loaded
   * on first call (once per worker). An engine checks each line with it before sending it, so a
   * blocked line is replaced while the turn can still go on; the speaking path checks every line again.
   */
  safety: SafetyCheckLoader;
  /** The host's developer switches (absent: the app as it ships). */
  lab?: GameLab;
}

/**
 * A game worker's developer switches, set only by the test build (bench/latency --app's variants):
 * each one present brings back how games played before one change. `{}`: the app as it ships.
 */
export interface GameLab {
  /** The rules pre-execute nothing and do not speak first. */
  rulesFirst?: false;
  /** A model step the colour window cut is aborted, not finished muted. */
  mutedFinish?: false;
  /** A step the colour window muted keeps its stall watch and is asked again after a failure, as before it ran in the background. */
  mutedWatch?: true;
  /** A model step after a device step is not asked while the device works. */
  askAhead?: false;
  /** A line the rules say right after a result is a `say` step of its own, not noted in that result. */
  notedLines?: false;
}

/** Loads the child-safety check (once; every call gives the same check). */
export type SafetyCheckLoader = () => Promise<CheckLine>;

/** An engine kind's entry point: the game's declaration and the factory of its sessions' engines. */
export type EngineHost = (ctx: EngineContext) => Promise<{ declaration: GameDeclaration; create: EngineFactory }>;

/** The engine kinds a game worker serves, each loaded lazily (its code in its own chunk). */
export type EngineRegistry = Record<EngineKind, () => Promise<{ hostEngine: EngineHost }>>;
