/**
 * Faults the firmware simulator can be told to have (./firmware.ts), to test the host: corrupted
 * and dropped frames, a slow or mute robot, and lost Acks, Dones or every reply of chosen requests.
 */

export interface SimFaults {
  /** Corrupt the next N frames the robot sends (the host sees CRC errors). */
  corruptOut: number;
  /** Drop the next N frames the robot receives, as if their CRC were bad. */
  corruptIn: number;
  /** Extra delay before every command is read and acked (ms). */
  ackDelay: number;
  /** Never report done (commands still run). */
  noDone: boolean;
  /** Hung firmware: reads nothing, answers nothing (not even pings). */
  mute: boolean;
  /**
   * Lose the Ack of the next N requests of a method, e.g. `{'head.gesture': 1}`: the command runs,
   * the host does not hear the Ack; the Ack re-sent for its retransmission gets through.
   */
  loseAck: Record<string, number>;
  /** Lose the Done of the next N requests of a method (the Done re-sent for a retransmission gets through). */
  loseDone: Record<string, number>;
  /**
   * Lose every reply (Ack, Done, re-sent ones too) of the N-th next request of a method, e.g.
   * `{'draw.stroke': 5}`: the robot runs it, the host hears nothing about it.
   */
  loseReplies: Record<string, number>;
}

export function noFaults(): SimFaults {
  return { corruptOut: 0, corruptIn: 0, ackDelay: 0, noDone: false, mute: false, loseAck: {}, loseDone: {}, loseReplies: {} };
}

/** Which requests lose their first Ack / Done (`loseAck`, `loseDone`), and which every reply (`loseReplies`). */
export class LostReplies {
  private readonly ack = new Set<number>();
  private readonly done = new Set<number>();
  private readonly silenced = new Set<number>();

  constructor(private readonly faults: SimFaults) {}

  /** A new request of `method`: the faults asked for decide which of its replies are lost. */
  arrived(seq: number, method: string): void {
    const { loseAck, loseDone, loseReplies } = this.faults;
    if ((loseAck[method] ?? 0) > 0) {
      loseAck[method]--;
      this.ack.add(seq);
    }
    if ((loseDone[method] ?? 0) > 0) {
      loseDone[method]--;
      this.done.add(seq);
    }
    if ((loseReplies[method] ?? 0) > 0 && --loseReplies[method] === 0) {
      delete loseReplies[method];
      this.silenced.add(seq);
    }
  }

  /** The first Ack of `seq` is lost (once). */
  loseAck(seq: number): boolean {
    return this.ack.delete(seq);
  }
  /** The first Done of `seq` is lost (once). */
  loseDone(seq: number): boolean {
    return this.done.delete(seq);
  }
  /** Every reply of `seq` is lost. */
  silent(seq: number): boolean {
    return this.silenced.has(seq);
  }
  clear(): void {
    this.ack.clear();
    this.done.clear();
    this.silenced.clear();
  }
}
