/**
 * Bundle budget: builds the app (or reads a build) and prints
 *  - the JS the first screen needs (index.html's entry and its static imports), gzip;
 *  - each worker chunk (with its own static imports);
 *  - the WebLLM runtime chunk(s) and the CPU engine's (@wllama/wllama), found through the
 *    sourcemaps, and whether they stay out of the first screen's graph (they must load only when
 *    a local model is used); the CPU engine's .wasm must not be precached either;
 *  - what the service worker precaches.
 *
 *   npx tsx bench/bundle/run.ts                 # builds into .cache/dist-bundle
 *   npx tsx bench/bundle/run.ts --dist dist     # reads an existing build
 *   npx tsx bench/bundle/run.ts --json          # machine-readable
 *   npx tsx bench/bundle/run.ts --no-network    # the static graph only (no browser)
 *  - the first screen by network measure (bench/bundle/network.ts): the build served by `vite preview`
 *    and opened in Chromium on a fresh profile; the JavaScript fetched until the first screen is
 *    interactive and the network is quiet, and what each worker fetches when it starts. Exits 1 above
 *    FIRST_SCREEN_BUDGET_KB (gzip). tests/e2e/first-screen.spec.ts asserts the same budget in `npm test`;
 *  - the voice-activity detector (@ricky0123/vad-web + onnxruntime-web): its chunks stay out of the
 *    first screen's graph (loaded when hands-free starts) and its files under vad/ are precached;
 * Exits 1 when WebLLM or the CPU engine is in the first screen's graph, or its .wasm is precached,
 * or when the voice-activity detector is in the first screen's graph or a vad/ file is not precached,
 * or a source map is in the deployable folder (they go beside it: `<dist>-sourcemaps/`), or the
 * first screen by network is over its budget or fetches the safety check's tables.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FIRST_SCREEN_BUDGET_KB, measureByNetwork, pinFieldReady, type NetworkMeasure } from './network.ts';

const root = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const distArg = args.includes('--dist') ? args[args.indexOf('--dist') + 1] : undefined;
const asJson = args.includes('--json');
const network = !args.includes('--no-network');
const dist = resolve(root, distArg ?? '.cache/dist-bundle');

if (!distArg) {
  console.error(`building into ${relative(root, dist)} …`);
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', dist, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });
}
if (!existsSync(join(dist, 'index.html'))) throw new Error(`no build at ${dist}`);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
/** Path inside dist, with forward slashes, no leading slash. */
const rel = (p: string) => relative(dist, p).split('\\').join('/');
const files = walk(dist).map(rel);
const jsFiles = files.filter((f) => f.endsWith('.js') && f !== 'sw.js' && !/^workbox-/.test(f));
const read = (f: string) => readFileSync(join(dist, f));
const gz = (f: string) => gzipSync(read(f), { level: 9 }).length;
const raw = (f: string) => statSync(join(dist, f)).size;

/** Resolves an import specifier found in `from` to a dist path. */
function resolveSpec(from: string, spec: string): string | undefined {
  const p = spec.startsWith('/') ? spec.slice(1) : posix.normalize(posix.join(posix.dirname(from), spec));
  return files.includes(p) ? p : undefined;
}

const STATIC = /\b(?:import|export)\s*(?:[^"'();=]*?\bfrom\s*)?["']((?:\.{1,2}\/|\/)[^"']+?\.js)["']/g;
const DYNAMIC = /\bimport\(\s*["']((?:\.{1,2}\/|\/)[^"']+?\.js)["']\s*\)/g;
// Vite writes worker URLs as template literals: new URL(`/assets/x.js`, ``+import.meta.url).
const URL_REF = /new URL\(\s*["'`]((?:\.{1,2}\/|\/)?[^"'`:]+?\.js)["'`]\s*,[^)]*?import\.meta\.url\s*\)/g;

function refs(f: string, re: RegExp): string[] {
  const code = read(f).toString('utf8');
  const out = new Set<string>();
  for (const m of code.matchAll(re)) {
    let spec = m[1];
    if (!spec.startsWith('.') && !spec.startsWith('/')) spec = `./${spec}`;
    const r = resolveSpec(f, spec);
    if (r) out.add(r);
  }
  return [...out];
}

function staticGraph(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...refs(f, STATIC));
  }
  return seen;
}

// First screen: index.html's module scripts and modulepreloads, and their static imports.
const html = read('index.html').toString('utf8');
const htmlRefs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\brel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => resolveSpec('index.html', m[1].startsWith('/') ? m[1] : `./${m[1]}`)).filter((x): x is string => !!x);
const cssRefs = [...html.matchAll(/<link[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+\.css)"/g)].map((m) => resolveSpec('index.html', m[1].startsWith('/') ? m[1] : `./${m[1]}`)).filter((x): x is string => !!x);
const firstScreen = staticGraph(htmlRefs);
const lazyFromFirst = new Set([...firstScreen].flatMap((f) => refs(f, DYNAMIC)).filter((f) => !firstScreen.has(f)));

// Workers: chunks referenced as `new URL("…js", import.meta.url)` from any chunk (Vite's worker import).
const workerEntries = [...new Set(jsFiles.flatMap((f) => refs(f, URL_REF)))].sort();

// WebLLM: chunks whose sourcemap lists @mlc-ai/web-llm sources (the maps are beside the build, vite.config.ts).
const maps = `${dist.replace(/\/+$/, '')}-sourcemaps`;
const mapsInDist = files.filter((f) => f.endsWith('.map'));
function sourcesOf(f: string): string[] {
  const map = join(maps, `${f}.map`);
  if (!existsSync(map)) return [];
  try {
    return (JSON.parse(readFileSync(map, 'utf8')) as { sources?: string[] }).sources ?? [];
  } catch {
    return [];
  }
}
const webllmChunks = jsFiles.filter((f) => sourcesOf(f).some((s) => s.includes('@mlc-ai/web-llm')));
const webllmInFirst = webllmChunks.filter((f) => firstScreen.has(f));
const wllamaChunks = jsFiles.filter((f) => sourcesOf(f).some((s) => s.includes('@wllama/wllama')));
const wllamaInFirst = wllamaChunks.filter((f) => firstScreen.has(f));
const wllamaWasm = files.filter((f) => /wllama-[^/]*\.wasm$/.test(f));
const vadChunks = jsFiles.filter((f) => sourcesOf(f).some((s) => s.includes('@ricky0123/vad-web') || s.includes('onnxruntime-web')));
const vadInFirst = vadChunks.filter((f) => firstScreen.has(f));
const vadFiles = files.filter((f) => f.startsWith('vad/'));

// Precache: the URLs listed in sw.js.
const sw = files.includes('sw.js') ? read('sw.js').toString('utf8') : '';
const precached = [...sw.matchAll(/url:\s*"([^"]+)"/g)].map((m) => m[1].replace(/^\//, '')).filter((u) => files.includes(u));
const jsNotPrecached = jsFiles.filter((f) => !precached.includes(f) && !/^assets\/lab\//.test(f));

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sum = (list: Iterable<string>, fn: (f: string) => number) => [...list].reduce((n, f) => n + fn(f), 0);

const report = {
  dist: rel(dist) || dist,
  firstScreen: {
    files: [...firstScreen].sort().map((f) => ({ file: f, bytes: raw(f), gzip: gz(f) })),
    css: cssRefs.map((f) => ({ file: f, bytes: raw(f), gzip: gz(f) })),
    jsBytes: sum(firstScreen, raw),
    jsGzip: sum(firstScreen, gz),
    lazyChunks: [...lazyFromFirst].sort(),
  },
  workers: workerEntries.map((w) => {
    const graph = staticGraph([w]);
    return { file: w, bytes: raw(w), gzip: gz(w), withImportsBytes: sum(graph, raw), withImportsGzip: sum(graph, gz), imports: [...graph].filter((f) => f !== w).sort() };
  }),
  webllm: { chunks: webllmChunks.map((f) => ({ file: f, bytes: raw(f), gzip: gz(f) })), inFirstScreen: webllmInFirst },
  cpuEngine: {
    chunks: wllamaChunks.map((f) => ({ file: f, bytes: raw(f), gzip: gz(f) })),
    inFirstScreen: wllamaInFirst,
    wasm: wllamaWasm.map((f) => ({ file: f, bytes: raw(f), precached: precached.includes(f) })),
  },
  vad: {
    chunks: vadChunks.map((f) => ({ file: f, bytes: raw(f), gzip: gz(f) })),
    inFirstScreen: vadInFirst,
    files: vadFiles.map((f) => ({ file: f, bytes: raw(f), gzip: gz(f), precached: precached.includes(f) })),
  },
  precache: { entries: precached.length, bytes: sum(precached, raw), jsNotPrecached },
  sourcemaps: { inDist: mapsInDist.length, beside: existsSync(maps) ? rel(maps) : null },
};

/** Serves the build with `vite preview` and measures it in Chromium. */
async function byNetwork(): Promise<NetworkMeasure> {
  const { chromium } = await import('@playwright/test');
  const port = 4390 + (process.pid % 50);
  const server = spawn('npx', ['vite', 'preview', '--outDir', dist, '--port', String(port), '--strictPort'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  try {
    await new Promise<void>((ok, fail) => {
      server.stdout!.on('data', (d: Buffer) => d.toString().includes(`${port}`) && ok());
      server.on('exit', (code) => fail(new Error(`vite preview exited (${code})`)));
    });
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      return await measureByNetwork(browser, `http://localhost:${port}`, pinFieldReady, workerEntries);
    } finally {
      await browser.close();
    }
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
}
const measured = network ? await byNetwork() : null;

if (asJson) {
  console.log(JSON.stringify({ ...report, network: measured }, null, 2));
} else {
  const line = (name: string, bytes: number, gzip: number) => console.log(`  ${name.padEnd(52)} ${kb(bytes).padStart(11)} ${kb(gzip).padStart(11)} gz`);
  console.log(`\nBundle budget — ${report.dist}`);
  console.log(`\nFirst screen (index.html + static imports): ${kb(report.firstScreen.jsBytes)} raw, ${kb(report.firstScreen.jsGzip)} gzip JS`);
  for (const f of report.firstScreen.files) line(f.file, f.bytes, f.gzip);
  for (const f of report.firstScreen.css) line(f.file, f.bytes, f.gzip);
  if (report.firstScreen.lazyChunks.length) console.log(`  lazy (dynamic import): ${report.firstScreen.lazyChunks.join(', ')}`);
  console.log(`\nWorker chunks (${report.workers.length}):`);
  if (report.workers.length === 0) console.log('  (none in this build)');
  for (const w of report.workers) {
    line(w.file, w.bytes, w.gzip);
    if (w.imports.length) line(`  + ${w.imports.length} imported chunk(s)`, w.withImportsBytes - w.bytes, w.withImportsGzip - w.gzip);
  }
  console.log(`\nWebLLM runtime:`);
  if (report.webllm.chunks.length === 0) console.log('  (not in this build)');
  for (const c of report.webllm.chunks) line(c.file, c.bytes, c.gzip);
  console.log(`  in the first screen's graph: ${webllmInFirst.length ? `YES — ${webllmInFirst.join(', ')}` : 'no'}`);
  console.log(`\nCPU engine (@wllama/wllama):`);
  if (report.cpuEngine.chunks.length === 0) console.log('  (not in this build)');
  for (const c of report.cpuEngine.chunks) line(c.file, c.bytes, c.gzip);
  for (const w of report.cpuEngine.wasm) console.log(`  ${w.file.padEnd(52)} ${kb(w.bytes).padStart(11)}  precached: ${w.precached ? 'YES' : 'no (cached by the engine on first use)'}`);
  console.log(`  in the first screen's graph: ${wllamaInFirst.length ? `YES — ${wllamaInFirst.join(', ')}` : 'no'}`);
  console.log(`\nVoice-activity detector (@ricky0123/vad-web + onnxruntime-web, hands-free barge-in):`);
  if (report.vad.chunks.length === 0) console.log('  (not in this build)');
  for (const c of report.vad.chunks) line(c.file, c.bytes, c.gzip);
  for (const f of report.vad.files) console.log(`  ${f.file.padEnd(52)} ${kb(f.bytes).padStart(11)} ${kb(f.gzip).padStart(11)} gz  precached: ${f.precached ? 'yes' : 'NO'}`);
  console.log(`  in the first screen's graph: ${vadInFirst.length ? `YES — ${vadInFirst.join(', ')}` : 'no'}`);
  console.log(`\nPrecache (sw.js): ${report.precache.entries} entries, ${kb(report.precache.bytes)}`);
  if (jsNotPrecached.length) console.log(`  JS NOT precached: ${jsNotPrecached.join(', ')}`);
  console.log(`\nSource maps in the deployable folder: ${mapsInDist.length ? `YES — ${mapsInDist.length}` : 'none'} (beside it: ${report.sourcemaps.beside ?? 'none'})`);
  if (measured) {
    const fs = measured.firstScreen;
    console.log(`\nFirst screen by network (fresh profile, until the PIN field is interactive and the network is quiet): ${kb(fs.bytes)} raw, ${kb(fs.gzip)} gzip JS (budget ${FIRST_SCREEN_BUDGET_KB} KB)`);
    console.log(`  by network / by static graph (gzip): ${(fs.gzip / report.firstScreen.jsGzip).toFixed(2)}`);
    for (const f of fs.files) line(f.path, f.bytes, f.gzip);
    console.log(`\nEach worker by network (what it fetches when it starts):`);
    for (const w of measured.workers) line(`${w.entry} (${w.files.length} file(s))`, w.bytes, w.gzip);
  }
}
if (measured && measured.firstScreen.gzip > FIRST_SCREEN_BUDGET_KB * 1024) process.exitCode = 1;
if (measured && measured.firstScreen.files.some((f) => /\/(pinyin|safety-model)-/.test(f.path))) process.exitCode = 1;
if (mapsInDist.length) process.exitCode = 1;
if (webllmInFirst.length || wllamaInFirst.length || report.cpuEngine.wasm.some((w) => w.precached)) process.exitCode = 1;
if (vadInFirst.length || report.vad.files.some((f) => !f.precached)) process.exitCode = 1;
