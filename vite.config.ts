/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

// Extra pages (lab/*.html): test and benchmark harnesses that run our real modules in Chromium.
const labPages = Object.fromEntries(
  readdirSync(resolve(import.meta.dirname, 'lab'))
    .filter((f) => f.endsWith('.html'))
    .map((f) => [`lab/${f.replace(/\.html$/, '')}`, resolve(import.meta.dirname, 'lab', f)]),
);

// One config for the app, the dev server and Vitest.
export default defineConfig({
  plugins: [svelte()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    rollupOptions: { input: { main: resolve(import.meta.dirname, 'index.html'), ...labPages } },
  },
  server: { host: true },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
  },
});
