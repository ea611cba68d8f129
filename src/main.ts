import { mount } from 'svelte';
import App from './ui/App.svelte';
import { createAppRuntime } from './ui/app-runtime.ts';

const runtime = createAppRuntime();
// Only in the build the e2e tests run (AGENTCADE_LAB=1, vite.config.ts): `?e2e` exposes the runtime
// to the test (to pick a brain, read the trace). The app's own build has the constant false here,
// so this line is not in it.
if (__TEST_BUILD__ && new URLSearchParams(location.search).has('e2e')) Object.assign(window, { __agentcade: runtime });

const app = mount(App, { target: document.getElementById('app')!, props: { runtime } });
export default app;
