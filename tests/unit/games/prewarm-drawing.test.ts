/**
 * While the robot draws: in 你画我猜 the rules take `show_drawing` before the model is asked, and the
 * robot takes seconds to draw. Meanwhile the engine is asked to read the conversation so far (the
 * draw step included), so the model's request after the drawing continues what was read and the
 * engine reads only the drawing's result and what followed it — on an engine that holds one
 * conversation (WebLLM) that is the difference between a reply within the colour window and one cut.
 */
import { describe, expect, it, vi } from 'vitest';
import { DrawGuessAgent } from '../../../skills/draw-guess/game.ts';
import type { Card } from '../../../skills/draw-guess/rules.ts';
import type { ChatMessage, Step, StepRequest } from '../../../src/core/llm/types.ts';
import type { DeviceResult, Drawing } from '../../../src/core/robot/types.ts';
import { ctx, deferred, FakeDevice } from './helpers.ts';

const DECK: Card[] = [
  { id: 'dog', name: '狗', aliases: ['小狗'], hints: ['它会汪汪叫。'], drawing: { id: 'dog', strokes: [[[10, 10], [200, 200]]] } },
  { id: 'cat', name: '猫', aliases: ['小猫'], hints: ['它会喵喵叫。'], drawing: { id: 'cat', strokes: [[[10, 10], [200, 200]]] } },
  { id: 'tiger', name: '老虎', aliases: ['虎'], hints: ['它是森林之王。'], drawing: { id: 'tiger', strokes: [[[10, 10], [200, 200]]] } },
];
const inOrder = () => 0.9999;
const DRAW_STEP = { role: 'assistant', content: '{"show_drawing":{}}' };

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

/** A model that answers at once and records what it was asked to read and to step. */
function recordingModel() {
  const requests: ChatMessage[][] = [];
  const warmed: ChatMessage[][] = [];
  return {
    requests,
    warmed,
    model: {
      label: 'recording',
      step: async (req: StepRequest): Promise<Step> => {
        requests.push(req.messages.map((m) => ({ ...m })));
        return { action: 'reply', args: { text: '说出它的名字就行！' } };
      },
      prewarm: async (_agent: string, messages: ChatMessage[]) => {
        warmed.push(messages.map((m) => ({ ...m })));
      },
    },
  };
}

async function drawnTurn(agent: DrawGuessAgent, robot: SlowRobot, m: ReturnType<typeof recordingModel>, kind: 'start' | 'message', text: string) {
  const c = ctx();
  const drawings = robot.drawing.length;
  const asked = m.requests.length;
  const reply = agent.turn({ kind, text, requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 60_000 });
  await vi.waitFor(() => expect(robot.drawing.length).toBe(drawings + 1));
  // The robot is drawing: the model has not been asked, the conversation up to the draw step is being read.
  expect(m.requests.length).toBe(asked);
  const read = m.warmed.at(-1)!;
  expect(read.at(-1)).toEqual(DRAW_STEP);
  robot.drawing.at(-1)!.resolve({ device_completed: true });
  await reply;
  const request = m.requests.at(-1)!;
  return { read, request, said: c.intermediate.join('') };
}

describe('你画我猜: the conversation is read while the robot draws', () => {
  it('at the start and after a right answer, the request after the drawing continues what was read during it', async () => {
    const robot = new SlowRobot();
    const m = recordingModel();
    const agent = new DrawGuessAgent({ model: m.model, device: robot, random: inOrder }, { deck: DECK });

    const start = await drawnTurn(agent, robot, m, 'start', '我们玩你画我猜吧');
    expect(start.request.slice(0, start.read.length)).toEqual(start.read);
    expect(start.request[start.read.length].content).toContain('show_drawing');
    expect(start.request[start.read.length].content).toContain('device_completed');

    const right = await drawnTurn(agent, robot, m, 'message', '是狗');
    expect(right.said).toContain('答对');
    expect(right.read.some((x) => x.content.includes('是狗'))).toBe(true);
    expect(right.request.slice(0, right.read.length)).toEqual(right.read);
    expect(right.request[right.read.length].content).toContain('device_completed');
  });

  it('a turn without a drawing (a wrong answer) asks nothing to be read before the model', async () => {
    const robot = new SlowRobot();
    const m = recordingModel();
    const agent = new DrawGuessAgent({ model: m.model, device: robot, random: inOrder }, { deck: DECK });
    await drawnTurn(agent, robot, m, 'start', '我们玩你画我猜吧');
    const warmedBefore = m.warmed.length;
    const c = ctx();
    await agent.turn({ kind: 'message', text: '是猫', requestId: c.requestId, contextId: c.contextId, signal: c.signal, say: c.say, deadline: Date.now() + 60_000 });
    expect(robot.drawing).toHaveLength(1);
    // Only the next request's start, once the turn is over (prewarm-next.test.ts), and it ends with the turn's reply.
    expect(m.warmed.slice(warmedBefore)).toHaveLength(1);
    expect(m.warmed.at(-1)!.at(-1)!.role).toBe('assistant');
    expect(m.warmed.at(-1)!.at(-1)!.content).toContain('reply');
  });
});
