// Loading the wasm core, with a visible banner instead of a blank page when it cannot load.
//
// The core comes in three builds of the one crate (ARCHITECTURE.md, "Three wasm builds"):
//   'page'     netcode_lab_page — the first frame: the simulation, its timelines, parameters, codes. Preloaded
//              by the dist build.
//   'example'  netcode_lab_example — the same and seed 002's worked example (`WorkedExample`): its page and its
//              embed. Not preloaded: the playground never loads it.
//   'full'     netcode_lab — everything: also the worked example, the metrics and curves, traces in and out, the
//              engines and league table, the lessons' helpers and the step-through walk. The workers load it; the
//              playground swaps to it after the first frame (or starts with it when the address asks for a
//              lesson, engines or a step).
// They have the same API for what the smaller ones have; `loadCore(build)` returns the module (its exports:
// `Playground`, `WorkedExample`, …) and loads each build once.
import { showError } from './banner.js';
import { t } from './strings/i18n.js';

const builds = {
  page: () => import('../pkg/netcode_lab_page.js'),
  example: () => import('../pkg/netcode_lab_example.js'), // not preloaded: seed 002's page and embed only
  full: () => import('../pkg/netcode_lab.js'), // not preloaded: fetched after the first frame
};
/** A build's module already fetched and compiled by the page's head (index.html: the first frame's core). */
const early = { page: () => globalThis.netcodeLabEarlyCore };
const loading = {};
let exports = null;

/** The initialised module of `build` ('page', 'example' or 'full'), or `null` after showing why it failed to load. */
export function loadCore(build = 'full') {
  loading[build] ??= (async () => {
    try {
      const core = await builds[build]();
      const compiled = await early[build]?.()?.catch(() => undefined); // on failure the glue fetches it itself
      exports = await core.default(compiled ? { module_or_path: compiled } : undefined);
      return core;
    } catch (error) {
      showError(t('banner.load', { message: error?.message ?? error }));
      return null;
    }
  })();
  return loading[build];
}

/** Bytes of the newest loaded core's WebAssembly memory (it only grows; the soak watches it). */
export function wasmMemoryBytes() {
  return exports?.memory?.buffer?.byteLength ?? 0;
}
