/**
 * The conformance checks of the lanes, duplicates, broken and split frames, the watchdog and the
 * run as a whole (docs/robot-protocol.md §9–§12). Run after ./checks-requests.ts by ./suite.ts.
 */
import { FrameType } from '../frame.ts';
import { LIMITS, TIMING } from '../messages.ts';
import { type Sent, utf8 } from './probe.ts';
import { accepted, acceptedOf, ACK_MS, type Acked, bodyText, type Check, completes, describeBefore, doneBeforeAck, doneOk, fail, hasDraw, hasFace, hasHead, ignored, needs, noise, onlyOnce, refused, requestWire, slowestAck, spoiled, startLong } from './check-kit.ts';

export const WIRE_CHECKS: Check[] = [
  {
    id: 'lanes',
    section: '§3',
    title: '三条通道并行：头在动时表情照样马上完成；同一通道按顺序',
    skip: needs((h) => hasHead(h) && hasFace(h), '头和表情'),
    async run(ctx) {
      const nod = await accepted(ctx, 'head.gesture', { name: 'nod' });
      const home = await accepted(ctx, 'head.home', {});
      const face = await accepted(ctx, 'face.set', { expr: ctx.hello!.expressions[0] });
      const faceDone = await doneOk(ctx, face);
      const nodDone = await doneOk(ctx, nod);
      const homeDone = await doneOk(ctx, home);
      const rx = ctx.probe.log.rx;
      if (rx.indexOf(faceDone) > rx.indexOf(nodDone)) fail('face.set done while the head still nods (its own lane)', 'face.set waited for the nod');
      if (rx.indexOf(homeDone) < rx.indexOf(nodDone)) fail('head.home done after the nod queued before it', 'head.home first');
      if (home.ms + 200 < nodDone.at - home.ack.at) fail(`head.home's Ack ms to include its wait behind the nod (≥ ${nodDone.at - home.ack.at} ms)`, `${home.ms} ms`);
    },
  },
  {
    id: 'lanes.queue',
    section: '§3',
    title: '头的队列至少能排 4 个',
    skip: needs((h) => hasHead(h), '头'),
    async run(ctx) {
      const sent: Sent[] = [];
      for (let i = 0; i < 5; i++) sent.push(await ctx.probe.request('head.gesture', { name: 'nod', times: 1, period: 250 }));
      for (const s of sent) await acceptedOf(ctx, s);
      await completes(ctx, 'sys.stop', {});
    },
  },
  {
    id: 'dup.running',
    section: '§3',
    title: '重发（同 seq 同字节）正在做的命令：只再回 Ack，只做一次',
    skip: needs((h) => hasHead(h) || hasDraw(h), '头或画笔'),
    async run(ctx) {
      const a = await startLong(ctx);
      await ctx.probe.resend(a.sent);
      await onlyOnce(ctx, a, 'the resend');
    },
  },
  {
    id: 'dup.done',
    section: '§3',
    title: '重发已经做完的命令：马上重发原来的 Ack 和 Done，不再做',
    skip: needs((h) => hasHead(h) || hasDraw(h), '头或画笔'),
    async run(ctx) {
      const { probe } = ctx;
      const a = await startLong(ctx);
      await doneOk(ctx, a);
      const again = await probe.resend(a.sent);
      const ack = await probe.first(again, FrameType.Ack, ACK_MS);
      const done = await probe.first(again, FrameType.Done, ACK_MS);
      if (!ack || !done) fail('the stored Ack and Done sent again within 300 ms (§3)', `${ack ? 'an Ack' : 'no Ack'}, ${done ? 'a Done' : 'no Done'} within ${ACK_MS} ms${done ? '' : ' (ran again?)'}`);
      await probe.quiet(a.ms + 500);
      const dones = probe.replies(a.sent.seq, FrameType.Done, again.rxFrom);
      if (dones.length > 1) fail('no second run: one re-sent Done', `${dones.length} Dones after the resend: it ran again`);
    },
  },
  {
    id: 'dup.window',
    section: '§3',
    title: '隔了 7 个新请求再重发：仍然认得是重复（设备至少记住 16 个）',
    skip: needs((h) => hasHead(h) || hasDraw(h), '头或画笔'),
    async run(ctx) {
      const a = await startLong(ctx);
      for (let i = 0; i < LIMITS.hostWindow - 1; i++) await refused(ctx, `kit.noop${i}`, {}, 'unknown_method');
      await ctx.probe.resend(a.sent);
      await onlyOnce(ctx, a, `the resend after ${LIMITS.hostWindow - 1} newer requests`);
    },
  },
  {
    id: 'dup.hello',
    section: '§3',
    title: 'sys.hello 重发也每次都回答 hello',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      const first = await probe.request('sys.hello', {});
      if (!(await probe.event('hello', first.rxFrom, ACK_MS))) fail('a hello Event', 'none');
      const again = await probe.resend(first);
      if (!(await probe.event('hello', again.rxFrom, ACK_MS))) fail('a hello Event for the repeated sys.hello too (§3: sys.hello is never a duplicate)', 'none');
    },
  },
  {
    id: 'rx.garbage',
    section: '§2.4',
    title: '乱码、没有结尾的文字之后，下一个帧照样收到',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      await probe.raw(Uint8Array.from([...noise(300, 7), 0]), '300 bytes of noise, then 00');
      await probe.raw(Uint8Array.from([...utf8('hello robot, this is not a frame\r\n'), 0]), 'a line of text, then 00');
      await completes(ctx, 'sys.stop', {});
    },
  },
  {
    id: 'rx.bad-crc',
    section: '§2.4',
    title: 'CRC 错的请求被悄悄丢掉；同一个 seq 正确重发就执行',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      const seq = probe.nextSeq();
      const bad = await probe.sendRequest(seq, 'sys.stop', spoiled('sys.stop', seq, 'crc'), `Request #${seq} sys.stop with a wrong CRC`);
      await ignored(ctx, bad, 'a Request with a wrong CRC');
      await doneOk(ctx, await acceptedOf(ctx, await probe.request('sys.stop', {}, { seq })));
    },
  },
  {
    id: 'rx.bad-frames',
    section: '§2.4',
    title: 'ver≠1、未知类型、太短、空块：忽略',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      for (const how of ['version', 'type'] as const) {
        const seq = probe.nextSeq();
        await ignored(ctx, await probe.sendRequest(seq, 'sys.stop', spoiled('sys.stop', seq, how), `Request #${seq} with ${how === 'version' ? 'ver 2' : 'type 0x09'}`), how === 'version' ? 'a frame with ver 2' : 'a frame of unknown type 0x09');
      }
      await probe.raw(new Uint8Array([0x03, 0x01, 0x05, 0x00]), 'a 2-byte block');
      await probe.raw(new Uint8Array([0, 0, 0]), 'three empty blocks');
      await completes(ctx, 'sys.stop', {});
    },
  },
  {
    id: 'rx.oversize',
    section: '§2.4',
    title: '超过 4128 字节还没有 0x00 的输入被丢掉，之后照常',
    skip: needs(() => true, ''),
    async run(ctx) {
      await ctx.probe.raw(Uint8Array.from([...new Uint8Array(5000).fill(0x41), 0]), '5000 bytes without a 00, then 00');
      await completes(ctx, 'sys.stop', {});
    },
  },
  {
    id: 'rx.split',
    section: '§2.4',
    title: '一个字节一个字节写、两个帧一起写、半个帧：都对',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      const seq = probe.nextSeq();
      const one = await probe.sendRequest(seq, 'sys.stop', requestWire('sys.stop', seq), `Request #${seq} sys.stop, written one byte at a time`, 1);
      await doneOk(ctx, await acceptedOf(ctx, one));

      const s1 = probe.nextSeq();
      const s2 = probe.nextSeq();
      const two = Uint8Array.from([...requestWire('sys.stop', s1), ...requestWire('sys.idle', s2)]);
      const both = await probe.sendRequest(s1, 'sys.stop', two, `Requests #${s1} sys.stop and #${s2} sys.idle in one write`);
      await doneOk(ctx, await acceptedOf(ctx, both));
      await doneOk(ctx, await acceptedOf(ctx, { ...both, seq: s2, method: 'sys.idle' }));

      const s3 = probe.nextSeq();
      const whole = requestWire('sys.stop', s3);
      const half = await probe.sendRequest(s3, 'sys.stop', Uint8Array.from([...whole.subarray(0, whole.length >> 1), 0]), `the first half of Request #${s3}, then 00`);
      await ignored(ctx, half, 'half a frame');
      await completes(ctx, 'sys.stop', {});
    },
  },
  {
    id: 'watchdog',
    section: '§5',
    title: '5 秒没有收到主机的帧：休息（动作 stopped）；之后一帧就醒',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      let job: Acked | null = null;
      if (hasHead(ctx.hello)) job = await accepted(ctx, 'head.gesture', { name: 'nod', times: 5, period: 2000 });
      const last = probe.now();
      if (job) {
        const d = await probe.first(job.sent, FrameType.Done, TIMING.deviceWatchdog + 2500);
        const code = (d?.body?.error as { code?: string } | undefined)?.code;
        if (!d || d.body?.ok !== false || code !== 'stopped') fail(`Done {"ok":false,"error":{"code":"stopped"}} for the 10 s nod once 5 s pass without host traffic`, bodyText(d));
        const after = d!.at - last;
        if (after < TIMING.deviceWatchdog - 500) fail(`rest no sooner than ${TIMING.deviceWatchdog} ms after the host's last frame`, `${after} ms`);
      } else await probe.quiet(TIMING.deviceWatchdog + 1500);
      const s = await probe.ping(probe.nextSeq());
      if (!(await probe.first(s, FrameType.Pong, ACK_MS))) fail('a Pong right after the rest (any valid frame ends it)', 'none');
      await completes(ctx, 'sys.stop', {});
      return job ? `rest after ${(probe.replies(job.sent.seq, FrameType.Done, job.sent.rxFrom)[0]?.at ?? 0) - last} ms` : '没有头：只检查休息后能醒';
    },
  },
  {
    id: 'hello.delimiter',
    section: '§2.4',
    title: '每个 hello 之前都有一个单独的 0x00',
    skip: needs(() => true, ''),
    final: true,
    async run(ctx) {
      // Right after a frame, only a lone 00 makes an empty block; after boot text, the 00 that ends
      // the text is that lone 00. A frame straight before a hello means the lone 00 is missing.
      const rx = ctx.probe.log.rx;
      for (const [i, b] of rx.entries()) {
        if (i === 0 || b.frame?.type !== FrameType.Event || b.body?.event !== 'hello') continue;
        if (rx[i - 1].frame) fail('a lone 00 between the previous frame and every hello', `the hello (Event #${b.frame.seq}) right after ${describeBefore(rx[i - 1])}`);
      }
    },
  },
  {
    id: 'order.ack-first',
    section: '§3',
    title: '整个过程中每个 Done 之前都有它的 Ack',
    skip: needs(() => true, ''),
    final: true,
    async run(ctx) {
      const bad = doneBeforeAck(ctx.probe);
      if (bad?.second) fail('one Done per request (§3)', `a second Done #${bad.block.frame!.seq} ${bodyText(bad.block)} for a request that had its Ack and its Done already: it ran twice, or the robot sent its Done twice (at ${bad.block.at - ctx.probe.log.tx[0].at} ms)`);
      if (bad) fail('an Ack for every request before its Done', `Done #${bad.block.frame!.seq} ${bodyText(bad.block)} with no Ack before it (at ${bad.block.at - ctx.probe.log.tx[0].at} ms)`);
    },
  },
  {
    id: 'frames.crc',
    section: '§2.3',
    title: '整个过程中收到的帧 CRC 都正确',
    final: true,
    async run(ctx) {
      const rx = ctx.probe.log.rx;
      const crc = rx.filter((b) => b.problem === 'crc');
      if (crc.length) fail('no CRC errors in what the robot sent', `${crc.length} block(s) with a bad CRC, e.g. ${describeBefore(crc[0])}`);
      const junk = rx.filter((b) => b.problem && b.problem !== 'crc').length;
      return junk ? `${junk} 个非帧块（文字或开机信息）` : undefined;
    },
  },
  {
    id: 'acks.latency',
    section: '§3',
    title: '每个 Ack 都在 300 ms 内（建议 50 ms 内）',
    skip: needs(() => true, ''),
    final: true,
    async run(ctx) {
      const { slowest, seq, skipped } = slowestAck(ctx.probe);
      if (slowest > ACK_MS) fail(`every Ack within ${ACK_MS} ms of its Request`, `#${seq} acked after ${slowest} ms`);
      return `最慢 ${slowest} ms${slowest > 50 ? '（超过建议的 50 ms）' : ''}${skipped ? `；平板卡住时的 ${skipped} 个不算` : ''}`;
    },
  },
];
