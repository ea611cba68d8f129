/**
 * The games: the built-in ones, the Studio's playable designs (from the Book) and the remote games
 * a grown-up added, listed with their availability on the robot in charge; one GameClient over the
 * worker games (one Web Worker per game, ports: a2a, model, device, trace) and the remote ones; the
 * likely next game's worker started while the arcade is idle (../warm-ahead.ts).
 */
import type { AgentCard } from '@a2a-js/sdk';
import { agentCardFor } from '../../a2a/card.ts';
import type { GameWorker } from '../../a2a/game-host.ts';
import { lazyGameClient } from '../../a2a/lazy-client.ts';
import { RemoteGames, browserConnectivity } from '../../a2a/remote-games.ts';
import { remoteWaitSeconds } from '../../a2a/remote-settings.ts';
import { openRemoteStore } from '../../a2a/remote-store.ts';
import { routeGameClients } from '../../a2a/routed-client.ts';
import type { GameClient } from '../../a2a/types.ts';
import { turnBudget } from '../../arcade/turn-budget-setting.ts';
import { hangTimeoutMs } from '../../core/arcade/turn-budget.ts';
import type { ArcadeGame } from '../../core/arcade/types.ts';
import type { GameDeclaration } from '../../core/protocol/declaration.ts';
import type { GameLab } from '../../core/games/engine-host.ts';
import { gameAvailability } from '../../core/robot/capabilities.ts';
import { builtinGames } from '../../games/catalog.ts';
import type { ModelHub } from '../../llm/model-hub.ts';
import { rulesWhenTooSlow } from '../../llm/rules-when-slow.ts';
import type { RobotSetup } from '../../robot/create-robot-output.ts';
import { exposeDevice } from '../../robot/device-port.ts';
import { createStudioShelf } from '../../studio/play/arcade-shelf.ts';
import type { TraceRecorder } from '../../trace/recorder.ts';
import { exposeTrace } from '../../trace/trace-port.ts';
import { completedTasksToKeep } from '../../trace/trace-settings.ts';
import { warmAhead, whenIdle, type WarmAhead } from '../warm-ahead.ts';
import type { Brain } from './brain.ts';
import { browserSeed, testSwitch } from './browser.ts';

export interface GamesParts {
  games: GameClient;
  ahead: WarmAhead;
  remoteGames: RemoteGames;
  /** The remote games read back from storage. */
  remoteGamesRead: Promise<unknown>;
  declarations(): GameDeclaration[];
  catalog(): ArcadeGame[];
  addSource(source: () => GameDeclaration[]): void;
  onGamesChanged(fn: () => void): () => void;
}

interface Deps {
  hub: ModelHub;
  robot: RobotSetup;
  recorder: TraceRecorder;
  brain: Brain;
}

export function createGames(deps: Deps): GamesParts {
  const { robot } = deps;
  const sources: Array<() => GameDeclaration[]> = [builtinGames];
  // Games designed in the Studio come from the Book at runtime.
  const studioShelf = createStudioShelf();
  sources.push(studioShelf.list);
  // Games added by address (A2A servers elsewhere), kept in IndexedDB.
  const remoteGames = new RemoteGames({
    store: openRemoteStore(),
    installedIds: () => new Set(declarations().map((d) => d.id)),
    installedNames: () => declarations().map((d) => ({ id: d.id, title: d.title, aliases: d.aliases })),
    connectivity: browserConnectivity(),
  });
  sources.push(remoteGames.list);
  const remoteGamesRead = remoteGames.start();
  const declarations = (): GameDeclaration[] => {
    const seen = new Map<string, GameDeclaration>();
    for (const src of sources) for (const d of safe(src)) if (!seen.has(d.id)) seen.set(d.id, d);
    return [...seen.values()];
  };
  const catalog = (): ArcadeGame[] => {
    const caps = robot.output.capabilities();
    return declarations().map((declaration) => {
      const a = declaration.engine === 'remote' ? remoteGames.availability(declaration.id) : gameAvailability(declaration, caps);
      return a.available ? { declaration, available: true } : { declaration, available: false, reason: a.reason };
    });
  };
  const routed = routeGameClients({
    local: workerGames(deps, declarations),
    remote: lazyGameClient(async () => (await import('../../a2a/remote-host.ts')).createRemoteGameClient({
      game: (id) => remoteGames.game(id),
      onReach: (id, ok, detail) => remoteGames.reach(id, ok, detail),
      stallTimeoutMs: () => remoteWaitSeconds() * 1000,
      trace: deps.recorder,
    })),
    isRemote: (id) => remoteGames.isRemote(id),
  });
  const ahead = warmAhead(routed, catalog, { store: typeof localStorage === 'undefined' ? null : localStorage, later: whenIdle, enabled: () => !(__TEST_BUILD__ && testSwitch('warm-ahead') === 'off') });
  return {
    games: ahead.games,
    ahead,
    remoteGames,
    remoteGamesRead,
    declarations,
    catalog,
    addSource: (source) => void sources.push(source),
    onGamesChanged(fn) {
      const offStudio = studioShelf.onChange(fn);
      const offRemote = remoteGames.onChange(fn);
      return () => {
        offStudio();
        offRemote();
      };
    },
  };
}

/** The worker games' client (the A2A SDK's client under it loads on the first game request, not with the first screen). */
function workerGames(deps: Deps, declarations: () => GameDeclaration[]): GameClient {
  const { hub, robot, recorder, brain } = deps;
  // What `ports()` opened for each running worker; closed when the host stops it (crash, hang, stop),
  // so a dead worker's model steps leave the shared queue and its listeners go.
  const workerPorts = new Map<string, () => void>();
  const closeWorkerPorts = (gameId: string) => {
    workerPorts.get(gameId)?.();
    workerPorts.delete(gameId);
  };
  return lazyGameClient(async () => (await import('../../a2a/game-host.ts')).createGameClient({
    spawn(gameId): GameWorker {
      return new Worker(new URL('../../../workers/game-agent.ts', import.meta.url), { type: 'module', name: `game-${gameId}` });
    },
    ports(gameId) {
      closeWorkerPorts(gameId); // none expected: the host stops the old worker first
      const device = new MessageChannel();
      exposeDevice(robot.output, device.port1);
      const trace = new MessageChannel();
      const closeTrace = exposeTrace(recorder, trace.port1);
      // A brain measured too slow here for the turn budget is not asked in a game: its rules play
      // (the test build's `?slow-brain-games=model` asks it, as before).
      const tooSlow = () => brain.tooSlowHere() && !(__TEST_BUILD__ && testSwitch('slow-brain-games') === 'model');
      const model = hub.openPort(brain.playsWithoutBrain(declarations().find((x) => x.id === gameId)) ? brain.rulesAlone : undefined, (m) => rulesWhenTooSlow(m, tooSlow, brain.rulesAlone));
      workerPorts.set(gameId, () => {
        model.close();
        device.port1.close();
        closeTrace();
      });
      return { model: model.port, device: device.port2, trace: trace.port2 };
    },
    onStop: closeWorkerPorts,
    cards(gameId): AgentCard | undefined {
      const d = declarations().find((x) => x.id === gameId);
      return d ? agentCardFor(d) : undefined;
    },
    engineOf: (gameId) => declarations().find((x) => x.id === gameId)?.engine,
    seed: browserSeed,
    maxTasks: completedTasksToKeep,
    lab: () => (__TEST_BUILD__ ? gameLab() : {}),
    hangTimeoutMs: hangTimeoutMs(turnBudget()),
    trace: recorder,
  }));
}

/**
 * The games' developer switches, only in the test build (AGENTCADE_LAB=1; bench/latency --app's
 * variants), each bringing back how games played before one change: `?rules-first=off` (no
 * pre-executed steps, the rules never speak first), `?colour-cut=abort` (a step the colour window
 * cut is aborted instead of finishing muted), `?muted=watched` (a muted step keeps its stall watch
 * and is asked again), `?ask-ahead=off` (the model's step after a drawing is asked only once the
 * robot has drawn), `?noted-lines=off` (the rules' line after a result is a `say` step of its own).
 */
function gameLab(): GameLab {
  return {
    ...(testSwitch('rules-first') === 'off' ? { rulesFirst: false } : {}),
    ...(testSwitch('colour-cut') === 'abort' ? { mutedFinish: false } : {}),
    ...(testSwitch('muted') === 'watched' ? { mutedWatch: true } : {}),
    ...(testSwitch('ask-ahead') === 'off' ? { askAhead: false } : {}),
    ...(testSwitch('noted-lines') === 'off' ? { notedLines: false } : {}),
  };
}

function safe<T>(fn: () => T[]): T[] {
  try {
    return fn();
  } catch (e) {
    console.error('game source failed', e);
    return [];
  }
}
