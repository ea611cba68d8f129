/**
 * docs/robot-protocol.md §11 is what firmware authors copy: every hex example in it is checked
 * against the codec here, read from the document itself (a changed byte there fails this test).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cobsEncode } from '../../../src/core/robot/cobs.ts';
import { decodeBlock, jsonPayload } from '../../../src/core/robot/frame.ts';
import { FirmwareSim } from '../../../src/robot/sim/firmware.ts';
import { fixedRandom } from '../../support/robot/random.ts';

const doc = readFileSync('docs/robot-protocol.md', 'utf8');

function section(title: string): string {
  const start = doc.indexOf(`## ${title}`);
  const end = doc.indexOf('\n## ', start + 4);
  return doc.slice(start, end < 0 ? undefined : end);
}

interface Example {
  raw?: number[];
  wire?: number[];
  json?: string;
  line: string;
}

/** Reads `raw`, `wire` and `json` fields (hex continues on indented lines) from the section's code blocks. */
function examples(text: string): Example[] {
  const out: Example[] = [];
  const blocks = [...text.matchAll(/```\n([\s\S]*?)```/g)].map((m) => m[1]);
  for (const block of blocks) {
    let current: Example | null = null;
    let field: 'raw' | 'wire' | null = null;
    for (const line of block.split('\n')) {
      const labelled = /^\s*(?:(?:ack|done)\s+)?(raw|wire|json)\s+(.+)$/.exec(line);
      if (labelled) {
        const [, name, rest] = labelled;
        if (name === 'json') {
          current = { line, json: rest };
          out.push(current);
          field = null;
          continue;
        }
        // A raw starts an example (unless it belongs to the json just read); a wire ends one.
        const open = current && !current.wire && (name === 'wire' || (current.json !== undefined && !current.raw));
        if (!open) {
          current = { line };
          out.push(current);
        }
        field = name as 'raw' | 'wire';
        current![field] = rest.trim().split(/\s+/).map((h) => parseInt(h, 16));
        continue;
      }
      const more = /^\s+((?:[0-9a-f]{2}\s*)+)$/.exec(line);
      if (more && current && field) current[field]!.push(...more[1].trim().split(/\s+/).map((h) => parseInt(h, 16)));
    }
  }
  return out;
}

describe('docs/robot-protocol.md §11 hex examples', () => {
  const list = examples(section('11. Examples (hex)'));

  it('are read from the document (raw, wire and json fields)', () => {
    expect(list.length).toBeGreaterThanOrEqual(9);
    expect(list.every((e) => e.wire)).toBe(true);
  });

  it('every raw frame COBS-encodes to the wire bytes under it, and every wire frame decodes with a valid CRC', () => {
    for (const e of list) {
      if (e.raw) expect([...cobsEncode(Uint8Array.from(e.raw)), 0], e.line).toEqual(e.wire);
      const wire = Uint8Array.from(e.wire!);
      expect(wire.at(-1), e.line).toBe(0);
      const f = decodeBlock(wire.subarray(0, -1));
      expect(typeof f, `${e.line}: ${String(f)}`).toBe('object');
      if (e.json && typeof f === 'object') expect(jsonPayload(f), e.line).toEqual(JSON.parse(e.json));
    }
  });

  it('includes a real hello over 254 raw bytes, whose COBS encoding has a 0xFF block', () => {
    const hello = list.find((e) => e.json?.includes('"event":"hello"'))!;
    expect(hello.raw!.length).toBeGreaterThan(254);
    expect(hello.wire![4]).toBe(0xff); // the first block after the seq's zero byte runs 254 bytes
    const body = JSON.parse(hello.json!) as Record<string, unknown>;
    // What the simulator says with those identity fields: the example is the real thing, not made up.
    const sim = new FirmwareSim({ random: fixedRandom(), serial: String(body.serial), hello: { fw: String(body.fw), model: String(body.model), boot: Number(body.boot) } });
    expect(sim.helloBody()).toEqual(body);
  });

  it("has the maker's examples: a 100-point stroke within maxFrame, sys.stop with its Ack and Done, a failed Done, a full screen.image, log and fault events", () => {
    const bodies = list.filter((e) => e.json).map((e) => ({ e, body: JSON.parse(e.json!) as Record<string, any> }));
    const stroke = bodies.find((b) => b.body.method === 'draw.stroke')!;
    expect(stroke.body.params.pts).toHaveLength(100);
    expect(stroke.e.raw!.length).toBeLessThanOrEqual(1024);
    expect(stroke.e.wire!.filter((b, i) => b === 0xff && i > 0).length).toBeGreaterThanOrEqual(1);
    expect(bodies.some((b) => b.body.method === 'sys.stop')).toBe(true);
    expect(bodies.find((b) => b.body.method === 'screen.image')!.body.params).toEqual({ w: 240, h: 240, fmt: 'mono1', len: 7200 });
    expect(bodies.some((b) => b.body.ok === false && b.body.error?.code === 'stopped')).toBe(true);
    expect(bodies.some((b) => b.body.event === 'log')).toBe(true);
    expect(bodies.some((b) => b.body.event === 'fault')).toBe(true);
    // sys.stop's Ack and Done sit under it (the `ack` / `done` lines).
    expect(list.filter((e) => /^\s*(ack|done)\s+raw/.test(e.line)).length).toBeGreaterThanOrEqual(4);
  });

  it("matches §4's hello example", () => {
    const fromSection4 = /```json\n([\s\S]*?)```/.exec(section('4. Handshake: the hello'))![1];
    const hello = list.find((e) => e.json?.includes('"event":"hello"'))!;
    expect(JSON.parse(fromSection4)).toEqual(JSON.parse(hello.json!));
  });
});
