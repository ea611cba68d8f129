/**
 * What may be spoken and shown as a subtitle: plain text. Markup and control characters in a line
 * (a remote game's reply with HTML, Markdown emphasis, zero-width or direction-changing characters)
 * are stripped before speech and subtitles, in the one speaking path. Pure.
 */

const TAG = /<\/?[a-zA-Z][^<>]*>|<!--[\s\S]*?-->/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const ENTITY = /&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/g;
/** C0/C1 controls (line breaks become spaces first), zero-width and bidirectional controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** Markdown emphasis, code and heading marks. */
const MARKDOWN = /(\*\*|__|~~|`+)|^\s{0,3}#{1,6}\s+|^\s*[-*]\s+(?=\S)/gm;

function decode(m: string, body: string): string {
  if (body.startsWith('#x')) return safeChar(parseInt(body.slice(2), 16), m);
  if (body.startsWith('#')) return safeChar(parseInt(body.slice(1), 10), m);
  return ENTITIES[body.toLowerCase()] ?? m;
}

function safeChar(code: number, fallback: string): string {
  return Number.isFinite(code) && code > 0x1f && code < 0x110000 ? String.fromCodePoint(code) : fallback;
}

/** The line as plain text: no tags, entities decoded, no control characters, no Markdown marks. */
export function plainSpeech(text: string): string {
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(TAG, '')
    .replace(ENTITY, decode)
    .replace(TAG, '')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(CONTROL, '')
    .replace(MARKDOWN, '')
    .replace(/ {2,}/g, ' ')
    .trim();
}
