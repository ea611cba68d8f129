/**
 * The `studio` engine kind: a game designed in the Studio, inside its game worker. The project is
 * found in the Book by its game id (read again at every start: the parent may have changed or
 * deleted it); PlayBooks are saved to the Book and announced to the open Studio and arcade.
 */
import { AgentcadeError } from '../../core/errors/catalogue.ts';
import type { EngineContext, EngineHost } from '../../core/games/engine-host.ts';
import { Book } from '../book.ts';
import { loadPlayableGame } from '../play-stage.ts';
import { announceBookChange } from './book-events.ts';
import { arcadeDeclaration } from './declaration.ts';
import { studioEngineFactory } from './studio-engine.ts';

/** The engine host over a Book (the app's own Book by default). */
export async function studioHost(ctx: EngineContext, openBook: () => Promise<Book> = () => Book.open()): ReturnType<EngineHost> {
  const book = await openBook();
  const projectId = async () => (await book.playableProjects()).find((p) => p.gameId === ctx.gameId)?.id;
  const first = await projectId();
  const game = first ? await loadPlayableGame(book, first) : null;
  if (!game) throw new AgentcadeError('studio_game_missing', `no studio project at the play stage has game id "${ctx.gameId}"`);
  const create = studioEngineFactory(
    async () => {
      const id = await projectId();
      return id ? loadPlayableGame(book, id) : null;
    },
    {
      model: ctx.model,
      device: ctx.device,
      trace: ctx.trace,
      source: `game:${ctx.gameId}`,
      random: ctx.random,
      safety: ctx.safety,
      ...(ctx.lab?.rulesFirst === false ? { runtime: { preExecute: false } } : {}),
      async savePlayBook(pb) {
        await book.savePlayBook(pb);
        announceBookChange({ type: 'playbook', projectId: pb.projectId });
      },
    },
  );
  return { declaration: arcadeDeclaration(game.declaration), create };
}

export const hostEngine: EngineHost = (ctx) => studioHost(ctx);
