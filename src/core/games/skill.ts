/**
 * `Skill.load` (seed 000 §游戏 Agent): a game's SKILL.md. The frontmatter is the game declaration,
 * the body is the rules and flow the model follows.
 *
 * The frontmatter stays valid Agent Skills frontmatter (agentskills.io: `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools`): only the allowed
 * top-level keys, `name` equal to the folder name, and the game fields as strings under `metadata`:
 *
 *   name: guess-number
 *   description: 猜数字……
 *   metadata:
 *     title: 猜数字
 *     aliases: 猜数, 数字游戏          (comma-separated, 、 and ， also accepted)
 *     capabilities: face, head         (from face|head|draw|screen)
 */
import { parse as parseYaml } from 'yaml';
import { CAPABILITIES, type Capability, type GameDeclaration } from '../protocol/declaration.ts';
import { ALLOWED_FIELDS, DESCRIPTION_MAX, isSkillName } from './agent-skills.ts';

const FRONTMATTER_RE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

export class SkillLoadError extends Error {
  override name = 'SkillLoadError';
  constructor(
    /** The SKILL.md path given to `Skill.load`. */
    readonly file: string,
    /** The frontmatter field at fault (`frontmatter` when the block itself is missing or unparsable). */
    readonly field: string,
    problem: string,
  ) {
    super(`${file}: ${field}: ${problem}`);
  }
}

/** The folder a SKILL.md sits in, e.g. `/skills/guess-number/SKILL.md` → `guess-number`. */
function skillFolder(path: string): string {
  const parts = path.replace(/\\/g, '/').split('/').filter(Boolean);
  return parts.length >= 2 ? parts[parts.length - 2] : '';
}

function splitList(value: string): string[] {
  return value
    .split(/[,，、]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export class Skill {
  private constructor(
    readonly path: string,
    readonly declaration: GameDeclaration,
    /** Rules and flow (Markdown), written into every system prompt. */
    readonly body: string,
    /** All metadata strings, game fields included (a game may read its own extra keys). */
    readonly metadata: Readonly<Record<string, string>>,
  ) {}

  get id(): string {
    return this.declaration.id;
  }

  /** Parses a SKILL.md; throws SkillLoadError naming the file and the field on bad frontmatter. */
  static load(path: string, text: string): Skill {
    const fail = (field: string, problem: string): never => {
      throw new SkillLoadError(path, field, problem);
    };
    const m = FRONTMATTER_RE.exec(text.replace(/^\uFEFF/, ''));
    if (!m) fail('frontmatter', 'missing: the file must start with a `---` line and close the block with another `---` line');
    const [, yamlText, body] = m!;

    let data: unknown;
    try {
      data = parseYaml(yamlText);
    } catch (e) {
      fail('frontmatter', `not valid YAML (${(e as Error).message.split('\n')[0]})`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) fail('frontmatter', 'must be a YAML mapping');
    const fm = data as Record<string, unknown>;

    for (const key of Object.keys(fm)) {
      if (!ALLOWED_FIELDS.has(key))
        fail(key, `unknown top-level field; Agent Skills allows ${[...ALLOWED_FIELDS].join(', ')} — put game fields under metadata`);
    }

    const name = fm.name;
    if (typeof name !== 'string' || name === '') fail('name', 'required (a string)');
    if (!isSkillName(name as string))
      fail('name', `"${name}" must be 1–64 characters of a-z, 0-9 and single hyphens`);
    const folder = skillFolder(path);
    if (folder && folder !== name) fail('name', `"${name}" must equal the folder name "${folder}"`);

    const description = fm.description;
    if (typeof description !== 'string' || description.trim() === '') fail('description', 'required (a non-empty string)');
    if ((description as string).length > DESCRIPTION_MAX) fail('description', `longer than ${DESCRIPTION_MAX} characters`);

    const rawMeta = fm.metadata;
    if (rawMeta === undefined || rawMeta === null) fail('metadata', 'required: a game needs metadata.title and metadata.capabilities');
    if (typeof rawMeta !== 'object' || Array.isArray(rawMeta)) fail('metadata', 'must be a mapping of string to string');
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(rawMeta as Record<string, unknown>)) {
      if (typeof v !== 'string') fail(`metadata.${k}`, `must be a string (got ${Array.isArray(v) ? 'a list' : typeof v}); write lists comma-separated`);
      metadata[k] = v as string;
    }

    const title = metadata.title?.trim();
    if (!title) fail('metadata.title', 'required: the Chinese title shown on the game card');

    const aliases = splitList(metadata.aliases ?? '');

    if (metadata.capabilities === undefined) fail('metadata.capabilities', `required: comma-separated from ${CAPABILITIES.join('|')}`);
    const capabilities = splitList(metadata.capabilities);
    for (const c of capabilities) {
      if (!CAPABILITIES.includes(c as Capability)) fail('metadata.capabilities', `unknown capability "${c}" (allowed: ${CAPABILITIES.join('|')})`);
    }

    if (body.trim() === '') fail('body', 'empty: the body holds the rules and flow of the game');

    return new Skill(
      path,
      {
        id: name as string,
        title: title as string,
        description: (description as string).trim(),
        aliases,
        capabilities: [...new Set(capabilities)] as Capability[],
        engine: 'skill',
      },
      body.trim(),
      metadata,
    );
  }
}
