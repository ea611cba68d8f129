/// <reference types="svelte" />
/// <reference types="vite/client" />

/** True only in the build the e2e tests run (vite.config.ts `define`). */
declare const __TEST_BUILD__: boolean;
