import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOnScreenEngine } from '../../../src/robot/on-screen.ts';
import { RobotOutput } from '../../../src/robot/output-module.ts';
import { steppingRandom } from '../../support/robot/random.ts';
import { TimedSpeech } from '../../support/robot/timed-speech.ts';
import { screenMode } from '../../../src/robot/sim/state.ts';
import type { Drawing } from '../../../src/core/robot/types.ts';
import { connected, outcome, tick } from './harness.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const cat: Drawing = {
  id: 'cat',
  strokes: [
    [[60, 60], [80, 30], [100, 60]],
    [[140, 60], [160, 30], [180, 60]],
    [[60, 60], [60, 180], [180, 180], [180, 60]],
  ],
};

async function screenOnly() {
  const screen = createOnScreenEngine({ random: steppingRandom() });
  const speech = new TimedSpeech(undefined, 200); // 200 ms per character
  const output = new RobotOutput({ speech, screen: screen.link });
  const notices: string[] = [];
  output.on('notice', (n) => notices.push(n));
  await tick(400);
  await screen.ready;
  return { screen, sim: screen.sim, speech, output, notices };
}

describe('output module: react and the speech-timed face', () => {
  it('shows the face at once, starts the gesture without waiting, holds the face across a long sentence, then restores the drawing', async () => {
    const { sim, speech, output } = await screenOnly();
    const shown = outcome(output.showDrawing(cat));
    await tick(2000);
    expect(shown.value).toEqual({ device_completed: true });

    const reacted = outcome(output.react('happy', 'nod'));
    await tick(5);
    expect(reacted.settled).toBe(true); // react never waits for the motion
    expect(sim.state.face).toBe('happy');
    expect(sim.state.head.gesture).toBe('nod');
    expect(screenMode(sim.state)).toBe('face');

    void speech.say('答对了！你真是太厉害了，这就是一只小猫'); // 19 characters → 3.8 s
    await tick(3000);
    expect(sim.state.head.gesture).toBeNull(); // the nod is long over…
    expect(sim.state.face).toBe('happy'); // …but the face stays while the sentence plays
    await tick(1000);
    expect(sim.state.face).toBeNull();
    expect(screenMode(sim.state)).toBe('drawing');
    expect(sim.state.content.kind === 'drawing' && sim.state.content.drawn).toBe(3);
  });

  it('a sentence already playing when react comes does not end the hold; the next one does', async () => {
    const { sim, speech, output } = await screenOnly();
    void speech.say('让我看看'); // 0.8 s
    await tick(300);
    await output.react('sorry', 'shake');
    void speech.say('不对哦，再想想');
    await tick(600); // first sentence over, second playing
    expect(speech.spoken).toEqual(['让我看看']);
    expect(sim.state.face).toBe('sorry');
    await tick(1500);
    expect(sim.state.face).toBeNull();
    expect(screenMode(sim.state)).toBe('idle'); // no game picture: the idle screen
    expect(sim.state.gestures).toEqual(['shake']);
  });

  it('a picture sent while the face is held stays under the face until the sentence is spoken', async () => {
    const { sim, speech, output } = await screenOnly();
    await output.react('happy', 'none');
    const shown = outcome(output.showProgress({ current: 2, total: 5, label: '第 2 题' }));
    await tick(300);
    expect(shown.value).toEqual({ device_completed: true });
    expect(screenMode(sim.state)).toBe('face');
    void speech.say('下一题');
    await tick(700);
    expect(screenMode(sim.state)).toBe('progress');
  });
});

describe('output module: thinking over a drawing', () => {
  it('the drawing being guessed stays on screen: thinking is a small sign beside it, held until the answer\'s first sentence has been spoken', async () => {
    const { sim, speech, output } = await screenOnly();
    void output.showDrawing(cat);
    await tick(2000);
    const signs: boolean[] = [];
    output.on('sign', (on) => signs.push(on));
    await output.react('thinking', 'none');
    await tick(200);
    expect(sim.state.face).toBeNull();
    expect(screenMode(sim.state)).toBe('drawing');
    expect(output.sign).toBe(true);
    void speech.say('不是小猫哦'); // 1 s
    await tick(600);
    expect(output.sign).toBe(true); // still thinking while the answer's first sentence plays
    await tick(600);
    expect(output.sign).toBe(false);
    expect(screenMode(sim.state)).toBe('drawing');
    expect(signs).toEqual([true, false]);
  });

  it('with no drawing on screen, thinking is the face as before; a reaction over a drawing takes the sign away and shows its face', async () => {
    const { sim, speech, output } = await screenOnly();
    await output.react('thinking', 'none');
    await tick(200);
    expect(sim.state.face).toBe('thinking');
    expect(output.sign).toBe(false);
    void speech.say('好');
    await tick(400);
    void output.showDrawing(cat);
    await tick(2000);
    await output.react('thinking', 'none');
    await output.react('happy', 'nod');
    await tick(200);
    expect(output.sign).toBe(false);
    expect(sim.state.face).toBe('happy');
  });
});

describe('output module: idle at the end of a session', () => {
  it('goes idle only after the last sentence of the ended session has been spoken', async () => {
    const { sim, speech, output } = await screenOnly();
    void output.showProgress({ current: 5, total: 5 });
    await tick(200);
    await output.idle(); // the runtime asks before the final reply is spoken
    await tick(500);
    expect(screenMode(sim.state)).toBe('progress');
    void speech.say('游戏结束啦', '你答对了五题', '下次再玩');
    await tick(2500); // first two sentences
    expect(screenMode(sim.state)).toBe('progress');
    await tick(1000);
    expect(speech.isSpeaking()).toBe(false);
    await tick(20);
    expect(screenMode(sim.state)).toBe('idle');
    expect(output.picture).toBeNull();
  });

  it('goes idle after the grace period when nothing is said at all', async () => {
    const { sim, output } = await screenOnly();
    void output.showText({ text: '第一题：这是什么动物？' });
    await tick(200);
    await output.idle();
    await tick(7000);
    expect(screenMode(sim.state)).toBe('text');
    await tick(1500);
    expect(screenMode(sim.state)).toBe('idle');
  });

  it('a new game picture cancels a pending idle', async () => {
    const { sim, speech, output } = await screenOnly();
    await output.idle();
    void output.showText({ text: '新的一局' });
    void speech.say('我们开始吧');
    await tick(9000);
    expect(screenMode(sim.state)).toBe('text');
  });
});

describe('output module: USB robot and the on-screen robot', () => {
  async function withRobot() {
    const rig = await connected();
    const screen = createOnScreenEngine({ random: steppingRandom() });
    const speech = new TimedSpeech(undefined, 200);
    const output = new RobotOutput({ speech, screen: screen.link, robot: rig.link });
    const notices: string[] = [];
    output.on('notice', (n) => notices.push(n));
    await tick(400);
    return { ...rig, screen, speech, output, notices };
  }

  it('draws on the USB robot stroke by stroke and reports device_completed only when it is done', async () => {
    const { sim, screen, output } = await withRobot();
    expect(output.active).toBe('robot');
    const shown = outcome(output.showDrawing(cat));
    await tick(150);
    expect(shown.settled).toBe(false);
    expect(sim.state.content.kind).toBe('drawing');
    await tick(600);
    expect(shown.value).toEqual({ device_completed: true });
    expect(sim.state.content.kind === 'drawing' && sim.state.content.strokes).toEqual(cat.strokes);
    // The on-screen robot mirrors it, ready to take over.
    expect(screen.sim.state.content.kind === 'drawing' && screen.sim.state.content.drawn).toBe(3);
  });

  it('unplug mid-drawing: the on-screen robot takes over with a notice, the tool result waits for its copy, and re-plug resyncs the robot', async () => {
    const { sim, port, screen, output, notices } = await withRobot();
    const shown = outcome(output.showDrawing(cat));
    await tick(100);
    port.unplug();
    await tick(10);
    expect(notices).toEqual(['机器人断开了，我先在屏幕上陪你玩']);
    expect(output.active).toBe('screen');
    expect(output.status()).toContain('断开');
    // "Drawn" is what the child sees: the on-screen copy is still being drawn, so no result yet.
    const onScreen = () => (screen.sim.state.content.kind === 'drawing' ? screen.sim.state.content : null);
    expect(onScreen()!.drawn).toBeLessThan(3);
    expect(shown.settled).toBe(false);
    await tick(800);
    expect(onScreen()!.drawn).toBe(3);
    expect(shown.value).toEqual({ device_completed: true, shown_on: 'screen' });

    // While unplugged, the game goes on, on the screen.
    const r = outcome(output.react('happy', 'nod'));
    await tick(10);
    expect(r.settled).toBe(true);
    expect(screen.sim.state.face).toBe('happy');

    port.plug();
    await tick(2000);
    expect(output.active).toBe('robot');
    expect(notices[1]).toBe('机器人回来啦！');
    // The robot came back blank; it was given the picture (without animation) and the held face.
    expect(sim.state.content.kind === 'drawing' && sim.state.content.strokes).toEqual(cat.strokes);
    expect(sim.state.face).toBe('happy');
  });

  it('a drawing asked for while the on-screen robot is still starting reaches it too, so an unplug right after finds it there', async () => {
    const rig = await connected();
    // The USB robot is ready; the on-screen robot is built now and needs about 0.3 s to boot.
    const screen = createOnScreenEngine({ random: steppingRandom() });
    const output = new RobotOutput({ speech: new TimedSpeech(undefined, 200), screen: screen.link, screenStarted: screen.started, robot: rig.link });
    expect(screen.link.state).not.toBe('ready');
    const shown = outcome(output.showDrawing(cat));
    await tick(150);
    expect(rig.sim.state.content.kind === 'drawing' && rig.sim.state.content.drawn).toBe(1); // mid-drawing
    rig.port.unplug();
    await tick(10);
    expect(output.active).toBe('screen');
    expect(shown.settled).toBe(false); // the on-screen robot has not drawn it yet
    await tick(1500);
    const c = screen.sim.state.content;
    expect(c.kind === 'drawing' && [c.strokes, c.drawn]).toEqual([cat.strokes, 3]);
    expect(shown.value).toEqual({ device_completed: true, shown_on: 'screen' });
  });
});

describe('output module: the on-screen robot starting', () => {
  it('commands sent before its hello wait for it, in order, instead of being refused', async () => {
    const screen = createOnScreenEngine({ random: steppingRandom() });
    const output = new RobotOutput({ speech: new TimedSpeech(undefined, 200), screen: screen.link, screenStarted: screen.started });
    const first = outcome(output.showText({ text: '第一张' }));
    void output.react('happy', 'nod');
    const second = outcome(output.showProgress({ current: 1, total: 3 }));
    await tick(200);
    expect(first.settled).toBe(false); // still booting
    await tick(600);
    expect(first.value).toEqual({ device_completed: true });
    expect(second.value).toEqual({ device_completed: true });
    expect(screen.sim.state.face).toBe('happy');
    expect(screen.sim.state.gestures).toEqual(['nod']);
    expect(screen.sim.state.content).toMatchObject({ kind: 'progress', current: 1, total: 3 });
  });
});
