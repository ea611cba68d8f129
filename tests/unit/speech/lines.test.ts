/**
 * Lines said again and again take turns (src/core/speech/line-rotation.ts), and a sentence is said
 * only once it passed its check (src/core/speech/sentence-stream.ts with the truth check).
 */
import { describe, expect, it } from 'vitest';
import { LineRotation } from '../../../src/core/speech/line-rotation.ts';
import { SentenceStream } from '../../../src/core/speech/sentence-stream.ts';
import { childLines } from '../../../src/core/errors/catalogue.ts';
import { INTERRUPTED_GAME_TEXT } from '../../../src/trace/session-guard.ts';

describe('LineRotation', () => {
  it('never says the same line twice in a row, whatever the situations in between', () => {
    let recent: string | null = null;
    const r = new LineRotation(() => recent);
    const said: string[] = [];
    const codes = ['game_model_failed', 'game_model_failed', 'main_game_slow', 'game_model_failed', 'model_remote_network', 'model_remote_network', 'model_remote_http', 'model_remote_auth'];
    for (let i = 0; i < 60; i++) said.push((recent = r.child(codes[i % codes.length])));
    for (let i = 1; i < said.length; i++) expect(said[i]).not.toBe(said[i - 1]);
    // Every variant of a situation is heard in turn.
    expect(new Set(said.filter((s) => childLines('game_model_failed').includes(s))).size).toBe(childLines('game_model_failed').length);
  });

  it('avoids the line someone else said last on the same path', () => {
    const lines = ['甲。', '乙。'];
    const r = new LineRotation(() => '甲。');
    expect(r.pick('x', lines)).toBe('乙。');
    expect(r.pick('y', ['甲。', '丙。', '乙。'])).toBe('丙。');
  });

  it('every fallback the child can hear has more than one way of being said', () => {
    for (const code of ['game_model_failed', 'game_model_failed_start', 'game_model_failed_end', 'game_session_ended', 'main_model_failed', 'main_game_slow', 'main_game_slow_start', 'main_game_slow_end', 'model_remote_network', 'model_remote_http', 'model_remote_timeout', 'model_too_slow', 'game_timeout', 'game_timeout_lost', 'game_crashed'])
      expect(childLines(code).length, code).toBeGreaterThan(1);
  });

  it('a line says the game restarts only when it does: lines after which the game goes on say so, never 重新开始', () => {
    for (const code of ['game_model_failed', 'main_game_slow', 'game_timeout']) for (const l of childLines(code)) expect(l).not.toMatch(/重新开始/);
    for (const code of ['game_crashed', 'game_timeout_lost']) for (const l of childLines(code)) expect(l).toMatch(/先玩到这里/);
    // After a reload the interrupted game is ended, not started again: the child is told how to play again.
    expect(INTERRUPTED_GAME_TEXT).not.toMatch(/重新开始/);
    expect(INTERRUPTED_GAME_TEXT).toMatch(/再跟我说/);
  });
});

describe('SentenceStream with a check', () => {
  const check = (s: string) => (s.includes('猜对') ? 'false' : null);

  it('holds back the first sentence that fails and everything after it; problemIn names it before the step is accepted', () => {
    const said: string[] = [];
    const st = new SentenceStream<string>((s) => said.push(s), true, check);
    st.update('50 小了！你猜对了！还有 6 次。', 0);
    expect(said).toEqual(['50 小了！']);
    expect(st.problemIn('50 小了！你猜对了！还有 6 次。')).toEqual({ sentence: '你猜对了！', problem: 'false' });
    // The model writes the reply again in the next step: what was said is not said again.
    st.restart();
    st.update('50 小了！再大一点，还有 6 次。', 0);
    expect(st.problemIn('50 小了！再大一点，还有 6 次。')).toBeNull();
    expect(st.finish('50 小了！再大一点，还有 6 次。')).toBe('再大一点，还有 6 次。');
    expect(said).toEqual(['50 小了！']);
  });

  it('a say stream used by two steps says each of them', () => {
    const said: string[] = [];
    const st = new SentenceStream<string>((s) => said.push(s), false, check);
    st.update('我来画一只。', 0);
    st.finish('我来画一只。');
    st.update('再画一只。', 0);
    st.finish('再画一只。');
    expect(said).toEqual(['我来画一只。', '再画一只。']);
  });
});
