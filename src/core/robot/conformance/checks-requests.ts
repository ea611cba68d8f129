/**
 * The conformance checks of the hello, the requests and every command (docs/robot-protocol.md
 * §3–§8): each sends exact bytes and judges what comes back. Run in order by ./suite.ts.
 */
import { cobsDecode } from '../cobs.ts';
import { FRAME_OVERHEAD, FrameType } from '../frame.ts';
import { type Hello, isHello, LIMITS, PROTOCOL_VERSION, TIMING } from '../messages.ts';
import { utf8 } from './probe.ts';
import type { RxBlock } from './wire-log.ts';
import { accepted, acceptedOf, ACK_MS, type Acked, bodyText, type Check, completes, doneOk, fail, hasDraw, hasFace, hasHead, hasScreen, json, longStroke, maxPoints, needs, refused } from './check-kit.ts';

const HELLO_FIELDS: Array<[string, (v: unknown) => boolean, string]> = [
  ['proto', (v) => v === PROTOCOL_VERSION, `the number ${PROTOCOL_VERSION}`],
  ['fw', (v) => typeof v === 'string', 'a string'],
  ['model', (v) => typeof v === 'string', 'a string'],
  ['serial', (v) => typeof v === 'string' && v.length > 0, 'a non-empty string (the USB serial number)'],
  ['boot', (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff, 'an integer 0…4294967295'],
  ['servos', (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of strings'],
  ['expressions', (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of strings'],
  ['gestures', (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'), 'an array of strings'],
  ['maxFrame', (v) => typeof v === 'number' && Number.isInteger(v) && v >= LIMITS.defaultMaxFrame, `an integer ≥ ${LIMITS.defaultMaxFrame}`],
];

export const REQUEST_CHECKS: Check[] = [
  {
    id: 'hello.answer',
    section: '§4',
    title: 'sys.hello 得到 hello 事件（每 500 ms 问一次，最多 3 秒）',
    async run(ctx) {
      const { probe } = ctx;
      const from = probe.log.rx.length;
      await probe.raw(new Uint8Array([0]), 'lone 00 (ends any partial input)');
      const deadline = probe.now() + TIMING.helloTimeout;
      let hello: RxBlock | undefined;
      while (!hello && probe.now() < deadline) {
        await probe.request('sys.hello', {});
        hello = await probe.event('hello', from, Math.min(TIMING.helloRetry, deadline - probe.now()));
      }
      if (!hello) {
        const bad = probe.log.rx.slice(from).filter((b) => b.problem);
        fail(`an Event {"event":"hello",…} within ${TIMING.helloTimeout} ms`, bad.length ? `${bad.length} unreadable block(s), no hello (see the bytes below)` : probe.log.rx.length > from ? 'frames, but no hello event' : 'nothing at all');
      }
      if (!hello!.body || !isHello(hello!.body)) fail('a hello with numeric proto and boot', bodyText(hello));
      ctx.setHello(hello!.body as unknown as Hello);
      const size = cobsDecode(hello!.bytes.subarray(0, -1))!.length;
      return size > 254 ? `hello 有 ${size} 字节，COBS 的 0xFF 块正确` : `hello 只有 ${size} 字节（没有用到 COBS 0xFF 块）`;
    },
  },
  {
    id: 'hello.fields',
    section: '§4',
    title: 'hello 的字段和类型',
    skip: needs(() => true, ''),
    async run(ctx) {
      const h = ctx.hello as unknown as Record<string, unknown>;
      for (const [field, ok, what] of HELLO_FIELDS) if (!ok(h[field])) fail(`hello.${field}: ${what}`, json(h[field]));
      const screen = h.screen as Hello['screen'];
      if (screen !== undefined && !(screen && Number.isInteger(screen.w) && Number.isInteger(screen.h) && screen.w > 0 && screen.h > 0))
        fail('hello.screen: {w, h} positive integers (or no screen field)', json(screen));
      const draw = h.draw as Hello['draw'];
      if (draw !== undefined && !(typeof draw?.strokes === 'boolean' && (!draw.strokes || (Number.isInteger(draw.maxPoints) && draw.maxPoints >= 2 && draw.maxPoints <= 100))))
        fail('hello.draw: {strokes: bool, maxPoints: 2–100}', json(draw));
      if (h.images !== undefined && !(Array.isArray(h.images) && h.images.every((x) => typeof x === 'string'))) fail('hello.images: an array of strings', json(h.images));
    },
  },
  {
    id: 'hello.request',
    section: '§3',
    title: 'sys.hello 也有 Ack 和 Done，Ack 在前；boot 不变',
    skip: needs(() => true, ''),
    async run(ctx) {
      const from = ctx.probe.log.rx.length;
      const a = await accepted(ctx, 'sys.hello', {});
      const ev = await ctx.probe.event('hello', from, ACK_MS);
      if (!ev) fail('a hello Event in answer', 'none');
      await doneOk(ctx, a);
      if (ev!.body?.boot !== ctx.hello!.boot) fail(`the same boot id ${ctx.hello!.boot} (the robot did not restart)`, json(ev!.body?.boot));
    },
  },
  {
    id: 'ping',
    section: '§5',
    title: 'Ping 得到同一个 seq 的 Pong（含 256、65535）',
    skip: needs(() => true, ''),
    async run(ctx) {
      const { probe } = ctx;
      for (const seq of [1, 256, 0xffff]) {
        const s = await probe.ping(seq);
        const pong = await probe.first(s, FrameType.Pong, ACK_MS);
        const low = pong ? undefined : probe.replies(seq & 0xff, FrameType.Pong, s.rxFrom)[0];
        if (!pong) fail(`a Pong #${seq} within ${ACK_MS} ms`, low && seq > 0xff ? `Pong #${seq & 0xff}: only the low byte of the seq (§2.2: seq is u16 LE)` : 'none');
        if (pong!.frame!.payload.length !== 0) fail('an empty Pong payload', `${pong!.frame!.payload.length} bytes`);
      }
    },
  },
  {
    id: 'req.seq',
    section: '§2.2',
    title: '带 0x00 的 seq（256）和 65535 照样回答',
    skip: needs(() => true, ''),
    async run(ctx) {
      for (const seq of [256, 0xffff]) {
        const sent = await ctx.probe.request('sys.stop', {}, { seq });
        await doneOk(ctx, await acceptedOf(ctx, sent));
      }
    },
  },
  {
    id: 'req.bad-json',
    section: '§8',
    title: '不是 JSON、没有 method 的请求：NAK bad_json',
    skip: needs(() => true, ''),
    async run(ctx) {
      for (const payload of ['not json', '{"params":{}}', '[1,2,3]', '{"method":7}']) {
        const sent = await ctx.probe.request('?', {}, { payload: utf8(payload), note: `Request with payload ${payload}` });
        const ack = await ctx.probe.first(sent, FrameType.Ack, ACK_MS);
        if ((ack?.body?.error as { code?: string } | undefined)?.code !== 'bad_json') fail(`NAK bad_json for payload ${payload}`, ack ? bodyText(ack) : 'no Ack');
      }
    },
  },
  {
    id: 'req.unknown-method',
    section: '§7',
    title: '不认识的方法：NAK unknown_method',
    skip: needs(() => true, ''),
    async run(ctx) {
      await refused(ctx, 'head.dance', {}, 'unknown_method');
      await refused(ctx, 'toString', {}, 'unknown_method');
    },
  },
  {
    id: 'req.unknown-params',
    section: '§7',
    title: '不认识的参数被忽略',
    skip: needs(() => true, ''),
    async run(ctx) {
      await completes(ctx, 'sys.stop', { future: 1 });
      if (hasFace(ctx.hello)) await completes(ctx, 'face.set', { expr: ctx.hello!.expressions[0], intensity: 0.5 });
    },
  },
  {
    id: 'req.max-frame',
    section: '§2.4',
    title: '正好 maxFrame 字节的请求（用到 COBS 0xFF 块）被接受',
    skip: needs(() => true, ''),
    async run(ctx) {
      const max = ctx.hello!.maxFrame;
      const base = utf8(json({ method: 'sys.stop', params: { pad: '' } })).length + FRAME_OVERHEAD;
      const params = { pad: 'x'.repeat(Math.max(0, max - base)) };
      await completes(ctx, 'sys.stop', params);
      return `${max} 字节`;
    },
  },
  {
    id: 'sys.stop',
    section: '§7',
    title: 'sys.stop：正在做和排队的动作以 Done stopped 结束',
    skip: needs((h) => hasHead(h) || hasDraw(h), '头或画笔'),
    async run(ctx) {
      const jobs: Acked[] = [];
      if (hasHead(ctx.hello)) {
        jobs.push(await accepted(ctx, 'head.gesture', { name: 'nod', times: 5, period: 1000 }));
        jobs.push(await accepted(ctx, 'head.gesture', { name: 'nod', times: 2 }));
      } else {
        await completes(ctx, 'draw.begin', { id: 'kit-stop' });
        const pts = longStroke(maxPoints(ctx.hello));
        for (let i = 0; i < 3; i++) jobs.push(await accepted(ctx, 'draw.stroke', { id: 'kit-stop', pts }));
      }
      await ctx.probe.quiet(100);
      const stop = await accepted(ctx, 'sys.stop', {});
      for (const j of jobs.slice(1)) {
        const d = await ctx.probe.first(j.sent, FrameType.Done, 1000);
        const code = (d?.body?.error as { code?: string } | undefined)?.code;
        if (d?.body?.ok !== false || code !== 'stopped') fail(`Done {"ok":false,"error":{"code":"stopped"}} for the queued #${j.sent.seq} within 1 s of sys.stop`, bodyText(d));
      }
      await doneOk(ctx, stop);
    },
  },
  {
    id: 'sys.idle',
    section: '§7',
    title: 'sys.idle：Ack 和 Done',
    skip: needs(() => true, ''),
    async run(ctx) {
      if (hasFace(ctx.hello)) await completes(ctx, 'face.set', { expr: ctx.hello!.expressions[0] });
      await completes(ctx, 'sys.idle', {});
    },
  },
  {
    id: 'face.set',
    section: '§7',
    title: 'face.set：每个宣布的表情都能显示；没有的 unsupported，参数错 bad_params',
    skip: needs(hasFace, '表情'),
    async run(ctx) {
      for (const expr of ctx.hello!.expressions) await completes(ctx, 'face.set', { expr });
      const missing = ['angry', 'neutral', 'happy', 'sorry', 'thinking', 'surprised', 'sleepy', 'kit-unknown'].find((e) => !ctx.hello!.expressions.includes(e))!;
      await refused(ctx, 'face.set', { expr: missing }, 'unsupported');
      await refused(ctx, 'face.set', {}, 'bad_params');
      await refused(ctx, 'face.set', { expr: 5 }, 'bad_params');
      await completes(ctx, 'face.clear', {});
    },
  },
  {
    id: 'head.gesture',
    section: '§7',
    title: 'head.gesture：点头摇头做完才 Done，ms 是真的',
    skip: needs((h) => hasHead(h), '点头'),
    async run(ctx) {
      const notes: string[] = [];
      for (const name of ['nod', 'shake'] as const) {
        if (!hasHead(ctx.hello, name)) continue;
        const a = await accepted(ctx, 'head.gesture', { name });
        const d = await doneOk(ctx, a);
        notes.push(`${name}: ms ${a.ms}, Done after ${d.at - a.ack.at} ms`);
      }
      const a = await accepted(ctx, 'head.gesture', { name: 'nod', times: 1, amp: 10, period: 300 });
      await doneOk(ctx, a);
      return notes.join('; ');
    },
  },
  {
    id: 'head.gesture.params',
    section: '§7',
    title: 'head.gesture：times/amp/period 必须是范围内的整数；没有的动作 unsupported',
    skip: needs(() => true, ''),
    async run(ctx) {
      if (!hasHead(ctx.hello)) {
        await refused(ctx, 'head.gesture', { name: 'nod' }, 'unsupported');
        return '没有头：nod 必须 unsupported';
      }
      for (const p of [{ times: 0 }, { times: 6 }, { times: 1.5 }, { times: '2' }, { amp: 0 }, { amp: 46 }, { amp: 2.5 }, { period: 249 }, { period: 2001 }, { period: 300.5 }])
        await refused(ctx, 'head.gesture', { name: 'nod', ...p }, 'bad_params');
      await refused(ctx, 'head.gesture', {}, 'bad_params');
      await refused(ctx, 'head.gesture', { name: 7 }, 'bad_params');
      await refused(ctx, 'head.gesture', { name: 'wave' }, 'unsupported');
      await completes(ctx, 'head.home', {});
    },
  },
  {
    id: 'draw',
    section: '§7',
    title: 'draw.begin / stroke / end：依次完成，按顺序 Done',
    skip: needs(hasDraw, '画笔'),
    async run(ctx) {
      const n = maxPoints(ctx.hello);
      const begin = await accepted(ctx, 'draw.begin', { id: 'kit', color: '#ff0000', width: 4 });
      const strokes = [
        await accepted(ctx, 'draw.stroke', { id: 'kit', pts: [[0, 0], [239, 239]] }),
        await accepted(ctx, 'draw.stroke', { id: 'kit', pts: longStroke(n) }),
        await accepted(ctx, 'draw.stroke', { id: 'kit', pts: [[120, 120]] }),
      ];
      const end = await accepted(ctx, 'draw.end', { id: 'kit', label: '测试' });
      const dones: RxBlock[] = [];
      for (const a of [begin, ...strokes, end]) dones.push(await doneOk(ctx, a));
      for (let i = 1; i < dones.length; i++)
        if (ctx.probe.log.rx.indexOf(dones[i]) < ctx.probe.log.rx.indexOf(dones[i - 1])) fail('Dones of one lane in the order the commands came (§3)', `Done #${dones[i].frame!.seq} before #${dones[i - 1].frame!.seq}`);
      await completes(ctx, 'draw.begin', { id: 'kit2', animate: false });
      await completes(ctx, 'draw.stroke', { id: 'kit2', pts: longStroke(n) });
      await completes(ctx, 'draw.end', { id: 'kit2' });
      return `maxPoints ${n}`;
    },
  },
  {
    id: 'draw.params',
    section: '§7',
    title: 'draw.*：不合法的 id、颜色、粗细、点：bad_params',
    skip: needs(hasDraw, '画笔'),
    async run(ctx) {
      const n = maxPoints(ctx.hello);
      for (const p of [{}, { id: '' }, { id: 'x'.repeat(33) }, { id: 'k', color: 'red' }, { id: 'k', color: '#12345' }, { id: 'k', width: 0 }, { id: 'k', width: 21 }, { id: 'k', width: 2.5 }, { id: 'k', animate: 'yes' }])
        await refused(ctx, 'draw.begin', p, 'bad_params');
      await completes(ctx, 'draw.begin', { id: 'k' });
      await refused(ctx, 'draw.stroke', { id: 'other', pts: [[1, 1]] }, 'bad_params');
      for (const pts of [[], longStroke(n + 1), [[240, 0]], [[-1, 0]], [[1.5, 0]], [[1]], 'x'])
        await refused(ctx, 'draw.stroke', { id: 'k', pts }, 'bad_params');
      await refused(ctx, 'draw.end', { id: 'other' }, 'bad_params');
      await refused(ctx, 'draw.end', { id: 'k', label: '长'.repeat(21) }, 'bad_params');
      await completes(ctx, 'draw.end', { id: 'k' });
    },
  },
  {
    id: 'screen.progress',
    section: '§7',
    title: 'screen.progress：合法的显示，不合法的 bad_params',
    skip: needs(hasScreen, '屏幕'),
    async run(ctx) {
      await completes(ctx, 'screen.progress', { current: 1, total: 3, label: '第 1 题' });
      await completes(ctx, 'screen.progress', { current: 0, total: 999 });
      for (const p of [{ current: 1000, total: 3 }, { current: -1, total: 3 }, { current: 1.5, total: 3 }, { current: 1, total: 0 }, { current: 1, total: 1000 }, { total: 3 }, { current: 1, total: 3, label: '长'.repeat(21) }])
        await refused(ctx, 'screen.progress', p, 'bad_params');
    },
  },
  {
    id: 'screen.text',
    section: '§7',
    title: 'screen.text：200 字节的中文能显示，201 字节 bad_params',
    skip: needs(hasScreen, '屏幕'),
    async run(ctx) {
      await completes(ctx, 'screen.text', { text: '字'.repeat(66) + 'ab' }); // 200 UTF-8 bytes
      await refused(ctx, 'screen.text', { text: '字'.repeat(67) }, 'bad_params'); // 201
      await refused(ctx, 'screen.text', { text: 5 }, 'bad_params');
    },
  },
  {
    id: 'screen.image',
    section: '§7',
    title: 'screen.image：Blob 分块、乱序的块被忽略、停顿 1 秒 blob_incomplete',
    skip: needs(hasScreen, '屏幕'),
    async run(ctx) {
      const { probe } = ctx;
      if (!ctx.hello!.images?.includes('mono1')) {
        await refused(ctx, 'screen.image', { w: 8, h: 8, fmt: 'mono1', len: 8 }, 'unsupported');
        return '不支持图片：mono1 必须 unsupported';
      }
      const data = Uint8Array.from({ length: 32 }, (_, i) => (i * 37) & 0xff); // 16 × 16, with zeros
      const a = await accepted(ctx, 'screen.image', { w: 16, h: 16, fmt: 'mono1', len: 32 });
      await probe.blob(a.sent.seq, 0, data.subarray(0, 20));
      await probe.blob(a.sent.seq, 20, data.subarray(20));
      await doneOk(ctx, a);

      const b = await accepted(ctx, 'screen.image', { w: 16, h: 16, fmt: 'mono1', len: 32 });
      await probe.blob(b.sent.seq, 20, data.subarray(20)); // out of order: ignored
      await probe.blob(b.sent.seq, 0, data.subarray(0, 20));
      await probe.blob(b.sent.seq, 0, data.subarray(0, 20)); // duplicate: ignored
      await probe.blob(b.sent.seq, 20, data.subarray(20));
      await doneOk(ctx, b);

      const c = await accepted(ctx, 'screen.image', { w: 16, h: 16, fmt: 'mono1', len: 32 });
      await probe.blob(c.sent.seq, 0, data.subarray(0, 8));
      const t0 = probe.now();
      const d = await probe.first(c.sent, FrameType.Done, TIMING.blobStall + 1500);
      const code = (d?.body?.error as { code?: string } | undefined)?.code;
      if (d?.body?.ok !== false || code !== 'blob_incomplete') fail(`Done {"ok":false,"error":{"code":"blob_incomplete"}} about ${TIMING.blobStall} ms after the last Blob`, bodyText(d));
      const after = d!.at - t0;
      if (after < TIMING.blobStall - 200) fail(`blob_incomplete no sooner than ${TIMING.blobStall} ms after the last in-order Blob`, `${after} ms`);

      await refused(ctx, 'screen.image', { w: 16, h: 16, fmt: 'rgb565', len: 512 }, 'unsupported');
      await refused(ctx, 'screen.image', { w: 16, h: 16, fmt: 'mono1', len: 31 }, 'bad_params');
      await refused(ctx, 'screen.image', { w: 0, h: 16, fmt: 'mono1', len: 0 }, 'bad_params');
      return `stall after ${after} ms`;
    },
  },
];
