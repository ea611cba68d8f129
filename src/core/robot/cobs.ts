/**
 * Consistent Overhead Byte Stuffing: removes every 0x00 from a frame so that 0x00 can mark
 * the frame's end on the wire. A receiver that joins mid-stream (boot garbage, a lost byte)
 * resynchronises at the next 0x00.
 */

/** Encodes `data` (without the trailing 0x00 delimiter). Output length ≤ n + ceil(n/254) + 1. */
export function cobsEncode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 254) + 1);
  let codeAt = 0;
  let o = 1;
  let code = 1;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0) {
      out[codeAt] = code;
      codeAt = o++;
      code = 1;
    } else {
      out[o++] = data[i];
      code++;
      if (code === 0xff) {
        out[codeAt] = code;
        codeAt = o++;
        code = 1;
      }
    }
  }
  out[codeAt] = code;
  return out.subarray(0, o);
}

/** Decodes one COBS block (delimiter already removed). Returns null when it is not valid COBS. */
export function cobsDecode(block: Uint8Array): Uint8Array | null {
  const out = new Uint8Array(block.length);
  let o = 0;
  let i = 0;
  while (i < block.length) {
    const code = block[i];
    if (code === 0 || i + code > block.length) return null;
    i++;
    for (let k = 1; k < code; k++) {
      const b = block[i++];
      if (b === 0) return null;
      out[o++] = b;
    }
    if (code !== 0xff && i < block.length) out[o++] = 0;
  }
  return out.subarray(0, o);
}
