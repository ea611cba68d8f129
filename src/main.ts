import { mount } from 'svelte';
import App from './ui/App.svelte';
import { createAppRuntime } from './ui/app-runtime.ts';

const runtime = createAppRuntime();
// Test hook (e2e): `?e2e` exposes the runtime, e.g. to pick the demo model or crash a game worker.
if (new URLSearchParams(location.search).has('e2e')) Object.assign(window, { __agentcade: runtime });

const app = mount(App, { target: document.getElementById('app')!, props: { runtime } });
export default app;
