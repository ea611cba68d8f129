/** Screenshots of what is on screen now at the four sizes the app is made for. */
import type { Locator, Page, TestInfo } from '@playwright/test';

export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'portrait', width: 820, height: 1180 },
  { name: 'landscape', width: 1180, height: 820 },
  { name: 'laptop', width: 1280, height: 800 },
];

/** `target`: a part of the page brought into view again at each size (a resize moves what is on screen). */
export async function shootSizes(page: Page, info: TestInfo, name: string, opts: { fullPage?: boolean; target?: Locator } = {}): Promise<void> {
  const size = page.viewportSize();
  for (const v of VIEWPORTS) {
    await page.setViewportSize({ width: v.width, height: v.height });
    await page.waitForTimeout(150);
    await opts.target?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`${name}-${v.name}.png`), fullPage: opts.fullPage ?? false });
  }
  if (size) await page.setViewportSize(size);
}
