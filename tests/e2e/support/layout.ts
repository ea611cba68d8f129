/**
 * The layout check, run in the page at every screen and size: what a family would notice on a phone
 * or a tablet held either way.
 * - `wide`: an element sticks out of the viewport sideways (the page scrolls sideways, or it is cut);
 * - `clipped`: an element is cut by a box that hides its overflow (or scrolls it sideways);
 * - `one-char-lines`: a text rendered one character per line (a squeezed card or row), or a short
 *   label of up to four characters broken over two lines (「游戏/厅」);
 * - `small-target`: a button, link, field or choice smaller than 48×48 px for a grown-up, or than
 *   `child` px inside the child's screen (the arcade).
 * A radio button or checkbox inside a label is measured by its label (the label is what is tapped).
 */
import { expect, type Page, type TestInfo } from '@playwright/test';

export const SIZES = {
  phone: { width: 390, height: 844 },
  portrait: { width: 820, height: 1180 },
  landscape: { width: 1180, height: 820 },
  laptop: { width: 1280, height: 800 },
} as const;
export type SizeName = keyof typeof SIZES;

export interface LayoutProblem {
  kind: 'wide' | 'clipped' | 'one-char-lines' | 'small-target';
  what: string;
  detail: string;
}

export interface LayoutOptions {
  /** Minimum target size for grown-ups' controls (px). */
  adult?: number;
  /** Minimum target size for the child's controls (px): everything inside `childArea`. */
  child?: number;
  /** The child's screen. */
  childArea?: string;
}

/** Runs in the page: every problem found (self-contained: serialised into the page). */
function findProblems(opts: Required<LayoutOptions>): LayoutProblem[] {
  const out: LayoutProblem[] = [];
  const vw = document.documentElement.clientWidth;
  const name = (el: Element): string => {
    const id = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 24);
    return `${el.tagName.toLowerCase()}${id ? `[data-testid=${id}]` : ''}${cls}${text ? ` 「${text}」` : ''}`;
  };
  const shown = (el: Element): boolean => {
    // Inside a closed <details> nothing is seen (Chromium keeps laying it out, hidden).
    const closed = el.closest('details:not([open])');
    if (closed && !el.closest('summary') && el !== closed) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
  };
  const all = [...document.body.querySelectorAll('*')].filter((el) => !(el instanceof SVGElement && !(el instanceof SVGSVGElement)));

  // Sideways: the page itself, then each element.
  if (document.documentElement.scrollWidth > vw + 1) out.push({ kind: 'wide', what: 'html', detail: `page is ${document.documentElement.scrollWidth}px wide, viewport ${vw}px` });
  for (const el of all) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 || r.left < -1) out.push({ kind: 'wide', what: name(el), detail: `x ${Math.round(r.left)}…${Math.round(r.right)} of ${vw}` });
  }

  // Clipped by an ancestor that hides overflow (either axis) or scrolls it sideways.
  for (const el of all) {
    if (!shown(el) || el.closest('pre')) continue;
    const r = el.getBoundingClientRect();
    // Beyond the first box that scrolls in an axis, that axis is scrolled content, not cut content
    // (a box that scrolls sideways is itself a cut: the child does not scroll sideways).
    let checkX = true;
    let checkY = true;
    for (let a = el.parentElement; a && a !== document.body && (checkX || checkY); a = a.parentElement) {
      const s = getComputedStyle(a);
      const scrollsX = s.overflowX === 'auto' || s.overflowX === 'scroll';
      const scrollsY = s.overflowY === 'auto' || s.overflowY === 'scroll';
      const hidesX = checkX && (s.overflowX === 'hidden' || s.overflowX === 'clip' || scrollsX);
      const hidesY = checkY && (s.overflowY === 'hidden' || s.overflowY === 'clip');
      if (scrollsX) checkX = false;
      if (scrollsY) checkY = false;
      if (!hidesX && !hidesY) continue;
      if (a.tagName === 'INPUT' || a.tagName === 'SELECT' || a.tagName === 'TEXTAREA') break;
      const b = a.getBoundingClientRect();
      const cut = (hidesX && (r.left < b.left - 1 || r.right > b.right + 1)) || (hidesY && (r.top < b.top - 1 || r.bottom > b.bottom + 1));
      if (cut) {
        out.push({ kind: 'clipped', what: name(el), detail: `cut by ${name(a)}: ${Math.round(r.left)},${Math.round(r.top)}…${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(b.left)},${Math.round(b.top)}…${Math.round(b.right)},${Math.round(b.bottom)}` });
        break;
      }
    }
  }

  // Text one character per line, or a short label broken.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const chars = Array.from((n.textContent ?? '').replace(/\s+/g, ''));
    if (chars.length < 2 || !n.parentElement || !shown(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
    const lines = tops.size;
    const perLine = chars.length / Math.max(1, lines);
    if ((lines >= 3 && perLine <= 1.5) || (chars.length <= 4 && lines > 1 && !/\s/.test((n.textContent ?? '').trim())))
      out.push({ kind: 'one-char-lines', what: name(n.parentElement), detail: `${chars.length} characters on ${lines} lines` });
  }

  // Touch targets.
  const targets = document.body.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]');
  for (const el of targets) {
    let target: Element = el;
    const type = el.getAttribute('type');
    if (el.tagName === 'INPUT' && (type === 'radio' || type === 'checkbox')) target = el.closest('label') ?? el;
    if (!shown(target)) continue;
    const r = target.getBoundingClientRect();
    const min = el.closest(opts.childArea) ? opts.child : opts.adult;
    if (r.width < min - 0.5 || r.height < min - 0.5) out.push({ kind: 'small-target', what: name(target), detail: `${Math.round(r.width)}×${Math.round(r.height)} < ${min}` });
  }
  return out;
}

/** Every layout problem on the screen as it is now. */
export async function layoutProblems(page: Page, opts: LayoutOptions = {}): Promise<LayoutProblem[]> {
  return page.evaluate(findProblems, { adult: opts.adult ?? 48, child: opts.child ?? 64, childArea: opts.childArea ?? '[data-testid=arcade]' });
}

/** A count per kind, for the closing note ("wide 3, small-target 12"). */
export function countByKind(problems: LayoutProblem[]): Record<LayoutProblem['kind'], number> {
  const c = { wide: 0, clipped: 0, 'one-char-lines': 0, 'small-target': 0 };
  for (const p of problems) c[p.kind]++;
  return c;
}

/**
 * At one size: the screen scrolled to the top and to the bottom of its page is checked and
 * photographed (`<name>-<size>.png`, `<name>-<size>-end.png`); fails listing every problem.
 */
export async function checkScreen(page: Page, info: TestInfo, name: string, opts: LayoutOptions = {}): Promise<void> {
  const scroll = (to: 'top' | 'bottom') => page.evaluate((t) => document.querySelectorAll('main .page, main .side').forEach((p) => p.scrollTo(0, t === 'top' ? 0 : 1e6)), to);
  const size = Object.entries(SIZES).find(([, v]) => v.width === page.viewportSize()?.width)?.[0] ?? `${page.viewportSize()?.width}`;
  await scroll('top');
  await page.screenshot({ path: info.outputPath(`${name}-${size}.png`) });
  const problems = await layoutProblems(page, opts);
  await scroll('bottom');
  await page.screenshot({ path: info.outputPath(`${name}-${size}-end.png`) });
  const seen = new Set(problems.map((p) => `${p.kind} ${p.what}`));
  for (const p of await layoutProblems(page, opts)) if (!seen.has(`${p.kind} ${p.what}`)) problems.push(p);
  await scroll('top');
  const counts = countByKind(problems);
  info.annotations.push({ type: 'layout', description: `${name} ${size}: ${JSON.stringify(counts)}` });
  console.log(`[layout] ${name} ${size}: ${JSON.stringify(counts)}`);
  expect(problems, `${name} at ${size}:\n${problems.map((p) => `${p.kind}: ${p.what} — ${p.detail}`).join('\n')}`).toEqual([]);
}
