/** From the accepted design facts to the game's records: CardAssets and its GameDeclaration. */
import { pinyin } from 'pinyin-pro';
import type { Capability, GameDeclaration } from '../protocol/declaration.ts';

/** Ids of designed games start with this, so they never clash with a `skills/<id>` folder name. */
const STUDIO_ID_PREFIX = 'studio-';
import type { Blackboard } from './blackboard.ts';
import { PARADIGM_TAG } from './draft-check.ts';
import { freeName, nameTaken } from './names.ts';
import type { SkillPackage } from './package-loader.ts';
import type { CardAsset } from './types.ts';

function strList(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => String(x).trim()).filter(Boolean) : [];
}

/** `设计.卡牌` → CardAssets; cards without a prompt or an answer are dropped (the skill must not produce them). */
export function cardsFromDesign(projectId: string, deck: unknown): CardAsset[] {
  if (!Array.isArray(deck)) return [];
  const out: CardAsset[] = [];
  deck.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const c = raw as Record<string, unknown>;
    const answer = String(c.answer ?? '').trim();
    const prompt = String(c.prompt ?? '').trim();
    if (!answer || !prompt) return;
    const d = Number(c.difficulty);
    const drawing = typeof c.drawing === 'string' && c.drawing.trim() ? c.drawing.trim() : undefined;
    out.push({
      projectId,
      cardId: typeof c.id === 'string' && c.id ? c.id : `c${i + 1}`,
      kind: drawing || c.kind === 'picture' ? 'picture' : 'question',
      prompt,
      ...(typeof c.picture === 'string' && c.picture ? { picture: c.picture } : {}),
      ...(drawing ? { drawing } : {}),
      answer,
      aliases: strList(c.aliases),
      hints: strList(c.hints),
      difficulty: d === 1 || d === 2 || d === 3 ? d : 2,
    });
  });
  return out;
}

/** A stable a-z0-9- game id from the title, e.g. 恐龙问答 → studio-konglong-wenda-1a2b. */
export function gameIdFor(title: string, projectId: string): string {
  const syllables = pinyin(title, { toneType: 'none', type: 'array', nonZh: 'consecutive' })
    .map((s) => s.toLowerCase().replace(/[^a-z0-9]/g, ''))
    .filter(Boolean);
  const suffix = projectId.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(-4) || '0000';
  const slug = syllables.join('').slice(0, 32) || 'game';
  return `${STUDIO_ID_PREFIX}${slug}-${suffix}`;
}

export interface ThemeFact {
  主题?: string;
  标题?: string;
  别名?: string[];
}

export function declarationFor(opts: { gameId: string; theme: ThemeFact; description: string; capabilities: Capability[] }): GameDeclaration {
  const title = (opts.theme.标题 ?? `${opts.theme.主题 ?? ''}问答`).trim() || '问答游戏';
  const aliases = [...new Set([title, ...strList(opts.theme.别名)])];
  return { id: opts.gameId, title, description: opts.description, aliases, capabilities: opts.capabilities, engine: 'studio' };
}

/** A design declared ready: the game the arcade lists, its cards and what the play stage reads. */
export interface DeclaredGame {
  declaration: GameDeclaration;
  cards: CardAsset[];
  /** Accepted `设计.*` values: everything the play stage reads. */
  design: Record<string, unknown>;
}

/**
 * The game a design declares from its accepted `设计.*` facts, under a name no other game has
 * (`taken`): the name wanted and the one given differ when another design took it meanwhile.
 */
export function declaredGameOf(pkg: SkillPackage, board: Blackboard, projectId: string, taken: readonly string[]): { game: DeclaredGame; wanted: string; title: string } {
  const design: Record<string, unknown> = {};
  for (const e of Object.values(board.tags)) if (e.status === 'accepted' && e.name.startsWith('设计.')) design[e.name] = e.value;
  const accepted = (design['设计.主题'] ?? {}) as ThemeFact;
  const wanted = (accepted.标题 ?? `${accepted.主题 ?? ''}问答`).trim() || pkg.title;
  // Checked when the name was accepted; another design may have taken it since.
  const title = freeName(wanted, taken);
  const theme: ThemeFact = { ...accepted, 标题: title, 别名: (accepted.别名 ?? []).filter((a) => !nameTaken(a, taken)) };
  const paradigm = (design[PARADIGM_TAG] as { 范式?: string } | undefined)?.范式;
  const declaration = declarationFor({ gameId: gameIdFor(title, projectId), theme, description: `${paradigm ?? pkg.title}：${theme.主题 ?? ''}`, capabilities: pkg.capabilities });
  const cards = cardsFromDesign(projectId, design['设计.卡牌']);
  return { game: { declaration, cards, design: { ...design, '设计.主题': theme } }, wanted, title };
}
