/**
 * 猜动物叫声: the reference remote game's rules. Plain TypeScript with no I/O: the server
 * (./server.ts) calls `play` once per request of a session, in arrival order. Like the rest of this
 * folder it imports nothing from the app, so the folder can be copied and run on its own.
 */

export interface Animal {
  name: string;
  /** Words a child may use for it. */
  names: string[];
  sound: string;
  hint: string;
}

export const ANIMALS: readonly Animal[] = [
  { name: '小狗', names: ['狗', '小狗', '狗狗', '汪星人'], sound: '汪汪汪！', hint: '它会看家，见到主人会摇尾巴。' },
  { name: '小猫', names: ['猫', '小猫', '猫咪', '喵星人'], sound: '喵——喵——', hint: '它喜欢抓老鼠，爱晒太阳。' },
  { name: '小鸭子', names: ['鸭', '鸭子', '小鸭', '小鸭子'], sound: '嘎嘎嘎！', hint: '它会游泳，走路一摇一摆。' },
  { name: '奶牛', names: ['牛', '奶牛', '小牛', '牛牛'], sound: '哞——', hint: '它在草地上吃草，能挤出牛奶。' },
  { name: '小羊', names: ['羊', '小羊', '绵羊', '山羊', '羊羊'], sound: '咩——咩——', hint: '它身上的毛可以做成毛衣。' },
  { name: '公鸡', names: ['鸡', '公鸡', '大公鸡', '小鸡'], sound: '喔喔喔——', hint: '它早上叫大家起床。' },
  { name: '青蛙', names: ['青蛙', '蛤蟆', '小青蛙'], sound: '呱呱呱！', hint: '它住在池塘边，会捉害虫。' },
  { name: '小猪', names: ['猪', '小猪', '猪猪'], sound: '哼哼哼～', hint: '它鼻子圆圆的，爱在泥里打滚。' },
];

export const QUESTIONS_PER_GAME = 3;
export const TRIES_PER_QUESTION = 2;

export type GameKind = 'start' | 'message' | 'end';

/** One request as the game sees it. */
export interface Turn {
  kind: GameKind;
  text: string;
  /** Sends a sentence at once (an intermediate reply). */
  say(text: string): void;
}

export interface TurnResult {
  text: string;
  /** The game is over after this reply. */
  ended: boolean;
}

/** A small seeded random source (mulberry32), so a test can pin the question order. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One session of the game (one A2A context). */
export class AnimalSounds {
  private readonly order: Animal[];
  private index = 0;
  private tries = 0;
  private score = 0;
  private over = false;

  constructor(random: () => number) {
    const pool = [...ANIMALS];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    this.order = pool.slice(0, QUESTIONS_PER_GAME);
  }

  get current(): Animal {
    return this.order[this.index];
  }

  play(turn: Turn): TurnResult {
    if (turn.kind === 'start') return { text: `我们来玩猜动物叫声！一共${QUESTIONS_PER_GAME}题。${this.ask()}`, ended: false };
    if (turn.kind === 'end' || this.over) return this.finish(`好的，不玩啦。这一局你答对了${this.score}题，真棒！`);
    const words = turn.text.replace(/[\s，。！？、,.!?]/g, '');
    if (/提示/.test(words)) return { text: `给你一个提示：${this.current.hint}`, ended: false };
    if (/再叫|再学|没听清|再来一次/.test(words)) return { text: `再听一次：${this.current.sound}`, ended: false };
    const guessed = ANIMALS.find((a) => a.names.some((n) => words.includes(n)));
    if (!guessed) return { text: `你觉得是什么动物呀？${this.current.sound}`, ended: false };
    if (guessed === this.current) {
      this.score++;
      turn.say(`答对啦！就是${this.current.name}。`);
      return this.next();
    }
    this.tries++;
    if (this.tries < TRIES_PER_QUESTION) return { text: `不是${guessed.name}哦，再听一次：${this.current.sound}`, ended: false };
    turn.say(`没关系，是${this.current.name}在叫。`);
    return this.next();
  }

  private ask(): string {
    return `第${this.index + 1}题，听好啦：${this.current.sound}这是什么动物在叫？`;
  }

  private next(): TurnResult {
    this.index++;
    this.tries = 0;
    if (this.index >= this.order.length) return this.finish(`三题都做完啦！你答对了${this.score}题。下次再来玩！`);
    return { text: this.ask(), ended: false };
  }

  private finish(text: string): TurnResult {
    this.over = true;
    return { text, ended: true };
  }
}
