/**
 * The output module (seed 000 §游戏 Agent): the main thread's DevicePort. It drives the USB
 * robot when one is ready and always mirrors to the on-screen robot, which takes over (with a
 * notice to speak) when the robot drops.
 *
 * - react(expression, gesture): the face shows at once and the gesture starts; nothing waits.
 *   The face stays until the next sentence (one that starts after the react) has been spoken,
 *   then the game's current picture (or the idle screen) comes back. Thinking while a drawing is
 *   on screen (the child is guessing it) is no face: the drawing stays on every robot, and the
 *   app shows a small thinking sign beside it (`sign`), held the same way.
 * - idle(): resolves at once; the idle screen comes after the last sentence has been spoken
 *   (or after `idleGraceMs` if nothing is said at all). A new picture cancels a pending idle.
 * - showDrawing / showProgress / showText: resolve `{device_completed: true}` when the picture is
 *   complete on the robot the child is looking at:
 *   - the USB robot reports done (commands run within the protocol's rules: command-run.ts);
 *   - the USB robot went away mid-way: the on-screen robot's copy, which is drawn in parallel,
 *     has finished (`shown_on: 'screen'`), so the game's next line never comes before it;
 *   - the USB robot is still there but did not confirm every piece: a card is sent once more
 *     (it is one idempotent command); a half drawing is cleared (a blank canvas, never half a
 *     picture) and the result is `{device_completed: false, error: 'robot_picture_incomplete: …'}`,
 *     so the game says so and may draw it again.
 * - Commands are fitted to each robot's hello: strokes split at its `maxPoints` and `maxFrame`,
 *   an expression it lacks shown as `neutral`, a gesture it lacks left out (src/core/robot/fit-commands.ts).
 */
import { ALL_CAPABILITIES, type Capabilities } from '../core/robot/capabilities.ts';
import { systemClock, type Clock } from './clock.ts';
import { runCommands, type RunFailure, type RunResult } from './command-run.ts';
import { errorText, failedResult, failureDetail, ROBOT_GONE, TIMEOUTS } from './device-results.ts';
import { Emitter } from './emitter.ts';
import { ROBOT_NOTICES } from './errors.ts';
import { fitCommands } from '../core/robot/fit-commands.ts';
import type { LinkState, RobotLink } from './link.ts';
import { statsDelta, type LinkStats } from '../core/robot/link-health.ts';
import { cmd, type Command } from '../core/robot/messages.ts';
import { pictureCommands, pictureLimits, type Picture } from '../core/robot/pictures.ts';
import type { SpeechProgress } from './speech-progress.ts';
import type { DevicePort, DeviceResult, Drawing, Expression, Gesture, Progress, TextCard } from '../core/robot/types.ts';
import { nullTrace, type TraceSink } from '../core/trace/types.ts';

export type ActiveRobot = 'robot' | 'screen';

interface RobotOutputEvents extends Record<string, unknown> {
  /** A sentence for the app to speak (the robot dropped, or came back). */
  notice: string;
  active: ActiveRobot;
  /** Short Chinese status for the UI ("机器人已连接", …). */
  status: string;
  /** The small thinking sign beside a drawing is shown (true) or gone (false). */
  sign: boolean;
}

interface RobotOutputOptions {
  speech: SpeechProgress;
  /** The on-screen robot's link (always there). */
  screen: RobotLink;
  /**
   * Settles when the on-screen robot's first connect attempt is over (it boots in about 0.3 s).
   * Commands for it until then wait, in call order, instead of being refused by a link that is
   * not ready yet: the on-screen robot must mirror everything, including what a USB robot that
   * was ready sooner is asked to do meanwhile.
   */
  screenStarted?: Promise<unknown>;
  /** The USB robot's link, when this browser can have one. */
  robot?: RobotLink | null;
  clock?: Clock;
  trace?: TraceSink;
  /** Go idle anyway when no sentence comes this long after idle() (ms). */
  idleGraceMs?: number;
}

export class RobotOutput extends Emitter<RobotOutputEvents> implements DevicePort {
  active: ActiveRobot = 'screen';
  /** The game's current picture (what the screen returns to). */
  picture: Picture | null = null;
  /** The expression held by react(), until the next sentence has been spoken. */
  held: Expression | null = null;
  /** The small thinking sign beside a drawing, held like a face (react('thinking') over a drawing). */
  sign = false;

  private holdArmed = false;
  private idleRequest: { armed: boolean; timer: unknown } | null = null;
  private pictureChain: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly offs: Array<() => void> = [];
  private wasLost = false;
  /** The latest resync after a hello (connect, reconnect, reboot): the screen state replayed once. */
  private resync: { generation: number; done: Promise<RunResult> } | null = null;
  /** Until the on-screen robot has started: what its commands wait for (see `screenStarted`). */
  private screenGate: Promise<unknown> | null = null;

  constructor(private readonly opts: RobotOutputOptions) {
    super();
    this.clock = opts.clock ?? systemClock;
    this.trace = opts.trace ?? nullTrace;
    const gate = opts.screenStarted;
    if (gate) {
      this.screenGate = gate;
      // Registered before any waiting command, so it runs first and the waiting ones keep their order.
      const open = () => {
        if (this.screenGate === gate) this.screenGate = null;
      };
      gate.then(open, open);
    }
    const { speech, robot } = opts;
    this.offs.push(
      speech.onSentenceStart(() => this.sentenceStarted()),
      speech.onSentenceSpoken(() => this.sentenceSpoken()),
    );
    if (robot) {
      this.offs.push(
        robot.on('ready', () => this.robotReady()),
        robot.on('state', (s) => this.robotState(s)),
        // Link health in the trace's technical detail: every connect, loss and failed attempt, with the counters so far.
        robot.on('ready', ({ rebooted }) => this.record('link', { event: rebooted ? 'rebooted' : 'ready', fw: robot.hello?.fw, serial: robot.hello?.serial, stats: { ...robot.stats } })),
        robot.on('lost', ({ code }) => this.record('link', { event: 'lost', code, stats: { ...robot.stats } })),
        robot.on('error', ({ code, detail }) => this.record('link', { event: 'error', code, detail, stats: { ...robot.stats } })),
        // The robot's own `fault` and `log` events (docs/robot-protocol.md §8), for whoever reads the trace.
        robot.on('event', (body) => this.record('robot_event', body)),
      );
      if (robot.ready) this.active = 'robot';
    }
  }

  /** What the robot in charge can do (the on-screen robot can do everything). */
  capabilities(): Capabilities {
    return this.active === 'robot' && this.opts.robot ? this.opts.robot.capabilities : ALL_CAPABILITIES;
  }

  status(): string {
    const s = this.opts.robot?.state ?? 'none';
    if (s === 'ready') return '机器人已连接';
    if (s === 'connecting') return '正在连接机器人…';
    if (s === 'lost') return '机器人断开了，正在重新连接…';
    return '屏幕上的机器人';
  }

  // ---- DevicePort ---------------------------------------------------------------------------

  async react(expression: Expression, gesture: Gesture): Promise<void> {
    // Armed only by a sentence that starts from now on: the one being spoken now does not count.
    this.holdArmed = false;
    if (expression === 'thinking' && this.picture?.kind === 'drawing') {
      // The drawing being guessed stays on screen; the thinking look is a small sign beside it.
      if (this.held) void this.broadcast([cmd('face.clear', {})]);
      this.held = null;
      this.setSign(true);
      this.record('react', { expression, gesture, sign: true });
      return;
    }
    this.setSign(false);
    this.held = expression;
    const commands: Command[] = [cmd('face.set', { expr: expression })];
    if (gesture === 'nod' || gesture === 'shake') commands.push(cmd('head.gesture', { name: gesture }));
    for (const c of commands) void this.broadcast([c]);
    this.record('react', { expression, gesture });
  }

  showDrawing(drawing: Drawing): Promise<DeviceResult> {
    return this.showPicture({ kind: 'drawing', drawing }, 'showDrawing');
  }

  showProgress(progress: Progress): Promise<DeviceResult> {
    return this.showPicture({ kind: 'progress', progress }, 'showProgress');
  }

  showText(card: TextCard): Promise<DeviceResult> {
    return this.showPicture({ kind: 'text', card }, 'showText');
  }

  async idle(): Promise<void> {
    this.cancelIdle();
    const req = { armed: this.opts.speech.isSpeaking(), timer: undefined as unknown };
    this.idleRequest = req;
    req.timer = this.clock.setTimeout(() => {
      if (this.idleRequest === req && !this.opts.speech.isSpeaking()) this.goIdle();
    }, this.opts.idleGraceMs ?? 8000);
    if (req.armed) void this.opts.speech.whenIdle().then(() => this.tryIdle());
    this.record('idle', { waiting: true });
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
    this.cancelIdle();
  }

  // ---- pictures -----------------------------------------------------------------------------

  private showPicture(picture: Picture, name: string): Promise<DeviceResult> {
    this.cancelIdle();
    this.picture = picture;
    if (picture.kind !== 'drawing') this.setSign(false);
    const t0 = this.clock.now();
    const before = this.linkStats();
    // One picture at a time, in call order: strokes of two drawings never interleave.
    const result = this.pictureChain.then(() => this.drawPicture(picture));
    this.pictureChain = result;
    return result.then((r) => {
      const after = this.linkStats();
      this.record(name, { ...r, ...(before && after ? { link: statsDelta(before, after) } : {}) }, this.clock.now() - t0);
      return r;
    });
  }

  /** The picture on both robots; the result is about the one the child is looking at when it is over. */
  private async drawPicture(picture: Picture): Promise<DeviceResult> {
    const screen = this.toScreen(pictureCommands(picture, true));
    const robot = this.robotInCharge();
    if (!robot) return this.screenResult(await screen);
    const commands = pictureCommands(picture, true, pictureLimits(robot.hello));
    const generation = this.resync?.generation ?? 0;
    let r = await this.runInCharge(robot, commands, screen);
    if ('result' in r) return r.result;
    if (picture.kind !== 'drawing') {
      // A card is one idempotent command: showing it twice is harmless.
      r = await this.runInCharge(robot, commands, screen);
      if ('result' in r) return r.result;
      return { ...failedResult(r.failed), error: errorText('robot_card_not_shown') };
    }
    const { failed } = r;
    // A robot that restarts is silent until its hello, which may come well after a request's ack
    // timeout: its next frame tells a restart (a new hello, whose resync then runs) from a robot
    // that is still there (a Pong) or gone (the link is lost, the on-screen copy counts).
    if (TIMEOUTS.has(failed.code)) {
      await robot.nextFrame();
      if (!robot.ready) return { ...this.screenResult(await screen), shown_on: 'screen' };
    }
    // The robot restarted while this picture was on its way: the resync that its new hello started
    // replays the picture (without animation) once; that replay is this picture's outcome. Drawing it
    // again here, or letting the game draw it again, would stream it two or three times over.
    if (this.resync && this.resync.generation !== generation) {
      const replay = await this.latestResync(robot);
      if (replay.ok && this.picture === picture) return { device_completed: true };
      if (!replay.ok && replay.failed) return { device_completed: false, error: errorText('robot_picture_incomplete'), detail: `after a reboot: ${failureDetail(replay.failed)}` };
    }
    // Never leave half a picture: a blank canvas until the game draws it again. Not after a reboot
    // (the reconnect resync redraws the whole picture), not after `stopped` (the host itself asked
    // for sys.stop / sys.idle), not when the game has moved on to another picture.
    let cleared = false;
    if (failed.code !== 'robot_rebooted' && failed.device !== 'stopped' && this.picture === picture) {
      cleared = (await this.run(robot, [cmd('draw.begin', { id: (commands[0].params as { id: string }).id, animate: false })])).ok;
    }
    return { device_completed: false, error: errorText('robot_picture_incomplete'), detail: `${failureDetail(failed)}${cleared ? '; the half picture was cleared' : ''}` };
  }

  /** Sends to the on-screen robot always and to the USB robot when ready; the result is the active one's. */
  private async broadcast(commands: Command[]): Promise<DeviceResult> {
    const screen = this.toScreen(commands);
    const robot = this.robotInCharge();
    if (!robot) return this.screenResult(await screen);
    const r = await this.runInCharge(robot, fitCommands(robot.hello, commands), screen);
    return 'result' in r ? r.result : failedResult(r.failed);
  }

  /**
   * The outcome of the newest resync (a reboot during a resync starts another; that one counts,
   * also when its hello comes after the replay's requests timed out: see drawPicture).
   */
  private async latestResync(robot: RobotLink): Promise<RunResult> {
    for (;;) {
      const current = this.resync!;
      const r = await current.done;
      if (!r.ok && r.failed && TIMEOUTS.has(r.failed.code)) await robot.nextFrame();
      if (this.resync === current) return r;
    }
  }

  private robotInCharge(): RobotLink | null {
    const robot = this.opts.robot;
    return this.active === 'robot' && robot?.ready ? robot : null;
  }

  /**
   * Runs `commands` on the USB robot in charge. The result is settled when the robot has done them,
   * or when it is gone (unplugged, silent, closed: not just one command failed) and the on-screen
   * robot's copy (`screen`) counts; otherwise the failure is the caller's to handle.
   */
  private async runInCharge(robot: RobotLink, commands: Command[], screen: Promise<RunResult>): Promise<{ result: DeviceResult } | { failed: RunFailure }> {
    const r = await this.run(robot, commands);
    if (r.ok) return { result: { device_completed: true } };
    if (!robot.ready || ROBOT_GONE.has(r.failed!.code)) return { result: { ...this.screenResult(await screen), shown_on: 'screen' } };
    return { failed: r.failed! };
  }

  private run(link: RobotLink, commands: Command[]): Promise<RunResult> {
    return runCommands(link, commands, { clock: this.clock });
  }

  private toScreen(commands: Command[]): Promise<RunResult> {
    const gate = this.screenGate;
    const go = () => this.run(this.opts.screen, commands);
    return gate ? gate.then(go, go) : go();
  }

  private screenResult(r: RunResult): DeviceResult {
    return r.ok ? { device_completed: true } : failedResult(r.failed!);
  }

  private linkStats(): LinkStats | null {
    const robot = this.opts.robot;
    return robot ? { ...robot.stats } : null;
  }

  // ---- speech-timed changes -----------------------------------------------------------------

  private setSign(on: boolean): void {
    if (this.sign === on) return;
    this.sign = on;
    this.emit('sign', on);
  }

  private sentenceStarted(): void {
    if (this.held || this.sign) this.holdArmed = true;
    if (this.idleRequest) this.idleRequest.armed = true;
  }

  private sentenceSpoken(): void {
    if (this.sign && this.holdArmed) {
      this.holdArmed = false;
      this.setSign(false);
    }
    if (this.held && this.holdArmed) {
      this.held = null;
      this.holdArmed = false;
      // The face overlay goes; the robot shows its content layer: the current picture or idle.
      void this.broadcast([cmd('face.clear', {})]);
      this.record('restore', { picture: this.picture?.kind ?? 'idle' });
    }
    // Let a queued sentence start first (isSpeaking stays true if one is queued).
    this.clock.setTimeout(() => this.tryIdle(), 0);
  }

  private tryIdle(): void {
    const req = this.idleRequest;
    if (req?.armed && !this.opts.speech.isSpeaking()) this.goIdle();
  }

  private goIdle(): void {
    this.cancelIdle();
    this.picture = null;
    this.held = null;
    this.holdArmed = false;
    this.setSign(false);
    void this.broadcast([cmd('sys.idle', {})]);
    this.record('idle', { waiting: false });
  }

  private cancelIdle(): void {
    if (this.idleRequest) this.clock.clearTimeout(this.idleRequest.timer);
    this.idleRequest = null;
  }

  // ---- switching robots ---------------------------------------------------------------------

  private robotReady(): void {
    const robot = this.opts.robot!;
    // Resync with idempotent setters: content without animation, then the held face. Once per
    // hello: the hello (a reboot's included) has already failed whatever was in flight, so this is
    // the only stream of the picture now; a picture that was being drawn waits for it (drawPicture).
    const commands = [...pictureCommands(this.picture, false, pictureLimits(robot.hello))];
    if (this.held) commands.push(cmd('face.set', { expr: this.held }));
    const done = this.run(robot, fitCommands(robot.hello, commands));
    this.resync = { generation: (this.resync?.generation ?? 0) + 1, done };
    // A picture asked for from now on goes after the replay, never interleaved with it.
    this.pictureChain = this.pictureChain.then(() => done);
    if (this.active !== 'robot') {
      this.active = 'robot';
      this.emit('active', 'robot');
      if (this.wasLost) this.emit('notice', ROBOT_NOTICES.reconnected);
    }
    this.wasLost = false;
    this.emit('status', this.status());
  }

  private robotLost(): void {
    this.wasLost = true;
    if (this.active === 'robot') {
      this.active = 'screen';
      this.emit('active', 'screen');
      this.emit('notice', ROBOT_NOTICES.unplugged);
    }
    this.emit('status', this.status());
  }

  private robotState(s: LinkState): void {
    if (s === 'lost') return this.robotLost();
    if (s !== 'ready' && this.active === 'robot') {
      this.active = 'screen';
      this.emit('active', 'screen');
    }
    this.emit('status', this.status());
  }

  private record(name: string, data: unknown, durationMs?: number): void {
    this.trace.record({ kind: 'device', at: Date.now(), source: 'robot', name, data: { ...(data as object), robot: this.active }, durationMs });
  }
}
