/**
 * An incremental reader of a step's JSON while the model is still decoding it: `{"<action>":
 * {…, "text": …}}` (step-format.ts), or the paired form `{"action": …, "args": {…}}` one output
 * mode asks a server for. It knows the action as soon as its key (or its string) is closed and
 * hands out the arguments' `text` as it grows, decoded (escapes included), so a reply can be
 * spoken sentence by sentence before the step is complete. It never throws: text that is not
 * (yet) a step simply yields nothing. The complete step is still validated by the model layer
 * (step-schema.ts) when decoding ends.
 */

export interface PartialStep {
  /** The action, once its JSON string is complete. */
  action?: string;
  /** The arguments' `text` decoded so far (never ends inside an escape or a surrogate pair). */
  text?: string;
  /** The string of the arguments' `text` is closed. */
  textDone: boolean;
}

const WS = /\s/;

class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && WS.test(this.s[this.i])) this.i++;
  }
  get end(): boolean {
    return this.i >= this.s.length;
  }
  peek(): string {
    return this.s[this.i];
  }
}

/** A JSON string at the cursor (opening quote included): its decoded value so far and whether it closed. */
function readString(c: Cursor): { value: string; closed: boolean } | null {
  if (c.peek() !== '"') return null;
  c.i++;
  let value = '';
  while (!c.end) {
    const ch = c.s[c.i];
    if (ch === '"') {
      c.i++;
      return { value, closed: true };
    }
    if (ch !== '\\') {
      value += ch;
      c.i++;
      continue;
    }
    const esc = c.s[c.i + 1];
    if (esc === undefined) break; // an escape cut in two: wait for the rest
    if (esc === 'u') {
      const hex = c.s.slice(c.i + 2, c.i + 6);
      if (hex.length < 4) break;
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { value, closed: false };
      const code = parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdbff) {
        // A high surrogate: only with its low half.
        const next = c.s.slice(c.i + 6, c.i + 12);
        if (next.length < 6) break;
        const m = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})$/.exec(next);
        if (!m) return { value, closed: false };
        value += String.fromCharCode(code, parseInt(m[1], 16));
        c.i += 12;
        continue;
      }
      value += String.fromCharCode(code);
      c.i += 6;
      continue;
    }
    const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
    if (!(esc in simple)) return { value, closed: false };
    value += simple[esc];
    c.i += 2;
  }
  // A character cut in two (its high surrogate only): wait for the rest.
  return { value: /[\ud800-\udbff]$/.test(value) ? value.slice(0, -1) : value, closed: false };
}

/** Skips one JSON value; false when it is not complete yet (or not JSON). */
function skipValue(c: Cursor): boolean {
  c.ws();
  if (c.end) return false;
  const ch = c.peek();
  if (ch === '"') return readString(c)?.closed === true;
  if (ch === '{' || ch === '[') {
    const close = ch === '{' ? '}' : ']';
    c.i++;
    for (;;) {
      c.ws();
      if (c.end) return false;
      if (c.peek() === close) {
        c.i++;
        return true;
      }
      if (ch === '{') {
        if (readString(c)?.closed !== true) return false;
        c.ws();
        if (c.peek() !== ':') return false;
        c.i++;
      }
      if (!skipValue(c)) return false;
      c.ws();
      if (c.peek() === ',') c.i++;
      else if (c.peek() !== close) return false;
    }
  }
  const m = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(c.s.slice(c.i));
  if (!m) return false;
  c.i += m[0].length;
  // A number may still grow: complete only once something follows it.
  return !c.end;
}

/**
 * The fields of an object whose `{` is already read, while they are complete: `field` reads each
 * value (the cursor after the colon) and says whether it is whole.
 */
function readFields(c: Cursor, field: (key: string) => boolean): void {
  for (;;) {
    c.ws();
    if (c.end || c.peek() === '}') return;
    const key = readString(c);
    if (!key?.closed) return;
    c.ws();
    if (c.peek() !== ':') return;
    c.i++;
    c.ws();
    if (!field(key.value)) return;
    c.ws();
    if (c.peek() === ',') c.i++;
    else return;
  }
}

/** Reads the arguments: only their `text` field matters. */
function readArgs(c: Cursor, out: PartialStep): void {
  c.ws();
  if (c.peek() !== '{') return;
  c.i++;
  readFields(c, (key) => {
    if (key !== 'text') return skipValue(c);
    const v = readString(c);
    if (!v) return false;
    out.text = v.value;
    out.textDone = v.closed;
    return v.closed;
  });
}

/** What can be read of a step from the text decoded so far. */
export function readPartialStep(text: string): PartialStep {
  const out: PartialStep = { textDone: false };
  const c = new Cursor(text);
  c.ws();
  if (c.peek() !== '{') return out;
  c.i++;
  const start = c.i;
  c.ws();
  const key = readString(c);
  if (!key?.closed) return out;
  if (key.value !== 'action' && key.value !== 'args') {
    // `{"<action>": {…}}`: the key is the action.
    out.action = key.value;
    c.ws();
    if (c.peek() !== ':') return out;
    c.i++;
    readArgs(c, out);
    return out;
  }
  c.i = start;
  readPaired(c, out);
  return out;
}

/** The paired form's fields, in whatever order they come. */
function readPaired(c: Cursor, out: PartialStep): void {
  readFields(c, (key) => {
    if (key === 'action') {
      const v = readString(c);
      if (v?.closed) out.action = v.value;
      return v?.closed === true;
    }
    if (key === 'args') {
      const before = c.i;
      readArgs(c, out);
      c.i = before;
    }
    return skipValue(c);
  });
}

/** Feeds decoded text as it arrives (attempt by attempt) and reports what a step says so far. */
export class StepReader {
  private text = '';
  private attempt = 0;

  /** Adds a piece of decoded text; a new attempt (a retry after invalid output) starts over. */
  push(delta: string, attempt = this.attempt): PartialStep {
    if (attempt !== this.attempt) {
      this.attempt = attempt;
      this.text = '';
    }
    this.text += delta;
    return readPartialStep(this.text);
  }
}
