/**
 * The CPU engine's lab page (tests/lab/cpu-engine.html: the real provider, model worker and wllama)
 * for the benches in this folder: built and served, a file server with the model files, and one
 * Chromium; all closed after the measurement.
 */
import type { Browser } from 'playwright-core';
import { buildLab, launchChromium, serveLab } from '../lab-browser.ts';
import { startFileServer } from '../../tests/support/file-server.ts';

export const LAB_PAGE = 'tests/lab/cpu-engine.html';

/** `fn` gets the browser, the page's address and the files' addresses. */
export type LabRun = <T>(files: Record<string, Uint8Array>, fn: (browser: Browser, url: string, fileUrl: (path: string) => string) => Promise<T>) => Promise<T>;

export function labRunner(args: string[], dist: string, port: number): LabRun {
  return async (files, fn) => {
    buildLab(args, dist, LAB_PAGE);
    const server = await serveLab(dist, port, LAB_PAGE);
    const fileServer = await startFileServer(files);
    const browser = await launchChromium();
    try {
      return await fn(browser, server.url(LAB_PAGE), (path) => fileServer.url(path));
    } finally {
      await browser.close();
      await fileServer.close();
      server.stop();
    }
  };
}
