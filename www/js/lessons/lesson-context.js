// What a lesson's checks may ask the core about the current settings: the run's own metrics and frames, extra
// runs with a parameter changed (freed as soon as their numbers are read), the worked examples' traces replayed,
// sweeps, decay curves and the presets. lessons.js draws the card; this module only computes, cached per run.

/** The buffer's statuses, in the order the cards and lanes list them. */
export const STATUSES = ['priming', 'ready', 'underrun', 'gap', 'clockUncertain', 'invalidInterval'];

/**
 * What a check may ask the core, for the current run. Results are cached per run (`model.runId`); the extra
 * runs are freed as soon as their metrics are read.
 */
export class LessonContext {
  /** `host`: `model()`, `core()` — the page's run and its core. */
  constructor(host) {
    this.host = host;
    this.cache = new Map();
    this.runId = -1;
    this.examples = new Map();
  }

  refresh() {
    const { runId } = this.host.model();
    if (this.runId !== runId) {
      this.cache.clear();
      this.runId = runId;
    }
    return this;
  }

  get core() { return this.host.core(); } // the full core once it is in (main.js swaps it after the first frame)
  get model() { return this.host.model(); }
  get params() { return this.host.model().params; }

  memo(key, fn) {
    if (!this.cache.has(key)) this.cache.set(key, fn());
    return this.cache.get(key);
  }

  /** A built-in trace as JSON with `patch` merged into its params and `edit(trace)` applied to the rest. */
  traceText(name, patch = {}, edit = null) {
    if (!this.examples.has(name)) this.examples.set(name, JSON.parse(this.core.Playground.exampleTrace(name)));
    const trace = structuredClone(this.examples.get(name));
    trace.params = { ...trace.params, ...patch };
    edit?.(trace);
    return JSON.stringify(trace);
  }

  /** The core's replay of a built-in trace with `patch` (and `edit`, named `editKey`): `{samples, metrics}`. */
  replay(name, patch = {}, edit = null, editKey = '') {
    return this.memo(`replay|${name}|${JSON.stringify(patch)}|${editKey}`, () => this.core.Playground.replayTrace(this.traceText(name, patch, edit)));
  }

  /** Rows of timeline `kind` of the current run as objects with the named columns. */
  table(kind, names) {
    return this.memo(`table|${kind}|${names.join(',')}`, () => readRows(this.model.table(kind), names));
  }

  /** Rows of the current run's frames with the named columns. */
  frames(names) {
    return this.table('frames', names);
  }

  /** The buffer-capacity sweep of the current run (seed 004 §3.3). */
  sweepCapacity(capacities) {
    return this.memo(`capacity|${capacities.join(',')}`, () => this.model.full().sweepCapacity(capacities));
  }

  metrics() {
    return this.model.metrics();
  }

  sweep(delays) {
    return this.memo(`sweep|${delays.join(',')}`, () => this.model.full().sweep(delays));
  }

  decayCurves(initial, fps, duration) {
    return this.memo(`decay|${initial}|${fps}|${duration}`, () => this.model.decayCurves(initial, fps, duration));
  }

  /** Another run of the current parameters changed by `mutate(params)` (which may return new params). */
  run(key, mutate) {
    return this.runFrames(key, mutate, []);
  }

  /** As `run`, also reading the named frame columns (`rows`) before the run is freed. */
  runFrames(key, mutate, names) {
    return this.memo(`run|${key}|${names.join(',')}`, () => {
      const p = structuredClone(this.params);
      const params = mutate(p) ?? p;
      const pg = new this.core.Playground(params);
      try {
        const rows = names.length ? readRows(frameTable(pg), names) : [];
        return { metrics: pg.metrics(), params, rows };
      } finally {
        pg.free();
      }
    });
  }

  /**
   * Seed 003 read from what was drawn: the largest correction of this run that stands alone (no other for three
   * half-lives before it and one after), its frame k, and from the frames' drawn series
   * - `halve`: ms until the drawn offset is half its value at k (log-interpolated between frames);
   * - `jump`: how far the drawn player moved at k beyond its own motion, in % of the correction:
   *   |Δrendered − (Δpredicted − (after − before))| / size; `snapJump` the same for the snap mode's series.
   */
  loneCorrection() {
    return this.memo('lone', () => {
      const h = this.params.local.halfLife;
      const all = this.table('corrections', ['local', 'size', 'reset', 'beforeX', 'beforeY', 'afterX', 'afterY'])
        .filter((r) => r.size > 1e-9 && r.reset !== 1);
      const alone = all.filter((r, i) => (i === 0 || r.local - all[i - 1].local >= 3 * h) && (i === all.length - 1 || all[i + 1].local - r.local > 1.05 * h));
      const none = { halve: NaN, jump: NaN, snapJump: NaN, at: NaN };
      if (!alone.length) return none;
      const c = alone.reduce((a, b) => (b.size > a.size ? b : a));
      const f = this.frames(['local', 'offset', 'renderedX', 'renderedY', 'predictedX', 'predictedY', 'localSnapX', 'localSnapY']);
      const k = f.findIndex((r) => r.local >= c.local - 1e-9);
      if (k < 1) return none;
      const o0 = f[k].offset;
      let halve = NaN;
      for (let j = k + 1; j < f.length && o0 > 1e-9; j++) {
        if (f[j].offset <= o0 / 2) {
          const [a, b] = [f[j - 1], f[j]];
          const frac = Math.log(a.offset / (o0 / 2)) / Math.log(a.offset / b.offset);
          halve = 1000 * (a.local + frac * (b.local - a.local) - f[k].local);
          break;
        }
      }
      const moved = (x, y) => {
        const mx = f[k].predictedX - f[k - 1].predictedX - (c.afterX - c.beforeX);
        const my = f[k].predictedY - f[k - 1].predictedY - (c.afterY - c.beforeY);
        return (100 * Math.hypot(f[k][x] - f[k - 1][x] - mx, f[k][y] - f[k - 1][y] - my)) / c.size;
      };
      return { halve, jump: moved('renderedX', 'renderedY'), snapJump: moved('localSnapX', 'localSnapY'), at: c.local };
    });
  }

  preset(name) {
    return this.memo(`preset|${name}`, () => this.core.Playground.applyPreset(this.params, name));
  }

  /** Seed 002's frame at local 10.30, replayed with the rail's settings. */
  seed002() {
    const p = this.params;
    const live = { renderDelay: p.remote.clock.renderDelay, underrun: p.remote.underrun.underrunPolicy,
      maxExtrapolation: p.remote.underrun.maxExtrapolation, interpolation: p.remote.buffer.interpolation };
    const samples = this.replay('seed-002', live).samples;
    return samples.find((s) => Math.abs(s.local - 10.3) < 1e-9) ?? {};
  }

  snapTable() {
    return this.memo('snapTable', () => this.core.Lessons.hardSnapTable(this.params.paths.player));
  }

  /** How far the view moves at each of this run's corrections, per smoothing mode. */
  correctionJumps() {
    return this.memo('jumps', () => {
      const c = this.model.table('corrections');
      const names = ['local', 'size', 'offsetAdded', 'reset', 'beforeX', 'beforeY', 'afterX', 'afterY'];
      const rows = new Float64Array(c.rows * names.length);
      for (let i = 0; i < c.rows; i++) names.forEach((n, k) => { rows[i * names.length + k] = c.view[i * c.stride + c.col[n]]; });
      return this.core.Lessons.correctionJumps(this.params.local, rows, names.length);
    });
  }

  /** Frames per status in this run, and the local time of the first frame of each. */
  statusFrames() {
    return this.memo('statusFrames', () => {
      const f = this.model.table('frames');
      const names = this.model.codes.status;
      const counts = Object.fromEntries(STATUSES.map((s) => [s, 0]));
      const first = {};
      for (let i = 0; i < f.rows; i++) {
        const s = names[f.view[i * f.stride + f.col.status]];
        if (!(s in counts)) continue;
        counts[s] += 1;
        first[s] ??= f.view[i * f.stride + f.col.local];
      }
      this.firstStatus = first;
      return counts;
    });
  }
}

/** The frame timeline of a (temporary) Playground, as `{view, stride, col, rows}`. */
function frameTable(pg) {
  const names = pg.columns('frames');
  const col = Object.fromEntries(names.map((n, i) => [n, i]));
  const view = pg.timeline('frames');
  return { view, stride: names.length, col, rows: view.length / names.length };
}

/** A timeline's rows as plain objects with the named columns (read before the next call into wasm). */
function readRows(tab, names) {
  const out = new Array(tab.rows);
  for (let i = 0; i < tab.rows; i++) {
    const row = {};
    for (const n of names) row[n] = tab.view[i * tab.stride + tab.col[n]];
    out[i] = row;
  }
  return out;
}
