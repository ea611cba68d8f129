import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, capabilitiesFromHello, gameAvailability, standInLine } from '../../../src/core/robot/capabilities.ts';
import { EXPRESSIONS } from '../../../src/core/robot/messages.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { fixedRandom } from '../../support/robot/random.ts';

const guess = { title: '你画我猜', capabilities: ['face', 'head', 'draw'] as const };

describe('capabilities', () => {
  it('a full robot offers face, head, draw and screen', () => {
    const hello = new FirmwareSim({ random: fixedRandom() }).helloBody();
    expect([...capabilitiesFromHello(hello)].sort()).toEqual(['draw', 'face', 'head', 'screen']);
  });

  it('a robot without servos has no head; without a screen it has nothing to show', () => {
    const noHead = new FirmwareSim({ random: fixedRandom(), hello: { gestures: [], servos: [] } }).helloBody();
    expect([...capabilitiesFromHello(noHead)].sort()).toEqual(['draw', 'face', 'screen']);
    const headOnly = new FirmwareSim({ random: fixedRandom(), hello: { screen: undefined, draw: undefined } }).helloBody();
    expect([...capabilitiesFromHello(headOnly)]).toEqual(['head']);
  });

  it('says why a game is unavailable, in Chinese, and lists what is missing that nothing stands in for', () => {
    const caps = capabilitiesFromHello(new FirmwareSim({ random: fixedRandom(), hello: { gestures: [], draw: { strokes: false, maxPoints: 0 } } }).helloBody());
    const a = gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, caps);
    expect(a.available).toBe(false);
    if (a.available) return;
    expect(a.missing).toEqual(['draw']);
    expect(a.reason).toContain('你画我猜');
    expect(a.reason).toContain('需要机器人会画画');
  });

  it('degrades instead of disappearing: a robot without a shake (or without faces) still plays the game, the on-screen robot stands in', () => {
    const noShake = new FirmwareSim({ random: fixedRandom(), hello: { gestures: ['nod'], servos: ['pitch'] } }).helloBody();
    expect(gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, capabilitiesFromHello(noShake))).toEqual({ available: true, standIn: ['head'] });
    expect(standInLine(noShake, EXPRESSIONS)).toBe('这个机器人不会摇头：游戏照样玩，要摇头时它做出表情，屏幕上的机器人替它摇头。');
    const noFaces = new FirmwareSim({ random: fixedRandom(), hello: { expressions: [], gestures: [] } }).helloBody();
    expect(gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, capabilitiesFromHello(noFaces))).toEqual({ available: true, standIn: ['face', 'head'] });
    expect(standInLine(noFaces, EXPRESSIONS)).toBe('这个机器人不会点头和摇头，也不会做表情：游戏照样玩，屏幕上的机器人替它点头和摇头、做表情。');
    const full = new FirmwareSim({ random: fixedRandom() }).helloBody();
    expect(standInLine(full, EXPRESSIONS)).toBeNull();
  });

  it('every game is available on the on-screen robot', () => {
    expect(gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, ALL_CAPABILITIES)).toEqual({ available: true });
    expect(gameAvailability({ title: '猜数字', capabilities: [] }, new Set())).toEqual({ available: true });
  });
});
