/**
 * Robot lab: wires the real link + output module + on-screen robot, with a pretend speaker
 * (TimedSpeech). The e2e test drives it through its buttons; with a real robot on a desktop
 * Chrome it is a bench for firmware authors.
 */
import { mount } from 'svelte';
import { createRobotOutput } from '../../src/robot/create-robot-output.ts';
import { steppingRandom } from '../support/robot/random.ts';
import { TimedSpeech } from '../support/robot/timed-speech.ts';
import type { Drawing } from '../../src/core/robot/types.ts';
import OnScreenRobot from '../../src/ui/robot/OnScreenRobot.svelte';

const speech = new TimedSpeech(undefined, 120);
// A deterministic boot id for the on-screen robot: the e2e specs drive this page.
const robot = createRobotOutput({ speech, random: steppingRandom() });
const { output, link } = robot;

mount(OnScreenRobot, { target: document.getElementById('robot')!, props: { robot: robot.screenSim, output } });

const $ = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
const say = (...s: string[]) => void speech.say(...s);

speech.onSentenceStart((t) => ($('speaking').textContent = t));
speech.onSentenceSpoken(() => ($('speaking').textContent = ''));
link?.on('state', (s) => ($('link-state').textContent = s));
// The app speaks notices; here they are spoken by the pretend speaker and shown.
output.on('notice', (n) => {
  $('spoken-notice').textContent = n;
  say(n);
});

const show = (p: Promise<unknown>) => {
  $('result').textContent = '…';
  void p.then((r) => ($('result').textContent = JSON.stringify(r)));
};

const cat: Drawing = {
  id: 'cat',
  width: 6,
  strokes: [
    [[70, 90], [80, 40], [105, 75]],
    [[135, 75], [160, 40], [170, 90]],
    [[70, 90], [60, 130], [75, 175], [120, 195], [165, 175], [180, 130], [170, 90], [135, 75], [105, 75], [70, 90]],
    [[95, 120], [100, 125]],
    [[140, 120], [145, 125]],
    [[110, 150], [120, 158], [130, 150]],
    [[60, 145], [20, 140]],
    [[60, 155], [22, 165]],
    [[180, 145], [220, 140]],
    [[180, 155], [218, 165]],
  ],
};

$('connect').addEventListener('click', () => void robot.connectByTap());
$('draw').addEventListener('click', () => {
  say('我来画一个，你猜猜是什么');
  show(output.showDrawing(cat));
});
$('right').addEventListener('click', () => {
  void output.react('happy', 'nod');
  say('答对了！就是小猫！');
});
$('wrong').addEventListener('click', () => {
  void output.react('sorry', 'shake');
  say('不对哦，再猜猜看');
});
$('progress').addEventListener('click', () => show(output.showProgress({ current: 2, total: 5, label: '第 2 题' })));
$('text').addEventListener('click', () => show(output.showText({ text: '这是什么动物？' })));
$('end').addEventListener('click', () => {
  void output.idle();
  say('游戏结束啦', '下次再玩');
});

(globalThis as unknown as { __robotLab: unknown }).__robotLab = { robot, output, link, speech };
