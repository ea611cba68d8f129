/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import basicSsl from '@vitejs/plugin-basic-ssl';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Plugin, ProxyOptions } from 'vite';
import { Skill } from './src/core/games/skill.ts';

// `skills/<id>/SKILL.md?declaration`: the game's declaration, read at build time with the game
// loader itself (src/games/catalog.ts lists the arcade's games without shipping a YAML parser;
// a game's worker finds its declaration there too).
const skillDeclarations: Plugin = {
  name: 'agentcade:skill-declaration',
  enforce: 'pre',
  load(id) {
    const [file, query] = id.split('?');
    if (query !== 'declaration' || !file.endsWith('/SKILL.md')) return null;
    this.addWatchFile(file);
    const path = '/' + relative(import.meta.dirname, file).split('\\').join('/');
    return `export default ${JSON.stringify(Skill.load(path, readFileSync(file, 'utf8')).declaration)};`;
  },
};

// The voice-activity model (Silero VAD v5, from @ricky0123/vad-web) and the onnxruntime-web wasm
// that runs it, served from this origin at /vad/ (no CDN): copied into the build and precached, and
// served from node_modules by the dev server. Only the plain SIMD wasm is shipped (one thread, no
// WebGPU/JSEP): the model is tiny. src/speech/vad.ts loads them only when hands-free starts.
export const VAD_BASE = '/vad/';
const VAD_FILES: Record<string, string> = {
  'silero_vad_v5.onnx': 'node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx',
  'vad.worklet.bundle.min.js': 'node_modules/@ricky0123/vad-web/dist/vad.worklet.bundle.min.js',
  'ort-wasm-simd-threaded.mjs': 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm': 'node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm',
};
const VAD_TYPES: Record<string, string> = { onnx: 'application/octet-stream', js: 'text/javascript', mjs: 'text/javascript', wasm: 'application/wasm' };
const vadAssets: Plugin = {
  name: 'agentcade:vad-assets',
  configureServer(server) {
    server.middlewares.use(VAD_BASE, (req, res, next) => {
      const name = (req.url ?? '').split('?')[0].replace(/^\//, '');
      const file = VAD_FILES[name];
      if (!file) return next();
      res.setHeader('Content-Type', VAD_TYPES[name.split('.').pop()!] ?? 'application/octet-stream');
      res.end(readFileSync(resolve(import.meta.dirname, file)));
    });
  },
  generateBundle() {
    for (const [name, file] of Object.entries(VAD_FILES))
      this.emitFile({ type: 'asset', fileName: `${VAD_BASE.slice(1)}${name}`, source: readFileSync(resolve(import.meta.dirname, file)) });
  },
};

// Source maps are for developers, not for the tablet: written without a `sourceMappingURL` comment
// ('hidden') and moved out of the deployable folder into `<outDir>-sourcemaps/` beside it (dist/ →
// dist-sourcemaps/), keeping their paths. bench/bundle reads them there.
export const sourcemapsDir = (outDir: string) => `${outDir.replace(/\/+$/, '')}-sourcemaps`;
function walkFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walkFiles(p) : [p];
  });
}
const sourcemapsBeside: Plugin = {
  name: 'agentcade:sourcemaps-beside',
  apply: 'build',
  writeBundle(options) {
    const outDir = options.dir;
    if (!outDir) return;
    const maps = sourcemapsDir(outDir);
    rmSync(maps, { recursive: true, force: true });
    for (const file of walkFiles(outDir).filter((f) => f.endsWith('.map'))) {
      const to = join(maps, relative(outDir, file));
      mkdirSync(dirname(to), { recursive: true });
      renameSync(file, to);
    }
  },
};

// Harness pages (tests/lab/*.html): test and benchmark pages that run our real modules in Chromium.
// They are build inputs only when AGENTCADE_LAB=1 (the Playwright web server, bench/a2a); `npm run build`
// and `npm start` build the app alone, so nothing made for tests reaches dist/. The dev server serves
// them at /tests/lab/*.html either way (it is not a shipped build).
export const LAB_DIR = 'tests/lab';
export function labPages(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (env.AGENTCADE_LAB !== '1') return {};
  return Object.fromEntries(
    readdirSync(resolve(import.meta.dirname, LAB_DIR))
      .filter((f) => f.endsWith('.html'))
      .map((f) => [`lab/${f.replace(/\.html$/, '')}`, resolve(import.meta.dirname, LAB_DIR, f)]),
  );
}

// Offline PWA (docs/notes/trace-pwa.md). Workbox precaches the app shell and every JS chunk,
// worker chunks included; model weights stay in WebLLM's own caches (`webllm/model|config|wasm`),
// which the service worker never touches (cleanupOutdatedCaches only deletes old *-precache-* caches).
const pwa = VitePWA({
  registerType: 'prompt', // the app asks (UpdatePrompt.svelte), never while a game is running
  injectRegister: null, // registered by UpdatePrompt.svelte through virtual:pwa-register/svelte
  includeAssets: ['icons/favicon-48.png', 'icons/apple-touch-icon-180.png'],
  manifest: {
    id: '/',
    name: '机器人游戏厅',
    short_name: '游戏厅',
    description: '和桌面小机器人一起玩的语音游戏厅，离线也能玩。',
    lang: 'zh-CN',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'landscape',
    theme_color: '#ffb347',
    background_color: '#fff4e0',
    categories: ['games', 'kids', 'education'],
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: 'icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,wasm,png,svg,ico,webmanifest,json,md,txt}', 'vad/*.{onnx,mjs}'],
    // Harness pages are not part of the app (in a build with AGENTCADE_LAB=1: the pages under tests/lab/,
    // their entry chunks under assets/lab/).
    // The CPU engine's .wasm (≈10 MB) is cached by the CPU engine itself (Cache API
    // `agentcade-cpu-engine`) on the devices that use it, not precached on every device.
    globIgnores: [`${LAB_DIR}/**`, 'assets/lab/**', '**/*.map', '**/wllama-*.wasm'],
    // The service worker's own map would land in the deployable folder (the app's maps go beside it).
    sourcemap: false,
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [/^\/tests\//, /^\/models\//, /^\/brain\//],
    cleanupOutdatedCaches: true,
    // The first install takes the open page at once (so it is offline-ready without a reload);
    // updates still wait for the user's "现在更新" (registerType 'prompt': no skipWaiting).
    clientsClaim: true,
    // The voice-activity files (vad/: the ≈14 MB onnxruntime wasm and the 2.3 MB model) are precached
    // too, so barge-in works offline; the limit below still holds them.
    // The WebLLM runtime chunk is ~5.8 MB minified (research/webllm.md §4), above Workbox's
    // 2 MiB default: without this the model worker would be missing offline. 16 MiB still keeps
    // any accidental multi-hundred-MB asset (weights) out of the precache and fails the build.
    maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
  },
});

// HTTPS for the LAN (AGENTCADE_HTTPS=1, scripts/start.sh): your own certificate when
// AGENTCADE_CERT/AGENTCADE_KEY name PEM files (e.g. from mkcert, trusted on the tablet), else a
// self-signed one from @vitejs/plugin-basic-ssl, kept in .cache/https-cert (docs/notes/trace-pwa.md).
const httpsOn = process.env.AGENTCADE_HTTPS === '1';
const ownCert =
  httpsOn && process.env.AGENTCADE_CERT && process.env.AGENTCADE_KEY
    ? { cert: readFileSync(process.env.AGENTCADE_CERT), key: readFileSync(process.env.AGENTCADE_KEY) }
    : undefined;
const https = !httpsOn
  ? []
  : ownCert
    ? [{ name: 'agentcade:own-cert', config: () => ({ server: { https: ownCert }, preview: { https: ownCert } }) }]
    : [basicSsl({ name: 'agentcade', domains: [hostname(), `${hostname()}.local`], certDir: resolve(import.meta.dirname, '.cache/https-cert'), ttlDays: 825 })];

// Cross-origin isolation (COOP + COEP), so the CPU engine may share memory between threads
// (SharedArrayBuffer): served by the dev server and `vite preview` (`npm start`, the e2e server).
// Other hosts must send the same two headers (README "Serving to a tablet"); without them the app
// still works and the CPU engine runs on one thread. AGENTCADE_ISOLATION=0 turns them off.
export const ISOLATION_HEADERS: Record<string, string> =
  process.env.AGENTCADE_ISOLATION === '0' ? {} : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// The home computer's brain through the app's own address (AGENTCADE_BRAIN=http://localhost:11434 npm start):
// `/brain/…` on this server goes to that program, so a tablet on the https page reaches it with no mixed
// content and no CORS (src/core/llm/home-brain.ts tells the parent the address). The browser's Origin is
// not passed on: Ollama refuses origins it does not know, and this request comes from this computer.
export function brainForward(target = process.env.AGENTCADE_BRAIN): Record<string, ProxyOptions> | undefined {
  if (!target) return undefined;
  return {
    '/brain/': {
      target,
      changeOrigin: true,
      rewrite: (path) => path.replace(/^\/brain/, ''),
      configure: (proxy) => proxy.on('proxyReq', (req) => req.removeHeader('origin')),
    },
  };
}

// One config for the app, the dev server and Vitest.
export default defineConfig({
  // The e2e build (AGENTCADE_LAB=1) may expose the runtime to the tests; the app's build never does.
  define: { __TEST_BUILD__: JSON.stringify(process.env.AGENTCADE_LAB === '1') },
  // WebGPU, service workers and crypto.randomUUID need a secure context: https (or localhost).
  plugins: [skillDeclarations, vadAssets, svelte(), pwa, sourcemapsBeside, ...https],
  worker: { format: 'es', plugins: () => [skillDeclarations] },
  build: {
    target: 'es2022',
    sourcemap: 'hidden',
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), ...labPages() } },
  },
  server: { host: true, headers: ISOLATION_HEADERS, proxy: brainForward() },
  preview: { headers: ISOLATION_HEADERS, proxy: brainForward() },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
  },
});
