/**
 * A Server-Sent Events reader for OpenAI-style streams: bytes may split anywhere (inside a line,
 * inside a multi-byte UTF-8 character, between \r and \n); each event's `data` lines are joined.
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  let pendingCR = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A "\r\n" split across chunks: drop the "\n" that completes an already counted "\r".
      if (pendingCR && text.startsWith('\n')) text = text.slice(1);
      pendingCR = text.endsWith('\r');
      buffer += text;
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = done ? '' : (lines.pop() ?? '');
      if (done && lines.length && lines[lines.length - 1] === '') lines.pop();
      for (const line of lines) {
        if (line === '') {
          if (data.length) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line[5] === ' ' ? 6 : 5));
        }
        // comments (":…") and other fields (event, id, retry) are not used by chat streams
      }
      if (done) {
        if (data.length) yield data.join('\n');
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
