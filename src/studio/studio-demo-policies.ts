/**
 * Scripted policies for the Studio (demo mode "演示脚本，无模型", unit tests and e2e): the manager
 * and one policy per model helper. Each is a small deterministic function of the request — it reads
 * only what a model would see (its messages and the tools offered), never the runtime.
 *
 * The design helpers follow the parent's words as a model should: the shape of play, the theme,
 * rounds, difficulty and age the parent states; a rejection reason changes the redo, or the helper
 * asks the parent (saying why) when it cannot follow it — e.g. 「我还不会自己出这个主题的题，你来写几张吧？」.
 */
import { errorOf, readToolResult, toolResultsIn } from '../core/agent/messages.ts';
import type { ChatMessage, ScriptPolicy, Step, StepRequest } from '../core/llm/types.ts';
import { MANAGER_AGENT, helperAgent } from '../core/studio/manager-tools.ts';
import { isAcceptWords, statedAge, statedDifficulty, statedOpening, statedRounds } from '../core/studio/parent-words.ts';
import { QUIT, reader } from '../../skills/quiz-cards/reader.ts';
import { DEMO_ACTIONS, DEMO_STORIES, DEMO_THEMES, demoDeckFor, STORY_CONTINUATIONS, STORY_SOOTHE } from './demo-decks.ts';

const step = (action: string, args: Record<string, unknown> = {}): Step => ({ action, args });
const has = (req: StepRequest, tool: string) => req.tools.some((t) => t.name === tool);
const ask = (question: string, options?: string[]): Step => step('ask_user', { question, ...(options ? { options } : {}) });
const submit = (values: Record<string, unknown>): Step => step('submit', { values });

/** A section `## <tag>` of a helper's dynamic lower half, parsed as JSON (undefined when absent). */
export function section(messages: ChatMessage[], tag: string): unknown {
  const lower = messages.find((m, i) => i > 0 && m.role === 'user')?.content ?? '';
  const m = new RegExp(`## ${tag.replace('.', '\\.')}\\n([\\s\\S]*?)(?=\\n\\n## |$)`).exec(lower);
  if (!m || m[1].startsWith('（还没有）')) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return m[1];
  }
}

/** The reason the parent gave when they rejected this helper's last draft. */
function rejectionReason(messages: ChatMessage[]): string | null {
  const m = /被家长驳回\n理由：(.*)/.exec(messages[1]?.content ?? '');
  return m ? m[1] : null;
}

/** The parent's answers to this helper's questions, oldest first. */
function answers(req: StepRequest): string[] {
  return req.messages.flatMap((m) =>
    toolResultsIn(m).flatMap((r) => {
      const a = r.name === 'ask_user' ? (r.result as { answer?: unknown } | undefined)?.answer : undefined;
      return typeof a === 'string' ? [a] : [];
    }),
  );
}

/** Everything the parent said that this helper sees: their requests, then their answers to it (a bare 「好的」 says nothing). */
function words(req: StepRequest): string {
  const said = section(req.messages, '设计.家长要求');
  return [...(Array.isArray(said) ? said.map(String) : []), ...answers(req).filter((a) => !isAcceptWords(a))].join('；');
}

/** The runtime's refusal of this helper's last submit, if that is the last thing it was told. */
function refusal(req: StepRequest): string | undefined {
  const r = readToolResult(req.messages[req.messages.length - 1]);
  return r?.name === 'submit' ? errorOf(r.result) : undefined;
}

/** The draft was refused as identical to the rejected one: the helper could not follow the reason. */
const sameAsRejected = (req: StepRequest) => /一模一样/.test(refusal(req) ?? '');

// ── what the parent's words name ────────────────────────────────────────────────────
const PARADIGMS: Array<[string, RegExp, string, string[]]> = [
  ['故事接龙', /故事|接龙/, '机器人讲一句，孩子接一句，一起把故事讲下去，最后机器人把故事再讲一遍', ['story-open', 'story-continue', 'story-say', 'story-end', 'story-finish']],
  ['我说你做', /我说你做|做动作|动一动|跟我做|动作游戏|运动/, '机器人说「我说：摸摸鼻子」，孩子做完说「做好了」', ['action-give', 'action-check', 'action-end']],
  ['猜谜语', /谜语|猜谜/, '机器人说谜面，孩子猜谜底，猜错给提示', ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up']],
  ['问答', /问答|出题|答题|卡片|卡牌|认识/, '一张一张出题，孩子说答案，答错给提示', ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up']],
];
const DEFAULT_ROUNDS: Record<string, number> = { 问答: 5, 猜谜语: 5, 故事接龙: 4, 我说你做: 5 };

/** The shape of play a text asks for ("不要问答" asks for none of 问答). */
function paradigmIn(text: string): string | undefined {
  const t = text.replace(/(不要|不想要|不是|别)(玩)?(问答|出题|谜语|故事|讲故事|做动作)/g, '');
  return PARADIGMS.find(([, re]) => re.test(t))?.[0];
}

/** What is left of the parent's words once the shape, the child and the counts are taken out. */
const FILLER = new RegExp(
  [
    '(\\d+|[一二两三四五六七八九十]+)\\s*(周岁|岁|轮|道题|道|题|局|个谜语|个动作|张卡片|张卡|张)', '我想要?', '想要?', '我要', '请', '帮我', '给', '孩子们?', '小朋友',
    '女儿', '儿子', '宝宝', '(做|来|玩|出|讲|编)(一个|个|一下|一些|几道|点)?', '一个', '游戏', '问答', '卡片', '卡牌', '猜谜语?', '谜语', '故事接龙', '讲故事',
    '故事', '接龙', '一人一句', '你一句我一句', '一句一句', '接下去', '接着讲', '接着', '轮流', '我说你做', '做动作', '动一动', '简单一?点', '难一?点', '换成', '题目', '一起', '和', '跟', '陪', '的', '吧', '呀', '啊', '就好', '不要', '主题',
  ].join('|'),
  'g',
);

/** The theme phrase in the parent's words (「动物叫声」, 「恐龙」), or '' when they named none. */
export function themeFromWords(text: string): string {
  // A story's first sentence the parent gave is not its theme; a single character left over is a scrap of the sentence.
  const parts = (statedOpening(text) ? text.replace(/(?:开头|第一句)[^；;]*/, ' ') : text)
    .replace(FILLER, ' ').split(/[，。！？；,.!?;、\s]+/).map((p) => p.trim()).filter((p) => Array.from(p).length >= 2);
  return parts.sort((a, b) => b.length - a.length)[0] ?? '';
}

/** A new theme a rejection asks for: 「换成水果的题目」 → 水果. */
const themeInReason = (r: string): string | undefined => /换成(.+?)(?:的题目|的题|的|主题|吧|$)/.exec(r)?.[1]?.trim() || undefined;
/** A new name a rejection asks for: 「名字叫小恐龙大冒险」 → 小恐龙大冒险. */
const nameInReason = (r: string): string | undefined => /(?:名字叫|名字改成|改名叫|改叫|就叫|名字用)「?([^「」，。！]{2,12})」?/.exec(r)?.[1]?.trim();

function rotate<T>(xs: T[], by: number): T[] {
  const k = xs.length ? by % xs.length : 0;
  return [...xs.slice(k), ...xs.slice(0, k)];
}
/** The rejected draft as the helper sees it (its brief form: arrays as items of plain fields). */
function rejectedDraft(req: StepRequest): unknown {
  const m = /被驳回的草稿：(?:共 \d+ 项：)?(.*)$/m.exec(req.messages[1]?.content ?? '');
  try {
    return m ? JSON.parse(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

// ── design manager ───────────────────────────────────────────────────────────────
const designManager: ScriptPolicy = (req) => {
  if (has(req, 'declare_instance_ready')) return step('declare_instance_ready');
  const r = readToolResult(req.messages[req.messages.length - 1]);
  if (r?.name === 'missing_skills' && typeof r.result === 'string') {
    const plan = JSON.parse(r.result) as { next: string | null; awaitingReview: string[] };
    if (plan.next) return step('run_helper', { skill: plan.next });
    if (plan.awaitingReview.length) return ask('还有想好的内容等你看一看。');
    return ask('还缺一些信息，你希望游戏怎么玩？');
  }
  return step('missing_skills');
};

// ── design helpers ───────────────────────────────────────────────────────────────
const interactionParadigm: ScriptPolicy = (req) => {
  const reason = rejectionReason(req.messages);
  const latest = answers(req).at(-1);
  const said = words(req);
  const asked = latest ?? reason ?? '';
  const named = paradigmIn(asked);
  if (reason && !latest && !named && statedRounds(reason) === undefined) return ask('我会这几种玩法：问答、猜谜语、故事接龙、我说你做。想换成哪一种？也可以说玩几轮。', PARADIGMS.map(([n]) => n));
  if (sameAsRejected(req)) return ask('我没听懂想怎么改玩法。可以选一种玩法，或者说玩几轮。', PARADIGMS.map(([n]) => n));
  const name = named ?? paradigmIn(said) ?? '问答';
  const p = PARADIGMS.find(([n]) => n === name)!;
  const rounds = statedRounds(`${said}；${reason ?? ''}`) ?? DEFAULT_ROUNDS[name];
  return submit({ '设计.交互范式': { 范式: name, 说明: p[2], 轮数: rounds }, '设计.run_skill清单': p[3] });
};

/** The themes offered when a parent named none (the first is taken when they only agree). */
const QUIZ_SUGGESTIONS = ['恐龙', '水果', '动物叫声'];

const theme: ScriptPolicy = (req) => {
  const paradigm = (section(req.messages, '设计.交互范式') as { 范式?: string } | undefined)?.范式 ?? '问答';
  const reason = rejectionReason(req.messages) ?? '';
  const said = words(req);
  const age = statedAge(`${said}；${reason}`);
  const wanted = nameInReason(reason);
  const last = answers(req).at(-1);
  // 「好的，就这样」 to 「想做什么主题？」 takes the first suggestion; it is never a theme itself.
  const agreed = last !== undefined && isAcceptWords(last);
  const phrase = themeInReason(reason) ?? (agreed ? '' : themeFromWords(last ?? '')) ?? '';
  if (reason && !wanted && !phrase && !answers(req).length) return ask('想换个什么名字，或者换个什么主题？');
  // Whatever the parent answered to "什么主题" is the theme: asking again would loop.
  let 主题 = phrase || themeFromWords(said) || (agreed ? (paradigm === '问答' ? QUIZ_SUGGESTIONS[0] : '') : (last?.trim() ?? ''));
  let 标题: string;
  let 别名: string[];
  if (paradigm === '猜谜语') [主题, 标题, 别名] = [主题 || '谜语', '猜谜语', ['谜语游戏', '猜谜']];
  else if (paradigm === '故事接龙') {
    主题 = 主题 || '森林里的小动物';
    [标题, 别名] = [DEMO_STORIES[主题]?.title ?? `${主题}故事接龙`, ['讲故事', '故事接龙']];
  } else if (paradigm === '我说你做') [主题, 标题, 别名] = [主题 || '动一动', '我说你做', ['做动作', '动一动']];
  else {
    if (!主题) return ask('想做什么主题的问答呢？随便说一个就行。', QUIZ_SUGGESTIONS);
    const d = DEMO_THEMES[demoDeckFor(主题) ?? ''];
    [标题, 别名] = [d?.title ?? `${主题}问答`, d?.aliases ?? [`${主题}游戏`]];
  }
  if (wanted) 标题 = wanted;
  // The arcade already has this name: take the free one the runtime suggested.
  const free = /比如「(.+?)」/.exec(refusal(req) ?? '')?.[1];
  if (free) 标题 = free;
  if (sameAsRejected(req)) return ask('想换个什么名字，或者换个什么主题？');
  return submit({ '设计.主题': { 主题, 标题, 别名, 年龄: age ? `${age}岁` : '4-8岁' } });
};

const cardDeck: ScriptPolicy = (req) => {
  const th = section(req.messages, '设计.主题') as { 主题?: string } | undefined;
  const paradigm = (section(req.messages, '设计.交互范式') as { 范式?: string } | undefined)?.范式;
  const reason = rejectionReason(req.messages) ?? '';
  const answer = answers(req).at(-1) ?? '';
  const wantedTheme = themeInReason(reason) ?? (answer ? (themeInReason(answer) ?? themeFromWords(answer)) : undefined);
  const topic = wantedTheme || (paradigm === '猜谜语' ? '谜语' : th?.主题);
  const key = demoDeckFor(topic) ?? (paradigm === '猜谜语' && !wantedTheme ? '谜语' : undefined);
  if (!key) return ask(`我还不会自己出「${topic ?? '这个主题'}」的题，你来写几张吧？`);
  const difficulty = statedDifficulty(reason) ?? statedDifficulty(words(req));
  const another = /换一批|换别的|换些|不一样|换一下/.test(reason);
  if (reason && !statedDifficulty(reason) && !another && !wantedTheme) return ask(`我不知道怎么按「${reason}」改卡片。可以说「简单一点」「换一批」「换成水果的题」，也可以点「改一改」自己改卡片。`);
  if (sameAsRejected(req)) return ask('这已经是我能出的了。你可以点「改一改」自己改卡片，或者换个主题。');
  const d = DEMO_THEMES[key];
  let rows = d.rows;
  // Asked for easier cards: keep only the easy and medium ones, with plainer hints; harder: the others.
  if (difficulty === 'easy') rows = rows.filter((r) => r[4] <= 2);
  if (difficulty === 'hard') rows = rows.filter((r) => r[4] >= 2);
  if (another) {
    // Another batch: start two cards after the one the rejected deck started with.
    const was = (rejectedDraft(req) as Array<{ answer?: string }> | undefined)?.[0]?.answer;
    rows = rotate(rows, Math.max(0, rows.findIndex((r) => r[0] === was)) + 2);
  }
  const cards = rows.map(([answer, aliases, prompt, hints, level, drawing], i) => ({
    id: `c${i + 1}`,
    prompt,
    answer,
    aliases,
    hints: difficulty === 'easy' ? [...hints, `它的名字有 ${Array.from(answer).length} 个字`] : hints,
    difficulty: difficulty === 'easy' ? 1 : level,
    ...(drawing ? { drawing } : {}),
  }));
  return submit({ '设计.卡牌': cards });
};

const storySetup: ScriptPolicy = (req) => {
  const th = section(req.messages, '设计.主题') as { 主题?: string } | undefined;
  const reason = rejectionReason(req.messages) ?? '';
  const topic = themeInReason(reason) ?? th?.主题 ?? '森林里的小动物';
  const last = answers(req).at(-1);
  // The parent's own first sentence: stated with the request (「开头是：…」), in the reason, or as the answer to 「怎么开头？」.
  const answered = last && !isAcceptWords(last) && !/^(换|换一个|换一下|别的)/.test(last.trim()) ? (statedOpening(last) ?? last.trim()) : undefined;
  const own = answered ?? statedOpening(reason) ?? (reason ? undefined : statedOpening(words(req)));
  const another = /换|别的|不一样|不喜欢/.test(`${reason}${last ?? ''}`);
  const s = DEMO_STORIES[topic];
  const 结尾 = s?.ending ?? '大家开开心心地回家了';
  if (own) return submit({ '设计.故事': { 开头: /[。！？!?]$/.test(own) ? own : `${own}。`, 结尾 } });
  if (reason && !another && !themeInReason(reason)) return ask('想让故事怎么开头？可以直接说第一句，或者说换一个。');
  const openings = s?.openings ?? [`从前，${topic}出发去冒险啦。`, `有一天，${topic}遇到了一件有趣的事。`];
  const was = openings.indexOf(String((rejectedDraft(req) as { 开头?: string } | undefined)?.开头 ?? ''));
  const 开头 = openings[another ? (was + 1) % openings.length : 0];
  return submit({ '设计.故事': { 开头, 结尾 } });
};

const actionList: ScriptPolicy = (req) => {
  const said = words(req);
  const reason = rejectionReason(req.messages) ?? '';
  const all = `${said}；${reason}`;
  const rounds = (section(req.messages, '设计.交互范式') as { 轮数?: number } | undefined)?.轮数 ?? 5;
  const difficulty = statedDifficulty(reason) ?? statedDifficulty(said);
  const noTrick = /不要(小)?陷阱|没有陷阱|别(有)?陷阱/.test(all);
  const another = /换|别的|不一样/.test(reason);
  if (reason && !statedDifficulty(reason) && !another && !noTrick && !/陷阱/.test(reason)) return ask('想怎么改动作？可以说「简单一点」「换几个」「不要陷阱」。');
  const age = statedAge(all);
  const trick = !noTrick && difficulty !== 'easy' && (difficulty === 'hard' || /陷阱/.test(all) || (age ?? 0) >= 6);
  let pool = difficulty === 'easy' ? DEMO_ACTIONS.filter((a) => a.easy) : DEMO_ACTIONS;
  if (another) pool = rotate(pool, 3);
  const 动作 = pool.slice(0, Math.max(3, Math.min(pool.length, Math.max(rounds, 5)))).map(({ 说法, 表情, 头 }) => ({ 说法, 表情, 头 }));
  return submit({ '设计.动作': { 动作, 陷阱: trick } });
};

const persona: ScriptPolicy = (req) => {
  const th = section(req.messages, '设计.主题') as { 主题?: string; 标题?: string } | undefined;
  const paradigm = (section(req.messages, '设计.交互范式') as { 范式?: string } | undefined)?.范式 ?? '问答';
  const reason = rejectionReason(req.messages) ?? '';
  const wantedName = /(?:叫|名字叫|换成)「?([^「」，。！]{2,6}?)」?(?:吧|好|，|。|$)/.exec(reason)?.[1];
  const style = /(温柔|活泼|可爱|搞笑|安静|热情)/.exec(reason)?.[1];
  if (reason && !wantedName && !style) return ask('想让主持人叫什么名字，或者用什么样子说话？');
  const d = DEMO_THEMES[demoDeckFor(th?.主题) ?? ''];
  const byParadigm: Record<string, [string, string]> = {
    问答: [d?.persona ?? '小问号', '我出题，你来猜，猜不出我会给提示哦。'],
    猜谜语: ['谜语精灵', '我说谜语，你来猜谜底，猜不出我给提示。'],
    故事接龙: ['故事姐姐', '我们一起讲故事，我说一句，你接一句。'],
    我说你做: ['动动教练', '听我说，跟着我做，我没说「我说」可别动哦。'],
  };
  const [defaultName, how] = byParadigm[paradigm] ?? byParadigm.问答;
  const name = wantedName ?? defaultName;
  return submit({
    '设计.角色': {
      名字: name,
      风格: style ?? d?.style ?? '亲切',
      开场白: `你好，我是${name}！${how}`,
      鼓励语: ['太棒了！', '你真厉害！'],
      安慰语: ['没关系，', '差一点点，'],
      结束语: `今天的${th?.标题 ?? '游戏'}就到这里，下次再来玩！`,
    },
  });
};

// ── play manager: the package's reader (skills/quiz-cards/reader.ts), then a fixed reply ──
// The rules brain's play manager is the reader the runtime pre-executes: one implementation.
const playManager: ScriptPolicy = (req) => reader(req) ?? step('reply', { text: has(req, 'run_helper') && /story-open/.test(JSON.stringify(req.tools)) ? '我们接着讲吧！' : '我们继续吧！' });

export const managerPolicy: ScriptPolicy = (req) => (has(req, 'reply') ? playManager(req) : designManager(req));

// ── play helpers of 故事接龙 ─────────────────────────────────────────────────────────
const SCARY = /怪兽|怪物|吃掉|打架|打死|死了|血|鬼|坏人|可怕|吓人|妖怪/;

const storyContinue: ScriptPolicy = (req) => {
  const story = section(req.messages, '运行.故事') as { 轮?: number } | undefined;
  const child = String(section(req.messages, '运行.玩家输入') ?? '');
  const next = SCARY.test(child) ? STORY_SOOTHE : STORY_CONTINUATIONS[(story?.轮 ?? 0) % STORY_CONTINUATIONS.length];
  return submit({ '运行.机器人句': next });
};

const storyEnd: ScriptPolicy = (req) => {
  const story = section(req.messages, '运行.故事') as { 句子?: Array<{ 谁: string; 句: string }> } | undefined;
  const setup = section(req.messages, '设计.故事') as { 开头?: string; 结尾?: string } | undefined;
  const child = String(section(req.messages, '运行.玩家输入') ?? '');
  const lines = story?.句子 ?? [];
  // The child's lines (the gentle ones): the first two and the last, shortened.
  const said = [...lines.filter((l) => l.谁 === '孩子').map((l) => l.句), ...(child && !QUIT.test(child) ? [child] : [])].filter((l) => !SCARY.test(l));
  const kid = (said.length > 3 ? [...said.slice(0, 2), said.at(-1)!] : said).map((l) => Array.from(l.replace(/[。！？!?，,]+$/, '')).slice(0, 14).join(''));
  const start = (setup?.开头 ?? lines[0]?.句 ?? '从前').replace(/[。！？]+$/, '');
  const ending = setup?.结尾 ?? '大家开开心心地回家了';
  const retell = `${start}，${kid.length ? `后来${kid.join('，')}，` : ''}最后${ending}。`;
  return submit({ '运行.复述': { 结尾: `${ending}。`, 复述: Array.from(retell).slice(0, 80).join('') } });
};

/** Policies keyed by agent name, for `createScriptedModel` (src/llm/scripted.ts). */
export const studioDemoPolicies: Record<string, ScriptPolicy> = {
  [MANAGER_AGENT]: managerPolicy,
  [helperAgent('interaction-paradigm')]: interactionParadigm,
  [helperAgent('theme')]: theme,
  [helperAgent('card-deck')]: cardDeck,
  [helperAgent('story-setup')]: storySetup,
  [helperAgent('action-list')]: actionList,
  [helperAgent('persona')]: persona,
  [helperAgent('story-continue')]: storyContinue,
  [helperAgent('story-end')]: storyEnd,
};
