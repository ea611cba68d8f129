/**
 * How a designed game presents itself in the arcade (game card, Agent Card, the main agent's game
 * list): the project's declaration, marked as a studio game, with a description a family reads.
 * The same function serves the arcade's list and the game worker's card, so both say the same.
 */
import type { GameDeclaration } from '../../core/protocol/declaration.ts';

export function arcadeDeclaration(decl: GameDeclaration): GameDeclaration {
  const made = `${decl.title}：大人在设计室做的新游戏`;
  const description = decl.description.startsWith(made) ? decl.description : `${made}（${decl.description}）。`;
  // Designs stored before declarations named their engine carry `source: 'studio'` instead.
  const { source: _old, ...rest } = decl as GameDeclaration & { source?: unknown };
  return { ...rest, description, engine: 'studio' };
}
