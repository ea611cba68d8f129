import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, capabilitiesFromHello, gameAvailability } from '../../../src/core/robot/capabilities.ts';
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

  it('says why a game is unavailable, in Chinese, and lists what is missing', () => {
    const caps = capabilitiesFromHello(new FirmwareSim({ random: fixedRandom(), hello: { gestures: [], draw: { strokes: false, maxPoints: 0 } } }).helloBody());
    const a = gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, caps);
    expect(a.available).toBe(false);
    if (a.available) return;
    expect(a.missing).toEqual(['head', 'draw']);
    expect(a.reason).toContain('你画我猜');
    expect(a.reason).toContain('点头摇头、画画');
  });

  it('every game is available on the on-screen robot', () => {
    expect(gameAvailability({ ...guess, capabilities: [...guess.capabilities] }, ALL_CAPABILITIES)).toEqual({ available: true });
    expect(gameAvailability({ title: '猜数字', capabilities: [] }, new Set())).toEqual({ available: true });
  });
});
