// In-browser benchmarks of the wasm core: whole-window re-simulation, metrics, the delay sweep.
// Results go into the table and `window.benchResults` (the end-to-end bench saves them as an artifact).
import { showError, watchForErrors } from './banner.js';
import { loadCore } from './core.js';

watchForErrors();

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { runs: samples.length, median: pick(0.5), p95: pick(0.95), min: sorted[0] };
}

/** Runs `fn` until `ms` have passed (at least three times): memory growth, and V8 tiering the wasm up from its
 * baseline compiler (Liftoff) to the optimising one (TurboFan), happen here, not in the samples. */
function warmUp(fn, ms = 800) {
  const start = performance.now();
  for (let i = 0; i < 3 || performance.now() - start < ms; i++) fn();
}

function time(fn, runs) {
  warmUp(fn);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

const STRATEGIES = ['mirror', 'ngo', 'source', 'geckos', 'gambetta', 'seed000', 'seed004', 'playground', 'latest'];
/** One setting of each drawn engine, two values: every one of them re-runs, no pipeline does. */
const DRAWN_CHANGE = (odd) => ({
  mirror: { catchupSpeed: odd ? 0.03 : 0.02 },
  ngo: { ServerBufferSec: odd ? 0.06 : 0.05 },
  source: { cl_interp: odd ? 0.11 : 0.1 },
  geckos: { interpolationBuffer: odd ? 110 : 100 },
});

async function main() {
  const core = await loadCore();
  if (!core) return;
  const run = () => {
    const long = { duration: 60, fps: 60 };
    const pg = new core.Playground(long);
    let flip = 0;
    let seed = 1;
    const results = {
      'simulate 60 s at 60 fps, everything (new seed)': time(() => {
        seed += 1;
        pg.setParams({ ...long, seed });
      }, 30),
      'simulate 60 s at 60 fps, render delay moved (remote view only)': time(() => {
        flip = 1 - flip;
        pg.setParams({ ...long, seed, remote: { clock: { renderDelay: 0.1 + flip * 0.01 } } });
      }, 30),
      'metrics of a 60 s run': time(() => {
        seed += 1; // a new run each time: the metrics are computed once per run, then cached
        pg.setParams({ ...long, seed });
        return pg.metrics();
      }, 10),
      'simulate 20 s at 60 fps, everything (the page default)': time(() => {
        seed += 1;
        pg.setParams({ duration: 20, seed });
      }, 30),
      'sweep, 64 delays, 20 s window': time(() => pg.sweep(Array.from({ length: 64 }, (_, i) => i * 0.005)), 5),
      // Issue 13: the engines replay the run's client inputs (no pipeline re-runs).
      'engines: all 9 strategies scored on a 60 s run (one league column)': time(() => {
        seed += 1; // as "metrics of a 60 s run" (a new run and its metrics), then the engines on it
        pg.setParams({ ...long, seed });
        return pg.engineMetrics(STRATEGIES);
      }, 10),
      'engines: the 4 drawn strategies re-run for their tracks, 60 s (a change of each one\'s setting)': time(() => {
        flip = 1 - flip;
        pg.setParams({ ...long, seed, engines: DRAWN_CHANGE(flip) });
        for (const name of ['mirror', 'ngo', 'source', 'geckos']) pg.engineRows(name);
      }, 20),
      'league table: 5 networks × 9 strategies, 20 s window (the worker\'s job)': time(() => core.Playground.league({ duration: 20, seed }, ['lan', 'sameRegion', 'crossRegion', 'mobile', 'custom']), 5),
    };
    results['engines: all 9 strategies scored on a 60 s run (one league column)'].note = 'includes one 60 s simulation and its metrics: subtract "metrics of a 60 s run"';
    results['metrics of a 60 s run'].note = 'includes one 60 s simulation';
    const body = document.querySelector('#results tbody');
    body.innerHTML = '';
    for (const [what, s] of Object.entries(results)) {
      const tr = document.createElement('tr');
      tr.innerHTML = `<td>${what}${s.note ? ` <small>(${s.note})</small>` : ''}</td><td>${s.runs}</td><td>${s.median.toFixed(2)}</td><td>${s.p95.toFixed(2)}</td><td>${s.min.toFixed(2)}</td>`;
      body.append(tr);
    }
    window.benchResults = results;
    document.documentElement.dataset.ready = 'true';
  };
  document.getElementById('run').addEventListener('click', run);
  run();
}

main().catch((e) => showError(e?.message ?? e));
