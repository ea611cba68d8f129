/**
 * The conformance suite for robot firmware (docs/robot-protocol.md v1): scripted checks that talk
 * to any device through a `ProbeIO` byte stream — a real robot over Web Serial or WebUSB in the
 * app's kit page, the firmware simulator and an independent device fake in `npm test`. Each check
 * sends exact bytes and judges what comes back; a failure says what was expected, what came, and
 * keeps the bytes. Checks adapt to what the hello announces (no head: no gesture checks) and
 * never to one implementation's timings beyond the protocol's own limits.
 * Pure: all I/O and time through the probe.
 */
import { cobsDecode, cobsEncode } from '../cobs.ts';
import { crc16 } from '../crc.ts';
import type { Capability } from '../../protocol/declaration.ts';
import { capabilitiesFromHello } from '../capabilities.ts';
import { decodeBlock, encodeJsonFrame, FRAME_OVERHEAD, FrameType } from '../frame.ts';
import { isHello, LIMITS, PROTOCOL_VERSION, TIMING, type Hello } from '../messages.ts';
import { Probe, utf8, type ProbeIO, type Sent } from './probe.ts';
import { trafficOf, type CheckResult, type CheckStatus, type ConformanceReport } from './report.ts';
import { findCauses, type CheckSpan } from './causes.ts';
import type { RxBlock, WireLog } from './wire-log.ts';

/** A check's verdict: thrown to fail it. */
class CheckFailure extends Error {
  constructor(
    readonly expected: string,
    readonly got: string,
  ) {
    super(`expected ${expected}, got ${got}`);
  }
}

interface CheckContext {
  probe: Probe;
  /** The hello from the first check (null when none came). */
  hello: Hello | null;
  setHello(h: Hello): void;
}

interface Check {
  id: string;
  section: string;
  title: string;
  /** Why this check cannot run on this device (from its hello), or null. */
  skip?(ctx: CheckContext): string | null;
  /** Throws CheckFailure; may return a remark for the report. */
  run(ctx: CheckContext): Promise<string | void>;
  /** Checks that judge the whole run (after every other check). */
  final?: boolean;
}

const ACK_MS = TIMING.ackTimeout;
/** How long "no answer" is waited for before a frame counts as ignored. */
const SILENCE_MS = 400;
const DONE_MARGIN = TIMING.doneMargin;

const fail = (expected: string, got: string): never => {
  throw new CheckFailure(expected, got);
};

const json = (v: unknown) => JSON.stringify(v);
const bodyText = (b: RxBlock | undefined) => (b ? (b.body ? json(b.body) : b.frame ? `#${b.frame.seq} (not JSON)` : 'unreadable') : 'nothing');

// ---- request helpers ------------------------------------------------------------------------------

interface Acked {
  sent: Sent;
  ack: RxBlock;
  /** The Ack's `ms`. */
  ms: number;
}

/** Sends a request and requires an accepting Ack within 300 ms. */
async function accepted(ctx: CheckContext, method: string, params: unknown = {}): Promise<Acked> {
  const sent = await ctx.probe.request(method, params);
  return acceptedOf(ctx, sent);
}

async function acceptedOf(ctx: CheckContext, sent: Sent): Promise<Acked> {
  const { probe } = ctx;
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  if (!ack) {
    const done = probe.replies(sent.seq, FrameType.Done, sent.rxFrom)[0];
    const low = sent.seq > 0xff ? probe.replies(sent.seq & 0xff, FrameType.Ack, sent.rxFrom)[0] : undefined;
    fail(
      `an Ack for #${sent.seq} ${sent.method} within ${ACK_MS} ms (§3)`,
      done ? `a Done without an Ack first: ${bodyText(done)} (the Ack must come first, §3)` : low ? `an Ack #${sent.seq & 0xff}: only the low byte of the seq (§2.2: seq is u16 LE)` : 'no Ack',
    );
  }
  const a = ack!;
  const err = a.body?.error as { code?: unknown } | undefined;
  if (err !== undefined) fail(`#${sent.seq} ${sent.method} ${json(paramsOf(sent))} accepted`, `a NAK ${bodyText(a)}`);
  const ms = a.body?.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) fail(`the Ack of #${sent.seq} to be {"ms": N ≥ 0} (§2.5)`, bodyText(a));
  return { sent, ack: a, ms: ms as number };
}

/** Waits for the Done of an accepted request: ok, after its Ack, within ms + 2000. Returns when it came (ms after the Ack). */
async function doneOk(ctx: CheckContext, a: Acked, expectOk = true): Promise<RxBlock> {
  const { probe } = ctx;
  const done = await probe.first(a.sent, FrameType.Done, a.ms + DONE_MARGIN + (a.ack.at - probe.now()));
  if (!done) fail(`a Done for #${a.sent.seq} ${a.sent.method} within its Ack's ms (${a.ms}) + ${DONE_MARGIN} ms (§3)`, 'no Done');
  const d = done!;
  if (probe.log.rx.indexOf(d) < probe.log.rx.indexOf(a.ack)) fail(`the Ack of #${a.sent.seq} before its Done (§3)`, 'the Done came first');
  if (expectOk && d.body?.ok !== true) fail(`Done {"ok":true} for #${a.sent.seq} ${a.sent.method}`, bodyText(d));
  return d;
}

/** Accepted, then done ok. */
async function completes(ctx: CheckContext, method: string, params: unknown = {}): Promise<Acked & { done: RxBlock }> {
  const a = await accepted(ctx, method, params);
  const done = await doneOk(ctx, a);
  return { ...a, done };
}

/** Sends a request and requires a NAK with `code` within 300 ms, and no Done after it. */
async function refused(ctx: CheckContext, method: string, params: unknown, code: string): Promise<void> {
  const { probe } = ctx;
  const sent = await probe.request(method, params);
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  const err = ack?.body?.error as { code?: unknown } | undefined;
  if (!ack || err?.code !== code) fail(`a NAK {"error":{"code":"${code}"}} for ${method} ${json(params)} (§7, §8)`, ack ? bodyText(ack) : 'no Ack at all');
  if (typeof err!.code !== 'string') fail('the NAK code to be a string', bodyText(ack));
}

/** Requires that nothing answers request `sent` for `ms`. */
async function ignored(ctx: CheckContext, sent: Sent, what: string, ms = SILENCE_MS): Promise<void> {
  const { probe } = ctx;
  const reply = await probe.until(() => probe.log.rx.slice(sent.rxFrom).find((b) => b.frame && (b.frame.type === FrameType.Ack || b.frame.type === FrameType.Done) && b.frame.seq === sent.seq), ms);
  if (reply) fail(`${what} to be discarded silently (§2.4)`, `an answer: ${bodyText(reply)}`);
}

function paramsOf(s: Sent): unknown {
  try {
    const raw = cobsDecode(s.bytes.subarray(0, -1));
    return raw ? (JSON.parse(new TextDecoder().decode(raw.subarray(4, -2))) as { params?: unknown }).params : undefined;
  } catch {
    return undefined;
  }
}

/** Brings the robot back to rest (sys.idle) and lets stray frames arrive, so one check does not see another's replies. */
async function settle(ctx: CheckContext): Promise<void> {
  const { probe } = ctx;
  const sent = await probe.request('sys.idle', {});
  const ack = await probe.first(sent, FrameType.Ack, ACK_MS);
  const ms = typeof ack?.body?.ms === 'number' ? ack.body.ms : 300;
  if (ack) await probe.first(sent, FrameType.Done, ms + DONE_MARGIN);
  await probe.quiet(60);
}

// ---- what the hello allows ------------------------------------------------------------------------

const hasHead = (h: Hello | null, g: 'nod' | 'shake' = 'nod') => !!h?.gestures?.includes(g);
const can = (h: Hello | null, c: Capability) => !!h && capabilitiesFromHello(h).has(c);
const hasScreen = (h: Hello | null) => can(h, 'screen');
const hasFace = (h: Hello | null) => can(h, 'face');
const hasDraw = (h: Hello | null) => can(h, 'draw');
const maxPoints = (h: Hello | null) => Math.min(LIMITS.maxPointsPerStroke, Math.max(1, Math.floor(h?.draw?.maxPoints ?? LIMITS.maxPointsPerStroke)));
const needs = (ok: (h: Hello | null) => boolean, what: string) => (ctx: CheckContext) => (!ctx.hello ? '没有 hello' : ok(ctx.hello) ? null : `hello 里没有${what}`);

/** A deterministic byte source for garbage (no 0x00). */
function noise(n: number, seed: number): Uint8Array {
  let x = seed >>> 0 || 1;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 255) + 1;
  });
}

/** Wire bytes of a Request with its CRC (or version, or type) spoiled; everything else valid. */
function spoiled(method: string, seq: number, how: 'crc' | 'version' | 'type'): Uint8Array {
  const body = utf8(json({ method, params: {} }));
  const raw = new Uint8Array(body.length + FRAME_OVERHEAD);
  raw[0] = how === 'version' ? 2 : 1;
  raw[1] = how === 'type' ? 0x09 : FrameType.Request;
  raw[2] = seq & 0xff;
  raw[3] = seq >> 8;
  raw.set(body, 4);
  const crc = crc16(raw, 0, raw.length - 2) ^ (how === 'crc' ? 0x5a5a : 0);
  raw[raw.length - 2] = crc & 0xff;
  raw[raw.length - 1] = crc >> 8;
  return Uint8Array.from([...cobsEncode(raw), 0]);
}

/** The wire bytes of a valid Request. */
const requestWire = (method: string, seq: number, params: unknown = {}) => encodeJsonFrame(FrameType.Request, seq, { method, params });

// ---- the checks ---------------------------------------------------------------------------------

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

export const CHECKS: Check[] = [
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

function describeBefore(b: RxBlock): string {
  return b.frame ? `a frame (${bodyText(b)})` : b.problem ? `an unreadable block (${b.problem})` : 'an empty block';
}

/** A long stroke of `n` points inside the screen. */
function longStroke(n: number): number[][] {
  return Array.from({ length: n }, (_, i) => [(i * 7) % 240, (i * 13) % 240]);
}

/** A command that takes a while (a long nod, or a long animated stroke), accepted. */
async function startLong(ctx: CheckContext): Promise<Acked> {
  if (hasHead(ctx.hello)) return accepted(ctx, 'head.gesture', { name: 'nod', times: 2, period: 600 });
  await completes(ctx, 'draw.begin', { id: 'kit-dup' });
  return accepted(ctx, 'draw.stroke', { id: 'kit-dup', pts: longStroke(maxPoints(ctx.hello)) });
}

/** After a retransmission of `a`: its Ack again, and exactly one Done in all. */
async function onlyOnce(ctx: CheckContext, a: Acked, what: string): Promise<void> {
  const { probe } = ctx;
  await doneOk(ctx, a);
  await probe.quiet(Math.max(a.ms, 600) + 400);
  const dones = probe.replies(a.sent.seq, FrameType.Done, a.sent.rxFrom);
  if (dones.length !== 1) fail(`exactly one Done for #${a.sent.seq} (the command runs once; ${what} is a duplicate, §3)`, `${dones.length} Dones: it ran ${dones.length} times, or sent its Done more than once`);
  const acks = probe.replies(a.sent.seq, FrameType.Ack, a.sent.rxFrom);
  if (acks.length < 2) fail(`its Ack sent again for ${what}`, `${acks.length} Ack(s)`);
}

/**
 * The first Done (in the whole run) that came without an Ack of its own: walking everything sent
 * and received in order, a request's Dones may never outnumber its Acks (a retransmission is
 * answered with both again; a new request under an old seq starts over).
 */
function doneBeforeAck(probe: Probe): { block: RxBlock; second: boolean } | undefined {
  const { tx, rx } = probe.log;
  type Entry = { n: number; sent?: Uint8Array; block?: RxBlock };
  const entries: Entry[] = [...tx.map((c) => ({ n: c.n, sent: c.bytes })), ...rx.map((b) => ({ n: b.n, block: b }))].sort((a, b) => a.n - b.n);
  const count = new Map<number, { bytes: string; acks: number; dones: number }>();
  for (const e of entries) {
    if (e.sent) {
      for (const { seq, bytes } of requestsIn(e.sent)) {
        if (count.get(seq)?.bytes !== bytes) count.set(seq, { bytes, acks: 0, dones: 0 });
      }
      continue;
    }
    const f = e.block!.frame;
    if (!f || (f.type !== FrameType.Ack && f.type !== FrameType.Done)) continue;
    const c = count.get(f.seq);
    if (!c) continue; // not one of the kit's requests
    if (f.type === FrameType.Ack) c.acks++;
    else if (c.dones >= c.acks) return { block: e.block!, second: c.dones > 0 };
    else c.dones++;
  }
  return undefined;
}

/** The valid Requests in a written chunk: seq and the frame's bytes (a broken frame is no request). */
function requestsIn(wire: Uint8Array): Array<{ seq: number; bytes: string }> {
  const out: Array<{ seq: number; bytes: string }> = [];
  let start = 0;
  for (let i = 0; i < wire.length; i++) {
    if (wire[i] !== 0) continue;
    const block = wire.subarray(start, i);
    const f = block.length ? decodeBlock(block) : 'short';
    if (typeof f !== 'string' && f.type === FrameType.Request) out.push({ seq: f.seq, bytes: Array.from(block).join(',') });
    start = i + 1;
  }
  return out;
}

/** The slowest first Ack after a Request was first sent (retransmissions, and waits across a stall of the kit itself, excluded). */
function slowestAck(probe: Probe): { slowest: number; seq: number; skipped: number } {
  const { tx, rx } = probe.log;
  let slowest = 0;
  let seq = 0;
  let skipped = 0;
  const seen = new Set<string>();
  for (const c of tx) {
    for (const { seq: s, bytes } of requestsIn(c.bytes)) {
      const key = `${s}:${bytes}`;
      if (seen.has(key)) continue; // a retransmission
      seen.add(key);
      const ack = rx.find((b) => b.frame?.type === FrameType.Ack && b.frame.seq === s && b.n > c.n);
      if (!ack) continue;
      if (probe.stalledBetween(c.at, ack.at)) {
        skipped++;
        continue;
      }
      const ms = ack.at - c.at;
      if (ms > slowest) {
        slowest = ms;
        seq = s;
      }
    }
  }
  return { slowest, seq, skipped };
}

// ---- running ------------------------------------------------------------------------------------

export interface RunOptions {
  /** Called after each check (for a live list). */
  onResult?(r: CheckResult, index: number, total: number): void;
  /** Run only these check ids (and the hello). */
  only?: string[];
}

/** Runs every check against the device behind `io`, in order, and returns the report. */
export async function runConformance(io: ProbeIO, opts: RunOptions = {}): Promise<ConformanceReport> {
  const probe = new Probe(io);
  const startedAt = io.now();
  const ctx: CheckContext = {
    probe,
    hello: null,
    setHello(h) {
      this.hello = h;
    },
  };
  const checks = CHECKS.filter((c) => !opts.only || c.id === 'hello.answer' || opts.only.includes(c.id));
  const results: CheckResult[] = [];
  const ordered = [...checks.filter((c) => !c.final), ...checks.filter((c) => c.final)];
  const spans: CheckSpan[] = [];
  for (const [i, check] of ordered.entries()) {
    const from = probe.log.size;
    const r = await runOne(ctx, check);
    results.push(r);
    spans.push({ id: check.id, failed: r.status === 'fail', final: !!check.final, from: check.final ? 0 : from, to: probe.log.size });
    opts.onResult?.(r, i, ordered.length);
  }
  const causes = findCauses(probe.log, spans);
  for (const c of causes) for (const id of c.checks) results.find((r) => r.id === id)!.cause = c.id;
  const summary: Record<CheckStatus, number> = { pass: 0, fail: 0, skip: 0 };
  for (const r of results) summary[r.status]++;
  const h = ctx.hello;
  return {
    proto: PROTOCOL_VERSION,
    startedAt,
    finishedAt: io.now(),
    device: h ? { model: h.model, fw: h.fw, serial: h.serial } : null,
    hello: h ? (h as unknown as Record<string, unknown>) : null,
    results,
    summary,
    bytes: { tx: probe.log.tx.reduce((n, c) => n + c.bytes.length, 0), rx: probe.log.rxBytes },
    causes,
    limits: runLimits(probe.log),
  };
}

/** What no run of the kit can show, and how far this run went (docs/robot-protocol.md §13). */
function runLimits(log: WireLog): string[] {
  const seqs = new Set<number>();
  for (const c of log.tx) for (const r of requestsIn(c.bytes)) seqs.add(r.seq);
  const low = [...seqs].filter((s) => s < 256);
  const top = low.length ? Math.max(...low) : 0;
  return [
    'no screen readback: the kit sees only the bytes, not the screen; a robot that acks and sends Dones but draws nothing passes. Watch the robot during the draw and screen checks.',
    `seq wrap tested only as far as this run goes: requests #1…#${top}, plus #256 and #65535 once each; a robot that mishandles the wrap after 65535 requests of real use is caught only by the seq-wrap diagnosis if it shows here.`,
    'timings are measured on this tablet or computer; a check held up by the kit itself is run again once.',
  ];
}

const RETRIED = '重测过一次（第一次检测时平板自己卡了一下）';

async function runOne(ctx: CheckContext, check: Check, retried = false): Promise<CheckResult> {
  const { probe } = ctx;
  const base = { id: check.id, section: check.section, title: check.title };
  const skip = check.skip?.(ctx) ?? null;
  if (skip) return { ...base, status: 'skip', ms: 0, note: skip };
  const t0 = probe.now();
  const n0 = probe.log.size;
  try {
    const said = await check.run(ctx);
    const note = [said, retried ? RETRIED : ''].filter(Boolean).join('；');
    const r: CheckResult = { ...base, status: 'pass', ms: probe.now() - t0, ...(note ? { note } : {}) };
    if (!check.final && check.id !== 'hello.answer') await settle(ctx);
    return r;
  } catch (e) {
    const t1 = probe.now();
    // Every check waits on the clock somewhere: when the kit itself was held up (a busy tab), its
    // verdict says nothing about the robot, so it runs once more.
    if (!check.final && !retried && probe.stalledBetween(t0, t1)) {
      await settle(ctx);
      return runOne(ctx, check, true);
    }
    const { traffic, omitted } = trafficOf(probe.log, { n: n0, at: t0 });
    const failure = e instanceof CheckFailure ? { expected: e.expected, got: e.got } : { expected: 'the check to run', got: `an error in the kit: ${String(e)}` };
    if (!check.final && ctx.hello) await settle(ctx);
    return { ...base, status: 'fail', ms: t1 - t0, ...(retried ? { note: RETRIED } : {}), failure: { ...failure, traffic, omitted } };
  }
}
