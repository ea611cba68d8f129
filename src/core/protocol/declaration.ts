/**
 * A game's declaration: what the arcade knows about a game without starting it.
 * Built from the game's SKILL.md frontmatter (src/core/games/skill.ts) or from a Studio design
 * (src/core/studio/cards.ts); the Agent Card (src/a2a/card.ts) is derived from it.
 */
import type { EngineKind } from '../games/engine.ts';

export type Capability = 'face' | 'head' | 'draw' | 'screen';
export const CAPABILITIES: readonly Capability[] = ['face', 'head', 'draw', 'screen'];

export interface GameDeclaration {
  /** Folder name under skills/ (Agent Skills `name`), also the A2A skill id. */
  id: string;
  /** Chinese title shown on the game card, e.g. 猜数字. */
  title: string;
  description: string;
  /** Other names a child may use for the game (A2A skill `examples`). */
  aliases: string[];
  /** Device capabilities the game needs (`capability:<name>` tags). */
  capabilities: Capability[];
  /**
   * Which engine plays it: `skill` (a `skills/<id>/` game) or `studio` (a design from the Book), both
   * in a game worker; `remote`: an A2A server elsewhere (`origin` says where), played by voice only.
   */
  engine: EngineKind | 'remote';
  /** Where a remote game lives (only for `engine: 'remote'`). */
  origin?: GameOrigin;
}

/** The address a grown-up added a remote game by. */
export interface GameOrigin {
  /** The base URL the Agent Card was read from, e.g. `https://games.example.org/animal-sounds`. */
  address: string;
  /** The host shown on the game card (「来自 <host>」), e.g. `games.example.org`. */
  host: string;
}
