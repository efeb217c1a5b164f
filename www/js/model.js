// The page's view of one run: a thin wrapper over the Rust `Playground` handle.
// Timelines are read through fresh Float64Array views over wasm memory on every call (a view from before
// a call into wasm may be detached when memory grows), with column indices looked up by name once per run.

export class Model {
  constructor(core, params) {
    this.core = core;
    this.codes = core.Playground.codes();
    this.defaults = core.Playground.defaultParams();
    this.pg = new core.Playground(params ?? this.defaults);
    this.runId = 0;
    this.trace = null; // the import summary while a trace is shown
    this.refresh();
  }

  /**
   * Moves to another build of the core (the full one, after the first frame; see core.js). The same parameters
   * give the same run, bit for bit, on either build, so the run on screen is not made again now (that was the
   * boot's longest task after the first frame on a slow phone): the next `setParams` makes its run on the new
   * build — a re-run it does anyway — and a call only the full build has (`full()`: traces, the engines' replays,
   * the lessons' capacity sweep) moves the run on screen first, keeping `runId` and every cache.
   */
  upgrade(core) {
    this.core = core;
    if (this.pg instanceof core.Playground) return;
    this.nextCore = core;
  }

  /**
   * Whether the full build's calls can be made now: the full core is in (the run may still be on the first-frame
   * core, moved by `full()`). Until then the page shows what waits for them as pending, never a number.
   */
  get fullReady() {
    return Boolean(this.nextCore) || typeof this.pg.metrics === 'function';
  }

  /** Whether `metrics()` can be had without moving the run to the full core (a re-simulation): it is there already. */
  get metricsReady() {
    return typeof this.pg.metrics === 'function';
  }

  /**
   * The run's handle on the full build (moved there first if an `upgrade` is pending): for the full-only calls —
   * traces, the engines' replays, the lessons' capacity sweep, and what the page shows after its first frame
   * (the metrics, the delay sweep, the decay curves: src/web/analysis.rs). Throws before the full core is in.
   */
  full() {
    if (this.nextCore) {
      const old = this.pg;
      this.pg = new this.nextCore.Playground(this.params);
      this.nextCore = null;
      old.free();
    }
    if (!this.fullReady) throw new Error('the full core is not loaded yet (core.js)');
    return this.pg;
  }

  /**
   * Takes `params`; throws (with the field named) and keeps the old run when they are refused. The core re-runs
   * the window only when the simulation's part changed (and an imported trace then gives way): an engine's setting
   * alone keeps the run or the imported trace (its `runId`, its timelines, its metrics) and only the engines'
   * replays are asked again (`enginesId` moves).
   */
  setParams(params) {
    let simulated = true;
    if (this.nextCore) {
      // The new build's run of `params`; refused, the old run stays (on the old build, still to be moved).
      const pg = new this.nextCore.Playground(params);
      const old = this.pg;
      this.pg = pg;
      this.nextCore = null;
      old.free();
    } else {
      simulated = this.pg.setParams(params);
    }
    if (simulated) {
      this.trace = null;
      this.importBytes = null;
      this.refresh();
    } else {
      this.params = this.pg.params();
      this.forgetEngines();
    }
  }

  /** The engines' replays and scores are asked again (their settings changed, or the run did). */
  forgetEngines() {
    this._engines = new Map();
    this._engineMetrics = new Map();
    this.enginesId = (this.enginesId ?? 0) + 1;
  }

  /** Shows a recorded trace instead of the simulation (until the next `setParams`); throws naming the field. */
  importTrace(text) {
    const summary = this.full().importTrace(text);
    this.trace = summary;
    this.importBytes = new TextEncoder().encode(text);
    this.refresh();
    return summary;
  }

  /**
   * Shows a trace the import worker read and replayed (`prepared`: its core's `prepareImport` result; `bytes`:
   * the file, kept for export and handed to the core for the engines, which read it when first asked). Throws
   * naming the field, and changes nothing, when `prepared` is not well formed.
   */
  showImported(prepared, bytes) {
    const summary = this.full().showImported(prepared, bytes);
    this.trace = summary;
    this.importBytes = bytes;
    this.refresh();
    return summary;
  }

  /** The current run (or the imported trace) as trace JSON of `kind` (`snapshots` or `paths`). */
  exportTrace(kind) {
    if (this.imported && this.importBytes) return new TextDecoder().decode(this.importBytes);
    return this.full().exportTrace(kind);
  }

  /** `exportTrace` as a file to download (an imported file is given back as it came). */
  exportBlob(kind) {
    if (this.imported && this.importBytes) return new Blob([this.importBytes], { type: 'application/json' });
    return new Blob([this.full().exportTrace(kind)], { type: 'application/json' });
  }

  /** Snapshots per second: the imported trace's (from its send interval) or the simulation's send rate. */
  get sendRate() {
    return this.imported && this.trace?.sendInterval ? 1 / this.trace.sendInterval : this.params.scenario.sendRate;
  }

  /** Seconds between snapshots: the imported trace's, or the run's (the core rounds it to whole server ticks). */
  get sendInterval() {
    if (this.imported && this.trace?.sendInterval) return this.trace.sendInterval;
    return this.pg.sendInterval;
  }

  get imported() {
    return this.pg.imported;
  }

  refresh() {
    this.params = this.pg.params();
    this.columns = {};
    for (const kind of this.codes.kinds) {
      const names = this.pg.columns(kind);
      this.columns[kind] = Object.fromEntries(names.map((n, i) => [n, i]));
      this.columns[kind].__stride = names.length;
    }
    this._metrics = null;
    this._sweep = null;
    this.forgetEngines();
    const frames = this.table('frames');
    const local = (i) => frames.view[i * frames.stride + frames.col.local];
    this.start = frames.rows ? local(0) : 0;
    this.end = frames.rows ? local(frames.rows - 1) : this.params.duration;
    this.runId += 1;
  }

  /** `{view, stride, col, rows}` for timeline `kind`; use it before the next call into wasm. */
  table(kind) {
    const view = this.pg.timeline(kind);
    const col = this.columns[kind];
    const stride = col.__stride;
    return { view, stride, col, rows: stride ? view.length / stride : 0 };
  }

  /** Metrics of the current run (cached; the full build's: see `fullReady`). */
  metrics() {
    this._metrics ??= this.full().metrics();
    return this._metrics;
  }

  /** Each smoothing mode's offset after one correction of size `initial` (the full build's; the decay plot). */
  decayCurves(initial, fps, duration) {
    return this.full().decayCurves(initial, fps, duration);
  }

  /**
   * Strategy `name` (Engines panel) on this run: `{rows, stride, col}` — a plain copy of its rows (render time,
   * x, y, mode code per frame), cached per run; on an imported trace, its deliveries replayed (one row per frame).
   */
  engine(name) {
    if (!this._engines.has(name)) {
      this._engineColumns ??= this.core.Playground.engineColumns();
      const col = Object.fromEntries(this._engineColumns.map((n, i) => [n, i]));
      this._engines.set(name, { rows: this.full().engineRows(name), stride: this._engineColumns.length, col });
    }
    return this._engines.get(name);
  }

  /** The listed strategies scored on this run (`{name: {rmsError, …}}`), cached per run. */
  engineMetrics(names) {
    const key = names.join(',');
    if (!this._engineMetrics.has(key)) this._engineMetrics.set(key, this.full().engineMetrics(names));
    return this._engineMetrics.get(key);
  }

  /** The render-delay sweep for the current params (cached per run). */
  sweep(delays) {
    this._sweep ??= this.full().sweep(delays);
    return this._sweep;
  }

  /** Length of the window shown (the run's duration, or an imported trace's span). */
  get duration() {
    return this.end - this.start;
  }

  /** Index of the last frame whose local time is ≤ `local` (0 when before the first). */
  frameAt(local, frames = this.table('frames')) {
    const { view, stride, col, rows } = frames;
    let lo = 0;
    let hi = rows - 1;
    const at = (i) => view[i * stride + col.local];
    if (rows === 0 || local <= at(0)) return 0;
    if (local >= at(hi)) return hi;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (at(mid) <= local) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** One frame's values as an object `{column: value}` (for readouts; drawing code reads the view directly). */
  frameRow(index, frames = this.table('frames')) {
    const out = {};
    for (const [name, i] of Object.entries(frames.col)) {
      if (name !== '__stride') out[name] = frames.view[index * frames.stride + i];
    }
    return out;
  }
}

/** Reads a nested field `a.b.c` of an object. */
export function getPath(obj, path) {
  return path.split('.').reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

/** A copy of `obj` with the nested field `a.b.c` set to `value`. */
export function setPath(obj, path, value) {
  const copy = structuredClone(obj);
  const keys = path.split('.');
  let o = copy;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys[keys.length - 1]] = value;
  return copy;
}
