/**
 * Content for the demo brain "演示脚本，无模型" and the e2e: what a helper model would write for a
 * few themes of each shape of play — quiz decks (恐龙, 水果, 交通工具, 动物 with the robot's
 * drawings, 谜语), story openings and gentle continuations, and actions the robot can show.
 * Each card: [answer, aliases, prompt, hints, difficulty, drawing?].
 */
type Row = [string, string[], string, string[], 1 | 2 | 3, string?];

interface DemoDeck {
  title: string;
  aliases: string[];
  /** Other words a parent uses for this theme (「小动物」 for 动物). */
  words: string[];
  persona: string;
  style: string;
  rows: Row[];
}

export const DEMO_THEMES: Record<string, DemoDeck> = {
  恐龙: {
    title: '恐龙问答',
    aliases: ['恐龙游戏', '猜恐龙', '恐龙卡牌'],
    words: [],
    persona: '小龙博士',
    style: '像博物馆讲解员一样热情',
    rows: [
      ['霸王龙', ['暴龙', '君王暴龙'], '我是最有名的大恐龙，牙齿像香蕉那么大，两只小手短短的。我是谁？', ['我只吃肉', '名字里有一个「王」字'], 1],
      ['三角龙', ['三角恐龙'], '我的头上有三只角，脖子后面有一块大大的骨盾。我是谁？', ['数一数我的角', '名字里有数字'], 1],
      ['剑龙', ['剑背龙'], '我的背上有两排像大叶子一样的骨板，尾巴上有尖刺。我是谁？', ['骨板像一把把宝剑', '名字只有两个字'], 2],
      ['翼龙', ['翼手龙'], '我不是鸟，却能在天上飞，翅膀是皮膜做的。我是谁？', ['我有一对大翅膀', '名字里有「翅膀」的意思'], 2],
      ['梁龙', ['长颈龙'], '我的脖子和尾巴都特别特别长，身体像一座桥。我是谁？', ['我吃树上的叶子', '名字和房子的「房梁」一样'], 2],
      ['甲龙', ['坦克龙'], '我全身披着硬硬的盔甲，尾巴像一把大锤子。我是谁？', ['我像一辆坦克', '盔甲的「甲」'], 3],
      ['迅猛龙', ['伶盗龙', '速龙'], '我个子不大，跑得飞快，脚上有一只弯弯的大爪子。我是谁？', ['我跑得非常快', '名字里有「快」的意思'], 3],
    ],
  },
  水果: {
    title: '水果问答',
    aliases: ['水果游戏', '猜水果'],
    words: [],
    persona: '果果老师',
    style: '温柔又爱笑',
    rows: [
      ['香蕉', ['芭蕉'], '我是弯弯的，穿着黄衣服，猴子最爱吃我。我是谁？', ['剥开皮才能吃', '像一个月亮'], 1],
      ['苹果', [], '我圆圆的，红红的，一天吃一个身体好。我是谁？', ['我长在树上', '牛顿被我砸过脑袋'], 1],
      ['西瓜', [], '我外面绿、里面红，夏天吃我最解渴。我是谁？', ['我很大很重', '我身上有黑色的籽'], 1],
      ['葡萄', ['提子'], '我一串一串挂在藤上，紫色的，一颗一颗。我是谁？', ['可以做成果汁', '名字两个字'], 2],
      ['菠萝', ['凤梨'], '我身上有很多小刺，头上顶着一撮绿叶子。我是谁？', ['吃之前要泡盐水', '我很香很甜'], 2],
    ],
  },
  交通工具: {
    title: '交通工具问答',
    aliases: ['交通工具游戏', '猜车'],
    words: ['车', '汽车', '交通'],
    persona: '嘟嘟司机',
    style: '精神抖擞',
    rows: [
      ['公交车', ['公共汽车', '巴士'], '我很长，有很多座位，在站台停下来让大家上车。我是谁？', ['坐我要刷卡', '我有固定的路线'], 1],
      ['飞机', [], '我有一对大翅膀，能带着很多人飞上天。我是谁？', ['我在机场起飞', '我会飞'], 1],
      ['火车', ['高铁', '动车'], '我在铁轨上跑，一节一节连起来很长很长。我是谁？', ['我要在车站上车', '我以前会冒烟'], 1],
      ['轮船', ['船', '大船'], '我在水上走，不会沉下去。我是谁？', ['我停在码头', '我有船锚'], 2],
      ['消防车', ['救火车'], '我是红色的，有长长的梯子和水管，哪里着火我就去。我是谁？', ['我会鸣笛', '消防员叔叔开我'], 2],
    ],
  },
  // Picture cards: the robot draws each animal (skills/draw-guess/animals.json) while the child guesses.
  动物: {
    title: '猜动物',
    aliases: ['动物游戏', '看图猜动物'],
    words: ['小动物', '看图', '画画'],
    persona: '画画熊',
    style: '慢慢地、很耐心',
    rows: [
      ['猫', ['猫咪', '小猫'], '看我画的小动物，它的胡子长长的。它是谁？', ['它会喵喵叫', '它喜欢抓老鼠'], 1, 'animal-cat'],
      ['狗', ['小狗', '狗狗'], '看我画的小动物，它会帮人看家。它是谁？', ['它会汪汪叫', '它见到主人会摇尾巴'], 1, 'animal-dog'],
      ['兔子', ['小兔子', '小白兔', '兔'], '看我画的小动物，耳朵长长的。它是谁？', ['它爱吃胡萝卜', '它跳着走路'], 1, 'animal-rabbit'],
      ['大象', ['象'], '看我画的动物，它的鼻子特别长。它是谁？', ['它的耳朵像大扇子', '它个子非常大'], 2, 'animal-elephant'],
      ['长颈鹿', [], '看我画的动物，它的脖子特别长。它是谁？', ['它能吃到高高的树叶', '它身上有花斑点'], 2, 'animal-giraffe'],
      ['熊猫', ['大熊猫'], '看我画的动物，它最爱吃竹子。它是谁？', ['它有黑眼圈', '它是黑白两种颜色的'], 2, 'animal-panda'],
    ],
  },
  谜语: {
    title: '猜谜语',
    aliases: ['谜语游戏', '猜谜'],
    words: ['猜谜', '猜谜语'],
    persona: '谜语精灵',
    style: '神神秘秘、很爱笑',
    rows: [
      ['西瓜', ['大西瓜'], '谜语来啦：身穿绿衣裳，肚里水汪汪，生的子儿多，个个黑脸膛。打一水果。', ['夏天吃它最解渴', '切开是红色的'], 1],
      ['兔子', ['小兔子', '小白兔', '白兔'], '谜语来啦：耳朵长，尾巴短，红眼睛，白毛衫，爱吃萝卜和青菜。打一动物。', ['它跳着走路', '它爱吃胡萝卜'], 1],
      ['香蕉', ['芭蕉'], '谜语来啦：弯弯像月亮，穿着黄衣裳，剥开白又软，猴子最爱尝。打一水果。', ['它是黄色的', '猴子最爱吃它'], 1],
      ['眼睛', ['眼', '眼珠'], '谜语来啦：上边毛，下边毛，中间一颗黑葡萄。打一身体部位。', ['它长在脸上', '你用它看东西'], 2],
      ['雨', ['下雨', '雨水', '雨点'], '谜语来啦：千条线，万条线，掉到水里看不见。打一天气。', ['它从天上掉下来', '打伞就是为了它'], 2],
      ['桌子', ['饭桌', '书桌'], '谜语来啦：有面没有口，有脚没有手，虽有四只脚，自己不会走。打一家具。', ['吃饭写字都用它', '它有四条腿'], 2],
      ['月亮', ['月球'], '谜语来啦：有时挂在山腰，有时落在树梢，有时像个圆盘，有时像把镰刀。打一天上的东西。', ['晚上才看得见', '中秋节它最圆'], 3],
    ],
  },
};

const DEMO_THEME_NAMES = Object.keys(DEMO_THEMES);

/** The demo deck for a theme the parent named, when there is one (「动物叫声」 has none). */
export function demoDeckFor(theme: string | undefined): string | undefined {
  const t = (theme ?? '').trim();
  if (!t) return undefined;
  return DEMO_THEME_NAMES.find((k) => k === t || DEMO_THEMES[k].words.includes(t) || DEMO_THEMES[k].title === t) ?? (/^(.{0,2})(车|船|飞机)(.{0,2})$/.test(t) ? '交通工具' : undefined);
}

export interface DemoStory {
  title: string;
  /** Openings: the first, then another one for a redo. */
  openings: string[];
  ending: string;
}

export const DEMO_STORIES: Record<string, DemoStory> = {
  森林里的小动物: {
    title: '森林故事接龙',
    openings: ['从前，森林里住着一只爱唱歌的小兔子。', '一天早上，小松鼠在森林里捡到了一颗亮晶晶的果子。'],
    ending: '天黑了，大家开开心心地回家睡觉了',
  },
  太空: {
    title: '太空故事接龙',
    openings: ['有一天，一只小狗坐上了飞向月亮的小火箭。', '夜里，一颗小星星悄悄地落到了小朋友的窗台上。'],
    ending: '大家平平安安地回到了家，抬头还能看见星星在眨眼',
  },
  海底: {
    title: '海底故事接龙',
    openings: ['在蓝蓝的大海里，住着一条好奇的小鱼。', '海底的珊瑚城里，小海马要过生日啦。'],
    ending: '小鱼和朋友们手拉手，在海草里睡着了',
  },
};

/** Gentle next sentences for 故事接龙, one per turn. */
export const STORY_CONTINUATIONS = [
  '这时候，天上飘来一朵软软的白云，好像在跟大家打招呼。',
  '大家一起唱着歌，走过了一座小木桥。',
  '忽然，草丛里跳出一只小青蛙，说要和大家做朋友。',
  '太阳公公笑眯眯地看着它们，暖洋洋的。',
  '路边的花儿也点点头，为它们加油。',
  '它们找到了一棵结满果子的大树，分给每个朋友一颗。',
];

/** What the robot says when the child's sentence turned scary: the story is brought back, gently. */
export const STORY_SOOTHE = '别怕，原来那是一只迷路的小熊，它只是想找妈妈。大家一起帮它找到了妈妈。';

/** Actions for 我说你做, with how the robot shows each (face, head); `easy` ones suit the youngest. */
export const DEMO_ACTIONS: Array<{ 说法: string; 表情: string; 头: string; easy: boolean }> = [
  { 说法: '摸摸鼻子', 表情: 'happy', 头: 'none', easy: true },
  { 说法: '点点头', 表情: 'happy', 头: 'nod', easy: true },
  { 说法: '拍拍手', 表情: 'happy', 头: 'none', easy: true },
  { 说法: '摇摇头', 表情: 'surprised', 头: 'shake', easy: true },
  { 说法: '笑一笑', 表情: 'happy', 头: 'none', easy: true },
  { 说法: '跳一跳', 表情: 'happy', 头: 'nod', easy: false },
  { 说法: '伸个懒腰', 表情: 'sleepy', 头: 'none', easy: false },
  { 说法: '眨眨眼睛', 表情: 'surprised', 头: 'none', easy: false },
  { 说法: '摸摸耳朵', 表情: 'thinking', 头: 'none', easy: false },
];
