/**
 * The Studio reads its new question (or what it just thought of) aloud when it waits for the
 * parent's answer, if the parent turned that on (kept in `settings`). Lines already there when a
 * design is opened are not read again. Through the one speaking path (`say`).
 */
import { whoActs } from '../core/studio/phase-machine.ts';
import type { SessionView } from './session-types.ts';

const READ_ALOUD_KEY = 'agentcade-studio-read-aloud';

export class ReadAloud {
  private readUpTo = 0;

  constructor(
    private readonly say: ((text: string) => void) | undefined,
    private readonly settings: Pick<Storage, 'getItem' | 'setItem'> | null | undefined,
  ) {}

  /** The parent's choice as kept. */
  get kept(): boolean {
    return this.settings?.getItem(READ_ALOUD_KEY) === '1';
  }

  keep(on: boolean): void {
    try {
      this.settings?.setItem(READ_ALOUD_KEY, on ? '1' : '0');
    } catch {
      // Private mode: the setting lasts until the page closes.
    }
  }

  /** A design was opened: a new one is read from its first line, a reopened one from now on. */
  opened(view: SessionView, fresh: boolean): void {
    this.readUpTo = fresh ? 0 : view.transcript.length;
  }

  /** The design's view changed: its newest line is read when it asks the parent (and reading is on). */
  changed(view: SessionView, on: boolean): void {
    if (!this.say || view.busy || whoActs(view.state) !== 'user') return;
    const asking = ['agent_question', 'helper_question', 'review_drafts'].includes(view.waiting?.kind ?? '');
    const fresh = view.transcript.slice(this.readUpTo).filter((l) => l.who !== 'user');
    this.readUpTo = view.transcript.length;
    const last = fresh.at(-1);
    if (on && asking && last) this.say(last.text);
  }
}
