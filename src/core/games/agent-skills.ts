/**
 * The Agent Skills frontmatter rules (agentskills.io), shared by game skills, Studio worker skills
 * and remote game cards: the allowed top-level keys, the skill name, the description's length.
 * Kept apart from the SKILL.md parser so that checking a name needs no YAML parser.
 */
export const ALLOWED_FIELDS: ReadonlySet<string> = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const NAME_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const DESCRIPTION_MAX = 1024;

/** 1–64 characters of a-z, 0-9 and single hyphens, not starting or ending with one. */
export function isSkillName(name: string): boolean {
  return name.length <= 64 && NAME_RE.test(name);
}
