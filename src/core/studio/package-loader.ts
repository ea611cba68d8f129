/**
 * Skill packages (seed 004 §1, §5): `skills/<pkg>/orchestrator.md` is a manifest — which skills
 * exist, their stage, the tags each reads and writes, constraints and the acceptance policy — and
 * `skills/<pkg>/helpers/<skill>/SKILL.md` holds each skill's Agent Skills definition.
 *
 * `loadPackage` is pure (file texts in, package or every error out); `discoverPackages` finds the
 * folders (src/studio/bundled-packages.ts), so adding a package folder needs no edit anywhere else.
 */
import { ALLOWED_FIELDS, DESCRIPTION_MAX, isSkillName } from '../games/agent-skills.ts';
import { CAPABILITIES, type Capability } from '../protocol/declaration.ts';
import { splitFrontmatter } from './frontmatter.ts';
import { parseFieldSchema, type TagDef } from './tag-schema.ts';

type SkillStage = 'instantiate' | 'run';
/** How a read tag appears in a helper's dynamic context: whole, shortened, or with fields hidden. */
export type ContextRule = 'full' | 'brief' | { hide: string[] };

/**
 * One skill of a Studio package (a step a helper runs: `helpers/<id>/SKILL.md` with its manifest
 * entry). Not a game's `Skill` (src/core/games/skill.ts, a whole game) nor an A2A card's skill.
 */
export interface StudioSkill {
  id: string;
  stage: SkillStage;
  title: string;
  description: string;
  reads: string[];
  writes: string[];
  /** `model`: a helper LLM in its own tool loop; `code`: the package's runtime code (no prompt). */
  executor: 'model' | 'code';
  /** Context profile: rule per read tag (default `full`). */
  context: Record<string, ContextRule>;
  /**
   * Run skills only: `executor: code` skills the runtime runs right after this one, inside the same
   * `run_helper` call (e.g. judging an answer also scores it). Deterministic follow-ups, not choices.
   */
  then: string[];
  /** Run skills only: the `运行.回复` this skill writes ends the game (session `ended`). */
  ends: boolean;
  /** The SKILL.md text exactly as shipped (the fixed upper half quotes it byte for byte). */
  skillMd: string;
  metadata: Record<string, string>;
}

/** A shape of play the interaction-paradigm skill may choose, with the run skills it plays with. */
export interface Paradigm {
  name: string;
  /** One line for the parent: how a round goes. */
  description: string;
  runSkills: string[];
}

export interface SkillPackage {
  id: string;
  title: string;
  description: string;
  version: number;
  capabilities: Capability[];
  burstCap: number;
  constraints: string[];
  acceptance: { design: 'user'; play: 'runtime' };
  /** Declared tag vocabulary: name → meaning. */
  tags: Record<string, string>;
  /** Each declared tag with its parent-facing title and, optionally, its value's schema and summary. */
  tagDefs: Record<string, TagDef>;
  /** The shapes of play (empty: the package has one, named by its run skill list alone). */
  paradigms: Paradigm[];
  skills: StudioSkill[];
  manifestBody: string;
}

export type LoadResult = { ok: true; pkg: SkillPackage } | { ok: false; packageId: string; errors: string[] };

export const DESIGN_PREFIX = '设计.';
const PLAY_PREFIX = '运行.';
const DEFAULT_BURST_CAP = 8;

/** Files of one package, keyed by path relative to the package folder (`orchestrator.md`, `helpers/x/SKILL.md`). */
export type PackageFiles = Record<string, string>;

function strings(v: unknown): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
}

export function loadPackage(folder: string, files: PackageFiles): LoadResult {
  const errors: string[] = [];
  const err = (msg: string) => errors.push(msg);
  const manifestText = files['orchestrator.md'];
  if (manifestText === undefined) return { ok: false, packageId: folder, errors: [`${folder}: 缺少 orchestrator.md`] };
  const head = splitFrontmatter(manifestText, { allowFencedBlock: true });
  head.diagnostics.forEach((d) => err(`${folder}/orchestrator.md: ${d}`));
  const m = head.data ?? {};

  const id = typeof m.id === 'string' ? m.id : folder;
  if (id !== folder) err(`${folder}/orchestrator.md: id「${id}」与文件夹名「${folder}」不一致`);
  if (typeof m.title !== 'string' || !m.title) err(`${folder}/orchestrator.md: 缺少 title`);
  const capabilities = strings(m.capabilities ?? []) ?? [];
  for (const c of capabilities) if (!CAPABILITIES.includes(c as Capability)) err(`${folder}/orchestrator.md: 未知能力 capability「${c}」`);
  const constraints = strings(m.constraints ?? []);
  if (!constraints) err(`${folder}/orchestrator.md: constraints 必须是字符串列表`);
  const { tags, tagDefs } = readTags(folder, m, err);
  if (!tags['设计.run_skill清单'] && head.data) err(`${folder}/orchestrator.md: 标签表里必须有「设计.run_skill清单」`);

  const skills: StudioSkill[] = [];
  const seen = new Set<string>();
  const rawSkills = Array.isArray(m.skills) ? m.skills : [];
  if (!Array.isArray(m.skills) && head.data) err(`${folder}/orchestrator.md: 缺少 skills 列表`);
  for (const [i, raw] of rawSkills.entries()) {
    const skill = readSkill(folder, files, raw, i, tags, seen, err);
    if (skill) skills.push(skill);
  }
  // A helper folder the manifest does not mention is almost always a typo in one of the two.
  for (const path of Object.keys(files)) {
    const w = /^helpers\/([^/]+)\/SKILL\.md$/.exec(path);
    if (w && !seen.has(w[1])) err(`${folder}/${path}: 这个 skill 没有在 orchestrator.md 的 skills 里声明`);
  }
  for (const s of skills)
    for (const next of s.then) {
      const t = skills.find((x) => x.id === next);
      if (!t || t.stage !== 'run' || t.executor !== 'code' || t.id === s.id) err(`${folder}/orchestrator.md: skill「${s.id}」的 then「${next}」必须是另一个 executor: code 的 run skill`);
    }
  const paradigms = readParadigms(folder, m, skills, err);
  if (!skills.some((s) => s.stage === 'instantiate' && s.writes.includes('设计.run_skill清单')) && head.data)
    err(`${folder}/orchestrator.md: 必须有一个 instantiate skill 写「设计.run_skill清单」（交互范式）`);
  if (errors.length) return { ok: false, packageId: folder, errors };
  return {
    ok: true,
    pkg: {
      id,
      title: m.title as string,
      description: typeof m.description === 'string' ? m.description : '',
      version: typeof m.version === 'number' ? m.version : 1,
      capabilities: capabilities as Capability[],
      burstCap: typeof m.burstCap === 'number' && m.burstCap > 0 ? m.burstCap : DEFAULT_BURST_CAP,
      constraints: constraints ?? [],
      acceptance: { design: 'user', play: 'runtime' },
      tags,
      tagDefs,
      paradigms,
      skills,
      manifestBody: head.body,
    },
  };
}

type Err = (msg: string) => void;

/** The manifest's tag table: each tag's meaning, and its definition (title, schema, summary…). */
function readTags(folder: string, m: Record<string, unknown>, err: Err): { tags: Record<string, string>; tagDefs: Record<string, TagDef> } {
  const tags: Record<string, string> = {};
  const tagDefs: Record<string, TagDef> = {};
  if (m.tags && typeof m.tags === 'object' && !Array.isArray(m.tags)) {
    for (const [name, raw] of Object.entries(m.tags as Record<string, unknown>)) {
      if (!name.startsWith(DESIGN_PREFIX) && !name.startsWith(PLAY_PREFIX))
        err(`${folder}/orchestrator.md: 标签「${name}」必须以「${DESIGN_PREFIX}」或「${PLAY_PREFIX}」开头`);
      const def = tagDefOf(name, raw, `${folder}/orchestrator.md tags「${name}」`, err);
      tags[name] = def.meaning;
      tagDefs[name] = def;
    }
  } else err(`${folder}/orchestrator.md: 缺少 tags（标签表）`);
  return { tags, tagDefs };
}

/** One entry of the manifest's `skills` (null when it cannot be read at all): checked against the tag table and its SKILL.md. */
function readSkill(folder: string, files: PackageFiles, raw: unknown, i: number, tags: Record<string, string>, seen: Set<string>, err: Err): StudioSkill | null {
  const where = `${folder}/orchestrator.md skills[${i}]`;
  if (!raw || typeof raw !== 'object') { err(`${where}: 必须是映射`); return null; }
  const s = raw as Record<string, unknown>;
  const sid = typeof s.id === 'string' ? s.id : '';
  if (!isSkillName(sid)) { err(`${where}: skill id「${String(s.id)}」只能用 a-z 0-9 -`); return null; }
  if (seen.has(sid)) { err(`${where}: skill「${sid}」重复`); return null; }
  seen.add(sid);
  const stage = s.stage;
  if (stage !== 'instantiate' && stage !== 'run') err(`${where}: skill「${sid}」的 stage 必须是 instantiate 或 run`);
  const reads = strings(s.reads ?? []);
  const writes = strings(s.writes ?? []);
  if (!reads) err(`${where}: reads 必须是标签列表`);
  if (!writes || writes.length === 0) err(`${where}: skill「${sid}」必须声明至少一个 writes 标签`);
  for (const t of [...(reads ?? []), ...(writes ?? [])]) if (!(t in tags)) err(`${where}: skill「${sid}」引用了未声明的标签「${t}」`);
  const wantPrefix = stage === 'run' ? PLAY_PREFIX : DESIGN_PREFIX;
  for (const t of writes ?? []) if (!t.startsWith(wantPrefix)) err(`${where}: ${String(stage)} skill「${sid}」只能写「${wantPrefix}*」标签，不能写「${t}」`);
  const context: Record<string, ContextRule> = {};
  if (s.context && typeof s.context === 'object') {
    for (const [t, rule] of Object.entries(s.context as Record<string, unknown>)) {
      if (!(reads ?? []).includes(t)) err(`${where}: context 里的「${t}」不在 skill「${sid}」的 reads 里`);
      if (rule === 'full' || rule === 'brief') context[t] = rule;
      else if (rule && typeof rule === 'object' && strings((rule as { hide?: unknown }).hide)) context[t] = { hide: (rule as { hide: string[] }).hide };
      else err(`${where}: context「${t}」必须是 full、brief 或 {hide: [字段]}`);
    }
  }
  const executor = s.executor === 'code' ? 'code' : 'model';
  if (s.executor !== undefined && s.executor !== 'code' && s.executor !== 'model') err(`${where}: executor 必须是 model 或 code`);

  const { md, title, description, metadata } = readSkillMd(folder, files, sid, stage, err);
  const then = strings(s.then ?? []);
  if (!then) err(`${where}: then 必须是 skill id 列表`);
  if ((then?.length || s.ends !== undefined) && stage !== 'run') err(`${where}: 只有 run skill 可以有 then / ends`);
  if (s.ends !== undefined && typeof s.ends !== 'boolean') err(`${where}: ends 必须是 true 或 false`);
  return { id: sid, stage: stage as SkillStage, title, description, reads: reads ?? [], writes: writes ?? [], executor, context, then: then ?? [], ends: s.ends === true, skillMd: md ?? '', metadata };
}

/** A skill's `helpers/<id>/SKILL.md`: its Agent Skills frontmatter (name, description, metadata) checked. */
function readSkillMd(folder: string, files: PackageFiles, sid: string, stage: unknown, err: Err): { md: string | undefined; title: string; description: string; metadata: Record<string, string> } {
  const mdPath = `helpers/${sid}/SKILL.md`;
  const md = files[mdPath];
  let description = '';
  let title = sid;
  let metadata: Record<string, string> = {};
  if (md === undefined) err(`${folder}/${mdPath}: 文件缺失（skill「${sid}」在 orchestrator.md 里声明了）`);
  else {
    const fm = splitFrontmatter(md);
    fm.diagnostics.forEach((d) => err(`${folder}/${mdPath}: ${d}`));
    const f = fm.data ?? {};
    if (fm.data) {
      if (f.name !== sid) err(`${folder}/${mdPath}: name「${String(f.name)}」必须等于文件夹名「${sid}」`);
      for (const k of Object.keys(f)) if (!ALLOWED_FIELDS.has(k)) err(`${folder}/${mdPath}: 不允许的字段「${k}」（额外信息放进 metadata）`);
      if (typeof f.description !== 'string' || !f.description.trim() || f.description.length > DESCRIPTION_MAX)
        err(`${folder}/${mdPath}: description 必须是 1～1024 个字符`);
      else description = f.description;
      if (f.metadata !== undefined) {
        if (!f.metadata || typeof f.metadata !== 'object' || Array.isArray(f.metadata)) err(`${folder}/${mdPath}: metadata 必须是 字符串→字符串 映射`);
        else metadata = Object.fromEntries(Object.entries(f.metadata).map(([k, v]) => [k, String(v)]));
      }
      if (metadata.stage && metadata.stage !== stage) err(`${folder}/${mdPath}: metadata.stage「${metadata.stage}」与 manifest 的「${String(stage)}」不一致`);
      title = metadata.title ?? sid;
    }
  }
  return { md, title, description, metadata };
}

/** The manifest's shapes of play (`paradigms`), each with the run skills it plays with. */
function readParadigms(folder: string, m: Record<string, unknown>, skills: StudioSkill[], err: Err): Paradigm[] {
  const paradigms: Paradigm[] = [];
  if (m.paradigms !== undefined) {
    if (!Array.isArray(m.paradigms)) err(`${folder}/orchestrator.md: paradigms 必须是列表`);
    else
      for (const [i, raw] of (m.paradigms as unknown[]).entries()) {
        const p = (raw ?? {}) as Record<string, unknown>;
        const where = `${folder}/orchestrator.md paradigms[${i}]`;
        const runSkills = strings(p.runSkills) ?? [];
        if (typeof p.name !== 'string' || !p.name) err(`${where}: 缺少 name`);
        else if (paradigms.some((x) => x.name === p.name)) err(`${where}: 玩法「${p.name}」重复`);
        if (runSkills.length === 0) err(`${where}: runSkills 必须列出 run skill`);
        for (const r of runSkills) if (!skills.some((s) => s.id === r && s.stage === 'run')) err(`${where}: runSkills 里的「${r}」不是这个包的 run skill`);
        paradigms.push({ name: String(p.name ?? ''), description: typeof p.description === 'string' ? p.description : '', runSkills });
      }
  }
  return paradigms;
}

/**
 * A tag entry of the manifest: either its meaning alone, or `{meaning, title?, schema?, summary?,
 * list?: {path?, item}, technical?}`.
 */
function tagDefOf(name: string, raw: unknown, where: string, err: (m: string) => void): TagDef {
  const short = name.replace(/^设计\.|^运行\./, '');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { name, meaning: String(raw ?? ''), title: short, technical: false };
  const r = raw as Record<string, unknown>;
  const def: TagDef = { name, meaning: typeof r.meaning === 'string' ? r.meaning : '', title: typeof r.title === 'string' && r.title ? r.title : short, technical: r.technical === true };
  if (!def.meaning) err(`${where}: 缺少 meaning`);
  if (r.schema !== undefined) def.schema = parseFieldSchema(r.schema, `${where} schema`, err);
  if (typeof r.summary === 'string') def.summary = r.summary;
  if (r.list !== undefined) {
    const l = r.list as Record<string, unknown>;
    if (typeof l?.item !== 'string') err(`${where}: list 需要 item 模板`);
    else def.list = { path: typeof l.path === 'string' ? l.path : '', item: l.item };
  }
  return def;
}

/** Groups globbed files (`/skills/<pkg>/…`) by package folder and loads each package. */
export function loadPackagesFromFiles(all: Record<string, string>): LoadResult[] {
  const byFolder = new Map<string, PackageFiles>();
  for (const [path, text] of Object.entries(all)) {
    const m = /^\/?skills\/([^/]+)\/(.+)$/.exec(path);
    if (!m) continue;
    if (!byFolder.has(m[1])) byFolder.set(m[1], {});
    byFolder.get(m[1])![m[2]] = text;
  }
  return [...byFolder.entries()]
    .filter(([, files]) => 'orchestrator.md' in files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, files]) => loadPackage(folder, files));
}

export function skillById(pkg: SkillPackage, id: string): StudioSkill | undefined {
  return pkg.skills.find((s) => s.id === id);
}
