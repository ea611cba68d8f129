import { describe, expect, it } from 'vitest';
import { checkGguf } from '../../../src/core/llm/gguf-check.ts';
import { tinyGguf } from '../../support/tiny-gguf.ts';

describe('a model file is checked before it is offered', () => {
  const file = tinyGguf({ seed: 7 });

  it('a whole GGUF: header, every metadata pair and the tensor table read, its data inside the file', () => {
    const r = checkGguf(file, file.length);
    expect(r).toMatchObject({ ok: true, version: 3, architecture: 'llama' });
    if (r.ok) {
      expect(r.tensors).toBeGreaterThan(5);
      expect(r.dataEnd).toBeLessThanOrEqual(file.length);
      expect(r.dataEnd).toBeGreaterThan(file.length - 64);
    }
  });

  it('a truncated download, an HTML page, a text file and a corrupt header are each named', () => {
    const cut = file.subarray(0, Math.floor(file.length * 0.8));
    expect(checkGguf(cut, cut.length)).toMatchObject({ ok: false, reason: 'truncated', detail: expect.stringContaining('文件不完整') });
    const html = new TextEncoder().encode('<!DOCTYPE html><html><body>404</body></html>');
    expect(checkGguf(html, html.length)).toMatchObject({ ok: false, reason: 'not-gguf', detail: expect.stringContaining('网页') });
    const text = new TextEncoder().encode('hello, this is not a model');
    expect(checkGguf(text, text.length)).toMatchObject({ ok: false, reason: 'not-gguf', detail: expect.stringContaining('不是模型文件') });
    const bad = file.slice();
    new DataView(bad.buffer).setUint32(4, 99, true);
    expect(checkGguf(bad, bad.length)).toMatchObject({ ok: false, reason: 'corrupt' });
    const garbled = file.slice();
    for (let i = 24; i < 200; i++) garbled[i] = 0xff;
    expect(checkGguf(garbled, garbled.length).ok).toBe(false);
    // Only the first bytes of a big file: asks for more rather than guessing.
    expect(checkGguf(file.subarray(0, 100), 1e9)).toMatchObject({ ok: false, reason: 'need-more' });
  });
});
