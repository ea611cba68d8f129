/**
 * A composite line checked part by part inside the safety check (src/core/safety/parts.ts, through
 * the speaking path's screen): a flagged part never swallows the rule's part, and a text the parent
 * approved for their own game passes in that game while the words around it are still checked.
 */
import { describe, expect, it } from 'vitest';
import { SafetyScreen } from '../../../src/arcade/safety-screen.ts';
import { setApprovedLines } from '../../../src/games/approved-lines.ts';
import { checkLine } from '../../../src/core/safety/classify.ts';
import { checkInParts, partsOf } from '../../../src/core/safety/parts.ts';
import { REDIRECT } from '../../../src/core/safety/replies.ts';

const CARD = '你的幼儿园叫什么';

describe('a line checked part by part', () => {
  it('cuts a line into approved texts and sentences, losing nothing', () => {
    const line = `答对了！第2题：${CARD}？再想想。`;
    const parts = partsOf(line, [CARD]);
    expect(parts.map((p) => p.text).join('')).toBe(line);
    expect(parts.filter((p) => p.approved).map((p) => p.text)).toEqual([CARD]);
  });

  it("keeps the rule's part when another part is harmful", () => {
    const r = checkInParts(checkLine, `答对了！${CARD}？`, []);
    expect(r.blocked).toMatchObject({ category: 'personal_info' });
    expect(r.say('【换】')).toBe('答对了！【换】');
  });

  it('blocks the whole when only the sentences together are harmful', () => {
    const r = checkInParts(checkLine, '这是菜刀。你去拿来玩吧。', []);
    expect(r.blocked).not.toBeNull();
    expect(r.say('【换】')).toBe('【换】');
  });

  it('in the screen: an approved card passes in its own game only, and harm around it is still caught', async () => {
    setApprovedLines('studio-kindergarten', [CARD]);
    const screen = new SafetyScreen();
    const line = `答对了！第2题：${CARD}`;
    expect(await screen.screen(line, 'game_agent', { requestId: 'r1', gameId: 'studio-kindergarten' })).toEqual({ kind: 'ok' });
    // Another game: the same words are blocked, but 答对了 is still said.
    const other = await screen.screen(line, 'game_agent', { requestId: 'r2', gameId: 'other-game' });
    expect(other).toMatchObject({ kind: 'blocked', say: `答对了！${REDIRECT.game}`, finding: { category: 'personal_info', by: 'rules' } });
    // Approved text beside a harmful sentence: the sentence is replaced, the card kept.
    const mixed = await screen.screen(`${CARD}？火柴在抽屉里，你去拿吧。`, 'game_agent', { requestId: 'r3', gameId: 'studio-kindergarten' });
    expect(mixed).toMatchObject({ kind: 'blocked', say: `${CARD}？${REDIRECT.game}`, finding: { category: 'danger' } });
    setApprovedLines('studio-kindergarten', []);
    expect(await screen.screen(line, 'game_agent', { requestId: 'r4', gameId: 'studio-kindergarten' })).toMatchObject({ kind: 'blocked' });
  });
});
