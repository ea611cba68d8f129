/**
 * A line checked part by part: a game's line is often made of parts from different authors — the
 * rules' 「答对了！」, a card's question, a model's sentence — and a harmful part must not swallow the
 * others. The texts a parent approved for their own game pass as they are; every other sentence is
 * checked alone, and all of them together once more (a harm may span sentences). Pure.
 */
import type { SafetyVerdict } from './classify.ts';

interface Part {
  text: string;
  approved: boolean;
}

/** The line cut into approved texts and the sentences between them (nothing lost: the parts join back to the line). */
export function partsOf(text: string, approved: readonly string[]): Part[] {
  let parts: Part[] = [{ text, approved: false }];
  for (const a of [...approved].filter(Boolean).sort((x, y) => y.length - x.length)) {
    parts = parts.flatMap((p) => {
      if (p.approved || !p.text.includes(a)) return [p];
      const out: Part[] = [];
      p.text.split(a).forEach((piece, i) => {
        if (i > 0) out.push({ text: a, approved: true });
        if (piece) out.push({ text: piece, approved: false });
      });
      return out;
    });
  }
  return parts.flatMap((p) => (p.approved ? [p] : p.text.split(/(?<=[。！？!?；;…\n])/u).filter(Boolean).map((s) => ({ text: s, approved: false }))));
}

export interface PartsVerdict {
  /** The first harmful part's verdict (or the whole's, when only the parts together are harmful); null when the line may be said. */
  blocked: Extract<SafetyVerdict, { verdict: 'blocked' }> | null;
  /** What to say instead: the line with its harmful parts replaced, once, by `redirect`. */
  say(redirect: string): string;
}

export function checkInParts(check: (text: string) => SafetyVerdict, text: string, approved: readonly string[]): PartsVerdict {
  const parts = partsOf(text, approved).map((p) => ({ ...p, verdict: p.approved || !/[\p{L}\p{N}]/u.test(p.text) ? null : check(p.text) }));
  const first = parts.find((p) => p.verdict?.verdict === 'blocked')?.verdict;
  if (first?.verdict === 'blocked')
    return {
      blocked: first,
      say: (redirect) => {
        let redirected = false;
        return parts
          .map((p) => {
            if (p.verdict?.verdict !== 'blocked') return p.text;
            if (redirected) return '';
            redirected = true;
            return redirect;
          })
          .join('');
      },
    };
  const rest = parts.filter((p) => !p.approved).map((p) => p.text).join('');
  const together = rest && parts.some((p) => p.approved) ? check(rest) : ({ verdict: 'ok' } as const);
  const wholeBlocked = together.verdict === 'blocked' ? together : null;
  // Approved texts stand alone; the sentences around them were each fine, and fine together.
  if (!wholeBlocked && parts.some((p) => p.approved)) return { blocked: null, say: () => text };
  if (wholeBlocked) return { blocked: wholeBlocked, say: (redirect) => redirect };
  // No approved text and no harmful sentence alone: the harm is in the sentences together.
  const all = check(text);
  return all.verdict === 'blocked' ? { blocked: all, say: (redirect) => redirect } : { blocked: null, say: () => text };
}
