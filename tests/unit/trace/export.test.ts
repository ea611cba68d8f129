import { describe, expect, it } from 'vitest';
import { exportFileName, exportTrace, TRACE_EXPORT_FORMAT } from '../../../src/core/trace/export.ts';
import { HIDDEN_SECRET } from '../../../src/core/trace/redact.ts';
import { groupRounds } from '../../../src/core/trace/rounds.ts';
import { ev } from './fixtures.ts';

const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
const rounds = groupRounds([
  ev({ kind: 'user_input', at: T0, roundId: 'r1', source: 'user', data: { text: '玩你画我猜' } }),
  ev({ kind: 'a2a_request', at: T0 + 10, roundId: 'r1', requestId: 'm1', contextId: 'c1', data: { gameId: 'draw-guess', kind: 'start', text: '玩你画我猜' } }),
  ev({ kind: 'game_tool', at: T0 + 20, source: 'game:draw-guess', requestId: 'm1', contextId: 'c1', name: 'pick', durationMs: 3, data: { result: { secret: '长颈鹿' } } }),
  ev({ kind: 'user_input', at: T0 + 5000, roundId: 'r2', source: 'user', data: { text: '是长颈鹿' } }),
  ev({ kind: 'reply', at: T0 + 5100, roundId: 'r2', source: 'game:draw-guess', contextId: 'c1', revealsSecret: true, data: { text: '猜对了！', session: 'ended' } }),
  ev({ kind: 'user_input', at: T0 + 9000, roundId: 'r3', source: 'user', data: { text: '再玩一次' } }),
  ev({ kind: 'game_tool', at: T0 + 9100, roundId: 'r3', source: 'game:draw-guess', contextId: 'c2', name: 'pick', data: { result: { secret: '熊猫' } } }),
]).rounds;

describe('exportTrace', () => {
  it('exports a chosen range as a self-describing JSON document', () => {
    const doc = exportTrace(rounds, { from: 1, to: 2, now: T0 + 10_000 });
    const parsed = JSON.parse(JSON.stringify(doc));
    expect(parsed).toMatchObject({
      format: TRACE_EXPORT_FORMAT,
      version: 1,
      exportedAt: new Date(T0 + 10_000).toISOString(),
      range: { from: 1, to: 2, total: 3 },
      secretsShown: false,
    });
    expect(parsed.rounds.map((r: { index: number; text: string }) => [r.index, r.text])).toEqual([
      [1, '玩你画我猜'],
      [2, '是长颈鹿'],
    ]);
    expect(parsed.rounds[0]).toMatchObject({ id: 'r1', startedAt: new Date(T0).toISOString(), durationMs: 23 });
    expect(parsed.rounds[0].events[2]).toEqual({
      kind: 'game_tool', at: T0 + 20, source: 'game:draw-guess', name: 'pick', requestId: 'm1', contextId: 'c1', durationMs: 3, data: { result: { secret: '长颈鹿' } },
    });
  });

  it('keeps secrets hidden unless revealed, in the file as on screen', () => {
    const doc = JSON.stringify(exportTrace(rounds, { from: 3, to: 3, now: T0 }));
    expect(doc).not.toContain('熊猫');
    expect(doc).toContain(HIDDEN_SECRET);
    expect(doc).toContain('"secretHidden":true');
    expect(JSON.stringify(exportTrace(rounds, { from: 3, to: 3, showSecrets: true, now: T0 }))).toContain('熊猫');
    // the answer of the first game was revealed in round 2: exporting round 1 alone shows it
    expect(JSON.stringify(exportTrace(rounds, { from: 1, to: 1, now: T0 }))).toContain('长颈鹿');
  });

  it('clamps a range outside the trace and handles an empty trace', () => {
    expect(exportTrace(rounds, { from: 0, to: 99, now: T0 }).range).toEqual({ from: 1, to: 3, total: 3 });
    expect(exportTrace(rounds, { from: 3, to: 1, now: T0 }).rounds.map((r) => r.index)).toEqual([3]);
    expect(exportTrace([], { now: T0 })).toMatchObject({ range: { from: 0, to: 0, total: 0 }, rounds: [] });
  });

  it('names the file by local date and time', () => {
    expect(exportFileName(new Date(2025, 4, 6, 7, 8).getTime())).toBe('agentcade-trace-20250506-0708.json');
  });
});
