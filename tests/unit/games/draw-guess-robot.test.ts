/**
 * 你画我猜 when the robot cannot finish a drawing: the game says what the child sees — "画到一半卡住了，
 * 我重新画一次" and draws again, or a hint when the picture is not there — and never 「画好啦」 over a
 * half or missing picture. Once with a scripted device, once with the real output module over the
 * firmware simulator with one stroke's replies lost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GameSessions } from '../../../src/games/game-sessions.ts';
import { DrawGuessAgent, STUCK_LINE } from '../../../skills/draw-guess/game.ts';
import { policy } from '../../../skills/draw-guess/demo.ts';
import type { Card } from '../../../skills/draw-guess/rules.ts';
import type { DevicePort, DeviceResult, Drawing, Progress } from '../../../src/core/robot/types.ts';
import { ctx, deferred, FakeDevice, RecordingTrace, scriptedRecording, send } from './helpers.ts';
import { gameInput, type GameInput, type GameReply } from '../../../src/core/protocol/game-protocol.ts';
import { drawingOn, outputRig, tick } from '../robot/harness.ts';

const DECK: Card[] = [
  {
    id: 'tiger',
    name: '老虎',
    aliases: ['虎'],
    hints: ['它是森林之王。', '它身上有黑色的条纹。'],
    drawing: { id: 'tiger', strokes: Array.from({ length: 12 }, (_, i) => [[10 + i * 10, 20], [20 + i * 10, 200]] as Array<[number, number]>) },
  },
  { id: 'dog', name: '狗', aliases: ['小狗'], hints: ['它会汪汪叫。'], drawing: { id: 'dog', strokes: [[[10, 10], [200, 200]]] } },
  { id: 'cat', name: '猫', aliases: ['小猫'], hints: ['它会喵喵叫。'], drawing: { id: 'cat', strokes: [[[10, 10], [200, 200]]] } },
];
const inOrder = () => 0.9999;
/** The game's first sentence, said before the first drawing is sent. */
const INTRO = '我来画一个小动物，你猜猜是什么！';

/** A device whose drawings come out as scripted: the first results in turn, then complete. */
class ScriptedDevice extends FakeDevice {
  constructor(private readonly results: DeviceResult[]) {
    super();
  }
  override async showDrawing(drawing: Drawing): Promise<DeviceResult> {
    await super.showDrawing(drawing);
    return this.results.shift() ?? { device_completed: true };
  }
}

function play(device: DevicePort & { calls?: unknown[] }) {
  const { model } = scriptedRecording('game:draw-guess', policy);
  return new GameSessions({
    create: () => new DrawGuessAgent({ model, device, random: inOrder }, { deck: DECK }),
    device,
    source: 'game:test',
  });
}

const stuck: DeviceResult = { device_completed: false, error: 'robot_picture_incomplete: 画到一半卡住了，我重新画一次。' };

describe('你画我猜 and a drawing the robot could not finish', () => {
  it('stuck half-way: says so, draws it once more from the start, and only then "画好啦"', async () => {
    const device = new ScriptedDevice([stuck]);
    const r = await send(play(device), 'start', '我们玩你画我猜吧');
    expect(r.intermediate.slice(0, 2)).toEqual([INTRO, STUCK_LINE]);
    expect(r.reply.text).toBe(`${INTRO}${STUCK_LINE}画好啦！第 1 题，这是什么动物呀？说出它的名字就行！`);
    expect(device.calls.map((c) => c.op)).toEqual(['showProgress', 'showDrawing', 'showDrawing']);
  });

  it('still not there after the second try: no "画好啦" — a hint instead, so the child can still guess', async () => {
    const device = new ScriptedDevice([stuck, stuck]);
    const r = await send(play(device), 'start', '我们玩你画我猜吧');
    expect(r.reply.text).not.toContain('画好啦');
    expect(r.reply.text).toBe(`${INTRO}${STUCK_LINE}机器人今天画不出这幅画，我说给你听。好，给你一个提示！它是森林之王。你猜是什么动物？`);
    expect(device.calls.filter((c) => c.op === 'showDrawing').length).toBe(2); // one retry, not a loop
  });

  it('a failure that is not a half picture (e.g. the robot refused) is not redrawn, and still never "画好啦"', async () => {
    const device = new ScriptedDevice([{ device_completed: false, error: 'robot_not_connected: 机器人还没连上。' }]);
    const r = await send(play(device), 'start', '玩你画我猜');
    expect(r.intermediate).not.toContain(STUCK_LINE);
    expect(r.reply.text).toMatch(new RegExp(`^${INTRO}机器人今天画不出这幅画`));
  });
});

/** A device whose progress card is still being drawn until the test says it is done. */
class SlowProgressDevice extends FakeDevice {
  readonly progressDone = deferred<DeviceResult>();
  override async showProgress(progress: Progress): Promise<DeviceResult> {
    await super.showProgress(progress);
    return this.progressDone.promise;
  }
}

describe('你画我猜 and the progress card', () => {
  it('the start line is said, and the turn ends, while the progress card is still being drawn', async () => {
    const device = new SlowProgressDevice();
    // The card finishes only after the turn: a start that waited for it would never end.
    const r = await send(play(device), 'start', '我们玩你画我猜吧');
    device.progressDone.resolve({ device_completed: true });
    expect(r.intermediate[0]).toBe(INTRO);
    expect(r.reply.text).toBe(`${INTRO}画好啦！第 1 题，这是什么动物呀？说出它的名字就行！`);
    // Still in order on the device: the progress card first, then the drawing.
    expect(device.calls.map((c) => c.op)).toEqual(['showProgress', 'showDrawing']);
  });

  it('a progress card the robot could not show never stops the game: the trace says so', async () => {
    const device = new SlowProgressDevice();
    const trace = new RecordingTrace();
    const { model } = scriptedRecording('game:draw-guess', policy);
    const game = new GameSessions({
      create: () => new DrawGuessAgent({ model, device, random: inOrder, trace }, { deck: DECK }),
      device,
      source: 'game:test',
    });
    const r = await send(game, 'start', '我们玩你画我猜吧');
    device.progressDone.reject(new Error('robot unplugged'));
    await Promise.resolve();
    await Promise.resolve();
    expect(r.reply.text).toContain('第 1 题');
    expect(trace.events.some((e) => e.kind === 'error' && e.name === 'show_progress')).toBe(true);
  });
});

describe('你画我猜 on the simulated USB robot, every reply to one stroke lost', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the robot is cleared, the game says it got stuck and redraws; "画好啦" comes only once the whole drawing is on the robot', async () => {
    vi.useFakeTimers();
    const rig = await outputRig();
    rig.sim.faults.loseReplies['draw.stroke'] = 5;
    const seen: Array<{ line: string; strokes: number; complete: boolean }> = [];
    const snapshot = (line: string) => {
      const d = drawingOn(rig.sim);
      seen.push({ line, strokes: d?.strokes.length ?? 0, complete: d?.complete ?? false });
    };
    // Every line the game says, with what the USB robot shows at that moment.
    const c = ctx();
    const say = c.say;
    c.say = (t) => {
      snapshot(t);
      say(t);
    };
    let reply: GameReply | undefined;
    void play(rig.output).handle(gameInput('start', '我们玩你画我猜吧') as GameInput, c).then((r) => (reply = r));
    for (let i = 0; i < 400 && !reply; i++) await tick(25);
    snapshot(reply!.text);
    expect(seen).toEqual([
      { line: INTRO, strokes: 0, complete: false },
      // Stuck after the 5th piece: the half picture is already gone (a blank canvas) when the robot says so.
      { line: STUCK_LINE, strokes: 0, complete: false },
      { line: '画好啦！', strokes: 12, complete: true },
      { line: '第 1 题，这是什么动物呀？', strokes: 12, complete: true },
      { line: '说出它的名字就行！', strokes: 12, complete: true },
    ]);
    expect(rig.link.stats.ackTimeouts).toBe(1);
  });
});
