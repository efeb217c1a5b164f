// In-browser benchmarks of the wasm core: whole-window re-simulation, metrics, the engines, the delay sweep.
// Results go into the table and `window.benchResults` (`cargo xtask bench-page` prints them beside criterion's).
//
// How a row is timed: batches, not single calls. Chromium coarsens `performance.now()` to 100 µs (5 µs only on
// a cross-origin-isolated page), and a 60 s re-simulation takes a few ms, so one call is known to a few per
// cent at best. After a warm-up (memory growth and V8's tier-up from Liftoff to TurboFan happen there), each row
// gets a batch size k so that one sample of k calls in a row lasts ≥ SAMPLE_MS; a row reports the per-call
// median, p95 and min over SAMPLES samples — the timer's quantum is then ≤ 0.5 % of a sample. The three rows of
// the engines' budget (a re-simulation, + its metrics, + every strategy scored) are sampled in turn, so a busy
// machine slows all three alike, and what the metrics and the engines add is taken sample by sample.
import { showError, watchForErrors } from './banner.js';
import { loadCore } from './core.js';

watchForErrors();

/** One sample lasts at least this long (ms): 200 × the coarsest timer step. */
const SAMPLE_MS = 20;
/** Samples per row. */
const SAMPLES = 15;

function stats(perCall, k) {
  const sorted = [...perCall].sort((a, b) => a - b);
  const pick = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { runs: perCall.length * k, batch: k, samples: perCall.length, median: pick(0.5), p95: pick(0.95), min: sorted[0] };
}

/** Runs `fn` until `ms` have passed (at least three times) and returns the mean time of one call. */
function warmUp(fn, ms = 800) {
  const start = performance.now();
  let i = 0;
  for (; i < 3 || performance.now() - start < ms; i++) fn();
  return (performance.now() - start) / i;
}

/** The per-call times of `rows` (name → fn), SAMPLES batches each, one batch of every row in turn. */
function timeTogether(rows) {
  const names = Object.keys(rows);
  const batch = Object.fromEntries(names.map((n) => [n, Math.max(1, Math.ceil(SAMPLE_MS / warmUp(rows[n])))]));
  const perCall = Object.fromEntries(names.map((n) => [n, []]));
  for (let s = 0; s < SAMPLES; s++) {
    for (const n of names) {
      const k = batch[n];
      const t0 = performance.now();
      for (let i = 0; i < k; i++) rows[n]();
      perCall[n].push((performance.now() - t0) / k);
    }
  }
  return { perCall, stats: Object.fromEntries(names.map((n) => [n, stats(perCall[n], batch[n])])) };
}

const time = (fn) => timeTogether({ only: fn }).stats.only;

/** Median, p95 and min of `f(i)` over the samples: paired differences and ratios of rows sampled in turn. */
function paired(n, f) {
  return { ...stats(Array.from({ length: n }, (_, i) => f(i)), 1), runs: n, derived: true };
}

/** The smallest step `performance.now()` takes here (ms): 0.1 on an ordinary page, 0.005 when isolated. */
function timerStep() {
  let step = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    step = Math.min(step, b - a);
  }
  return step;
}

const STRATEGIES = ['mirror', 'mirror-core', 'ngo', 'ngo-1x', 'source', 'geckos', 'lightyear', 'fishnet', 'gambetta', 'neteq', 'seed000', 'seed004', 'playground', 'latest'];
/** One setting of each drawn engine, two values: every one of them re-runs, no pipeline does. */
const DRAWN_CHANGE = (odd) => ({
  mirror: { catchupSpeed: odd ? 0.03 : 0.02 },
  ngo: { ServerBufferSec: odd ? 0.06 : 0.05 },
  source: { cl_interp: odd ? 0.11 : 0.1 },
  geckos: { interpolationBuffer: odd ? 110 : 100 },
});

// Row names: `cargo xtask bench-page` reads rows by name, also from an older tree's bench page; a row keeps its
// name as long as it measures the same work.
const RESIM = 'simulate 60 s at 60 fps, everything (new seed)';
const RESIM_METRICS = 'metrics of a 60 s run';
const RESIM_ENGINES = 'engines: all 14 strategies scored on a 60 s run (one league column)';
const METRICS_ALONE = 'metrics of a 60 s run, alone';
const ENGINES_ALONE = 'engines: all 14 strategies scored, alone';
const ENGINES_SHARE = 'engines: what all 14 scored add to the full re-simulation (ratio)';
const FIT = 'fit a recording: 300 s at 60 Hz (fitTrace, with its figure)';
const TRACE_LEAGUE = 'league table of a 20 s recording: every strategy (leagueTrace)';
const TUNE = 'tune a 20 s network: every engine with a setting (tune, the "Your settings" panel)';

/** What each row is, and the criterion bench (benches/sim.rs, benches/engines.rs) doing the same work natively. */
const ABOUT = {
  [RESIM]: ['setParams with the seed alternating 1 ↔ 2 (every pipeline re-runs), default parameters, 60 s at 60 fps; no metrics', 'rerun_60s_everything'],
  [RESIM_METRICS]: ['the row above, then metrics(): the full re-simulation the page does on a change (the engines\' goal is measured against it)', 'rerun_60s_everything_metrics'],
  [RESIM_ENGINES]: ['the row above, then engineMetrics() of all 14 strategies (one league column, playground\'s from the run\'s metrics)', 'rerun_60s_everything_metrics + engines_all_60s_scored'],
  [METRICS_ALONE]: ['second row − first, sample by sample', 'metrics_60s_60fps'],
  [ENGINES_ALONE]: ['third row − second, sample by sample', 'engines_all_60s_scored'],
  [ENGINES_SHARE]: ['(third − second) / second, sample by sample — the goal: ≤ 0.5', 'engines_all_60s_scored / rerun_60s_everything_metrics'],
  'simulate 60 s at 60 fps, render delay moved (remote view only)': ['setParams moving the render delay 0.10 ↔ 0.11 s: only the remote pipeline re-runs', 'rerun_60s_remote_only'],
  'simulate 20 s at 60 fps, everything (the page default)': ['setParams, seed alternating, the page\'s 20 s window', ''],
  'sweep, 64 delays, 20 s window': ['the render-delay sweep (the worker\'s job)', 'sweep_64_points_20s'],
  "engines: the 4 drawn strategies re-run for their tracks, 60 s (a change of each one's setting)": ['setParams changing one setting of each drawn engine (no pipeline re-runs), then their rows', 'engines_4_drawn_60s (without the setParams)'],
  "league table: 5 networks × 14 strategies, 20 s window (the worker's job)": ['Playground.league on five networks', 'league_5_networks_20s'],
  [FIT]: ['Playground.fitTrace of an exported 300 s run at 60 snapshots/s: the fit, the recorded and fitted histograms, the fitted parameters (the import worker\'s job) — the goal: ≤ 50 ms', 'fit_figure_300s_60hz'],
  [TUNE]: ['Playground.tune of the page\'s default 20 s network at 1 %: per engine a bisection of full runs, the row re-checked (the worker\'s job after every change) — the goal: ≤ 300 ms', 'tune --scenario default'],
  [TRACE_LEAGUE]: ['Playground.leagueTrace of an exported 20 s run: every strategy replayed on a recording\'s deliveries (the worker\'s job while a recording is shown)', 'compare --trace'],
};

/**
 * A recording of 300 s at 60 Hz as a trace: 40 ms one way plus a right-skewed excess (exponential, mean 8 ms,
 * from a fixed LCG so every run reads the same file), about 2 % lost in bursts of 1–4.
 */
function recording300s() {
  let state = 12345;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  const snapshots = [];
  let lost = 0;
  for (let tick = 0; tick < 300 * 60; tick++) {
    if (lost > 0) { lost -= 1; continue; }
    if (uniform() < 0.008) { lost = Math.floor(uniform() * 4); continue; }
    const serverTime = tick / 60;
    const arrival = serverTime + 0.04 - 0.008 * Math.log(uniform());
    snapshots.push({ tick, serverTime, arrival, x: 0, y: 0, vx: 0, vy: 0 });
  }
  const sampleAt = Array.from({ length: 300 * 60 - 60 }, (_, i) => 1 + i / 60);
  return { format: 'netcode-lab/trace@1', kind: 'snapshots', params: { sendInterval: 1 / 60 }, snapshots, sampleAt };
}

async function main() {
  const core = await loadCore();
  if (!core) return;
  const run = () => {
    const long = { duration: 60, fps: 60 };
    const pg = new core.Playground(long);
    let flip = 0;
    // criterion's policy: two seeds in turn, so every call re-runs the whole window and the runs repeat.
    let seed = 1;
    const nextSeed = () => (seed = 3 - seed);
    const budget = timeTogether({
      [RESIM]: () => pg.setParams({ ...long, seed: nextSeed() }),
      [RESIM_METRICS]: () => {
        pg.setParams({ ...long, seed: nextSeed() });
        return pg.metrics();
      },
      [RESIM_ENGINES]: () => {
        pg.setParams({ ...long, seed: nextSeed() });
        pg.metrics();
        return pg.engineMetrics(STRATEGIES);
      },
    });
    const [a, b, c] = [RESIM, RESIM_METRICS, RESIM_ENGINES].map((n) => budget.perCall[n]);
    // Recordings to read: 300 s at 60 snapshots/s (the longest recording the page keeps, at the rate the fit is
    // asked to handle in time; longer than a simulated window, so drawn here) and an exported 20 s run.
    const long300 = new TextEncoder().encode(JSON.stringify(recording300s()));
    const source = new core.Playground({ duration: 20, seed: 1 });
    const short20 = new TextEncoder().encode(source.exportTrace('snapshots'));
    source.free();
    const results = {
      ...budget.stats,
      [METRICS_ALONE]: paired(a.length, (i) => b[i] - a[i]),
      [ENGINES_ALONE]: paired(a.length, (i) => c[i] - b[i]),
      [ENGINES_SHARE]: { ...paired(a.length, (i) => (c[i] - b[i]) / b[i]), ratio: true },
      'simulate 60 s at 60 fps, render delay moved (remote view only)': time(() => {
        flip = 1 - flip;
        pg.setParams({ ...long, seed, remote: { clock: { renderDelay: 0.1 + flip * 0.01 } } });
      }),
      'simulate 20 s at 60 fps, everything (the page default)': time(() => pg.setParams({ duration: 20, seed: nextSeed() })),
      'sweep, 64 delays, 20 s window': time(() => pg.sweep(Array.from({ length: 64 }, (_, i) => i * 0.005))),
      // The engines replay the run's client inputs (no pipeline re-runs).
      "engines: the 4 drawn strategies re-run for their tracks, 60 s (a change of each one's setting)": time(() => {
        flip = 1 - flip;
        pg.setParams({ ...long, seed, engines: DRAWN_CHANGE(flip) });
        for (const name of ['mirror', 'ngo', 'source', 'geckos']) pg.engineRows(name);
      }),
      "league table: 5 networks × 14 strategies, 20 s window (the worker's job)": time(() => core.Playground.league({ duration: 20, seed }, ['lan', 'sameRegion', 'crossRegion', 'mobile', 'custom'])),
      [FIT]: time(() => core.Playground.fitTrace(long300)),
      [TRACE_LEAGUE]: time(() => core.Playground.leagueTrace(short20, undefined)),
      [TUNE]: time(() => core.Playground.tune({ duration: 20, seed: 1 }, 0.01, undefined, undefined)),
    };
    pg.free();
    const step = timerStep();
    document.getElementById('timer').textContent =
      `Timer step here: ${(step * 1000).toFixed(step < 0.01 ? 1 : 0)} µs (${globalThis.crossOriginIsolated ? 'cross-origin isolated' : 'not cross-origin isolated'}); ` +
      `each sample times a batch of calls lasting ≥ ${SAMPLE_MS} ms, ${SAMPLES} samples per row.`;
    const body = document.querySelector('#results tbody');
    body.innerHTML = '';
    const cell = (x, s) => (Number.isFinite(x) ? (s.ratio ? `${(x * 100).toFixed(0)} %` : x.toFixed(3)) : '—');
    for (const [what, s] of Object.entries(results)) {
      const [about, criterion] = ABOUT[what] ?? ['', ''];
      const tr = document.createElement('tr');
      const calls = s.derived ? `${s.runs} pairs` : `${s.samples} × ${s.batch}`;
      tr.innerHTML = `<td>${what}<br><small>${about}</small></td><td><code>${criterion}</code></td><td>${calls}</td>` +
        `<td>${cell(s.median, s)}</td><td>${cell(s.p95, s)}</td><td>${cell(s.min, s)}</td>`;
      body.append(tr);
    }
    window.benchResults = results;
    window.benchTimer = { stepMs: step, crossOriginIsolated: Boolean(globalThis.crossOriginIsolated) };
    document.documentElement.dataset.ready = 'true';
  };
  document.getElementById('run').addEventListener('click', () => {
    document.documentElement.dataset.ready = 'false';
    setTimeout(run, 0);
  });
  run();
}

main().catch((e) => showError(e?.message ?? e));
