/**
 * The remote games on the arcade's shelf (main thread): the games a grown-up added by address, with
 * whether each can be played right now and why not.
 *
 * - `add(text)` checks the address, reads and checks the card, and stores the game; `remove(id)`.
 * - `list()` is a game source for the arcade's catalog (synchronous: the last known list);
 *   `availability(id)` says why a game is greyed: it needs the robot's drawing or head (A2A carries
 *   only text), the tablet is offline (a game on this device still plays), its server does not
 *   answer, or its card is refused now (it changed).
 * - Coming back by itself: a game whose server did not answer is checked again after 5 s, 10 s,
 *   20 s, then every 30 s; every game is checked when the tablet comes back online and every
 *   `recheckMs` (60 s) otherwise. Requests report what they find (`reach`), so a server that goes
 *   away mid-game greys its card at once.
 */
import type { AgentCard } from '@a2a-js/sdk';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import { checkAddress, checkGameCard, isLoopbackHost, voiceOnlyPlay, type Refusal, type RemoteGameCard } from '../core/protocol/remote-card.ts';
import { fetchGameCard, type CardFetchOptions } from './remote-card-fetch.ts';
import { remoteAgentCard, type RemoteGame } from './remote-agent-card.ts';
import type { RemoteGameStore, StoredRemoteGame } from './remote-store.ts';

export type RemoteHealth =
  | { state: 'unknown' }
  | { state: 'ok'; at: number }
  | { state: 'unreachable'; detail: string; since: number }
  /** The server answered, but its card is refused now (changed, or no longer a desktop-game/5 card). */
  | { state: 'refused'; refusal: Refusal; since: number };

/** One remote game as the parent's screen shows it. */
export interface RemoteGameView {
  id: string;
  address: string;
  host: string;
  card: RemoteGameCard;
  health: RemoteHealth;
  available: boolean;
  /** Why it cannot be played now (plain Chinese). */
  reason?: string;
}

/**
 * The host(s) that receive the child's words: the card's interfaces (the SDK sends every request
 * there), which may differ from the address the card was read from.
 */
export function wordsHost(card: RemoteGameCard, address: URL): string {
  const hosts = [...new Set(card.interfaces.map((i) => new URL(i.url).host))];
  return hosts.length ? hosts.join('、') : address.host;
}

export type AddResult = { ok: true; game: RemoteGameView } | { ok: false; refusal: Refusal };

export interface Connectivity {
  online(): boolean;
  /** Calls `fn` whenever the device goes online or offline; returns an unsubscribe. */
  subscribe(fn: () => void): () => void;
}

export interface RemoteGamesOptions {
  store: RemoteGameStore;
  /** Ids of every installed game (built-in, Studio, remote), for refusing a second game with the same id. */
  installedIds(): ReadonlySet<string>;
  /** Every installed game's names (a remote game may not take a command, a chat phrase or another game's name). */
  installedNames?(): ReadonlyArray<{ id: string; title: string; aliases: readonly string[] }>;
  fetch?: CardFetchOptions;
  connectivity?: Connectivity;
  now?: () => number;
  /** Backoff after a failed check (ms): 5 s, 10 s, 20 s, then the last one repeated. */
  retryMs?: readonly number[];
  /** Checks of every game while all is well (default 60 s; 0 = none). */
  recheckMs?: number;
}

interface Entry {
  stored: StoredRemoteGame;
  url: URL;
  card: RemoteGameCard;
  game: RemoteGame;
  health: RemoteHealth;
  failures: number;
  retry: ReturnType<typeof setTimeout> | undefined;
}

const alwaysOnline: Connectivity = { online: () => true, subscribe: () => () => undefined };

export class RemoteGames {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  private readonly connectivity: Connectivity;
  private readonly now: () => number;
  private readonly retryMs: readonly number[];
  private stopConnectivity: (() => void) | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private loading: Promise<void> | null = null;

  constructor(private readonly opts: RemoteGamesOptions) {
    this.connectivity = opts.connectivity ?? alwaysOnline;
    this.now = opts.now ?? Date.now;
    this.retryMs = opts.retryMs ?? [5_000, 10_000, 20_000, 30_000];
  }

  /** Reads the stored games, then checks each; follows connectivity and the periodic check until `dispose()`. */
  start(): Promise<void> {
    this.stopConnectivity ??= this.connectivity.subscribe(() => {
      this.changed();
      if (this.connectivity.online()) void this.checkAll();
    });
    const every = this.opts.recheckMs ?? 60_000;
    if (every > 0) this.ticker ??= setInterval(() => void this.checkAll(), every);
    return (this.loading ??= this.load());
  }

  dispose(): void {
    this.stopConnectivity?.();
    this.stopConnectivity = undefined;
    clearInterval(this.ticker);
    this.ticker = undefined;
    for (const e of this.entries.values()) clearTimeout(e.retry);
    this.listeners.clear();
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The remote games as declarations (a game source for the catalog). */
  readonly list = (): GameDeclaration[] =>
    [...this.entries.values()].map(({ card, stored, url }) => ({
      id: card.id,
      title: card.title,
      description: card.description,
      aliases: [...card.aliases],
      // Voice only: no device capability is asked of the robot (see `availability`).
      capabilities: [],
      engine: 'remote',
      origin: { address: stored.address, host: wordsHost(card, url) },
    }));

  isRemote(id: string): boolean {
    return this.entries.has(id);
  }

  /** What the remote GameClient needs of a game. */
  game(id: string): RemoteGame | undefined {
    return this.entries.get(id)?.game;
  }

  availability(id: string): { available: true } | { available: false; reason: string } {
    const e = this.entries.get(id);
    if (!e) return { available: false, reason: '这个游戏已经被删掉了。' };
    const play = voiceOnlyPlay(e.card);
    if (!play.playable) return { available: false, reason: play.reason };
    if (!isLoopbackHost(e.url.hostname) && !this.connectivity.online())
      return { available: false, reason: '平板现在没有连网，这个游戏在别的电脑上。连上网以后，它会自己回来。' };
    if (e.health.state === 'unreachable') return { available: false, reason: `连不上放这个游戏的电脑（${e.url.host}），它可能关机了。它开了以后，这个游戏会自己回来。` };
    if (e.health.state === 'refused') return { available: false, reason: e.health.refusal.reason };
    return { available: true };
  }

  views(): RemoteGameView[] {
    return [...this.entries.values()].map((e) => {
      const a = this.availability(e.card.id);
      return { id: e.card.id, address: e.stored.address, host: wordsHost(e.card, e.url), card: e.card, health: e.health, available: a.available, ...(a.available ? {} : { reason: a.reason }) };
    });
  }

  /** A grown-up adds a game by its address: checked, read, checked again, stored. */
  async add(text: string): Promise<AddResult> {
    await this.start();
    const address = checkAddress(text);
    if (!address.ok) return address;
    const already = [...this.entries.values()].find((e) => e.stored.address === addressText(address.value));
    if (already) return { ok: false, refusal: { field: 'address', reason: `这个地址已经添加过了（「${already.card.title}」）。`, detail: `already added as ${already.card.id}` } };
    const fetched = await fetchGameCard({ address: address.value, installed: this.opts.installedIds(), others: this.opts.installedNames?.() }, this.opts.fetch);
    if (!fetched.ok) return fetched;
    const stored: StoredRemoteGame = { id: fetched.checked.id, address: addressText(address.value), card: fetched.raw, addedAt: this.now() };
    await this.opts.store.put(stored);
    const entry = this.entryOf(stored, fetched.checked);
    entry.health = { state: 'ok', at: this.now() };
    this.entries.set(stored.id, entry);
    this.changed();
    return { ok: true, game: this.views().find((v) => v.id === stored.id)! };
  }

  async remove(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return;
    clearTimeout(e.retry);
    this.entries.delete(id);
    await this.opts.store.delete(id);
    this.changed();
  }

  /** What a request found: the server answered, or could not be reached. */
  reach(id: string, reachable: boolean, detail: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    if (reachable) {
      if (e.health.state === 'ok') return;
      this.healthy(e);
    } else this.unreachable(e, detail);
    this.changed();
  }

  checkAll(): Promise<void> {
    return Promise.all([...this.entries.keys()].map((id) => this.check(id))).then(() => undefined);
  }

  /** Reads a game's card again: it answers (its card may have changed), is refused now, or does not answer. */
  async check(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return;
    if (!isLoopbackHost(e.url.hostname) && !this.connectivity.online()) return; // coming online checks again
    const fetched = await fetchGameCard({ address: e.url, expectedId: id, others: this.opts.installedNames?.() }, this.opts.fetch);
    if (this.entries.get(id) !== e) return; // removed meanwhile
    if (fetched.ok) {
      if (JSON.stringify(fetched.raw) !== JSON.stringify(e.stored.card)) {
        const stored = { ...e.stored, card: fetched.raw };
        await this.opts.store.put(stored).catch(() => undefined);
        const next = this.entryOf(stored, fetched.checked);
        next.health = e.health;
        clearTimeout(e.retry);
        this.entries.set(id, next);
        this.healthy(next);
      } else this.healthy(e);
    } else if (fetched.unreachable) this.unreachable(e, fetched.refusal.detail);
    else {
      clearTimeout(e.retry);
      e.health = { state: 'refused', refusal: fetched.refusal, since: this.now() };
      this.scheduleRetry(e);
    }
    this.changed();
  }

  private async load(): Promise<void> {
    let stored: StoredRemoteGame[];
    try {
      stored = await this.opts.store.all();
    } catch (e) {
      console.warn('remote games: the store could not be read', e);
      return;
    }
    for (const s of stored) {
      let url: URL;
      try {
        url = new URL(s.address);
      } catch {
        continue;
      }
      const checked = checkGameCard(s.card, { address: url, expectedId: s.id });
      if (!checked.ok) continue; // a record this version no longer accepts; it is re-read below
      this.entries.set(s.id, this.entryOf(s, checked.value));
    }
    this.changed();
    void this.checkAll();
  }

  private entryOf(stored: StoredRemoteGame, card: RemoteGameCard): Entry {
    const url = new URL(stored.address);
    const sdkCard: AgentCard = remoteAgentCard(stored.card, card);
    return { stored, url, card, game: { id: card.id, host: wordsHost(card, url), card: sdkCard }, health: { state: 'unknown' }, failures: 0, retry: undefined };
  }

  private healthy(e: Entry): void {
    clearTimeout(e.retry);
    e.retry = undefined;
    e.failures = 0;
    e.health = { state: 'ok', at: this.now() };
  }

  private unreachable(e: Entry, detail: string): void {
    if (e.health.state !== 'unreachable') e.health = { state: 'unreachable', detail, since: this.now() };
    else e.health = { ...e.health, detail };
    this.scheduleRetry(e);
  }

  private scheduleRetry(e: Entry): void {
    if (e.retry !== undefined) return;
    const ms = this.retryMs[Math.min(e.failures, this.retryMs.length - 1)];
    e.failures++;
    e.retry = setTimeout(() => {
      e.retry = undefined;
      void this.check(e.card.id);
    }, ms);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}

/** The stored form of an address: no trailing slash except for the bare origin. */
function addressText(url: URL): string {
  return url.pathname === '/' ? url.origin : `${url.origin}${url.pathname}`;
}

/** The browser's connectivity (navigator.onLine and the online/offline events). */
export function browserConnectivity(target: Window = window): Connectivity {
  return {
    online: () => target.navigator.onLine,
    subscribe(fn) {
      target.addEventListener('online', fn);
      target.addEventListener('offline', fn);
      return () => {
        target.removeEventListener('online', fn);
        target.removeEventListener('offline', fn);
      };
    },
  };
}
