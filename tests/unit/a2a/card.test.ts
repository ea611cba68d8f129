import { describe, expect, it } from 'vitest';
import { agentCardFor, MESSAGEPORT_BINDING } from '../../../src/a2a/card.ts';
import type { GameDeclaration } from '../../../src/core/protocol/declaration.ts';

const GUESS: GameDeclaration = {
  id: 'draw-guess',
  title: '你画我猜',
  description: '机器人画一个动物，小朋友来猜。',
  aliases: ['画画猜猜', '猜动物'],
  capabilities: ['draw', 'face', 'head'],
  engine: 'skill',
};

describe('agentCardFor (seed 000 §A2A 映射)', () => {
  const card = agentCardFor(GUESS);

  it('declares streaming and one skill whose id is the game id', () => {
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills).toHaveLength(1);
    expect(card.skills[0].id).toBe('draw-guess');
    expect(card.name).toBe('你画我猜');
  });

  it('tags the skill with desktop-game/5 and one capability:<c> per capability; examples are the aliases', () => {
    expect(card.skills[0].tags).toEqual(['desktop-game/5', 'capability:draw', 'capability:face', 'capability:head']);
    expect(card.skills[0].examples).toEqual(['画画猜猜', '猜动物']);
  });

  it('offers the MessagePort binding (a URN) at a worker URL, A2A 1.0', () => {
    expect(card.supportedInterfaces).toEqual([
      { url: 'worker://game/draw-guess', protocolBinding: MESSAGEPORT_BINDING, tenant: '', protocolVersion: '1.0' },
    ]);
    expect(MESSAGEPORT_BINDING).toBe('urn:x-a2a-binding:messageport');
    expect(agentCardFor(GUESS, 'worker://x').supportedInterfaces[0].url).toBe('worker://x');
  });

  it('a game needing no device has only the protocol tag', () => {
    expect(agentCardFor({ ...GUESS, capabilities: [] }).skills[0].tags).toEqual(['desktop-game/5']);
  });
});
