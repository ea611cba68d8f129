/**
 * Prints the byte examples of docs/robot-protocol.md §11 (the maker's examples) from the codec
 * itself: `npx tsx scripts/robot-doc-examples.ts`. tests/unit/robot/protocol-doc.test.ts checks
 * every example in the document against the codec, so a pasted block that drifts fails there.
 */
import { cobsDecode } from '../src/core/robot/cobs.ts';
import { encodeFrame, FrameType } from '../src/core/robot/frame.ts';

const hexLines = (bytes: Uint8Array, indent: string, first: string) => {
  const h = Array.from(bytes, (b) => b.toString(16).padStart(2, '0'));
  const lines: string[] = [];
  for (let i = 0; i < h.length; i += 32) lines.push((i === 0 ? first : indent) + h.slice(i, i + 32).join(' '));
  return lines.join('\n');
};

function example(type: FrameType, seq: number, body: unknown, opts: { json?: boolean; prefix?: string } = {}): string {
  const text = JSON.stringify(body);
  const wire = encodeFrame(type, seq, new TextEncoder().encode(text));
  const raw = cobsDecode(wire.subarray(0, -1))!;
  const p = opts.prefix ?? '';
  const pad = ' '.repeat(p.length);
  const out: string[] = [];
  if (opts.json) out.push(`${p}json ${text}`);
  out.push(hexLines(raw, `${pad}     `, `${opts.json ? pad : p}raw  `));
  out.push(hexLines(wire, `${pad}     `, `${pad}wire `));
  return out.join('\n');
}

/** A 100-point stroke that fits a 1024-byte frame (two-digit coordinates; with three-digit ones the host splits it). */
const stroke = Array.from({ length: 100 }, (_, i) => [10 + (i % 90), 10 + ((i * 7) % 90)]);

const blocks: Array<[string, string]> = [
  ['sys.stop, seq=11, its Ack and Done', [example(FrameType.Request, 11, { method: 'sys.stop', params: {} }, { json: true }), example(FrameType.Ack, 11, { ms: 50 }, { prefix: 'ack  ' }), example(FrameType.Done, 11, { ok: true }, { prefix: 'done ' })].join('\n')],
  ['a failed Done, seq=12 (a stroke dropped by sys.stop)', example(FrameType.Done, 12, { ok: false, error: { code: 'stopped', msg: 'sys.stop' } }, { json: true })],
  ['a 100-point draw.stroke, seq=13', example(FrameType.Request, 13, { method: 'draw.stroke', params: { id: 'fish', pts: stroke } }, { json: true })],
  ['a full-screen screen.image request, seq=14', example(FrameType.Request, 14, { method: 'screen.image', params: { w: 240, h: 240, fmt: 'mono1', len: 7200 } }, { json: true })],
  ['a log Event (device event counter 2)', example(FrameType.Event, 2, { event: 'log', msg: 'ready' }, { json: true })],
  ['a fault Event (device event counter 3)', example(FrameType.Event, 3, { event: 'fault', code: 'servo_fault', msg: 'yaw stalled' }, { json: true })],
];
for (const [title, text] of blocks) console.log(`${title}:\n\n\`\`\`\n${text}\n\`\`\`\n`);
