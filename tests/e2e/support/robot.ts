/**
 * The fake robot hardware for e2e specs: init scripts bundled with esbuild from our real simulator
 * (tests/e2e/fakes/*-init.ts), and the cable pulled at a precise moment.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { splitStroke } from '../../../src/core/robot/pictures.ts';
import { installSpeechFake } from '../fakes/speech-fake.ts';
import { DEFAULT_SEED, expectSeedsPinned, pinSeeds } from './seeds.ts';
import { setUpAsParent } from './parent.ts';

/** Bundles an init-script fake (e.g. 'tests/e2e/fakes/serial-init.ts') into one script for addInitScript. */
export async function bundleFake(entry: string): Promise<string> {
  const out = await build({ entryPoints: [entry], bundle: true, write: false, format: 'iife', target: 'es2022', logLevel: 'warning' });
  return out.outputFiles[0].text;
}

/**
 * Arms the cable pull for right after the robot has drawn the first stroke of the next drawing. Call
 * it before the tap that starts the drawing, then await the returned function. The pull comes from
 * the simulator's own state change, in the page, so no test runner or timer can miss the moment:
 * one microtask after the change (outside the simulator's own call), while the next stroke needs
 * at least 5 ms of the simulator's timers.
 */
export async function unplugOnFirstStroke(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    type Sim = { subscribe(cb: (s: { content: { drawn?: number } }) => void): () => void };
    const w = globalThis as unknown as { __robotSim: { sim: Sim; unplug(): void }; __unplugged?: Promise<void> };
    const robot = w.__robotSim;
    w.__unplugged = new Promise<void>((resolve) => {
      let pulled = false;
      const off = robot.sim.subscribe((s) => {
        if (pulled || (s.content.drawn ?? 0) === 0) return;
        pulled = true;
        queueMicrotask(() => {
          off();
          robot.unplug();
          resolve();
        });
      });
    });
  });
  return () => page.evaluate(() => (globalThis as unknown as { __unplugged: Promise<void> }).__unplugged);
}

/** What a simulated robot shows, as a line snapshot records it. */
export interface Shown {
  kind: string;
  id?: string;
  strokes?: number;
  drawn?: number;
  complete?: boolean;
}

/** A line handed to speech, with what the USB robot and the on-screen robot showed at that moment. */
export interface LineSeen {
  text: string;
  usb: Shown;
  screen: Shown;
  /** performance.now() in the page. */
  at: number;
}

/**
 * From now on, records every line the app hands to speechSynthesis together with what both
 * simulated robots show at that very moment (in the page, so nothing can slip between them).
 * Read it with `linesSeen`.
 */
export async function watchLines(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Sim = { state: { content: { kind: string; id?: string; strokes?: unknown[]; drawn?: number; complete?: boolean } } };
    const w = window as unknown as {
      __linesSeen: unknown[];
      __robotSim: { sim: Sim };
      __agentcade: { robot: { screenSim: Sim } };
      speechSynthesis: { speak(u: { text: string }): void };
    };
    const shot = (sim: Sim) => {
      const c = sim.state.content;
      return c.kind === 'drawing' ? { kind: c.kind, id: c.id, strokes: c.strokes?.length ?? 0, drawn: c.drawn ?? 0, complete: !!c.complete } : { kind: c.kind };
    };
    w.__linesSeen = [];
    const synth = w.speechSynthesis;
    const speak = synth.speak.bind(synth);
    synth.speak = (u) => {
      w.__linesSeen.push({ text: u.text, usb: shot(w.__robotSim.sim), screen: shot(w.__agentcade.robot.screenSim), at: performance.now() });
      speak(u);
    };
  });
}

export const linesSeen = (page: Page): Promise<LineSeen[]> => page.evaluate(() => (window as unknown as { __linesSeen: LineSeen[] }).__linesSeen);

// ---- 你画我猜 on the robot ----------------------------------------------------------------------

/**
 * A seed whose first 你画我猜 cards are short drawings (犀牛 12 pieces, 海马 8, 牛 13; seed 1 has
 * 鱼, then 斑马's 51): for specs about what happens around a drawing, not about its size.
 */
export const SHORT_DRAWINGS_SEED = 4;

export interface Animal {
  id: string;
  name: string;
  drawing: { id?: string; strokes: Array<Array<[number, number]>> };
}
/** The game's catalogue: a test plays the child who looks at the robot and knows the animal. */
/** The robot's drawings by id (src/core/drawings/animals.json): each card names its drawing by id. */
const drawingsById = new Map((JSON.parse(readFileSync('src/core/drawings/animals.json', 'utf8')) as Array<{ id: string; strokes: Array<Array<[number, number]>> }>).map((d) => [d.id, { id: d.id, strokes: d.strokes }]));
export const ANIMALS = (JSON.parse(readFileSync('skills/draw-guess/animals.json', 'utf8')) as Array<Omit<Animal, 'drawing'> & { drawing: string }>).map((a) => ({ ...a, drawing: drawingsById.get(a.drawing)! })) as Animal[];
export const byDrawingId = new Map(ANIMALS.map((a) => [a.drawing.id || a.id, a]));
/** What the robot must receive for an animal: its strokes, split at the protocol's point limit. */
export const strokesOnWire = (a: Animal) => a.drawing.strokes.flatMap((s) => splitStroke(s)).length;
/** An animal the judge cannot confuse with `name` (no shared character). */
export const otherThan = (name: string) => ANIMALS.find((a) => a.name !== name && ![...a.name].some((ch) => name.includes(ch)))!.name;

/**
 * Opens the app with a navigator.serial fake (the simulator's serial-init.ts, optionally a robot
 * with another hello, or a bridge to a firmware process), the speech fake, every seed pinned to
 * `seed` (你画我猜's cards: `drawGuessCards(seed)`) and the rules brain.
 */
export async function openWithSerialFake(page: Page, fakeSerial: string, hello?: Record<string, unknown>, seed = DEFAULT_SEED): Promise<void> {
  if (hello) await page.addInitScript((h) => Object.assign(globalThis, { __robotSimOptions: { hello: h } }), hello);
  await page.addInitScript({ content: fakeSerial });
  await page.addInitScript(installSpeechFake, {});
  await pinSeeds(page, [seed]);
  await page.goto('/?e2e#arcade');
  await page.waitForFunction(() => '__agentcade' in window);
  await expectSeedsPinned(page);
  await setUpAsParent(page);
  await expect(page.getByTestId('model-status')).toContainText('规则大脑');
}
