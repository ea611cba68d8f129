import { describe, expect, it } from 'vitest';
import { readSseData } from '../../../src/core/llm/sse.ts';
import { readPartialStep, StepReader } from '../../../src/core/llm/step-reader.ts';
import { SentenceStream } from '../../../src/core/speech/sentence-stream.ts';
import { stepJson } from '../../../src/core/llm/step-format.ts';

const reply = (text: string) => stepJson({ action: 'reply', args: { text } });

describe('the incremental step reader', () => {
  it('knows the action as soon as its key closes, and the text as it grows', () => {
    expect(readPartialStep('{"rep')).toEqual({ textDone: false });
    expect(readPartialStep('{"reply"')).toMatchObject({ action: 'reply', textDone: false });
    expect(readPartialStep('{"reply": {"text": "你好')).toMatchObject({ action: 'reply', text: '你好', textDone: false });
    expect(readPartialStep('{"reply":{"text":"你好。"}}')).toMatchObject({ action: 'reply', text: '你好。', textDone: true });
  });

  it('reads the paired form an OpenAI-strict server writes, fields in either order', () => {
    expect(readPartialStep('{"action": "rep')).toEqual({ textDone: false });
    expect(readPartialStep('{"action": "reply"')).toMatchObject({ action: 'reply', textDone: false });
    expect(readPartialStep('{"action":"reply","args":{"text":"你好')).toMatchObject({ action: 'reply', text: '你好', textDone: false });
    expect(readPartialStep('{"args":{"text":"你好。"},"action":"say"}')).toMatchObject({ action: 'say', text: '你好。', textDone: true });
  });

  it('reads text after other arguments and nested values, and ignores tools without text', () => {
    expect(readPartialStep('{"finish":{"n":12,"x":{"a":[1,"}"]},"text":"再见')).toMatchObject({ action: 'finish', text: '再见' });
    expect(readPartialStep('{"submit_guess":{"number":5')).toMatchObject({ action: 'submit_guess', textDone: false });
    expect(readPartialStep('{"submit_guess":{"number":5}}').text).toBeUndefined();
  });

  it('never ends inside an escape or a surrogate pair', () => {
    const full = reply('他说：“好\\n的”😀。');
    const raw = stepJson({ action: 'reply', args: { text: '他说："好\\的"\n😀\u00e9。' } }).replace('😀', '\\ud83d\\ude00');
    for (const text of [full, raw]) {
      const expected = (JSON.parse(text) as { reply: { text: string } }).reply.text;
      for (let i = 0; i <= text.length; i++) {
        const p = readPartialStep(text.slice(0, i));
        if (p.text !== undefined) {
          expect(expected.startsWith(p.text), `cut at ${i}: ${p.text}`).toBe(true);
          expect(/[\ud800-\udbff]$/.test(p.text)).toBe(false);
        }
      }
      expect(readPartialStep(text).text).toBe(expected);
    }
  });

  it('text longer than 500 characters streams whole (the protocol cut happens on the final reply)', () => {
    const long = '很长的一句话，'.repeat(100) + '完。';
    const r = new StepReader();
    let last = '';
    const text = reply(long);
    for (let i = 0; i < text.length; i += 7) last = r.push(text.slice(i, i + 7)).text ?? last;
    expect(last).toBe(long);
  });

  it('a new attempt starts over', () => {
    const r = new StepReader();
    r.push('{"reply":{"text":"第一次', 0);
    expect(r.push('{"say":{"text":"第二', 1)).toMatchObject({ action: 'say', text: '第二' });
  });

  it('cut at every byte of an SSE stream, inside UTF-8 characters and escapes, the text only ever grows to the step', async () => {
    const content = '{"reply": {"text": "太棒啦！就是 \\"37\\"。你真厉害！"}}';
    const pieces = [...content].reduce<string[]>((acc, ch, i) => (i % 3 === 0 ? [...acc, ch] : [...acc.slice(0, -1), acc.at(-1) + ch]), []);
    const sse = pieces.map((p) => `data: ${JSON.stringify({ choices: [{ delta: { content: p } }] })}\n\n`).join('') + 'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(sse);
    for (let cut = 1; cut < bytes.length; cut += 5) {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, cut));
          c.enqueue(bytes.slice(cut));
          c.close();
        },
      });
      const r = new StepReader();
      const seen: string[] = [];
      for await (const data of readSseData(body)) {
        if (data === '[DONE]') break;
        const delta = (JSON.parse(data) as { choices: Array<{ delta: { content: string } }> }).choices[0].delta.content;
        const p = r.push(delta);
        if (p.text !== undefined) seen.push(p.text);
      }
      expect(seen.at(-1)).toBe('太棒啦！就是 "37"。你真厉害！');
      for (let i = 1; i < seen.length; i++) expect(seen[i].startsWith(seen[i - 1])).toBe(true);
    }
  });

  it('garbage yields nothing and never throws', () => {
    for (const s of ['', 'null', '[1,2]', '{"action": 5}', '{"args": {"text": 3}}', '{{{', '"just a string"', '{"reply":{"text":"\\x"}}']) {
      expect(() => readPartialStep(s)).not.toThrow();
    }
    expect(readPartialStep('{"reply":{"text":"ok\\x"}}').textDone).toBe(false);
  });
});

describe('sentences released while a reply is decoded', () => {
  function stream(holdLast: boolean) {
    const out: string[] = [];
    return { s: new SentenceStream((t) => out.push(t), holdLast), out };
  }

  it('a final reply: each sentence goes once the next has begun; the last is left for the final', () => {
    const { s, out } = stream(true);
    s.update('好的。', 0);
    expect(out).toEqual([]);
    s.update('好的。我们', 0);
    expect(out).toEqual(['好的。']);
    s.update('好的。我们开始吧！你先', 0);
    expect(out).toEqual(['好的。', '我们开始吧！']);
    expect(s.finish('好的。我们开始吧！你先猜。')).toBe('你先猜。');
  });

  it('a closing quote stays with its sentence', () => {
    const { s, out } = stream(true);
    s.update('他说：“好。', 0);
    s.update('他说：“好。”', 0);
    expect(out).toEqual([]);
    s.update('他说：“好。”然后', 0);
    expect(out).toEqual(['他说：“好。”']);
  });

  it('a say releases every finished sentence, and the rest when the step completes', () => {
    const { s, out } = stream(false);
    s.update('等一下。我在画', 0);
    expect(out).toEqual(['等一下。']);
    expect(s.finish('等一下。我在画画')).toBe('');
    expect(out).toEqual(['等一下。', '我在画画']);
  });

  it('a retry after invalid output does not say again what was said', () => {
    const { s, out } = stream(true);
    s.update('太棒了。你猜对了', 0); // then the JSON broke: the model layer retries
    expect(out).toEqual(['太棒了。']);
    s.update('太棒了。你猜', 1);
    s.update('太棒了。你猜对了！真厉害', 1);
    expect(out).toEqual(['太棒了。', '你猜对了！']);
    expect(s.finish('太棒了。你猜对了！真厉害。')).toBe('真厉害。');
  });

  it('when a retry only repeats what was said, nothing is left for the final', () => {
    const { s } = stream(true);
    s.update('好的。我们', 0);
    expect(s.finish('好的。')).toBe('');
  });
});
