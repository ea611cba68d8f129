/**
 * How healthy the USB link to the robot has been since the app opened: counters kept by the
 * link (src/robot/link.ts, link-session.ts, requests.ts) and a plain-Chinese summary for the
 * parent's 设置 screen. The raw counters go under 技术细节 and into the trace.
 */

/** Where the USB link to the robot is. */
export type LinkState =
  /** No robot: never connected, or given up. */
  | 'none'
  /** Port opening, waiting for the hello. */
  | 'connecting'
  | 'ready'
  /** Was ready, lost it (unplug, stale heartbeat); trying to get it back. */
  | 'lost';

export interface LinkStats {
  /** Valid frames received. */
  frames: number;
  /** Blocks received with a bad CRC (a noisy cable, or firmware computing the CRC wrongly). */
  crcErrors: number;
  /** Other unreadable blocks (boot text, broken COBS, oversize). */
  junk: number;
  /** Requests sent (first transmissions only). */
  requests: number;
  /** Requests sent again, same bytes, because their Ack did not come in time. */
  resends: number;
  /** Requests that held back because the request window was full (§3). */
  windowWaits: number;
  /** Requests given up after three tries without an Ack. */
  ackTimeouts: number;
  /** Requests acknowledged but never reported done in time. */
  doneTimeouts: number;
  /** Acks or Dones that came after the host had given up on their request (a slow robot). */
  lateReplies: number;
  /** Requests the robot refused (NAK), and of those `busy`. */
  refused: number;
  busy: number;
  /** Requests the robot reported as failed (Done with ok:false). */
  failed: number;
  /** Acks and Dones whose payload was not the JSON object the protocol says (a firmware fault; the CRC was right). */
  malformed: number;
  /** Slowest Ack seen, ms from the first transmission (0: none yet). */
  slowestAckMs: number;
  /** The ack timeout in use now (ms): 300, more after late Acks. */
  ackTimeoutMs: number;
  /** Times a robot became ready. */
  connects: number;
  /** Times it became ready again after a loss or a reboot. */
  reconnects: number;
  /** Losses: the cable (or the USB link) went away; the heartbeat went silent; the robot restarted. */
  unplugs: number;
  stale: number;
  reboots: number;
}

export function emptyLinkStats(ackTimeoutMs = 300): LinkStats {
  return {
    frames: 0,
    crcErrors: 0,
    junk: 0,
    requests: 0,
    resends: 0,
    windowWaits: 0,
    ackTimeouts: 0,
    doneTimeouts: 0,
    lateReplies: 0,
    refused: 0,
    busy: 0,
    failed: 0,
    malformed: 0,
    slowestAckMs: 0,
    ackTimeoutMs,
    connects: 0,
    reconnects: 0,
    unplugs: 0,
    stale: 0,
    reboots: 0,
  };
}

/** The counters that changed between two snapshots (for a trace record of one picture). */
export function statsDelta(before: LinkStats, after: LinkStats): Partial<LinkStats> {
  const out: Partial<LinkStats> = {};
  for (const k of Object.keys(after) as Array<keyof LinkStats>) {
    if (k === 'slowestAckMs' || k === 'ackTimeoutMs') {
      if (after[k] !== before[k]) out[k] = after[k];
    } else if (after[k] !== before[k]) out[k] = after[k] - before[k];
  }
  return out;
}

type HealthLevel = 'good' | 'fair' | 'poor';

interface HealthSummary {
  level: HealthLevel;
  /** One sentence for a parent. */
  headline: string;
  /** Plain-Chinese lines, one per kind of trouble seen (empty when all is well). */
  lines: string[];
}

/**
 * A parent's reading of the counters. The numbers quoted are the ones in force (the ack timeout is
 * named as changed only when it did change), and it tells a firmware fault — the robot hears every
 * command but never says it is done, or answers with unreadable replies — from a cable fault —
 * damaged data, answers that got lost and were sent again, a link that went away.
 */
export function linkHealthSummary(s: LinkStats, defaultAckTimeoutMs = 300): HealthSummary {
  const lines: string[] = [];
  if (s.crcErrors > 0) lines.push(`收到 ${s.crcErrors} 段损坏的数据（校验不对），已经丢掉。常见原因：线太长、接触不好，或固件的校验算错了。`);
  if (s.resends > 0) lines.push(`有 ${s.resends} 次机器人没及时回答，平板自动重发了一遍。`);
  if (s.ackTimeouts > 0) lines.push(`有 ${s.ackTimeouts} 个动作重发三次也没有回答，没能做成。`);
  if (s.doneTimeouts > 0) lines.push(`有 ${s.doneTimeouts} 个动作机器人回答“收到”了，却一直没说做完。`);
  if (s.malformed > 0) lines.push(`机器人有 ${s.malformed} 次回答的内容看不懂（数据完整，但格式不对）。`);
  if (s.lateReplies > 0) {
    const longer = s.ackTimeoutMs > defaultAckTimeoutMs;
    lines.push(
      longer
        ? `机器人有 ${s.lateReplies} 次回答得太晚（最慢 ${s.slowestAckMs} 毫秒），平板已经改成每次多等一会儿：现在等 ${s.ackTimeoutMs} 毫秒（原来 ${defaultAckTimeoutMs} 毫秒）。`
        : `机器人有 ${s.lateReplies} 次回答得太晚（最慢 ${s.slowestAckMs} 毫秒）；平板仍然每次等 ${s.ackTimeoutMs} 毫秒。`,
    );
  }
  if (s.busy > 0) lines.push(`机器人说了 ${s.busy} 次“忙不过来”，平板等一下又发了。`);
  if (s.refused - s.busy > 0) lines.push(`机器人拒绝了 ${s.refused - s.busy} 个它做不了的动作。`);
  if (s.failed > 0) lines.push(`有 ${s.failed} 个动作机器人说没做完。`);
  if (s.unplugs > 0) lines.push(`断开过 ${s.unplugs} 次（拔线或 USB 断了）。`);
  if (s.stale > 0) lines.push(`有 ${s.stale} 次机器人 3 秒没有任何回应，平板重新连接了它。`);
  if (s.reboots > 0) lines.push(`机器人自己重启了 ${s.reboots} 次（常见原因：电不够，比如舵机一动就掉电）。`);
  if (s.reconnects > 0) lines.push(`重新连上 ${s.reconnects} 次。`);
  // Signs of the line: data damaged on the way, answers lost (then sent again), the link gone.
  const cable = s.crcErrors + s.resends + s.ackTimeouts + s.unplugs + s.stale;
  // Signs of the firmware: every byte arrived intact, yet the robot did not finish or answered nonsense.
  const firmware = s.doneTimeouts + s.malformed;
  const lost = s.ackTimeouts + s.doneTimeouts + s.unplugs + s.stale + s.reboots + s.malformed;
  const sent = Math.max(1, s.requests);
  const level: HealthLevel = lost === 0 && s.crcErrors === 0 && s.resends <= sent / 50 ? 'good' : lost <= 2 && s.resends <= sent / 10 ? 'fair' : 'poor';
  let headline: string;
  if (s.connects === 0) headline = '还没有连上过机器人。';
  else if (level === 'good') headline = '连接很稳定。';
  else if (level === 'fair') headline = '连接偶尔有小问题，平板都自动处理了。';
  else if (firmware > 0 && cable === 0)
    headline = '机器人的固件有问题：数据都完整收到了，可它没有把动作做完或回答不对。线没有问题，请联系机器人厂家（可以用“检测机器人固件”导出报告给他们）。';
  else if (firmware > 0)
    headline = '连接不太稳定，机器人的固件也有问题：请先换一根短一点的 USB 线试试；有些动作机器人收到了却没做完，那是固件的问题，请联系机器人厂家。';
  else headline = '连接不太稳定：请检查 USB 线，换一根短一点的线试试；还不行，请联系机器人厂家。';
  return { level, headline, lines };
}
