// The lessons: one mechanism each, in the articles' order. A lesson is data — the parameters it starts from
// (on top of the defaults), where the playhead goes, which rail groups stay open, the worked-example trace
// it shows (if any), and its rows. Texts live in strings-en.js / strings-zh.js under `lesson.<id>.*`.
//
// Two kinds of row:
// - a **check** puts the article's number beside a number the core computes *now*, from the current settings,
//   through the same code the page draws: a replay of the article's own example (`ctx.replay`), the current
//   run's frames or metrics, an extra run (`ctx.run`), a client-only sweep, or the `Lessons` binding. At least one
//   control the lesson opens can turn it red; the e2e tests move one per lesson (tests/e2e/lessons.test.mjs).
//   Where the core disagrees with the article at the article's own settings, the row says so: `expect: 'fail'`
//   and a `lesson.<id>.why.<check>` sentence that explains the ✗ (that is the lesson).
// - an **info** row (`info: true`) shows a number the lesson's controls cannot move, or a comparison that is not
//   a claim of the article: drawn without ✓/✗ and never counted.
// Nothing here copies the article's answer into the "core" column.
//
// Row fields: `article` (number, array or function of ctx) · `core(ctx)` · `cmp` (`abs` |a − c| ≤ tol each,
// `ge` c ≥ a − tol, `le` c ≤ a + tol, `lt` c < a, `gt` c > a, `in` a₀ − tol ≤ c ≤ a₁ + tol) · `tol` · `unit` (ms %, s, u, px, Hz, '') ·
// `digits` · `format(value)` instead of unit and digits · `articleVars(ctx)` for the article text ·
// `info: true` · `expect: 'fail'`.

import { t } from '../strings/i18n.js';
import { both, SMOOTH_PCT } from './lesson-kit.js';
import { ENGINE_LESSONS } from './engine-lessons.js';


/** The trace params a snapshot-trace lesson takes from the rail (the controls that mean something there). */
const remoteLive = (p) => ({
  renderDelay: p.remote.clock.renderDelay,
  underrun: p.remote.underrun.underrunPolicy,
  maxExtrapolation: p.remote.underrun.maxExtrapolation,
  capRule: p.remote.underrun.capRule,
  interpolation: p.remote.buffer.interpolation,
  beforeOldest: p.remote.buffer.beforeOldest,
});

/** Seed 000 §4.3.7 samples render times directly (`buf.sample(t, 100)`): the delay is not the rail's. */
const jitterLive = (p) => {
  const { renderDelay, ...rest } = remoteLive(p);
  void renderDelay;
  return rest;
};

/**
 * Seed 000 §4.3.7's jitter array [0, 12, −8, 5, −15, 10, 0, −3] ms, scaled so that its largest entry (15 ms) is the
 * rail's Jitter: at 15 ms the article's own snapshots, at more the same pattern wider.
 */
const scaleJitter = (jitter) => (trace) => {
  const k = jitter / 0.015;
  for (const [i, s] of trace.snapshots.entries()) {
    const base = 1.0 + 0.05 * i;
    const shifted = base + (s.serverTime - base) * k;
    s.arrival = shifted + (s.arrival - s.serverTime);
    s.serverTime = shifted;
  }
};

/** Seed 001's V2 batches without their `offsetMs`: a V1 path the player times by distance / speed. */
const stripOffsets = (trace) => {
  for (const b of trace.paths) {
    for (const pt of b.points) delete pt.offsetMs;
    delete b.durationMs;
  }
};

/** The V2 trace as the rail asks for it: with offsets (V2) or without (V1 at the rail's path speed). */
const v2Replay = (c) => c.params.paths.withOffsets
  ? c.replay('seed-001-v2', {})
  : c.replay('seed-001-v2', { speed: c.params.paths.player.speed }, stripOffsets, 'v1');

/** The sample of a snapshot replay at local time `t`. */
const sampleAt = (samples, t) => samples.find((s) => Math.abs(s.local - t) < 1e-9);

/** The timed player's position at local time `t` of a paths replay, as [x, y]. */
const timedAt = (samples, t) => {
  const s = sampleAt(samples, t);
  return s ? [s.timed.x, s.timed.y] : [NaN, NaN];
};

/** Share (%) of `rows` whose status is `status`. */
const statusPct = (rows, codes, status) => {
  const code = codes.indexOf(status);
  return rows.length ? (100 * rows.filter((r) => r.status === code).length) / rows.length : NaN;
};

export const PRESETS = ['lan', 'sameRegion', 'crossRegion', 'mobile'];

/** Seed 004 §5.3's table: send rate (Hz) and interpolation delay (s) per network. */
export const ARTICLE_PRESETS = { lan: [30, 0.03], sameRegion: [30, 0.05], crossRegion: [20, 0.1], mobile: [15, 0.15] };

/**
 * Seed 004 §5.3 as the article means it: its delay is NGO's `InterpolationDelay`, counted from the newest server
 * time received; this project's clocks count from the server's present, so the run adds the link's base one-way
 * latency (known clock). Each preset's latency and jitter (ours), its send rate and delay (the article's), and the
 * rail's packet loss.
 */
const presetRun = (c, name, fromNewest) => c.run(`preset-${name}-${fromNewest ? 'newest' : 'present'}`, () => {
  const p = structuredClone(c.preset(name));
  for (const dir of ['downlink', 'uplink']) {
    p.network[dir].loss = c.params.network[dir].loss;
    p.network[dir].lossModel = c.params.network[dir].lossModel;
  }
  if (fromNewest) {
    p.remote.clock.clock = 'known';
    p.remote.clock.renderDelay = Math.min(1, p.remote.clock.renderDelay + p.network.downlink.latency);
  }
  return p;
});

/** Seed 004 §4.2's lesson: the network steps at 5 s; both controllers on both kinds of step. */
export const STEP_AT = 5;
const SCENARIOS = {
  rtt: { linkStepLatency: 0.05, linkStepJitter: 0 },
  jitter: { linkStepLatency: 0, linkStepJitter: 0.025 },
};
/** Frames from 15 s on: ten seconds after the step, when the controllers have had time to answer. */
const SETTLED = 15;

/** A run of the current settings on `scenario` with controller `mode`: its frames after SETTLED. */
const adaptiveRun = (c, scenario, mode) => c.runFrames(`adaptive-${scenario}-${mode}`, (p) => {
  p.remote.clock.adaptiveDelay.mode = mode;
  Object.assign(p.events, { linkStepAt: STEP_AT, ...SCENARIOS[scenario] });
}, ['local', 'status', 'serverNow', 'renderTime', 'delay']);

const settled = (run) => run.rows.filter((r) => r.local >= SETTLED);
const meanLag = (rows) => rows.reduce((s, r) => s + r.serverNow - r.renderTime, 0) / Math.max(1, rows.length);

/**
 * The adaptive delay's time constant, measured on the current run: `r = target − delay` once the target has
 * settled (from STEP_AT + 7 s to the end), τ = Δt / ln(r₁ / r₂).
 */
function measuredTau(c) {
  const f = c.frames(['local', 'delay', 'delayTarget']);
  const at = (t) => f.find((r) => r.local >= t);
  const first = at(STEP_AT + 7);
  const last = f.at(-1);
  if (!first || !last) return NaN;
  const r1 = first.delayTarget - first.delay;
  const r2 = last.delayTarget - last.delay;
  if (!(r1 > 1e-6 && r2 > 1e-9 && r1 > r2)) return NaN;
  return (last.local - first.local) / Math.log(r1 / r2);
}

/** The largest change of the delay between two frames, and that change as a share of the way left then. */
function largestStep(c) {
  const f = c.frames(['delay', 'delayTarget']);
  let best = { ms: 0, share: NaN };
  for (let i = 1; i < f.length; i++) {
    const step = f[i].delay - f[i - 1].delay;
    if (Math.abs(step) * 1000 > best.ms + 1e-12) {
      const way = f[i].delayTarget - f[i - 1].delay;
      best = { ms: Math.abs(step) * 1000, share: way !== 0 ? (100 * step) / way : NaN };
    }
  }
  return best;
}

/** Seed 004 §3.3: the smallest buffer capacity that plays this run as well as a roomy one (32). */
function neededCapacity(c) {
  const caps = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 32];
  const points = c.sweepCapacity(caps);
  const roomy = points.at(-1);
  const fine = points.find((pt) => pt.readyShare >= roomy.readyShare - 0.005);
  return fine?.capacity ?? NaN;
}

/** One run of the current settings with extrapolation cap rule `rule` (seed 000 §4.3.5 or seed 004 §3.4). */
const capRun = (c, rule) => c.run(`cap-${rule}`, (p) => { p.remote.underrun.capRule = rule; }).metrics.remote.shown;
const capFormat = ([rms, max]) => t('lesson.buffer-depth.capFormat', { rms: rms.toFixed(2), max: max.toFixed(1) });

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
    },
    checks: [
      { id: 'ready', article: 100, cmp: 'ge', tol: 5, unit: '%', digits: 1, expect: 'fail', core: (c) => 100 * c.metrics().remote.statusShare.ready },
      { id: 'lowerBound', article: 100, cmp: 'ge', tol: 5, unit: '%', digits: 1, expect: 'fail', core: (c) => 100 * c.sweep([0.05])[0].readyShare },
      {
        id: 'fromNewest', article: 100, cmp: 'ge', tol: 5, unit: '%', digits: 1,
        core: (c) => 100 * c.run('fromNewest', (p) => {
          p.remote.clock.clock = 'known';
          p.remote.clock.renderDelay = Math.min(1, p.remote.clock.renderDelay + p.network.downlink.latency);
        }).metrics.remote.statusShare.ready,
      },
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
        core: (c) => Math.max(...c.replay('seed-000-extrapolate-seed', remoteLive(c.params)).samples.map((s) => Math.abs(s.x ?? 0))),
      },
      {
        id: 'peakAt', cmp: 'abs', tol: 10, unit: 'ms', digits: 0,
        article: (c) => 1000 * c.params.remote.underrun.maxExtrapolation / 2,
        core: (c) => {
          const samples = c.replay('seed-000-extrapolate-seed', remoteLive(c.params)).samples;
          const peak = samples.reduce((best, s) => (Math.abs(s.x ?? 0) > Math.abs(best.x ?? 0) ? s : best));
          return 1000 * (peak.renderTime - 1.0);
        },
      },
      {
        id: 'frozen', article: 0, cmp: 'abs', tol: 1e-6, unit: 'u', digits: 2,
        core: (c) => c.replay('seed-000-extrapolate-seed', remoteLive(c.params)).samples.at(-1).x,
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
      // The article's test samples its own SnapshotBuffer: `buf.sample(t, 100)`, the seed formula with a 100 ms cap.
      p.remote.underrun.underrunPolicy = 'extrapolate-seed';
      p.remote.underrun.maxExtrapolation = 0.1;
    },
    checks: [
      {
        id: 'maxJump', article: 30, cmp: 'lt', unit: 'u', digits: 2,
        articleVars: (c) => ({ jitter: Math.round(1000 * c.params.network.downlink.jitter) }),
        core: (c) => {
          const j = c.params.network.downlink.jitter;
          const xs = c.replay('seed-000-jitter', jitterLive(c.params), scaleJitter(j), `jitter${j}`).samples.map((s) => s.x);
          let max = 0;
          for (let i = 1; i < xs.length; i++) max = Math.max(max, Math.abs(xs[i] - xs[i - 1]));
          return max;
        },
      },
      {
        id: 'ready', article: 100, cmp: 'ge', tol: 0, unit: '%', digits: 1,
        core: (c) => {
          const j = c.params.network.downlink.jitter;
          const samples = c.replay('seed-000-jitter', jitterLive(c.params), scaleJitter(j), `jitter${j}`).samples;
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
      { id: 'at120', article: [112, 200], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(v2Replay(c).samples, 0.24) },
      { id: 'at280', article: [130, 205], cmp: 'abs', tol: 0.5, unit: 'px', digits: 1, core: (c) => timedAt(v2Replay(c).samples, 0.4) },
      { id: 'stale', info: true, unit: '', digits: 0, core: (c) => v2Replay(c).metrics.staleDropped },
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
      {
        // Seed 002's minimal code: render 10.10 between 10.05 (x 0) and 10.15 (x 10). Sampled at local 10.25, so
        // that this lesson's 0.15 s delay renders 10.10 (the article: 10.20 − 0.10).
        id: 'minimal', article: 5, cmp: 'abs', tol: 1e-6, unit: '', digits: 2,
        core: (c) => sampleAt(c.replay('seed-002-minimal', remoteLive(c.params)).samples, 10.25)?.x ?? NaN,
      },
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
        id: 'halve', cmp: 'abs', tol: 2, unit: 'ms', digits: 1,
        article: (c) => 1000 * c.params.local.halfLife,
        core: (c) => c.loneCorrection().halve,
      },
      { id: 'continuity', article: 0, cmp: 'le', tol: 5, unit: '%', digits: 1, core: (c) => c.loneCorrection().jump },
      { id: 'snapJump', info: true, unit: '%', digits: 0, core: (c) => c.loneCorrection().snapJump },
      {
        id: 'step', info: true, unit: 'u', digits: 2,
        article: (c) => c.params.local.speed / c.params.local.tickRate,
        core: (c) => c.run('noBug', (p) => { p.local.mismatch = false; }).metrics.local.halfLife.maxOffset,
      },
      {
        id: 'firstVersion', info: true, unit: 'u', digits: 2,
        core: (c) => c.run('noBug', (p) => { p.local.mismatch = false; }).metrics.local.firstVersion.rmsOffset,
      },
    ],
  },
  {
    id: 'mismatch',
    seed: '003',
    groups: ['local', 'network'],
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
          return c.table('corrections', ['local', 'size']).filter((r) => r.local > end - 5 && r.size > 1e-9).length;
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
    id: 'buffer-depth',
    seed: '004',
    groups: ['remote', 'network'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p) {
      p.scenario.sendRate = 30;
      p.remote.clock.clock = 'timescale';
      p.remote.clock.renderDelay = 0.05;
      both(p, 'loss', 0.05);
    },
    checks: [
      { id: 'snapshots', article: [3, 4], cmp: 'in', unit: '', digits: 0, core: (c) => neededCapacity(c) },
      {
        id: 'span', article: [2, 3], cmp: 'in', unit: '', digits: 1,
        format: (v) => [v].flat().map((x) => `${x.toFixed(1)} ×`).join(' – '),
        core: (c) => (neededCapacity(c) * c.model.sendInterval) / c.params.remote.clock.renderDelay,
      },
      {
        id: 'held', info: true, unit: '', digits: 1,
        core: (c) => {
          const f = c.frames(['buffered']).filter((r) => Number.isFinite(r.buffered));
          return f.reduce((s, r) => s + r.buffered, 0) / Math.max(1, f.length);
        },
      },
      { id: 'cap000', info: true, format: capFormat, core: (c) => { const m = capRun(c, 'maxExtrapolation'); return [m.rmsError, m.maxError]; } },
      { id: 'cap004', info: true, format: capFormat, core: (c) => { const m = capRun(c, 'halfSendInterval'); return [m.rmsError, m.maxError]; } },
      {
        id: 'capClaim', article: 0, cmp: 'le', tol: 0, unit: 'u', digits: 3, expect: 'fail',
        core: (c) => capRun(c, 'halfSendInterval').rmsError - capRun(c, 'maxExtrapolation').rmsError,
      },
    ],
  },
  {
    id: 'adaptive-delay',
    seed: '004',
    groups: ['remote', 'network'],
    t: 12,
    run: { from: 4, speed: 2 },
    params(p) {
      p.duration = 30;
      p.scenario.sendRate = 30;
      p.remote.clock.clock = 'known';
      p.remote.clock.renderDelay = 0.05;
      p.remote.clock.adaptiveDelay.enabled = true;
      p.remote.clock.adaptiveDelay.mode = 'seed004';
      both(p, 'latency', 0.03);
      both(p, 'jitter', 0);
      Object.assign(p.events, { linkStepAt: STEP_AT, ...SCENARIOS.rtt });
    },
    checks: [
      { id: 'tau', cmp: 'abs', tol: 0.5, unit: 's', digits: 2, article: () => -0.2 / Math.log(1 - 0.02), core: (c) => measuredTau(c) },
      { id: 'step', cmp: 'abs', tol: 0.05, unit: '%', digits: 2, article: 2, core: (c) => largestStep(c).share },
      { id: 'stepMs', info: true, unit: 'ms', digits: 2, core: (c) => largestStep(c).ms },
      {
        id: 'jitterSeed004', article: 0, cmp: 'le', tol: 1, unit: '%', digits: 1, expect: 'fail',
        core: (c) => statusPct(settled(adaptiveRun(c, 'jitter', 'seed004')), c.model.codes.status, 'underrun'),
      },
      {
        id: 'jitterProject', article: 0, cmp: 'le', tol: 1, unit: '%', digits: 1,
        core: (c) => statusPct(settled(adaptiveRun(c, 'jitter', 'jitter')), c.model.codes.status, 'underrun'),
      },
      {
        id: 'rttLag', info: true, unit: 'ms', digits: 0,
        core: (c) => 1000 * (meanLag(settled(adaptiveRun(c, 'rtt', 'seed004'))) - meanLag(settled(adaptiveRun(c, 'rtt', 'jitter')))),
      },
    ],
    extra: 'adaptiveTable',
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
      id: `preset-${name}`, label: 'preset', preset: name, cmp: 'le', tol: 0, unit: '%', digits: 1, article: SMOOTH_PCT,
      expect: name === 'lan' ? 'fail' : undefined,
      core: (c) => 100 * presetRun(c, name, true).metrics.remote.underrunShare,
    })),
    extra: 'presetTable',
  },
  ...ENGINE_LESSONS,
];

/** Rows to compute for the adaptive table: scenario × controller. */
export const ADAPTIVE_ROWS = [['rtt', 'seed004'], ['rtt', 'jitter'], ['jitter', 'seed004'], ['jitter', 'jitter']];
export { adaptiveRun, settled, meanLag, statusPct, presetRun, SETTLED };

export const byLessonId = Object.fromEntries(LESSONS.map((l, i) => [l.id, { ...l, n: i + 1 }]));

/**
 * The lesson's starting parameters: the defaults with the lesson's changes — or, for a lesson about the reader's
 * own network (`keepsNetwork`), the `current` parameters as they are (the menu passes them), so that choosing it
 * keeps an imported recording and whatever network the rail holds; its URL then stores the differences from the
 * defaults, as the sandbox's does.
 */
export function lessonParams(lesson, defaults, core, current = defaults) {
  if (lesson.keepsNetwork) return structuredClone(current);
  const p = structuredClone(defaults);
  return lesson.params(p, core) ?? p;
}
