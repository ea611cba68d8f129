/**
 * Remote game agents (an A2A server elsewhere that serves `desktop-game/5`): which addresses a parent
 * may add, and which Agent Cards are accepted (seed 000 §A2A 映射: streaming=true, the skill's id is
 * the game id, tags `desktop-game/5` + `capability:<c>`, `examples` are the aliases).
 *
 * Pure: it reads the card as parsed JSON (what `/.well-known/agent-card.json` returned) and says, for
 * every refusal, why in plain Chinese (`reason`, for the parent) and in technical terms (`detail`,
 * shown under 技术细节).
 *
 * Rules beyond the seed, decided here:
 * - An address is `https://…`, or `http://` on this device (localhost, 127.0.0.0/8, [::1]). A plain
 *   `http://` address elsewhere (the home network) is refused with the mixed-content explanation.
 * - One address serves one game: exactly one skill carries the `desktop-game/5` tag. The address is
 *   the server's root or a folder named by the game id (`…/animal-sounds`), as a built-in game's
 *   folder under skills/ carries its id: a folder of another name is a different game.
 * - A2A carries only text, so a remote game plays by voice only. `face` and `screen` are cosmetic (the
 *   tablet keeps its own robot face); a game that needs `draw`, `head` or a capability this app does not
 *   know is listed greyed with the reason, unless its card also carries `capability:voice` ("plays
 *   with voice alone").
 * - Everything a card says that reaches the main agent's prompt or a screen is bounded and has no line
 *   breaks or brackets the game list uses (a title cannot smuggle in a second game line).
 */
import { isSkillName } from '../games/agent-skills.ts';
import { PROTOCOL } from './game-protocol.ts';
import { CAPABILITIES, type Capability } from './declaration.ts';
import { reservedNameProblem, type OtherGame } from './reserved-names.ts';

/** The largest Agent Card accepted (bytes of its JSON): a game's card is a few KB. */
export const CARD_MAX_BYTES = 64 * 1024;

export const CAPABILITY_TAG = 'capability:';
/** The capability tag a card carries when its game plays with voice alone. */
export const VOICE_ONLY_TAG = 'capability:voice';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
/** The HTTP bindings the SDK's client transports speak. */
export const HTTP_BINDINGS = ['JSONRPC', 'HTTP+JSON'] as const;
export type HttpBinding = (typeof HTTP_BINDINGS)[number];
const JSON_MEDIA = 'application/json';

export const TITLE_MAX = 20;
export const DESCRIPTION_MAX = 300;
export const ALIAS_MAX = 20;
export const ALIASES_MAX = 12;
/** Characters the game list of the main agent's prompt uses as structure. */
const FORBIDDEN_IN_NAMES = /[\r\n\t（）()【】、]/;

export interface Refusal {
  /** The card or address field at fault, e.g. `capabilities.streaming`, `skills[0].id`. */
  field: string;
  /** Plain Chinese for the parent: what is wrong and what to do. */
  reason: string;
  /** Technical detail (English), shown under 技术细节. */
  detail: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

// ---- addresses -----------------------------------------------------------------------------------

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A host as a family reads it: `192.168.1.5:8787`, `games.example.org`. */
export function hostLabel(url: URL): string {
  return url.host;
}

const MIXED_CONTENT_REASON =
  '这个地址用的是普通的 http，而且不在这台平板上。游戏厅是用安全连接（https）打开的，浏览器不许它去连家里网络里的普通 http 地址（这叫“混合内容”），所以连不上。' +
  '办法：让放游戏的电脑用 https 提供服务（比如在它前面放一个会自动申请证书的网页服务器），再用 https:// 开头的地址添加；或者把游戏放在这台平板上，用 http://localhost 的地址。';

/**
 * What a parent typed or pasted, as the game's base URL (no trailing slash, no card path, no hash).
 * Without a scheme, a loopback host gets `http://`, any other `https://`.
 */
export function checkAddress(text: string): Checked<URL> {
  const raw = text.trim();
  const refuse = (field: string, reason: string, detail: string): Checked<URL> => ({ ok: false, refusal: { field, reason, detail } });
  if (!raw) return refuse('address', '请填写游戏的地址，比如 https://games.example.org/animal-sounds。', 'empty address');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `${isLoopbackHost(raw.split(/[/:]/)[0] ?? '') ? 'http' : 'https'}://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return refuse('address', '这不像一个网址。请填写游戏的地址，比如 https://games.example.org/animal-sounds。', `not a URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse('address', '游戏的地址要以 https:// 开头。', `unsupported scheme ${url.protocol}`);
  if (url.username || url.password)
    return refuse('address', '地址里不能带用户名或密码。需要登录的游戏现在还不能添加。', 'credentials in the URL');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return refuse('address', MIXED_CONTENT_REASON, `plain http to a non-loopback host (${url.host}) is blocked as mixed content from an https page; use https, or a loopback address`);
  url.hash = '';
  url.search = '';
  let path = url.pathname;
  if (path.endsWith(AGENT_CARD_PATH)) path = path.slice(0, -AGENT_CARD_PATH.length);
  url.pathname = path.replace(/\/+$/, '') || '/';
  return { ok: true, value: url };
}

/** The card's URL for a base address (`<base>/.well-known/agent-card.json`). */
export function cardUrl(base: URL): string {
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${AGENT_CARD_PATH}`;
}

/** The last folder of an address path (`/games/animal-sounds` → `animal-sounds`), or '' for the root. */
export function addressFolder(base: URL): string {
  const parts = base.pathname.split('/').filter(Boolean);
  return parts.length ? decodeURIComponent(parts[parts.length - 1]) : '';
}

// ---- cards ---------------------------------------------------------------------------------------

export interface RemoteInterface {
  /** Absolute (a relative URL in the card is resolved against the address). */
  url: string;
  binding: HttpBinding;
  /** The interface's A2A tenant ('' for none). */
  tenant: string;
  /** The A2A version it speaks: 1.x, or 0.3 (played through the SDK's compatibility layer). */
  protocolVersion: string;
}

/** An accepted card, as the arcade needs it. */
export interface RemoteGameCard {
  /** The game id: the id of the card's one `desktop-game/5` skill. */
  id: string;
  title: string;
  description: string;
  aliases: string[];
  /** Every `capability:<c>` the card names (known and unknown, `voice` included), in card order. */
  capabilityTags: string[];
  /** The device capabilities the card names that this app knows. */
  capabilities: Capability[];
  /** The card also says it plays with voice alone (`capability:voice`). */
  voiceOnly: boolean;
  /** The agent's own name and version (for the parent's list). */
  agentName: string;
  agentVersion: string;
  /** The HTTP interfaces the SDK's client can use, in the card's order. */
  interfaces: RemoteInterface[];
}

export interface CardContext {
  /** The base address the card was fetched for (from `checkAddress`). */
  address: URL;
  /** Ids of games already installed (built-in, Studio, other remote ones). */
  installed?: ReadonlySet<string>;
  /** Re-checking a stored game: the id it was added with. */
  expectedId?: string;
  /** Every other installed game's names: a remote game's title and aliases may not take them. */
  others?: readonly OtherGame[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function chars(s: string): number {
  return Array.from(s).length;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;
}

/** An interface's A2A version as the client speaks it: 1.x as written ('1.0' when unsaid), 0.3.x through the SDK's compatibility layer; null for any other. */
function spokenVersion(version: unknown): string | null {
  if (version === undefined || (typeof version === 'string' && !version.trim())) return '1.0';
  if (typeof version !== 'string') return null;
  const [major, minor] = version.trim().split('.').map((x) => Number.parseInt(x, 10));
  if (major === 1) return version.trim();
  return major === 0 && minor === 3 ? version.trim() : null;
}

/** Checks a parsed Agent Card against the desktop-game/5 rules. The first problem found is the refusal. */
export function checkGameCard(card: unknown, ctx: CardContext): Checked<RemoteGameCard> {
  if (!isRecord(card)) return refuse('$', '这个地址给的不是游戏名片。请确认地址是游戏的地址。', 'the Agent Card is not a JSON object');
  const size = utf8Bytes(JSON.stringify(card));
  if (size > CARD_MAX_BYTES) return refuse('$', cardTooBig(size), `the Agent Card is ${size} bytes; at most ${CARD_MAX_BYTES} are accepted`);

  // The agent itself.
  const agentName = card.name;
  if (typeof agentName !== 'string' || !agentName.trim())
    return refuse('name', '游戏名片上没有写名字，不能添加。', 'AgentCard.name must be a non-empty string');
  const agentVersion = typeof card.version === 'string' ? card.version : '';

  if (!Array.isArray(card.supportedInterfaces)) {
    if (typeof card.url === 'string' || typeof card.protocolVersion === 'string')
      return refuse('supportedInterfaces', '这个游戏用的是很旧的 A2A 协议，游戏厅能用 1.0 版和 0.3 版。请游戏的作者更新。', 'a card with a top-level url/protocolVersion the SDK could not read as A2A 0.3 (no supportedInterfaces); A2A 1.x or 0.3 is required');
    return refuse('supportedInterfaces', '游戏名片上没有写怎么连接它，不能添加。', 'AgentCard.supportedInterfaces must be an array');
  }

  // Streaming (seed 000: the card declares streaming=true).
  const caps = card.capabilities;
  if (!isRecord(caps) || caps.streaming !== true)
    return refuse('capabilities.streaming', '这个游戏不能一句一句地回答（名片上没有打开 streaming），游戏厅没法和它玩。', 'AgentCard.capabilities.streaming must be true (desktop-game/5 replies stream as status updates)');

  // Authentication is not supported (a family's tablet holds no credentials for it).
  if (Array.isArray(card.securityRequirements) && card.securityRequirements.length > 0)
    return refuse('securityRequirements', '这个游戏要先登录才能玩，游戏厅现在还不支持需要登录的游戏。', 'AgentCard.securityRequirements is not empty; authenticated agents are not supported');

  const iface = cardInterfaces(card as Card, ctx);
  if (!iface.ok) return iface;
  const interfaces = iface.value;
  const found = gameSkillOf(card as Card);
  if (!found.ok) return found;
  const { skill, si } = found.value;
  const at = (f: string) => `skills[${si}].${f}`;
  const gameId = gameIdOf(skill, at, ctx);
  if (!gameId.ok) return gameId;
  const id = gameId.value;
  const named = gameNamesOf(skill, at, ctx, id);
  if (!named.ok) return named;
  const { title, rawDescription, aliases } = named.value;

  // Capability tags (at least one; `capability:voice` counts).
  const tags = strings(skill.tags) ?? [];
  const capabilityTags = tags.filter((t) => t.startsWith(CAPABILITY_TAG) && t.length > CAPABILITY_TAG.length);
  if (capabilityTags.length === 0)
    return refuse(at('tags'), '游戏名片上没有写游戏要用机器人的哪些本领（capability:…）。只用声音玩的游戏请写 capability:voice。', `skill tags must include at least one "${CAPABILITY_TAG}<name>" tag`);
  const capabilities = capabilityTags.map((t) => t.slice(CAPABILITY_TAG.length)).filter((c): c is Capability => (CAPABILITIES as readonly string[]).includes(c));

  const modesRefused = modesRefusal(card as Card, skill, at);
  if (modesRefused) return modesRefused;

  const description = rawDescription.trim() || title;
  return {
    ok: true,
    value: { id, title, description, aliases, capabilityTags, capabilities, voiceOnly: capabilityTags.includes(VOICE_ONLY_TAG), agentName: agentName.trim(), agentVersion, interfaces },
  };
}

type Card = Record<string, unknown> & { supportedInterfaces: unknown[] };
type Refused = { ok: false; refusal: Refusal };
const refuse = (field: string, reason: string, detail: string): Refused => ({ ok: false, refusal: { field, reason, detail } });

/** The card's interfaces the SDK's HTTP transports can use, each https or loopback (at least one). */
function cardInterfaces(card: Card, ctx: CardContext): Checked<RemoteInterface[]> {
  const interfaces: RemoteInterface[] = [];
  let blocked: Refusal | undefined;
  let oldVersion = false;
  for (const [i, iface] of card.supportedInterfaces.entries()) {
    if (!isRecord(iface) || typeof iface.url !== 'string' || typeof iface.protocolBinding !== 'string') continue;
    const binding = HTTP_BINDINGS.find((b) => b === String(iface.protocolBinding).toUpperCase());
    if (!binding) continue;
    const version = spokenVersion(iface.protocolVersion);
    if (version === null) {
      oldVersion = true;
      continue;
    }
    let url: URL;
    try {
      url = new URL(iface.url, ctx.address);
    } catch {
      blocked ??= { field: `supportedInterfaces[${i}].url`, reason: '游戏名片上的连接地址写错了，不能添加。', detail: `not a URL: ${iface.url}` };
      continue;
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      blocked ??= { field: `supportedInterfaces[${i}].url`, reason: MIXED_CONTENT_REASON, detail: `interface ${url.href} is neither https nor loopback` };
      continue;
    }
    interfaces.push({ url: url.href, binding, tenant: typeof iface.tenant === 'string' ? iface.tenant : '', protocolVersion: version });
  }
  if (interfaces.length === 0) {
    if (blocked) return { ok: false, refusal: blocked };
    if (oldVersion)
      return refuse('supportedInterfaces', '这个游戏用的是旧版的 A2A 协议，游戏厅能用 1.0 版和 0.3 版。请游戏的作者更新。', 'no interface with protocolVersion 1.x or 0.3');
    return refuse('supportedInterfaces', '游戏厅连不上这个游戏：它没有提供 JSON-RPC 或 HTTP+JSON 的连接方式。', `no interface with protocolBinding ${HTTP_BINDINGS.join(' or ')}`);
  }

  return { ok: true, value: interfaces };
}

/** The card's one `desktop-game/5` skill, and where it is. */
function gameSkillOf(card: Card): Checked<{ skill: Record<string, unknown>; si: number }> {
  if (!Array.isArray(card.skills)) return refuse('skills', '游戏名片上没有写游戏，不能添加。', 'AgentCard.skills must be an array');
  const gameSkills = card.skills.map((s, i) => [s, i] as const).filter(([s]) => isRecord(s) && strings(s.tags)?.includes(PROTOCOL));
  if (gameSkills.length === 0)
    return refuse('skills[].tags', '这个地址上的智能体不是游戏厅的游戏：名片上没有写 desktop-game/5。', `no skill is tagged "${PROTOCOL}"`);
  if (gameSkills.length > 1)
    return refuse('skills[].tags', '这个地址上放了好几个游戏。一个地址只能放一个游戏，请用每个游戏自己的地址添加。', `${gameSkills.length} skills are tagged "${PROTOCOL}"; one address serves one game`);
  const [skill, si] = gameSkills[0] as readonly [Record<string, unknown>, number];

  return { ok: true, value: { skill, si } };
}

/** The skill's id is the game id: a game id, the one the address names, the one it was added as, not installed twice. */
function gameIdOf(skill: Record<string, unknown>, at: (f: string) => string, ctx: CardContext): Checked<string> {
  const id = skill.id;
  if (typeof id !== 'string' || !isSkillName(id))
    return refuse(at('id'), '游戏的编号不对：只能用小写字母、数字和短横线，比如 animal-sounds。', `skill id ${JSON.stringify(id)} is not a game id (1–64 of a-z, 0-9 and single hyphens)`);
  const folder = addressFolder(ctx.address);
  if (folder && folder !== id)
    return refuse(at('id'), `地址的最后一段是「${folder}」，可名片上游戏的编号是「${id}」，两个要一样。请用 …/${id} 这个地址添加，或者用服务器的根地址。`, `skill id "${id}" differs from the game id "${folder}" the address names`);
  if (ctx.expectedId !== undefined && ctx.expectedId !== id)
    return refuse(at('id'), `这个地址上现在是另一个游戏了（编号「${id}」，原来是「${ctx.expectedId}」）。如果想玩新的，请删掉再重新添加。`, `skill id "${id}" differs from the game id "${ctx.expectedId}" it was added as`);
  if (ctx.expectedId === undefined && ctx.installed?.has(id))
    return refuse(at('id'), `游戏厅里已经有一个编号是「${id}」的游戏了，不能再添加一个同样编号的。`, `a game with id "${id}" is already installed`);

  return { ok: true, value: id };
}

/** Title, description and aliases: names, not phrases (no command, greeting or chat phrase, no other game's name). */
function gameNamesOf(skill: Record<string, unknown>, at: (f: string) => string, ctx: CardContext, id: string): Checked<{ title: string; rawDescription: string; aliases: string[] }> {
  const title = typeof skill.name === 'string' ? skill.name.trim() : '';
  if (!title || chars(title) > TITLE_MAX || FORBIDDEN_IN_NAMES.test(title))
    return refuse(at('name'), `游戏的名字要有 1 到 ${TITLE_MAX} 个字，不能有换行和括号。`, `skill name ${JSON.stringify(skill.name)} must be 1..${TITLE_MAX} characters without line breaks, brackets or 「、」`);
  const rawDescription = skill.description === undefined ? '' : skill.description;
  if (typeof rawDescription !== 'string' || chars(rawDescription) > DESCRIPTION_MAX || /[\r\n]/.test(rawDescription.trim()))
    return refuse(at('description'), `游戏的介绍最多 ${DESCRIPTION_MAX} 个字，而且只能写一段。`, `skill description must be a single-line string of at most ${DESCRIPTION_MAX} characters`);
  const examples = skill.examples === undefined ? [] : strings(skill.examples);
  if (!examples || examples.length > ALIASES_MAX)
    return refuse(at('examples'), `游戏的别名（examples）最多 ${ALIASES_MAX} 个，每个都要是文字。`, `skill examples must be an array of at most ${ALIASES_MAX} strings`);
  const aliases: string[] = [];
  for (const e of examples) {
    const a = e.trim();
    if (!a || chars(a) > ALIAS_MAX || FORBIDDEN_IN_NAMES.test(a))
      return refuse(at('examples'), `游戏的别名「${a}」不行：每个别名要有 1 到 ${ALIAS_MAX} 个字，不能有换行、括号和顿号。`, `alias ${JSON.stringify(e)} must be 1..${ALIAS_MAX} characters without line breaks, brackets or 「、」`);
    if (a !== title && !aliases.includes(a)) aliases.push(a);
  }
  // Names, not phrases: no command, greeting or chat phrase, no other game's name.
  const others = (ctx.others ?? []).filter((g) => g.id !== id);
  const sameTitle = others.find((g) => g.title === title);
  if (sameTitle) return refuse(at('name'), `游戏厅里已经有一个叫「${title}」的游戏了，不能再添加一个同名的。`, `skill name "${title}" is the title of the installed game "${sameTitle.id}"`);
  for (const [field, name] of [[at('name'), title], ...aliases.map((a) => [at('examples'), a] as const)] as const) {
    const problem = reservedNameProblem(name, others);
    if (problem)
      return refuse(field, `${problem}，不能当远处游戏的名字或别名：小朋友说这句话时，会被当成要玩这个游戏，说的话就会发到别人的服务器上。请游戏的作者换一个名字。`, `name ${JSON.stringify(name)} is reserved (a built-in command, greeting, chat phrase or another game's name)`);
  }

  return { ok: true, value: { title, rawDescription, aliases } };
}

/** The messages are JSON data parts: the modes, when given, must allow them. */
function modesRefusal(card: Card, skill: Record<string, unknown>, at: (f: string) => string): Refused | null {
  for (const [field, modes] of [
    ['defaultInputModes', card.defaultInputModes],
    ['defaultOutputModes', card.defaultOutputModes],
    [at('inputModes'), skill.inputModes],
    [at('outputModes'), skill.outputModes],
  ] as const) {
    const list = strings(modes);
    if (list && list.length > 0 && !list.includes(JSON_MEDIA))
      return refuse(field, '这个游戏不收发游戏厅用的 JSON 消息（application/json），没法一起玩。', `${field} (${list.join(', ')}) does not include ${JSON_MEDIA}`);
  }

  return null;
}

/** The UTF-8 length of a string, in bytes. */
function utf8Bytes(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** The parent's reason for a card over the size limit. */
export function cardTooBig(bytes: number): string {
  return `这张游戏名片太大了（${Math.ceil(bytes / 1024)} KB，最多 ${CARD_MAX_BYTES / 1024} KB）。正常的游戏名片只有几 KB，这个不像游戏名片，没有添加。`;
}

// ---- playing by voice only -----------------------------------------------------------------------

/** What a remote game can do without the robot's devices: `face` and `screen` are cosmetic. */
const COSMETIC: ReadonlySet<string> = new Set(['face', 'screen', 'voice']);

const NEEDS: Record<string, string> = { draw: '在机器人屏幕上画画', head: '让机器人点头摇头' };

/**
 * Whether a remote game can be played voice-only (A2A carries only text; the robot is driven
 * in-process). Returns the parent's / child's reason when it cannot.
 */
export function voiceOnlyPlay(card: Pick<RemoteGameCard, 'title' | 'capabilityTags' | 'voiceOnly'>): { playable: true } | { playable: false; reason: string } {
  if (card.voiceOnly) return { playable: true };
  const needed = card.capabilityTags.map((t) => t.slice(CAPABILITY_TAG.length)).filter((c) => !COSMETIC.has(c));
  if (needed.length === 0) return { playable: true };
  const what = needed.map((c) => NEEDS[c] ?? `用机器人的「${c}」本领`).join('、');
  return { playable: false, reason: `「${card.title}」要${what}，可是远处的游戏只能传文字，做不到，所以现在不能玩。` };
}
