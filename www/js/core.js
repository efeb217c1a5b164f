// Loading the wasm core, with a visible banner instead of a blank page when it cannot load.
import { showError } from './banner.js';
import { t } from './i18n.js';

let exports = null;

/** The initialised `netcode_lab` module, or `null` after showing why it failed to load. */
export async function loadCore() {
  try {
    const core = await import('../pkg/netcode_lab.js');
    exports = await core.default();
    return core;
  } catch (error) {
    showError(t('banner.load', { message: error?.message ?? error }));
    return null;
  }
}

/** Bytes of the core's WebAssembly memory (it only grows; the soak watches it). */
export function wasmMemoryBytes() {
  return exports?.memory?.buffer?.byteLength ?? 0;
}
