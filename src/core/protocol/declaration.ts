/**
 * A game's declaration: what the arcade knows about a game without starting it.
 * Built from the game's SKILL.md frontmatter (src/game/skill.ts) or from a Studio project
 * (issue 9); the Agent Card (src/a2a/card.ts) is derived from it.
 */
export type Capability = 'face' | 'head' | 'draw' | 'screen';
export const CAPABILITIES: readonly Capability[] = ['face', 'head', 'draw', 'screen'];

/** Game ids of games designed in the Studio start with this; the game worker dispatches on it. */
export const STUDIO_GAME_PREFIX = 'studio-';

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
  /** Where the game comes from. */
  source: 'builtin' | 'studio';
}
