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

type Availability = { available: true } | { available: false; missing: Capability[]; reason: string };

export function gameAvailability(game: Pick<GameDeclaration, 'capabilities' | 'title'>, caps: Capabilities): Availability {
  const missing = game.capabilities.filter((c) => !caps.has(c));
  if (missing.length === 0) return { available: true };
  const names = missing.map((c) => CAPABILITY_NAMES[c]).join('、');
  return {
    available: false,
    missing,
    reason: `「${game.title}」需要机器人会${names}，现在连着的机器人还不会。拔掉机器人，就能在屏幕上玩。`,
  };
}
