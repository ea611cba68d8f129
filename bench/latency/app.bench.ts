/**
 * The measured half of `bench/latency/run.ts --app` (run by it through Playwright with
 * bench/latency/app.config.ts; not part of the e2e suite): the real app — the test build that the
 * e2e tests run, production-bundled — in Debian Chromium against a local server paced at each
 * profile's rates (paced-server.ts), played by typed words: 猜数字 (start, a hint, a chat turn with
 * the main agent, halving guesses), 你画我猜 (naming the drawing on the robot) and a
 * hand-made 恐龙问答 from the Studio, each for `turns` in-game turns and then ended. Per profile
 * twice in the same browser: "before" (`?rules-first=off`, the test build's developer switch: no
 * pre-executed steps, the rules never speak first) and "after" (the app as it ships).
 *
 * Every time is taken in the page or on the server, never by polling: the child's act (a capture
 * listener on the send button and the game card, Date.now()), the thinking cue (a
 * MutationObserver on the on-screen robot's data-face, and data-sign over a drawing), each line
 * handed to speech (the speech fake's startedAt), the cuts (the app's own trace: `model_step`
 * errors), the model's first sentence (the server's clock when the piece ending it was written, or,
 * for a reply abandoned before it, when the pacing would have written it). Polling only decides when a turn is over.
 * Writes the raw turns to BENCH_APP_OUT as JSON; run.ts turns them into figures.
 */
import { test } from '@playwright/test';
import { installSpeechFake } from '../../tests/e2e/fakes/speech-fake.ts';
import { pinSeeds, drawGuessCards, DEFAULT_SEED } from '../../tests/e2e/support/seeds.ts';
import { setUpAsParent } from '../../tests/e2e/support/parent.ts';
import { type, useRemoteBrain } from '../../tests/e2e/support/child.ts';
import { byDrawingId } from '../../tests/e2e/support/robot.ts';
import { Parent } from '../../tests/e2e/support/studio.ts';
import { DEMO_THEMES } from '../../src/studio/demo-decks.ts';
import { SAY } from '../../src/arcade/errors.ts';
import { qwenTokenizer } from '../llm/run.ts';
import { startPacedServer, type PacedProfile } from './paced-server.ts';
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';

import { APP_RUN_VARIANTS, engineQuery, VARIANT_QUERY, type AppRunVariant } from './app-variants.ts';

export interface BenchConfig {
  profiles: PacedProfile[];
  /** In-game turns per game (after its start). */
  turns: number;
  out: string;
  /** The variants to play, in order (default all of APP_RUN_VARIANTS). */
  variants?: AppRunVariant[];
}

export interface RawTurn {
  game: string;
  kind: 'start' | 'message' | 'chat' | 'end';
  words: string;
  actedAt: number;
  cueAt: number | null;
  lines: Array<{ text: string; at: number }>;
  requests: Array<{
    agent: string;
    promptTokens: number;
    prefillTokens: number;
    inPlace: boolean;
    receivedAt: number;
    /** When the paced engine took it (unset: dropped while it waited for the request before it). */
    startedAt?: number;
    firstContentAt?: number;
    sentenceAt?: number;
    sentenceReached: boolean;
    finished: boolean;
    /** The app's prewarm (src/llm/remote-prewarm.ts), not a step. */
    prewarm?: boolean;
  }>;
  /** The app's trace: `model_step` errors in this turn (the budget or the colour window cut the model). */
  cuts: string[];
}

export interface RawRun {
  profile: string;
  variant: AppRunVariant;
  turns: RawTurn[];
  /** The app's trace events of the run (kind, name, source, time), to see where a turn's time went. */
  events: Array<{ kind: string; name?: string; source?: string; at: number }>;
}

/** What the page has that the bench reads (the test build's `?e2e` runtime, the speech fake, the bench's own watch). */
interface BenchWindow {
  __bench: { acts: number[]; faces: Array<{ face: string; at: number }> };
  __speech: { startedAt: Array<{ text: string; at: number }> };
  __agentcade: {
    robot: { screenSim: { state: { content?: { id?: string } } } };
    hub: { status(): { running?: string; waiting: string[] } };
    recorder: { flush(): Promise<void> };
    traceStore: Promise<{ load(): Promise<{ rounds: Array<{ events: unknown[] }> }> }>;
  };
}

const cfg = JSON.parse(process.env.BENCH_APP ?? '{}') as BenchConfig;
const DINO = DEMO_THEMES['恐龙'].rows;
const CARDS = drawGuessCards(DEFAULT_SEED);
const WAITING = [...SAY.stillThinking, SAY.wait];

test.describe.configure({ timeout: 3_600_000 });

/** Records the child's acts and the thinking face with the page's clock. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.__bench = { acts: [], faces: [] };
    document.addEventListener('click', (e) => {
      const t = (e.target as Element | null)?.closest?.('[data-testid=send],[data-testid=game-card]');
      if (t) w.__bench.acts.push(Date.now());
    }, true);
    // The thinking cue: the face, or over a drawing the small thinking sign beside it.
    new MutationObserver((muts) => {
      for (const m of muts) {
        const el = m.target as Element;
        if (m.attributeName === 'data-face' || m.attributeName === 'data-sign') w.__bench.faces.push({ face: el.getAttribute(m.attributeName) ?? '', at: Date.now() });
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-face', 'data-sign'] });
  });
}

const lines = (page: Page): Promise<Array<{ text: string; at: number }>> => page.evaluate(() => (window as unknown as BenchWindow).__speech.startedAt);
/**
 * The mic is idle, the game is not busy (the round and the game's turn are over), and the app's
 * model hub runs and holds no step (a step waiting there behind a prewarm has not reached the server yet).
 */
const settled = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const mic = document.querySelector('[data-testid=mic-button]');
    const hub = (window as unknown as BenchWindow).__agentcade.hub.status();
    return mic?.getAttribute('data-state') === 'idle' && !mic.hasAttribute('data-busy') && hub.running === undefined && hub.waiting.length === 0;
  });
const inGame = async (page: Page) => (await page.getByTestId('current-game').count()) > 0;

test('the app measured at each profile, before and after the rules speak first', async ({ page }) => {
  const tok = await qwenTokenizer();
  const paced = await startPacedServer(tok);
  const runs: RawRun[] = [];
  try {
    await page.addInitScript(installSpeechFake, { msPerChar: 2 });
    await pinSeeds(page, [DEFAULT_SEED]);
    await page.goto('/?e2e#studio');
    await page.waitForFunction(() => '__agentcade' in window);
    await setUpAsParent(page);
    // A parent makes the quiz with the rules brain (no server involved).
    await page.locator('body[data-studio-ready="1"]').waitFor();
    await page.getByTestId('new-talk').click();
    const parent = new Parent(page);
    await parent.typesToStudio('给5岁的孩子做一个恐龙问答');
    await parent.acceptsAll();
    await page.getByTestId('waiting').filter({ hasText: '做好了' }).waitFor();

    for (const profile of cfg.profiles)
      for (const variant of cfg.variants ?? APP_RUN_VARIANTS) {
        await page.goto(`/?e2e${VARIANT_QUERY[variant]}${engineQuery(variant, profile)}#arcade`);
        await page.waitForFunction(() => '__agentcade' in window);
        await watch(page);
        paced.reset(profile);
        await useRemoteBrain(page, paced.baseUrl, profile.id);
        const turns: RawTurn[] = [];
        const play = async (game: string, kind: RawTurn['kind'], words: string, act: () => Promise<void>): Promise<RawTurn> => {
          const k = (await lines(page)).length;
          const r = paced.log.length;
          const acts = await page.evaluate(() => (window as unknown as BenchWindow).__bench.acts.length);
          await act();
          await page.waitForFunction((n) => (window as unknown as BenchWindow).__bench.acts.length > n, acts);
          // Over once something other than a waiting line was said, no step of the turn is still
          // open at the server or held in the app's hub (a prewarm may read on while the child
          // thinks), the mic is idle, the game not busy, and nothing new was said for 1 s (the
          // times themselves come from the page).
          let quiet = 0;
          let seen = k;
          const started = Date.now();
          while (quiet < 1000 && Date.now() - started < 120_000) {
            await page.waitForTimeout(250);
            const now = await lines(page);
            const open = paced.log.slice(r).some((q) => !q.prewarm && q.record.closedAt === undefined);
            const answered = now.slice(k).some((l) => !WAITING.some((w) => w.includes(l.text.trim())));
            if (now.length !== seen || !answered || open || !(await settled(page))) quiet = 0;
            else quiet += 250;
            seen = now.length;
          }
          const actedAt = await page.evaluate(() => (window as unknown as BenchWindow).__bench.acts.at(-1) ?? 0);
          const face = await page.evaluate((a) => (window as unknown as BenchWindow).__bench.faces.find((f) => f.face === 'thinking' && f.at >= a)?.at ?? null, actedAt);
          const t: RawTurn = {
            game,
            kind,
            words,
            actedAt,
            cueAt: face,
            lines: (await lines(page)).slice(k),
            requests: paced.log.slice(r).map((q) => ({
              agent: q.agent,
              promptTokens: q.promptTokens,
              prefillTokens: q.prefillTokens,
              inPlace: q.inPlace,
              receivedAt: q.record.receivedAt,
              ...(q.startedAt === undefined ? {} : { startedAt: q.startedAt }),
              ...(q.prewarm ? { prewarm: true } : {}),
              firstContentAt: q.record.firstContentAt,
              sentenceAt: q.record.markedAt ?? q.sentenceDueAt,
              sentenceReached: q.record.markedAt !== undefined,
              finished: q.record.lastContentAt !== undefined,
            })),
            cuts: [],
          };
          turns.push(t);
          return t;
        };
        const said = (t: RawTurn) => t.lines.map((l) => l.text).join('');
        const card = (id: string) => page.locator(`[data-testid=game-card][data-game${id === 'studio' ? '^="studio-"' : `=${id}`}]`);
        const endGame = async (game: string) => {
          if (await inGame(page)) await play(game, 'end', '不玩了', () => type(page, '不玩了'));
          await page.getByTestId('current-game').waitFor({ state: 'detached', timeout: 60_000 });
        };

        // 猜数字: a hint, a chat with the main agent, halving guesses.
        await play('猜数字', 'start', '(card)', () => card('guess-number').click());
        let [lo, hi] = [1, 100];
        for (let i = 0; i < cfg.turns && (await inGame(page)); i++) {
          if (i === 0) {
            await play('猜数字', 'message', '给我一个提示', () => type(page, '给我一个提示'));
            // A chat with the main agent in the middle of the game (the next in-game turn shows what it cost).
            if (cfg.turns > 1) await play('猜数字', 'chat', '你叫什么名字', () => type(page, '你叫什么名字'));
            continue;
          }
          const n = Math.floor((lo + hi) / 2);
          const t = await play('猜数字', 'message', `我猜${n}`, () => type(page, `我猜${n}`));
          const s = said(t);
          if (s.includes(`${n} 大了`) || s.includes(`${n}大了`)) hi = n - 1;
          else if (s.includes(`${n} 小了`) || s.includes(`${n}小了`)) lo = n + 1;
        }
        await endGame('猜数字');

        // 你画我猜: name the drawing on the robot (or, when none is shown, the card the seed put there).
        await play('你画我猜', 'start', '(card)', () => card('draw-guess').click());
        let right = 0;
        for (let i = 0; i < cfg.turns && (await inGame(page)); i++) {
          const id = await page.evaluate(() => (window as unknown as BenchWindow).__agentcade.robot.screenSim.state.content?.id);
          const name = (id && byDrawingId.get(id)?.name) || CARDS[Math.min(right, CARDS.length - 1)].name;
          const t = await play('你画我猜', 'message', `是${name}`, () => type(page, `是${name}`));
          if (said(t).includes('答对')) right++;
        }
        await endGame('你画我猜');

        // The hand-made quiz: the answer of the last card question heard.
        const start = await play('恐龙问答', 'start', '(card)', () => card('studio').click());
        let heard = said(start);
        for (let i = 0; i < cfg.turns && (await inGame(page)); i++) {
          const q = [...DINO].filter((row) => heard.includes(row[2])).at(-1);
          const answer = q ? q[0] : DINO[0][0];
          const t = await play('恐龙问答', 'message', answer, () => type(page, answer));
          heard = said(t) || heard;
        }
        await endGame('恐龙问答');

        // The app's own record of every cut: `model_step` errors, put in the turn they happened in.
        const events: Array<{ kind: string; name?: string; source?: string; at: number; data?: { error?: string } }> = await page.evaluate(async () => {
          const rt = (window as unknown as BenchWindow).__agentcade;
          await rt.recorder.flush();
          const g = await (await rt.traceStore).load();
          return g.rounds.flatMap((x) => x.events) as Array<{ kind: string; name?: string; source?: string; at: number; data?: { error?: string } }>;
        });
        for (const e of events) {
          if (e.kind !== 'error' || e.name !== 'model_step') continue;
          const t = turns.findLast((x) => x.actedAt <= e.at);
          if (t) t.cuts.push(String(e.data?.error ?? ''));
        }
        const from = turns[0]?.actedAt ?? 0;
        runs.push({ profile: profile.id, variant, turns, events: events.filter((e) => e.at >= from).map((e) => ({ kind: e.kind, name: e.name, source: e.source, at: e.at })) });
        console.log(`measured ${profile.id} ${variant}: ${turns.length} turns`);
      }
  } finally {
    writeFileSync(cfg.out, JSON.stringify(runs));
    // BENCH_APP_DUMP=<file>: every request the server got, as sent, and what it wrote (to see what was prefilled).
    if (process.env.BENCH_APP_DUMP) writeFileSync(process.env.BENCH_APP_DUMP, JSON.stringify(paced.log.map((q) => ({ agent: q.agent, promptTokens: q.promptTokens, prefillTokens: q.prefillTokens, inPlace: q.inPlace, finished: q.record.lastContentAt !== undefined, messages: q.record.body.messages, content: q.content }))));
    await paced.close();
  }
});
