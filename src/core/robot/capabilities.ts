/**
 * Device capabilities (the `capability:<name>` tags of game cards) from the robot's hello, and
 * whether a game can be played with what is connected now.
 */
import { CAPABILITIES, type Capability, type GameDeclaration } from '../protocol/declaration.ts';
import type { Hello } from './messages.ts';

export type Capabilities = ReadonlySet<Capability>;

/** The on-screen robot can do everything. */
export const ALL_CAPABILITIES: Capabilities = new Set(CAPABILITIES);

/** face: has expressions on a screen; head: nods and shakes; draw: strokes; screen: progress/text cards. */
export function capabilitiesFromHello(hello: Hello): Capabilities {
  const caps = new Set<Capability>();
  const hasScreen = !!hello.screen && hello.screen.w > 0 && hello.screen.h > 0;
  if (hasScreen) caps.add('screen');
  if (hasScreen && hello.expressions?.length) caps.add('face');
  if (hello.gestures?.includes('nod') && hello.gestures.includes('shake')) caps.add('head');
  if (hasScreen && hello.draw?.strokes) caps.add('draw');
  return caps;
}

export const CAPABILITY_NAMES: Record<Capability, string> = {
  face: '做表情',
  head: '点头摇头',
  draw: '画画',
  screen: '显示文字',
};

/**
 * What the on-screen robot stands in for: a game that wants a gesture or faces the USB robot lacks
 * still plays — the robot shows what it has (its face for the reaction), and the on-screen robot,
 * which mirrors every command, nods, shakes and makes the faces. A picture or a card has no stand-in
 * that the child would see on the robot, so `draw` and `screen` stay required.
 */
const STAND_IN: ReadonlySet<Capability> = new Set<Capability>(['head', 'face']);

type Availability =
  | { available: true; /** Wanted but shown by the on-screen robot instead. */ standIn?: Capability[] }
  | { available: false; missing: Capability[]; reason: string };

export function gameAvailability(game: Pick<GameDeclaration, 'capabilities' | 'title'>, caps: Capabilities): Availability {
  const missing = game.capabilities.filter((c) => !caps.has(c));
  if (missing.length === 0) return { available: true };
  const hard = missing.filter((c) => !STAND_IN.has(c));
  if (hard.length === 0) return { available: true, standIn: missing };
  const names = hard.map((c) => CAPABILITY_NAMES[c]).join('、');
  return {
    available: false,
    missing: hard,
    reason: `「${game.title}」需要机器人会${names}，现在连着的机器人还不会。拔掉机器人，就能在屏幕上玩。`,
  };
}

const GESTURE_NAMES: Record<string, string> = { nod: '点头', shake: '摇头' };

/**
 * One plain line for 设置 → 机器人 about what this robot lacks and who shows it instead, or null
 * when it has every gesture and expression the games use.
 */
export function standInLine(hello: Pick<Hello, 'gestures' | 'expressions' | 'screen'>, expressions: readonly string[]): string | null {
  const gestures = Object.keys(GESTURE_NAMES).filter((g) => !hello.gestures?.includes(g));
  const faces = hello.screen ? expressions.filter((e) => !hello.expressions?.includes(e)) : [];
  const parts: string[] = [];
  const noFaces = faces.length > 0 && faces.length === expressions.length;
  if (gestures.length) {
    const names = gestures.map((g) => GESTURE_NAMES[g]).join('和');
    parts.push(
      noFaces
        ? `这个机器人不会${names}，也不会做表情：游戏照样玩，屏幕上的机器人替它${names}、做表情。`
        : `这个机器人不会${names}：游戏照样玩，要${names}时它做出表情，屏幕上的机器人替它${names}。`,
    );
  } else if (noFaces) parts.push('这个机器人不会做表情：游戏照样玩，表情由屏幕上的机器人来做。');
  if (faces.length && !noFaces) parts.push(`它少了 ${faces.length} 种表情，缺的用平常的脸代替，屏幕上的机器人照样做全。`);
  return parts.length ? parts.join('') : null;
}
