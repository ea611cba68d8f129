/**
 * The arcade's view model: mirrors the runtime's plain-TS objects (main agent, speech, mic loop,
 * robot) into Svelte 5 state, so components only read fields and call actions.
 */
import type { AgentSnapshot, ArcadeGame } from '../../core/arcade/types.ts';
import { describe } from '../../core/errors/catalogue.ts';
import type { LinkState } from '../../robot/link.ts';
import type { MicStatus } from '../../speech/recognizer.ts';
import type { LoopState } from '../../speech/voice-loop.ts';
import type { VoiceStatus } from '../../speech/web-synth.ts';
import type { AppRuntime } from '../app-runtime.ts';

interface SubtitleLine {
  id: number;
  who: 'child' | 'robot' | 'game';
  /** Who is speaking, as the line is labelled: a game's line keeps its game's name after the game ends. */
  name: string;
  text: string;
}

const MAX_LINES = 30;

export class ArcadeState {
  snapshot: AgentSnapshot = $state({ phase: 'idle', session: null, gameBusy: false });
  loopState: LoopState = $state('idle');
  micStatus: MicStatus = $state('off');
  voice: VoiceStatus = $state({ state: 'loading' });
  lines: SubtitleLine[] = $state([]);
  speakingNow: string = $state('');
  games: ArcadeGame[] = $state([]);
  robotStatus: string = $state('');
  robotActive: 'robot' | 'screen' = $state('screen');
  /** The USB link's state ('none' also when this browser has no link at all). */
  robotLink: LinkState = $state('none');
  /** Why the last connect attempt failed, for the child (cleared when a robot is ready). */
  robotError: string = $state('');
  private nextId = 1;
  /** The game whose replies are being spoken (its session may already be over when its last line starts). */
  private gameTitle = '';
  private readonly offs: Array<() => void> = [];

  constructor(readonly rt: AppRuntime) {
    this.offs.push(
      rt.agent.subscribe((e) => {
        if (e.type === 'state') {
          this.snapshot = e.snapshot;
          if (e.snapshot.session) this.gameTitle = e.snapshot.session.title;
        }
        else if (e.type === 'heard') this.push('child', e.text);
      }),
      rt.speech.subscribe((e) => {
        if (e.type === 'utterance-start') {
          this.push(e.role === 'game_agent' ? 'game' : 'robot', e.text);
          this.speakingNow = e.text;
        } else if (e.type === 'idle') this.speakingNow = '';
      }),
      rt.loop.onState((s) => (this.loopState = s)),
      rt.recognizer.onStatus((s) => (this.micStatus = s)),
      rt.synth.onStatus((s) => (this.voice = s)),
      rt.robot.output.on('status', (s) => {
        this.robotStatus = s;
        this.robotLink = rt.robot.link?.state ?? 'none';
        if (this.robotLink === 'ready') this.robotError = '';
        // A robot that came back may say a different hello: what can be played may have changed.
        this.refreshGames();
      }),
      rt.robot.link?.on('error', (e) => (this.robotError = describe(e.code).child)) ?? (() => {}),
      rt.robot.output.on('active', (a) => {
        this.robotActive = a;
        this.refreshGames();
      }),
      rt.onGamesChanged(() => this.refreshGames()),
    );
    this.robotStatus = rt.robot.output.status();
    this.robotActive = rt.robot.output.active;
    this.robotLink = rt.robot.link?.state ?? 'none';
    this.refreshGames();
  }

  refreshGames(): void {
    this.games = this.rt.catalog();
  }

  /**
   * A new subtitle line; the robot's sentences follow one another in one line until the child
   * speaks (replies arrive sentence by sentence, and are read as one answer).
   */
  private push(who: SubtitleLine['who'], text: string): void {
    const last = this.lines.at(-1);
    if (last && who !== 'child' && last.who === who && (who !== 'game' || last.name === this.gameTitle)) {
      this.lines = [...this.lines.slice(0, -1), { ...last, text: last.text + text }];
      return;
    }
    const name = who === 'child' ? '你' : who === 'game' ? this.gameTitle || '游戏' : '小方';
    this.lines = [...this.lines.slice(-(MAX_LINES - 1)), { id: this.nextId++, who, name, text }];
  }

  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }
}
