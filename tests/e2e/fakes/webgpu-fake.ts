/**
 * Init-script fake of WebGPU's presence for e2e (headless Chromium has none): `navigator.gpu` with an
 * adapter that has a real GPU's features (shader-f16, a 1 GiB storage-buffer limit), so the app takes
 * the branch of a device that can run the local model. Only the probe's question is answered: there
 * is no device behind it, and the model worker (where WebLLM runs) still has no WebGPU, so a
 * download started from the page fails there, as it would on a GPU that cannot run the model.
 * Pass to `page.addInitScript(installWebGpuFake)`; self-contained (serialised into the page).
 */
export function installWebGpuFake(): void {
  const adapter = {
    features: new Set(['shader-f16']),
    limits: { maxStorageBufferBindingSize: 1 << 30, maxBufferSize: 1 << 30 },
    info: { vendor: 'fake-gpu', architecture: 'test', description: 'e2e', isFallbackAdapter: false },
    isFallbackAdapter: false,
    requestDevice: () => Promise.reject(new Error('no device behind the e2e WebGPU fake')),
  };
  Object.defineProperty(Navigator.prototype, 'gpu', { configurable: true, get: () => ({ requestAdapter: async () => adapter, getPreferredCanvasFormat: () => 'bgra8unorm' }) });
}
