/**
 * Scripted policies for the Studio (demo mode "演示脚本，无模型", unit tests and e2e): the manager
 * and one policy per model worker of 问答卡牌 (its run skills are code). Each is a small deterministic function of the request —
 * it reads only what a model would see (its messages and the tools offered), never the runtime.
 */
import { readToolResult, toolResultsIn } from '../core/agent/messages.ts';
import type { ChatMessage, ScriptPolicy, Step, StepRequest } from '../core/llm/types.ts';
import { DEMO_THEME_NAMES, DEMO_THEMES } from './demo-decks.ts';
import { MANAGER_AGENT, workerAgent } from '../core/studio/manager-tools.ts';

const step = (action: string, args: Record<string, unknown> = {}): Step => ({ action, args });
const has = (req: StepRequest, tool: string) => req.tools.some((t) => t.name === tool);

/** A section `## <tag>` of a worker's dynamic lower half, parsed as JSON (undefined when absent). */
function section(messages: ChatMessage[], tag: string): unknown {
  const lower = messages.find((m, i) => i > 0 && m.role === 'user')?.content ?? '';
  const m = new RegExp(`## ${tag.replace('.', '\\.')}\\n([\\s\\S]*?)(?=\\n\\n## |$)`).exec(lower);
  if (!m || m[1].startsWith('（还没有）')) return undefined;
  try {
    return JSON.parse(m[1]);
  } catch {
    return m[1];
  }
}

function rejectionReason(messages: ChatMessage[]): string | null {
  const m = /被家长驳回\n理由：(.*)/.exec(messages[1]?.content ?? '');
  return m ? m[1] : null;
}

function themeIn(text: string): string | undefined {
  return DEMO_THEME_NAMES.find((t) => text.includes(t)) ?? (/(车|船|飞机)/.test(text) ? '交通工具' : undefined);
}

// ── design manager ───────────────────────────────────────────────────────────────
const designManager: ScriptPolicy = (req) => {
  if (has(req, 'declare_instance_ready')) return step('declare_instance_ready');
  const r = readToolResult(req.messages[req.messages.length - 1]);
  if (r?.name === 'missing_skills' && typeof r.result === 'string') {
    const plan = JSON.parse(r.result) as { next: string | null; awaitingReview: string[] };
    if (plan.next) return step('run_worker', { skill: plan.next });
    if (plan.awaitingReview.length) return step('ask_user', { question: `还有草稿等你验收：${plan.awaitingReview.join('、')}。` });
    return step('ask_user', { question: '还缺一些信息，你希望游戏怎么玩？' });
  }
  return step('missing_skills');
};

// ── play manager: one decision per step; the run skills are code ───────────────────
// An answer takes two steps: judge-answer (scored in the same call), then present-card /
// give-hint / wrap-up, whose 运行.回复 the runtime says. A start or an end takes one.
interface PlayResult { skill: string; values: Record<string, unknown> }
function playResults(messages: ChatMessage[]): { child: string; results: PlayResult[]; started: boolean } {
  let child = '';
  let results: PlayResult[] = [];
  let started = false;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    // A message may carry the last burst's result first, then the child's next words.
    for (const r of toolResultsIn(m)) {
      if (r.name !== 'run_worker' || typeof r.result !== 'string') continue;
      for (const line of r.result.split('\n')) {
        const x = /^(\S+) 已更新：(.*)$/.exec(line);
        if (!x) continue;
        results.push({ skill: x[1], values: JSON.parse(x[2]) as Record<string, unknown> });
        if (x[1] === 'present-card') started = true;
      }
    }
    const words = /(?:^|\n)\[孩子\] ([\s\S]*)$/.exec(m.content);
    if (words) {
      child = words[1];
      results = [];
    }
  }
  return { child, results, started };
}

const playManager: ScriptPolicy = (req) => {
  const { child, results, started } = playResults(req.messages);
  const verdict = results.find((r) => r.skill === 'judge-answer')?.values['运行.判定'] as { 结果?: string; 答案?: string } | undefined;
  const score = results.find((r) => r.skill === 'keep-score')?.values['运行.得分'] as { 结束?: boolean } | undefined;
  if (results.length === 0) {
    if (!started) return step('run_worker', { skill: 'present-card' });
    if (/不玩|结束|再见/.test(child)) return step('run_worker', { skill: 'wrap-up' });
    return step('run_worker', { skill: 'judge-answer' });
  }
  if (verdict) {
    if (verdict.结果 === '对' || verdict.答案) return step('run_worker', { skill: score?.结束 ? 'wrap-up' : 'present-card' });
    return step('run_worker', { skill: 'give-hint' });
  }
  return step('reply', { text: '我们继续吧！' });
};

const managerPolicy: ScriptPolicy = (req) => (has(req, 'reply') ? playManager(req) : designManager(req));

// ── design workers ───────────────────────────────────────────────────────────────
const words = (req: StepRequest) => {
  const said = section(req.messages, '设计.家长要求');
  const answers = req.messages.flatMap((m) =>
    toolResultsIn(m).flatMap((r) => {
      const answer = r.name === 'ask_user' ? (r.result as { answer?: unknown } | undefined)?.answer : undefined;
      return typeof answer === 'string' ? [answer] : [];
    }),
  );
  return [...(Array.isArray(said) ? said.map(String) : []), ...answers].join('；');
};

const interactionParadigm: ScriptPolicy = () =>
  step('submit', {
    values: {
      '设计.交互范式': { 名称: '卡牌问答', 流程: ['出卡', '孩子说答案', '判定', '答错给提示再猜', '计分', '下一张'], 作答方式: '孩子直接说出答案' },
      '设计.run_skill清单': ['present-card', 'judge-answer', 'give-hint', 'keep-score', 'wrap-up'],
    },
  });

const theme: ScriptPolicy = (req) => {
  const t = themeIn(words(req));
  if (!t) return step('ask_user', { question: '想做什么主题的问答呢？', options: ['恐龙', '水果', '交通工具'] });
  const d = DEMO_THEMES[t];
  const age = /(\d+)\s*岁/.exec(words(req));
  return step('submit', { values: { '设计.主题': { 主题: t, 标题: d.title, 别名: d.aliases, 年龄: age ? `${age[1]}岁` : '4-8岁' } } });
};

const cardDeck: ScriptPolicy = (req) => {
  const th = section(req.messages, '设计.主题') as { 主题?: string } | undefined;
  const d = DEMO_THEMES[th?.主题 ?? ''] ?? DEMO_THEMES['恐龙'];
  const reason = rejectionReason(req.messages);
  // Asked for easier cards: keep only the easy and medium ones, with plainer hints.
  const easier = reason !== null && /难|简单|容易/.test(reason);
  const rows = easier ? d.rows.filter((r) => r[4] <= 2) : d.rows;
  const cards = rows.map(([answer, aliases, prompt, hints, difficulty, picture], i) => ({
    id: `c${i + 1}`,
    kind: picture && i % 2 === 1 ? 'picture' : 'question',
    prompt,
    ...(picture && i % 2 === 1 ? { picture } : {}),
    answer,
    aliases,
    hints: easier ? [...hints, `它的名字有 ${Array.from(answer).length} 个字`] : hints,
    difficulty: easier ? 1 : difficulty,
  }));
  return step('submit', { values: { '设计.卡牌': cards } });
};

const rules: ScriptPolicy = (req) => {
  const deck = section(req.messages, '设计.卡牌');
  const n = typeof deck === 'string' ? Number(/共 (\d+) 项/.exec(deck)?.[1] ?? 5) : Array.isArray(deck) ? deck.length : 5;
  return step('submit', { values: { '设计.规则': { 轮数: Math.min(5, n), 答对得分: 2, 提示后答对得分: 1, 每张最多提示: 2, 每张最多猜: 3 } } });
};

const persona: ScriptPolicy = (req) => {
  const th = section(req.messages, '设计.主题') as { 主题?: string; 标题?: string } | undefined;
  const d = DEMO_THEMES[th?.主题 ?? ''];
  const name = d?.persona ?? '小问号';
  return step('submit', {
    values: {
      '设计.角色': {
        名字: name,
        风格: d?.style ?? '亲切',
        开场白: `你好，我是${name}！我出题，你来猜，猜不出我会给提示哦。`,
        鼓励语: ['太棒了！', '你真厉害！'],
        安慰语: ['没关系，', '差一点点，'],
        结束语: `今天的${th?.标题 ?? '问答'}就到这里，下次再来玩！`,
      },
    },
  });
};

/** Policies keyed by agent name, for `createScriptedModel` (src/llm/scripted.ts). */
export const studioDemoPolicies: Record<string, ScriptPolicy> = {
  [MANAGER_AGENT]: managerPolicy,
  [workerAgent('interaction-paradigm')]: interactionParadigm,
  [workerAgent('theme')]: theme,
  [workerAgent('card-deck')]: cardDeck,
  [workerAgent('rules')]: rules,
  [workerAgent('persona')]: persona,
};
