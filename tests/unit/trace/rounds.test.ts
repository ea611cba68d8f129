import { describe, expect, it } from 'vitest';
import { groupRounds, roundsToPrune, viewRounds } from '../../../src/core/trace/rounds.ts';
import { HIDDEN_SECRET } from '../../../src/core/trace/redact.ts';
import { buildRoundTree, type TraceNode } from '../../../src/core/trace/tree.ts';
import { ev } from './fixtures.ts';

const input = (roundId: string, at: number, text: string) => ev({ kind: 'user_input', at, roundId, source: 'user', data: { text } });

describe('groupRounds', () => {
  it('files game records under the round that sent their request, even when they arrive after the next round began', () => {
    const events = [
      input('r1', 100, '我们玩猜数字'),
      ev({ kind: 'main_tool', at: 110, roundId: 'r1', name: 'start_game' }),
      ev({ kind: 'a2a_request', at: 120, roundId: 'r1', requestId: 'm1', data: { gameId: 'guess-number', kind: 'start' } }),
      input('r2', 500, '五十'),
      ev({ kind: 'a2a_request', at: 510, roundId: 'r2', requestId: 'm2' }),
      // late: the game's second reply to m1 arrives during round 2
      ev({ kind: 'reply', at: 520, source: 'game:guess-number', requestId: 'm1', data: { text: '我想好了', session: 'active' } }),
      ev({ kind: 'game_tool', at: 530, source: 'game:guess-number', requestId: 'm2', name: 'judge' }),
    ];
    const { rounds, orphans } = groupRounds(events);
    expect(orphans).toEqual([]);
    expect(rounds.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(rounds[0].events.map((e) => e.kind)).toEqual(['user_input', 'main_tool', 'a2a_request', 'reply']);
    expect(rounds[1].events.map((e) => e.kind)).toEqual(['user_input', 'a2a_request', 'game_tool']);
    expect(rounds[0].endedAt).toBe(520);
  });

  it('files game records that arrive before the request is registered (out of order) and sorts by time', () => {
    const events = [
      input('r1', 100, '开始'),
      ev({ kind: 'game_tool', at: 140, source: 'game:x', requestId: 'm1', name: 'pick' }),
      ev({ kind: 'reply', at: 150, source: 'game:x', requestId: 'm1', data: { text: '好' } }),
      ev({ kind: 'a2a_request', at: 130, roundId: 'r1', requestId: 'm1' }),
    ];
    const { rounds } = groupRounds(events);
    expect(rounds[0].events.map((e) => e.kind)).toEqual(['user_input', 'a2a_request', 'game_tool', 'reply']);
  });

  it('uses registrations from the store for requests whose a2a_request event is gone', () => {
    const events = [input('r1', 100, '开始'), ev({ kind: 'reply', at: 150, source: 'game:x', requestId: 'm9' })];
    expect(groupRounds(events).orphans).toHaveLength(1);
    const { rounds, orphans } = groupRounds(events, new Map([['m9', 'r1']]));
    expect(orphans).toEqual([]);
    expect(rounds[0].events).toHaveLength(2);
  });

  it('puts main-side events without ids into the round running at their time', () => {
    const events = [input('r1', 100, 'a'), input('r2', 200, 'b'), ev({ kind: 'speech', at: 250, source: 'speech', data: { text: '你好' } }), ev({ kind: 'speech', at: 50, source: 'speech' })];
    const { rounds, orphans } = groupRounds(events);
    expect(rounds[1].events.map((e) => e.kind)).toEqual(['user_input', 'speech']);
    expect(orphans.map((e) => e.at)).toEqual([50]);
  });
});

describe('secrets in the view', () => {
  const events = [
    input('r1', 100, '玩你画我猜'),
    ev({ kind: 'a2a_request', at: 110, roundId: 'r1', requestId: 'm1' }),
    ev({ kind: 'game_tool', at: 120, source: 'game:draw', contextId: 'c1', requestId: 'm1', name: 'pick_animal', data: { result: { secret: '小猫', strokes: 12 } } }),
    input('r2', 200, '是小狗吗'),
    ev({ kind: 'a2a_request', at: 210, roundId: 'r2', requestId: 'm2' }),
    ev({ kind: 'game_tool', at: 220, source: 'game:draw', contextId: 'c1', requestId: 'm2', name: 'judge', data: { args: { guess: '小狗' }, result: { correct: false } } }),
    input('r3', 300, '不知道'),
    ev({ kind: 'a2a_request', at: 310, roundId: 'r3', requestId: 'm3' }),
    ev({ kind: 'reply', at: 320, source: 'game:draw', contextId: 'c1', requestId: 'm3', revealsSecret: true, data: { text: '答案是小猫' } }),
    // a new secret picked after the reveal stays hidden
    ev({ kind: 'game_tool', at: 330, source: 'game:draw', contextId: 'c1', requestId: 'm3', name: 'pick_animal', data: { result: { secret: '小兔' } } }),
  ];

  it('hides a secret until the round that revealed it exists, then shows it', () => {
    const before = viewRounds(groupRounds(events.slice(0, 6)).rounds);
    const pick = before[0].events.find((e) => e.name === 'pick_animal')!;
    expect(pick.data).toEqual({ result: { secret: HIDDEN_SECRET, strokes: 12 } });
    expect(pick.secretHidden).toBe(true);
    expect(JSON.stringify(before)).not.toContain('小猫');

    const after = viewRounds(groupRounds(events).rounds);
    expect(after[0].events.find((e) => e.name === 'pick_animal')!.data).toEqual({ result: { secret: '小猫', strokes: 12 } });
    const next = after[2].events.filter((e) => e.name === 'pick_animal')[0];
    expect(next.data).toEqual({ result: { secret: HIDDEN_SECRET } });
  });

  it('a reveal in another game session reveals nothing here', () => {
    const other = events.map((e) => (e.revealsSecret ? { ...e, contextId: 'c2' } : e));
    const view = viewRounds(groupRounds(other).rounds);
    expect(view[0].events.find((e) => e.name === 'pick_animal')!.data).toEqual({ result: { secret: HIDDEN_SECRET, strokes: 12 } });
  });

  it('shows every secret when a parent asks', () => {
    expect(JSON.stringify(viewRounds(groupRounds(events.slice(0, 3)).rounds, { showSecrets: true }))).toContain('小猫');
  });
});

describe('roundsToPrune', () => {
  it('drops the oldest rounds until the total fits, never the newest', () => {
    const rounds = [
      { id: 'c', startedAt: 3, bytes: 400 },
      { id: 'a', startedAt: 1, bytes: 400 },
      { id: 'b', startedAt: 2, bytes: 400 },
    ];
    expect(roundsToPrune(rounds, 1200)).toEqual([]);
    expect(roundsToPrune(rounds, 1000)).toEqual(['a']);
    expect(roundsToPrune(rounds, 500)).toEqual(['a', 'b']);
    expect(roundsToPrune(rounds, 10)).toEqual(['a', 'b']);
  });
});

describe('buildRoundTree', () => {
  const flat = (n: TraceNode, depth = 0): string[] => [`${'  '.repeat(depth)}${n.label}`, ...n.children.flatMap((c) => flat(c, depth + 1))];

  it('nests user → main agent → A2A request → game tools → replies → speech → device with durations', () => {
    const events = [
      input('r1', 1000, '玩猜数字'),
      ev({ kind: 'model_step', at: 1010, roundId: 'r1', name: 'start_game', durationMs: 300 }),
      ev({ kind: 'main_tool', at: 1320, roundId: 'r1', name: 'start_game', durationMs: 5 }),
      ev({ kind: 'a2a_request', at: 1325, roundId: 'r1', requestId: 'm1', data: { gameId: 'guess-number', kind: 'start', text: '玩猜数字' } }),
      ev({ kind: 'device', at: 1400, source: 'game:guess-number', requestId: 'm1', name: 'react', durationMs: 600 }),
      ev({ kind: 'speech', at: 1600, source: 'speech', requestId: 'm1', data: { text: '我想好了一个数' }, durationMs: 1500 }),
      ev({ kind: 'reply', at: 1500, source: 'game:guess-number', requestId: 'm1', data: { text: '我想好了一个数', session: 'active' } }),
      ev({ kind: 'game_tool', at: 1350, source: 'game:guess-number', requestId: 'm1', name: 'pick_number', durationMs: 2 }),
    ];
    const [round] = viewRounds(groupRounds(events).rounds);
    const tree = buildRoundTree(round);
    expect(flat(tree)).toEqual([
      '用户：「玩猜数字」',
      '  用户：「玩猜数字」',
      '  主 Agent',
      '    模型步骤 start_game',
      '    主 Agent 工具 start_game',
      '    A2A 请求 → guess-number（start）：「玩猜数字」',
      '      游戏工具',
      '        游戏工具 pick_number',
      '      回复',
      '        回复：「我想好了一个数」',
      '      播报',
      '        播报：「我想好了一个数」',
      '      设备',
      '        设备 react',
    ]);
    expect(tree.durationMs).toBe(3100 - 1000);
    const request = tree.children[1].children[2];
    expect(request.durationMs).toBe(3100 - 1325);
  });
});
