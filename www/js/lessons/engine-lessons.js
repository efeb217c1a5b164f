// The engine lessons: the engines replayed on one network, side by side — seed 004's mobile network, bursty loss
// (NetEQ's quantile against Mirror's standard deviation), and the reader's own network (does each engine's buffer
// cover it; which setting it needs). Rows as in lesson-data.js, whose LESSONS lists these after the articles' own.
// Their numbers come from the core's engine runs on the current network (`model.engineMetrics`, the league
// table's column for it) and from `Playground.tune` (src/tune/mod.rs, the "Your settings" panel's answer).

import { both, SMOOTH_PCT } from './lesson-kit.js';

/** The engines scored on the current run (src/engines/, the league table's custom column for them). */
const ENGINES_SCORED = ['mirror', 'ngo', 'ngo-1x', 'source', 'geckos', 'gambetta', 'latest'];
const engineScores = (c) => c.model.engineMetrics(ENGINES_SCORED);
/** The engines on the current network as it is — a recording or an import too (the league's `trace` column). */
const yourScores = (c) => c.model.engineMetrics(['mirror', 'source', 'geckos']);
/** NetEQ, Mirror's `SnapshotInterpolation` alone and Mirror's NetworkTransform, on the current run. */
const burstyScores = (c) => c.model.engineMetrics(['neteq', 'mirror-core', 'mirror']);

/** The tune target of "Which setting for my network?": one frame in a hundred (the panel's default). */
const TUNE_TARGET = 0.01;
/**
 * The core's answer for Mirror, Source and geckos.io on the network on screen (a recording or an import as it is,
 * else the simulated run's parameters): per engine the smallest setting that runs dry on at most TUNE_TARGET of
 * the frames, each a full run (`Playground.tune`, the "Your settings" panel's rows). Once per run.
 */
const tuned = (c) => c.memo('tune', () => {
  const m = c.model;
  const bytes = m.imported ? m.importBytes : undefined;
  return c.core.Playground.tune(c.params, TUNE_TARGET, bytes, 'mirror,source,geckos');
});
/** The tune row of `strategy` (for Mirror: the row of the mode the reader runs, dynamic adjustment on or off). */
const tunedRow = (c, strategy) => {
  const rows = tuned(c).rows.filter((r) => r.strategy === strategy);
  if (strategy !== 'mirror') return rows[0];
  const setting = c.params.engines.mirror.dynamicAdjustment ? 'dynamicAdjustmentTolerance' : 'bufferTimeMultiplier';
  return rows.find((r) => r.setting === setting);
};
/** `name = value` of a tune row's own setting, for the article column's sentence. */
const settingText = (row) => {
  const v = row.settings[row.setting];
  return `${row.setting} = ${Number.isInteger(v) ? v : v.toFixed(2)}`;
};

/**
 * A lesson on the reader's own network: it keeps the network on screen (`keepsNetwork`: a recording, an import, a
 * fit or the rail's), applies nothing, and draws Mirror, Source and geckos.io on it.
 */
const onYourNetwork = (id, seed, checks) => ({
  id, seed, groups: ['engines', 'network'], engines: ['mirror', 'source', 'geckos'], keepsNetwork: true,
  t: 6, run: { from: 5, speed: 0.25 }, params: () => null, checks,
});

export const ENGINE_LESSONS = [
  // ---- The engines on seed 004's mobile network (the league table's mobile column, live) ----
  {
    id: 'engines-mobile',
    seed: '004',
    groups: ['engines', 'network'],
    preset: 'mobile',
    engines: ['mirror', 'ngo-1x', 'source', 'geckos'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p, core) {
      return core.Playground.applyPreset(p, 'mobile');
    },
    checks: [
      {
        id: 'sourceBest', cmp: 'le', tol: 0, unit: 'u', digits: 2,
        article: (c) => Math.min(...['mirror', 'ngo-1x', 'geckos', 'gambetta'].map((n) => engineScores(c)[n].rmsError)),
        core: (c) => engineScores(c).source.rmsError,
      },
      { id: 'mirrorDry', article: 5, cmp: 'le', tol: 0, unit: '%', digits: 1, core: (c) => 100 * engineScores(c).mirror.underrunShare },
      {
        id: 'ngoLag', cmp: 'abs', tol: 30, unit: 'ms', digits: 0,
        article: (c) => {
          const p = c.params;
          const link = p.network.downlink;
          // Exponential jitter adds `jitter` on average; uniform and normal ± jitter add none (src/link.rs).
          const meanJitter = link.jitterModel === 'exponential' ? link.jitter : 0;
          const tick = Math.round(p.scenario.tickRate / p.scenario.sendRate) / p.scenario.tickRate;
          return 1000 * (link.latency + meanJitter + p.engines.ngo1x.ServerBufferSec + tick);
        },
        core: (c) => 1000 * engineScores(c)['ngo-1x'].meanLag,
      },
      { id: 'ngoExtrapolates', info: true, unit: '%', digits: 1, core: (c) => 100 * engineScores(c)['ngo-1x'].extrapolationShare },
      { id: 'latestStalls', info: true, unit: '', digits: 0, core: (c) => engineScores(c).latest.stalls },
    ],
  },
  // ---- NetEQ's quantile against Mirror's standard deviation, on bursty loss ----
  {
    id: 'neteq-bursty',
    seed: '004',
    groups: ['engines', 'network'],
    engines: ['neteq', 'mirror-core', 'mirror'],
    t: 6,
    run: { from: 5, speed: 0.25 },
    params(p) {
      both(p, 'latency', 0.06);
      both(p, 'jitter', 0.02);
      both(p, 'jitterModel', 'exponential');
      both(p, 'loss', 0.05);
      both(p, 'lossModel', 'burst');
    },
    checks: [
      {
        id: 'neteqDryLess', cmp: 'lt', unit: '%', digits: 1,
        article: (c) => 100 * burstyScores(c)['mirror-core'].underrunShare,
        core: (c) => 100 * burstyScores(c).neteq.underrunShare,
      },
      {
        id: 'neteqLater', cmp: 'gt', unit: 'ms', digits: 0,
        article: (c) => 1000 * burstyScores(c)['mirror-core'].addedLatency,
        core: (c) => 1000 * burstyScores(c).neteq.addedLatency,
      },
      {
        id: 'neteqSteadier', cmp: 'lt', unit: '', digits: 0,
        article: (c) => burstyScores(c)['mirror-core'].stalls,
        core: (c) => burstyScores(c).neteq.stalls,
      },
      {
        id: 'mirrorLevels', cmp: 'le', tol: 0, unit: '%', digits: 1,
        article: (c) => 100 * burstyScores(c).neteq.underrunShare,
        core: (c) => 100 * burstyScores(c).mirror.underrunShare,
      },
      { id: 'mirrorLatency', info: true, unit: 'ms', digits: 0, core: (c) => 1000 * burstyScores(c).mirror.addedLatency },
    ],
  },
  // ---- Your own network: a recording, a game's arrival log or a fitted model, kept as it is ----
  onYourNetwork('your-network', '004', [
    { id: 'mirrorDry', article: SMOOTH_PCT, cmp: 'le', tol: 0, unit: '%', digits: 1, core: (c) => 100 * yourScores(c).mirror.underrunShare },
    { id: 'sourceDry', article: SMOOTH_PCT, cmp: 'le', tol: 0, unit: '%', digits: 1, core: (c) => 100 * yourScores(c).source.underrunShare },
    { id: 'geckosDry', article: SMOOTH_PCT, cmp: 'le', tol: 0, unit: '%', digits: 1, core: (c) => 100 * yourScores(c).geckos.underrunShare },
    { id: 'mirrorLatency', info: true, unit: 'ms', digits: 0, core: (c) => 1000 * yourScores(c).mirror.addedLatency },
    { id: 'geckosLatency', info: true, unit: 'ms', digits: 0, core: (c) => 1000 * yourScores(c).geckos.addedLatency },
  ]),
  // ---- Which setting for my network: the smallest buffer each engine needs, against the reader's ----
  onYourNetwork('your-settings', '002', [
    ...['mirror', 'source', 'geckos'].map((strategy) => ({
      id: `${strategy}Enough`, cmp: 'ge', tol: 0, unit: 'ms', digits: 0,
      article: (c) => tunedRow(c, strategy).latencyMs,
      articleVars: (c) => ({ setting: settingText(tunedRow(c, strategy)) }),
      core: (c) => 1000 * yourScores(c)[strategy].addedLatency,
    })),
    { id: 'geckosChecked', info: true, unit: '%', digits: 1, core: (c) => 100 * tunedRow(c, 'geckos').underrun },
    {
      id: 'geckosLower', info: true, unit: '%', digits: 1,
      core: (c) => 100 * (tunedRow(c, 'geckos').nextLower?.underrun ?? NaN),
    },
  ]),
];
