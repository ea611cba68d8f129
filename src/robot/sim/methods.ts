/**
 * The simulator's commands (docs/robot-protocol.md §7): one handler per method, each with its
 * parameter checks. A handler either refuses the request (a NAK) or acks it and reports done,
 * at once, after a while, or through one of the two lanes (head, screen). The firmware
 * (`firmware.ts`) decodes and deduplicates requests, then calls the handler of the method.
 */
import { LIMITS, TIMING, utf8Length, type DeviceErrorCode, type Hello, type Method, type Point } from '../../core/robot/messages.ts';
import type { Expression } from '../../core/robot/types.ts';
import { MOTION, strokeMs } from './motion.ts';
import type { RobotState, ScreenContent } from './state.ts';

export type Params = Record<string, unknown>;
export type Reply = { ok: true } | { ok: false; code: DeviceErrorCode; msg?: string };
type Lane = 'head' | 'screen';

/** What a handler may do to the robot. */
export interface SimControls {
  state(): RobotState;
  /** The hello this robot sends: the expressions and gestures it supports. */
  helloBody(): Hello;
  set(patch: Partial<RobotState>): void;
  /** Stops motion and drops both lanes' work (each dropped command reports done `stopped`). */
  stopAll(): void;
  /** How long until a lane has finished everything it holds (ms). */
  laneWait(lane: Lane): number;
  sendHello(): void;
  /** The drawing the latest draw.begin announced (strokes are checked against it on arrival). */
  readonly drawing: { id: string | null; animate: boolean };
  /** Waits for the Blob frames of a `screen.image` request (the ack is already sent). */
  receiveImage(req: Request, w: number, h: number, len: number): void;
}

/** One request being answered. */
export interface Request {
  readonly seq: number;
  ack(ms: number): void;
  nak(code: DeviceErrorCode, msg: string): void;
  done(reply: Reply): void;
  /** Acks with `ms` and reports done `ms` later (the immediate lane). */
  finishAfter(ms: number): void;
  /** Queues on a lane: acks with the wait plus `ms` (or NAKs `busy`), runs `start`, then `finish` and done after `ms`. */
  queue(lane: Lane, ms: number, start?: () => void, finish?: () => void): void;
  /** A new host session: forget every earlier request, remember only this one. */
  forgetOthers(): void;
}

/** What the robot uses when `draw.begin` leaves them out (docs/robot-protocol.md §7). */
const DRAW_DEFAULTS = { color: '#222222', width: 6 } as const;

export type MethodHandler = (fw: SimControls, p: Params, req: Request) => void;

const isInt = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
/** An optional label: absent, or a string of at most 60 UTF-8 bytes. */
const isLabel = (v: unknown) => v === undefined || (typeof v === 'string' && utf8Length(v) <= LIMITS.maxLabelBytes);
const optionalText = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const MAX_XY = LIMITS.screenSize - 1;
const isPoint = (q: unknown): q is Point => Array.isArray(q) && q.length === 2 && isInt(q[0], 0, MAX_XY) && isInt(q[1], 0, MAX_XY);

const showCard = (fw: SimControls, req: Request, content: ScreenContent) => req.queue('screen', MOTION.card, () => fw.set({ content }));

const METHOD_HANDLERS: Record<Method, MethodHandler> = {
  'sys.hello': (fw, _p, req) => {
    req.forgetOthers();
    req.ack(0);
    fw.sendHello();
    req.done({ ok: true });
  },

  'sys.stop': (fw, _p, req) => {
    fw.stopAll();
    req.finishAfter(MOTION.stop);
  },

  'sys.idle': (fw, _p, req) => {
    fw.stopAll();
    fw.set({ face: null, content: { kind: 'idle' } });
    req.finishAfter(MOTION.idle);
  },

  'face.set': (fw, p, req) => {
    if (typeof p.expr !== 'string') return req.nak('bad_params', 'expr must be a string');
    const expr = p.expr as Expression;
    if (!fw.helloBody().expressions.includes(expr)) return req.nak('unsupported', `no expression ${expr}`);
    fw.set({ face: expr });
    req.finishAfter(MOTION.faceSet);
  },

  'face.clear': (fw, _p, req) => {
    fw.set({ face: null });
    req.finishAfter(MOTION.faceClear);
  },

  'head.gesture': (fw, p, req) => {
    const name = p.name;
    if (typeof name !== 'string') return req.nak('bad_params', 'name must be a string');
    // A name this robot does not list (or does not know at all) is a gesture it lacks.
    if ((name !== 'nod' && name !== 'shake') || !fw.helloBody().gestures.includes(name)) return req.nak('unsupported', `no gesture ${name}`);
    const d = MOTION[name];
    const times = p.times === undefined ? d.times : p.times;
    const period = p.period === undefined ? d.period : p.period;
    const amp = p.amp === undefined ? d.amp : p.amp;
    if (!isInt(times, 1, 5) || !isInt(period, 250, 2000) || !isInt(amp, 1, 45)) return req.nak('bad_params', 'times 1–5, period 250–2000, amp 1–45');
    req.queue(
      'head',
      times * period,
      () => fw.set({ head: { gesture: name, seq: fw.state().head.seq + 1, times, period, amp }, gestures: [...fw.state().gestures, name] }),
      () => fw.set({ head: { ...fw.state().head, gesture: null } }),
    );
  },

  'head.home': (_fw, _p, req) => req.queue('head', MOTION.headHome),

  'draw.begin': (fw, p, req) => {
    if (typeof p.id !== 'string' || !p.id || utf8Length(p.id) > LIMITS.maxIdBytes) return req.nak('bad_params', `id: 1–${LIMITS.maxIdBytes} UTF-8 bytes`);
    if (p.color !== undefined && !(typeof p.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(p.color))) return req.nak('bad_params', 'color must be #rrggbb');
    if (p.width !== undefined && !isInt(p.width, 1, 20)) return req.nak('bad_params', 'width: an integer 1–20');
    if (p.animate !== undefined && typeof p.animate !== 'boolean') return req.nak('bad_params', 'animate must be true or false');
    const id = p.id;
    const color = typeof p.color === 'string' ? p.color : DRAW_DEFAULTS.color;
    const width = typeof p.width === 'number' ? p.width : DRAW_DEFAULTS.width;
    fw.drawing.id = id;
    fw.drawing.animate = p.animate !== false;
    req.queue('screen', MOTION.drawBegin, () => fw.set({ content: { kind: 'drawing', id, color, width, strokes: [], drawn: 0, drawing: null, complete: false } }));
  },

  'draw.stroke': (fw, p, req) => {
    if (p.id !== fw.drawing.id) return req.nak('bad_params', 'stroke for a drawing that was not begun');
    const pts = p.pts;
    const max = Math.min(LIMITS.maxPointsPerStroke, fw.helloBody().draw?.maxPoints ?? LIMITS.maxPointsPerStroke);
    if (!Array.isArray(pts) || pts.length < 1 || pts.length > max || !pts.every(isPoint)) return req.nak('bad_params', `pts: 1–${max} points [x,y] in 0–${MAX_XY}`);
    const stroke: Point[] = pts;
    // Hidden under a face, or asked not to animate: the stroke appears at once.
    const ms = strokeMs(stroke.length, fw.drawing.animate && !fw.state().face);
    req.queue(
      'screen',
      ms,
      () => {
        const c = fw.state().content;
        if (c.kind === 'drawing') fw.set({ content: { ...c, strokes: [...c.strokes, stroke], drawing: { index: c.strokes.length, ms } } });
      },
      () => {
        const c = fw.state().content;
        if (c.kind === 'drawing') fw.set({ content: { ...c, drawn: c.drawn + 1, drawing: null } });
      },
    );
  },

  'draw.end': (fw, p, req) => {
    if (p.id !== fw.drawing.id) return req.nak('bad_params', 'end for a drawing that was not begun');
    if (!isLabel(p.label)) return req.nak('bad_params', `label: a string of at most ${LIMITS.maxLabelBytes} UTF-8 bytes`);
    const label = optionalText(p.label);
    req.queue('screen', MOTION.drawEnd, undefined, () => {
      const c = fw.state().content;
      if (c.kind === 'drawing') fw.set({ content: { ...c, complete: true, label } });
    });
  },

  'screen.progress': (fw, p, req) => {
    if (!isInt(p.current, 0, 999) || !isInt(p.total, 1, 999)) return req.nak('bad_params', 'current 0–999, total 1–999');
    if (!isLabel(p.label)) return req.nak('bad_params', `label: a string of at most ${LIMITS.maxLabelBytes} UTF-8 bytes`);
    showCard(fw, req, { kind: 'progress', current: p.current, total: p.total, label: optionalText(p.label) });
  },

  'screen.text': (fw, p, req) => {
    if (typeof p.text !== 'string' || utf8Length(p.text) > LIMITS.maxTextBytes)
      return req.nak('bad_params', `text: at most ${LIMITS.maxTextBytes} UTF-8 bytes`);
    showCard(fw, req, { kind: 'text', text: p.text });
  },

  'screen.image': (fw, p, req) => {
    const { w, h, fmt, len } = p;
    if (fmt !== 'mono1') return req.nak('unsupported', 'fmt must be mono1');
    if (!isInt(w, 1, LIMITS.screenSize) || !isInt(h, 1, LIMITS.screenSize) || len !== Math.ceil((w * h) / 8))
      return req.nak('bad_params', 'w,h 1–240 and len = ceil(w*h/8)');
    // At worst every Blob arrives just before the stall timer fires; then the image waits its turn.
    req.ack(fw.laneWait('screen') + TIMING.blobStall + MOTION.image);
    fw.receiveImage(req, w, h, len);
  },
};

/** The handler of a method name from the wire, or undefined for a method this robot does not know. */
export function methodHandler(method: string): MethodHandler | undefined {
  return Object.hasOwn(METHOD_HANDLERS, method) ? METHOD_HANDLERS[method as Method] : undefined;
}
