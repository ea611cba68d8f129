/**
 * The words around a name that change what it means: negation (不是猫), correction (猫，不对，狗),
 * hedging between names (猫还是狗), listing (猫和狗), questions and rhetorical questions.
 * Generic Chinese and English; nothing here knows the cards.
 */
type CueKind =
  /** 不是 X: X is ruled out (scope runs to the next 是/boundary/correction). */
  | 'negate'
  /** 是不是 X / 难道: a question that still proposes X; also ends a negation scope. */
  | 'affirm'
  /** 是 / 就是 / 我猜: states an answer; ends a negation scope. */
  | 'assert'
  /** 不对 / 哦不 / 不是不是 / no wait: everything proposed before is withdrawn. */
  | 'correct'
  /** 还是 / 或者 / or: undecided between names. */
  | 'hedge'
  /** 和 / 还有 / and: several names listed. */
  | 'list'
  /** 难道: the following 不是 is rhetorical. */
  | 'rhetorical'
  /** 吗 at a clause end: makes a preceding 不是 X rhetorical (不是猫吗 = it's a cat, isn't it). */
  | 'question';

export interface Cue {
  kind: CueKind;
  word: string;
}

const TABLE: Array<[CueKind, string[]]> = [
  ['correct', ['不是不是', '不对不对', '不对', '哦不', '噢不', '啊不', '不不', '错了', '说错了', '我改', '改成', '换成', '重新说', '我是说', '应该说', 'no wait', 'wait', 'actually', 'i mean', 'sorry', 'no']],
  ['affirm', ['是不是', '是否', '对不对', '难道不是', 'is it', 'isn\'t it']],
  ['rhetorical', ['难道']],
  ['negate', ['并不是', '才不是', '不会是', '不可能是', '不可能', '肯定不是', '一定不是', '应该不是', '不像是', '不像', '不是', '没有', '不要', '别说', 'not', 'isn\'t', 'isnt', 'aren\'t', 'never']],
  ['hedge', ['还是', '或者', '或是', '或', '要么', '也可能', '又像', '也像', '分不清', 'or', 'maybe', 'either']],
  ['list', ['还有', '以及', '和', '跟', '与', '加上', 'and']],
  ['assert', ['而是', '就是', '应该是', '肯定是', '一定是', '其实是', '可能是', '我猜', '我觉得', '我看', '是', '像', 'it\'s', 'its', 'it is', 'is', 'guess']],
  ['question', ['吗']],
];

/** All cues, longest first so "不是不是" wins over "不是" and "是不是" over "是". */
export const CUES: readonly Cue[] = TABLE.flatMap(([kind, words]) => words.map((word) => ({ kind, word }))).sort(
  (a, b) => b.word.length - a.word.length,
);

/** Sentence-final particles that may follow 吗/吧 without changing the clause. */
export const PARTICLES = new Set(['呀', '啊', '呢', '吧', '哦', '嘛', '啦', '哈', ' ', '?']);

/**
 * Characters too common to stand for a name on sound alone: a homophone window made only of
 * sound-alikes may not contain one (是只 is not 狮子, 个子 is not 鸽子, 和吗 is not 河马).
 */
export const FUNCTION_CHARS = new Set([
  ...'的了是不在有我你他她它们这那个一只吗吧呢啊呀嘛哦就也都还要会能说想看猜得着过和跟与或及很太好么什怎啦哈喔噢',
]);

/**
 * Affix characters that do not anchor a sound-alike match on their own (子 in 个子, 老 in 老师,
 * 小 and 大 before anything).
 */
export const AFFIX_CHARS = new Set([...'子儿头小大老阿']);
