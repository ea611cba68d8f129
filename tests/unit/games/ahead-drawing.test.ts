/**
 * While the robot draws: in 你画我猜 the rules take `show_drawing` before the model is asked, and the
 * robot takes seconds to draw. Meanwhile the model's step after the drawing is asked ahead, with the
 * conversation as it will be when the drawing is done (its result, the rules' line after it): its
 * words are held until the picture is there, and the model is not asked again. A drawing the robot
 * could not finish makes the step asked ahead worthless: it is dropped, its words never said, and the
 * model is asked with what really happened.
 */
import { describe, expect, it, vi } from 'vitest';
import { DrawGuessAgent } from '../../../skills/draw-guess/game.ts';
import type { Card } from '../../../skills/draw-guess/rules.ts';
import type { ChatMessage, Step, StepRequest } from '../../../src/core/llm/types.ts';
import { readToolResult } from '../../../src/core/agent/messages.ts';
import type { DeviceResult, Drawing } from '../../../src/core/robot/types.ts';
import { ctx, deferred, FakeDevice } from './helpers.ts';

const DECK: Card[] = [
  { id: 'dog', name: '狗', aliases: ['小狗'], hints: ['它会汪汪叫。'], drawing: { id: 'dog', strokes: [[[10, 10], [200, 200]]] } },
  { id: 'cat', name: '猫', aliases: ['小猫'], hints: ['它会喵喵叫。'], drawing: { id: 'cat', strokes: [[[10, 10], [200, 200]]] } },
  { id: 'tiger', name: '老虎', aliases: ['虎'], hints: ['它是森林之王。'], drawing: { id: 'tiger', strokes: [[[10, 10], [200, 200]]] } },
];
const inOrder = () => 0.9999;
const COLOUR = '你真是个小画家！';

/** A robot whose drawings are done when the test says so. */
class SlowRobot extends FakeDevice {
  readonly drawing: Array<ReturnType<typeof deferred<DeviceResult>>> = [];
  override async showDrawing(d: Drawing): Promise<DeviceResult> {
    await super.showDrawing(d);
    const done = deferred<DeviceResult>();
    this.drawing.push(done);
    return done.promise;
  }
}

/** A model that streams its reply at once and records what it was asked, and which requests were aborted. */
function recordingModel() {
  const requests: Array<{ messages: ChatMessage[]; signal?: AbortSignal }> = [];
  return {
    requests,
    model: {
      label: 'recording',
      step: async (req: StepRequest): Promise<Step> => {
        requests.push({ messages: req.messages.map((m) => ({ ...m })), signal: req.signal });
        const raw = JSON.stringify({ reply: { text: COLOUR } });
        req.onStream?.(raw, 0);
        return { action: 'reply', args: { text: COLOUR }, raw };
      },
      prewarm: async () => undefined,
    },
  };
}

async function drawnTurn(agent: DrawGuessAgent, robot: SlowRobot, m: ReturnType<typeof recordingModel>, kind: 'start' | 'message', text: string, drawn: DeviceResult = { device_completed: true }) {
  const c = ctx();
  const drawings = robot.drawing.length;
  const asked = m.requests.length;
  const reply = agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 60_000 });
  await vi.waitFor(() => expect(robot.drawing.length).toBe(drawings + 1));
  // The robot is drawing: the model has been asked ahead, and nothing it wrote is said yet.
  await vi.waitFor(() => expect(m.requests.length).toBe(asked + 1));
  const ahead = m.requests.at(-1)!;
  const saidWhileDrawing = c.intermediate.join('');
  robot.drawing.at(-1)!.resolve(drawn);
  const final = await reply;
  return { ahead, saidWhileDrawing, later: m.requests.slice(asked + 1), heard: [...c.intermediate, final.text].join('') };
}

describe('你画我猜: the model is asked while the robot draws', () => {
  it('at the start and after a right answer, the step asked ahead is the one taken: its words come after the picture, and the model is not asked again', async () => {
    const robot = new SlowRobot();
    const m = recordingModel();
    const agent = new DrawGuessAgent({ model: m.model, device: robot, random: inOrder }, { deck: DECK });

    for (const [kind, text] of [['start', '我们玩你画我猜吧'], ['message', '是狗']] as const) {
      const t = await drawnTurn(agent, robot, m, kind, text);
      // Asked with the conversation as it is once the picture is done: its result and the rules' line after it.
      const foreseen = t.ahead.messages.map((x) => x.content).join('\n');
      expect(foreseen).toContain('"name":"show_drawing","result":{"device_completed":true');
      // The rules' line after the picture is noted in the drawing's result.
      expect(readToolResult(t.ahead.messages.at(-1)!)).toMatchObject({ name: 'show_drawing', said: expect.stringContaining('画好啦') });
      expect(t.saidWhileDrawing).not.toContain(COLOUR);
      expect(t.saidWhileDrawing).not.toContain('画好');
      expect(t.later).toHaveLength(0);
      expect(t.heard).toContain(COLOUR);
      // The model's words come after the rules' line for the finished picture.
      expect(t.heard.indexOf(COLOUR)).toBeGreaterThan(t.heard.indexOf('第'));
      if (kind === 'message') expect(t.heard).toContain('答对');
    }
  });

  it('a drawing the robot could not finish: the step asked ahead is dropped unsaid, and the model is asked with what happened', async () => {
    const robot = new SlowRobot();
    const m = recordingModel();
    const agent = new DrawGuessAgent({ model: m.model, device: robot, random: inOrder }, { deck: DECK });
    const t = await drawnTurn(agent, robot, m, 'start', '我们玩你画我猜吧', { device_completed: false, error: 'robot_disconnected: 机器人没连上' });
    expect(t.ahead.signal?.aborted).toBe(true);
    expect(t.later).toHaveLength(1);
    const asked = t.later[0].messages.map((x) => x.content).join('\n');
    expect(asked).toContain('"device_completed":false');
    expect(asked).toContain('get_hint');
    // Said once: by the step asked with what happened, not by the dropped one.
    expect(t.heard.split(COLOUR)).toHaveLength(2);
    expect(t.heard).not.toContain('画好');
  });

  it('a turn without a drawing (a wrong answer) asks the model once, after the rules', async () => {
    const robot = new SlowRobot();
    const m = recordingModel();
    const agent = new DrawGuessAgent({ model: m.model, device: robot, random: inOrder }, { deck: DECK });
    await drawnTurn(agent, robot, m, 'start', '我们玩你画我猜吧');
    const before = m.requests.length;
    const c = ctx();
    await agent.turn({ kind: 'message', text: '是猫', requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 60_000 });
    expect(robot.drawing).toHaveLength(1);
    expect(m.requests.length - before).toBe(1);
    expect(m.requests.at(-1)!.messages.map((x) => x.content).join('\n')).toContain('submit_answer');
  });
});
