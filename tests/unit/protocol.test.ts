import { describe, expect, it } from 'vitest';
import {
  PROTOCOL,
  ProtocolError,
  ReplySequence,
  fitReplyText,
  gameReply,
  parseGameInput,
  parseGameReply,
} from '../../src/core/protocol/game-protocol.ts';

describe('GameInput validation', () => {
  it('accepts start/message/end with the original text unchanged', () => {
    for (const kind of ['start', 'message', 'end'] as const) {
      const text = '我猜 10！ ';
      expect(parseGameInput({ protocol: PROTOCOL, kind, text })).toEqual({ protocol: PROTOCOL, kind, text });
    }
  });
  it('allows empty text only for end', () => {
    expect(parseGameInput({ protocol: PROTOCOL, kind: 'end', text: '' }).text).toBe('');
    expect(() => parseGameInput({ protocol: PROTOCOL, kind: 'start', text: '' })).toThrow(ProtocolError);
    expect(() => parseGameInput({ protocol: PROTOCOL, kind: 'message', text: '  ' })).toThrow(/empty only for "end"/);
  });
  it.each([
    ['wrong protocol', { protocol: 'desktop-game/4', kind: 'message', text: 'x' }, 'protocol'],
    ['missing protocol', { kind: 'message', text: 'x' }, 'protocol'],
    ['unknown kind', { protocol: PROTOCOL, kind: 'restart', text: 'x' }, 'kind'],
    ['missing kind', { protocol: PROTOCOL, text: 'x' }, 'kind'],
    ['text not a string', { protocol: PROTOCOL, kind: 'message', text: 10 }, 'text'],
    ['missing text', { protocol: PROTOCOL, kind: 'message' }, 'text'],
    ['not an object', 'hello', '$'],
    ['array', [], '$'],
  ])('rejects %s', (_name, value, field) => {
    try {
      parseGameInput(value);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ProtocolError);
      expect((e as ProtocolError).field).toBe(field);
    }
  });
});

describe('GameReply validation', () => {
  it('accepts 1..500 characters', () => {
    expect(parseGameReply({ protocol: PROTOCOL, text: '好', session: 'active' }).text).toBe('好');
    expect(parseGameReply({ protocol: PROTOCOL, text: '好'.repeat(500), session: 'ended' }).session).toBe('ended');
  });
  it.each([
    ['empty text', { protocol: PROTOCOL, text: '', session: 'active' }],
    ['501 chars', { protocol: PROTOCOL, text: '好'.repeat(501), session: 'active' }],
    ['bad session', { protocol: PROTOCOL, text: '好', session: 'over' }],
    ['missing session', { protocol: PROTOCOL, text: '好' }],
    ['wrong protocol', { protocol: 'x', text: '好', session: 'active' }],
  ])('rejects %s', (_n, v) => {
    expect(() => parseGameReply(v)).toThrow(ProtocolError);
  });
  it('counts characters by code point', () => {
    expect(() => gameReply('😀'.repeat(500))).not.toThrow();
  });
  it('fits a long text at a sentence end', () => {
    const long = '你好。'.repeat(200);
    const fitted = fitReplyText(long);
    expect(Array.from(fitted).length).toBeLessThanOrEqual(500);
    expect(fitted.endsWith('。')).toBe(true);
  });
});

describe('ReplySequence', () => {
  it('only the last reply may be ended, and there is exactly one final', () => {
    const seq = new ReplySequence();
    expect(() => seq.intermediate(gameReply('再见', 'ended'))).toThrow(/only the last/);
    seq.intermediate(gameReply('等一下'));
    seq.final(gameReply('再见', 'ended'));
    expect(() => seq.final(gameReply('又来'))).toThrow(/exactly one final/);
    expect(() => seq.intermediate(gameReply('又来'))).toThrow(/no reply may follow/);
  });
});
