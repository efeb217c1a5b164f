// The lessons: one mechanism each, in the articles' order. A lesson is data — the parameters it starts from
// (on top of the defaults), where the playhead goes, which rail groups stay open, the worked-example trace
// it shows (if any), and its checks. A check puts the article's number beside a number the core computes
// *now*, for the current settings: a replay of the article's own example (`ctx.replay`), the current run's
// metrics or timelines, an extra run (`ctx.run`), a curve, or the `Lessons` binding. Nothing here copies the
// article's answer into the "core" column. Texts live in strings-en.js / strings-zh.js under `lesson.<id>.*`.
//
// Check fields: `article` (number, array or function of ctx) · `core(ctx)` · `cmp` (`abs` |a − c| ≤ tol each,
// `ge` c ≥ a − tol, `le` c ≤ a + tol, `lt` c < a, `gt` c > a) · `tol` · `unit` (ms %, s, u, px, Hz, '') ·
// `digits` · `format(value)` instead of unit and digits · `articleVars(ctx)` for the article text ·
// `info: true` for a comparison row without ✓/✗.

const both = (p, field, value) => {
  p.network.downlink[field] = value;
  p.network.uplink[field] = value;
};

/** The trace params a snapshot-trace lesson takes from the rail (the controls that mean something there). */
const remoteLive = (p) => ({
  renderDelay: p.remote.clock.renderDelay,
  underrun: p.remote.underrun.underrunPolicy,
  maxExtrapolation: p.remote.underrun.maxExtrapolation,
  interpolation: p.remote.buffer.interpolation,
});

/** Seed 000 §4.3.7 samples render times directly (`buf.sample(t, 100)`): the delay is not the rail's. */
const jitterLive = (p) => {
  const { renderDelay, ...rest } = remoteLive(p);
  void renderDelay;
  return rest;
};

/** The sample of a snapshot replay at local time `t`. */
const sampleAt = (samples, t) => samples.find((s) => Math.abs(s.local - t) < 1e-9);

/** The timed player's position at local time `t` of a paths replay, as [x, y]. */
const timedAt = (samples, t) => {
  const s = sampleAt(samples, t);
  return s ? [s.timed.x, s.timed.y] : [NaN, NaN];
};

/** Frames of the current run in a column, as a plain array (read before the next call into wasm). */
const column = (model, kind, name) => {
  const tab = model.table(kind);
  const out = new Array(tab.rows);
  for (let i = 0; i < tab.rows; i++) out[i] = tab.view[i * tab.stride + tab.col[name]];
  return out;
};

export const PRESETS = ['lan', 'sameRegion', 'crossRegion', 'mobile'];
/** Seed 004 §5.3's table: send rate (Hz) and interpolation delay (s) per network. */
const ARTICLE_PRESETS = { lan: [30, 0.03], sameRegion: [30, 0.05], crossRegion: [20, 0.1], mobile: [15, 0.15] };

export const LESSONS = [
  {
    id: 'render-delay',
    seed: '000',
    groups: ['remote', 'network'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p) {
      p.scenario.sendRate = 20;
      p.remote.clock.renderDelay = 0.1;
      p.remote.underrun.underrunPolicy = 'extrapolate-seed';
      both(p, 'latency', 0.02);
      both(p, 'jitter', 0.002);
    },
    checks: [
      { id: 'ready', article: 100, cmp: 'ge', tol: 5, unit: '%', digits: 1, core: (c) => 100 * c.metrics().remote.statusShare.ready },
      { id: 'zero', article: 100, cmp: 'ge', tol: 5, unit: '%', digits: 1, core: (c) => 100 * c.sweep([0])[0].underrunShare },
    ],
  },
  {
    id: 'extrapolation-cap',
    quoteIsCode: true,
    seed: '000',
    groups: ['remote'],
    t: 1.15,
    run: { from: 1.1, speed: 0.1 },
    trace: { name: 'seed-000-extrapolate-seed', live: remoteLive },
    params(p) {
      p.remote.clock.clock = 'known';
      p.remote.clock.renderDelay = 0.1;
      p.remote.underrun.underrunPolicy = 'extrapolate-seed';
      p.remote.underrun.maxExtrapolation = 0.1;
    },
    checks: [
      {
        id: 'peak', cmp: 'abs', tol: 1, unit: 'u', digits: 2,
        article: (c) => 0.25 * 3000 * c.params.remote.underrun.maxExtrapolation,
        articleVars: (c) => ({ cap: c.params.remote.underrun.maxExtrapolation }),
        core: (c) => Math.max(...c.replay('seed-000-extrapolate-seed', { ...remoteLive(c.params), underrun: 'extrapolate-seed' }).samples.map((s) => Math.abs(s.x ?? 0))),
      },
      {
        id: 'peakAt', cmp: 'abs', tol: 10, unit: 'ms', digits: 0,
        article: (c) => 1000 * c.params.remote.underrun.maxExtrapolation / 2,
        core: (c) => {
          const samples = c.replay('seed-000-extrapolate-seed', { ...remoteLive(c.params), underrun: 'extrapolate-seed' }).samples;
          const peak = samples.reduce((best, s) => (Math.abs(s.x ?? 0) > Math.abs(best.x ?? 0) ? s : best));
          return 1000 * (peak.renderTime - 1.0);
        },
      },
      {
        id: 'frozen', article: 0, cmp: 'abs', tol: 1e-6, unit: 'u', digits: 2,
        core: (c) => c.replay('seed-000-extrapolate-seed', { ...remoteLive(c.params), underrun: 'extrapolate-seed' }).samples.at(-1).x,
      },
      {
        id: 'decay', info: true, unit: 'u', digits: 2,
        article: (c) => 3000 * c.params.remote.underrun.maxExtrapolation / 2,
        articleVars: (c) => ({ cap: c.params.remote.underrun.maxExtrapolation }),
        core: (c) => c.replay('seed-000-extrapolate-seed', { ...remoteLive(c.params), underrun: 'extrapolate-decay' }).samples.at(-1).x,
      },
    ],
  },
  {
    id: 'jitter',
    quoteIsCode: true,
    seed: '000',
    groups: ['network', 'remote'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p) {
      both(p, 'jitter', 0.015);
      both(p, 'jitterModel', 'uniform');
      p.remote.clock.renderDelay = 0.12;
    },
    checks: [
      {
        id: 'maxJump', article: 30, cmp: 'lt', unit: 'u', digits: 2,
        core: (c) => {
          const xs = c.replay('seed-000-jitter', jitterLive(c.params)).samples.map((s) => s.x);
          let max = 0;
          for (let i = 1; i < xs.length; i++) max = Math.max(max, Math.abs(xs[i] - xs[i - 1]));
          return max;
        },
      },
      {
        id: 'ready', article: 100, cmp: 'ge', tol: 0, unit: '%', digits: 1,
        core: (c) => {
          const samples = c.replay('seed-000-jitter', jitterLive(c.params)).samples;
          return (100 * samples.filter((s) => s.status === 'ready').length) / samples.length;
        },
      },
    ],
  },
  {
    id: 'timed-path',
    quoteIsCode: true,
    seed: '001',
    groups: ['paths'],
    t: 4,
    run: { from: 2, speed: 0.5 },
    params(p) {
      p.paths.withOffsets = false;
      p.paths.player.speed = 120;
      p.paths.lerp.lerpFactor = 0.1;
    },
    checks: [
      { id: 's1End', article: [60, 0], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(c.replay('seed-001-staircase', { speed: c.params.paths.player.speed }).samples, 0.62) },
      { id: 'at650', article: [60, 18], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(c.replay('seed-001-staircase', { speed: c.params.paths.player.speed }).samples, 0.77) },
      {
        id: 'lerp', info: true, unit: 'px', digits: 1,
        core: (c) => {
          const s = sampleAt(c.replay('seed-001-staircase', { speed: c.params.paths.player.speed, lerpFactor: c.params.paths.lerp.lerpFactor }).samples, 0.77);
          return [s.lerp.x, s.lerp.y];
        },
      },
    ],
  },
  {
    id: 'v2-snap',
    quoteIsCode: true,
    seed: '001',
    groups: ['paths'],
    t: 4,
    run: { from: 2, speed: 0.5 },
    params(p) {
      p.paths.withOffsets = true;
    },
    checks: [
      { id: 'at120', article: [112, 200], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(c.replay('seed-001-v2', {}).samples, 0.24) },
      { id: 'at280', article: [130, 205], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(c.replay('seed-001-v2', {}).samples, 0.4) },
      { id: 'stale', article: 1, cmp: 'abs', tol: 0, unit: '', digits: 0, core: (c) => c.replay('seed-001-v2', {}).metrics.staleDropped },
      {
        id: 'table', article: 4, cmp: 'abs', tol: 0, unit: '', digits: 0,
        core: (c) => c.snapTable().filter((cell) => cell.snapped === (cell.stale && cell.far)).length,
      },
    ],
    extra: 'snapTable',
  },
  {
    id: 'out-of-order',
    seed: '002',
    groups: ['remote'],
    t: 10.3,
    run: { from: 10, speed: 0.1 },
    trace: { name: 'seed-002', live: remoteLive, focus: 10.3 },
    stepThrough: true,
    params(p) {
      p.remote.clock.clock = 'known';
      p.remote.clock.renderDelay = 0.15;
      p.remote.underrun.underrunPolicy = 'hold';
    },
    checks: [
      { id: 'renderTime', article: 10.15, cmp: 'abs', tol: 1e-6, unit: 's', digits: 2, core: (c) => c.seed002().renderTime },
      { id: 'bracket', article: [101, 102], cmp: 'abs', tol: 0, unit: '', digits: 0, core: (c) => [c.seed002().left ?? NaN, c.seed002().right ?? NaN] },
      { id: 'factor', article: 0.5, cmp: 'abs', tol: 1e-6, unit: '', digits: 2, core: (c) => c.seed002().factor ?? NaN },
      { id: 'x', article: 1.5, cmp: 'abs', tol: 1e-6, unit: '', digits: 2, core: (c) => c.seed002().x ?? NaN },
    ],
  },
  {
    id: 'statuses',
    seed: '002',
    groups: ['remote', 'network', 'sim'],
    t: 0.1,
    run: { from: 0, speed: 0.25 },
    params(p) {
      p.scenario.motion = 'respawn';
      p.remote.clock.clock = 'smooth';
      p.remote.clock.renderDelay = 0.15;
      p.remote.buffer.minSnapshots = 4;
      both(p, 'loss', 0.1);
      both(p, 'lossModel', 'burst');
      p.events.kickAt = 10;
      p.events.kick = 0.5;
    },
    checks: [
      {
        id: 'seen', article: 6, cmp: 'abs', tol: 0, unit: '', digits: 0,
        core: (c) => Object.values(c.statusFrames()).filter((n) => n > 0).length,
      },
    ],
    extra: 'statusJumps',
  },
  {
    id: 'correction-offset',
    quoteIsCode: true,
    seed: '003',
    groups: ['local'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p) {
      p.local.mismatch = true;
      p.local.smoothing = 'halfLife';
      p.local.halfLife = 0.08;
    },
    checks: [
      {
        id: 'halve', article: 80, cmp: 'abs', tol: 1, unit: 'ms', digits: 0,
        core: (c) => {
          const curve = c.decayCurves(1, 1000, 1).halfLife;
          return 1000 * (curve.find((pt) => pt.offset <= 0.5 + 1e-9)?.time ?? NaN);
        },
      },
      { id: 'continuity', article: 0, cmp: 'abs', tol: 1e-6, unit: 'u', digits: 3, core: (c) => c.correctionJumps().halfLife },
      { id: 'snapJump', info: true, unit: 'u', digits: 2, core: (c) => c.correctionJumps().snap },
      {
        id: 'step', cmp: 'abs', tol: 0.05, unit: 'u', digits: 2,
        article: (c) => c.params.local.speed / c.params.local.tickRate,
        core: (c) => c.run('noBug', (p) => { p.local.mismatch = false; }).metrics.local.halfLife.maxOffset,
      },
      {
        id: 'firstVersion', cmp: 'gt', unit: 'u', digits: 2,
        article: (c) => c.params.local.speed / c.params.local.tickRate,
        core: (c) => c.run('noBug', (p) => { p.local.mismatch = false; }).metrics.local.firstVersion.rmsOffset,
      },
    ],
  },
  {
    id: 'mismatch',
    seed: '003',
    groups: ['local'],
    t: 8,
    run: { from: 6, speed: 0.25 },
    params(p) {
      p.local.mismatch = true;
      p.local.smoothing = 'halfLife';
    },
    checks: [
      {
        id: 'persist', article: 0, cmp: 'gt', unit: '', digits: 0,
        core: (c) => {
          const end = c.model.end;
          return column(c.model, 'corrections', 'local').filter((t) => t > end - 5).length;
        },
      },
      { id: 'fixed', article: 0, cmp: 'abs', tol: 0, unit: '', digits: 0, core: (c) => c.run('noBug', (p) => { p.local.mismatch = false; }).metrics.local.corrections },
      {
        id: 'share', info: true, unit: '%', digits: 0,
        core: (c) => {
          const m = c.metrics();
          return (100 * m.local.corrections) / Math.max(1, m.session.client.reconciled);
        },
      },
    ],
  },
  {
    id: 'clock',
    seed: '004',
    groups: ['remote', 'network', 'events'],
    t: 6,
    run: { from: 4, speed: 0.5 },
    params(p) {
      p.remote.clock.clock = 'smooth';
      p.remote.clock.renderDelay = 0.15;
      both(p, 'jitter', 0.02);
      both(p, 'jitterModel', 'exponential');
    },
    checks: [
      { id: 'regressions', article: 0, cmp: 'abs', tol: 0, unit: '', digits: 0, core: (c) => c.metrics().clock.regressions },
      { id: 'rejected', article: 0, cmp: 'gt', unit: '', digits: 0, core: (c) => c.metrics().clock.rttRejected },
      { id: 'naive', article: 0, cmp: 'gt', unit: '', digits: 0, core: (c) => c.run('reanchor', (p) => { p.remote.clock.clock = 'reanchor'; }).metrics.clock.regressions },
    ],
  },
  {
    id: 'adaptive-delay',
    seed: '004',
    groups: ['remote', 'network'],
    t: 10,
    run: { from: 0, speed: 1 },
    params(p) {
      p.remote.clock.adaptiveDelay.enabled = true;
      both(p, 'jitter', 0.03);
      both(p, 'jitterModel', 'normal');
    },
    checks: [
      {
        id: 'tau', cmp: 'abs', tol: 0.5, unit: 's', digits: 2,
        article: () => -0.2 / Math.log(0.98),
        core: (c) => {
          const p = c.params;
          const interval = Math.round(p.scenario.tickRate / p.scenario.sendRate) / p.scenario.tickRate;
          const adaptive = p.remote.clock.adaptiveDelay;
          // The jitter that asks for 150 ms: k · interval + m · σ = 0.15 (latency left out).
          const sigma = Math.max(0, (0.15 - adaptive.intervals * interval) / Math.max(adaptive.jitterStds, 1e-9));
          return c.core.Lessons.adaptiveStep({ ...adaptive, addLatency: false }, interval, 0.05, Math.min(sigma, 1), 0, p.fps, 60).timeTo63 ?? NaN;
        },
      },
      {
        id: 'step', article: 2, cmp: 'le', tol: 0, unit: 'ms', digits: 3,
        core: (c) => {
          const delays = column(c.model, 'frames', 'delay');
          let max = 0;
          for (let i = 1; i < delays.length; i++) max = Math.max(max, Math.abs(delays[i] - delays[i - 1]));
          return 1000 * max;
        },
      },
      {
        id: 'range', info: true, unit: 'ms', digits: 0,
        core: (c) => {
          const delays = column(c.model, 'frames', 'delay');
          return [1000 * delays[0], 1000 * delays.at(-1)];
        },
      },
    ],
  },
  {
    id: 'presets',
    seed: '004',
    groups: ['network'],
    preset: 'crossRegion',
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p, core) {
      return core.Playground.applyPreset(p, 'crossRegion');
    },
    checks: PRESETS.map((name) => ({
      id: `preset-${name}`, label: 'preset', preset: name, cmp: 'abs', tol: 0.5,
      article: [ARTICLE_PRESETS[name][0], 1000 * ARTICLE_PRESETS[name][1]],
      format: ([rate, delay]) => `${rate} Hz · ${delay} ms`,
      core: (c) => [c.preset(name).scenario.sendRate, Math.round(1e6 * c.preset(name).remote.clock.renderDelay) / 1000],
    })),
    extra: 'presetTable',
  },
];

export const byLessonId = Object.fromEntries(LESSONS.map((l, i) => [l.id, { ...l, n: i + 1 }]));

/** The lesson's starting parameters: the defaults with the lesson's changes. */
export function lessonParams(lesson, defaults, core) {
  const p = structuredClone(defaults);
  return lesson.params(p, core) ?? p;
}
