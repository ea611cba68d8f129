/**
 * Lets `@mlc-ai/web-xgrammar` (a UMD bundle written for browsers) load under Node: at load time
 * it reads `require('url')` and `__filename`, which ES modules do not have.
 */
import { createRequire } from 'node:module';

const g = globalThis as { require?: NodeRequire; __filename?: string };
const req = createRequire(import.meta.url);
g.require ??= req;
g.__filename ??= req.resolve('@mlc-ai/web-xgrammar');
