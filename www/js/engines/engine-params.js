// The engines' parameters as rail controls (group "Engines"): labelled with each engine's own name for the
// setting (Mirror's `bufferTimeMultiplier`, NGO's `ServerBufferSec`, Source's `cl_interp`, geckos.io's
// `interpolationBuffer`), defaults from the engine's source (src/engines/*.rs says where), kept in the URL like
// any control. `engine` names the engine a control belongs to (the rail gives each engine a sub-heading).
// Gambetta's demo and the articles' references have no settings of their own here.

const M = (field) => [`engines.mirror.${field}`];
const N = (field) => [`engines.ngo.${field}`];
const S = (field) => [`engines.source.${field}`];
const G = (field) => [`engines.geckos.${field}`];

export const ENGINE_CONTROLS = [
  { id: 'mirror-dynamicAdjustment', engine: 'mirror', group: 'engines', kind: 'check', label: 'dynamicAdjustment', paths: M('dynamicAdjustment'),
    hint: 'On: bufferTimeMultiplier = (sendInterval + jitter σ) / sendInterval + dynamicAdjustmentTolerance, after every snapshot.' },
  { id: 'mirror-bufferTimeMultiplier', engine: 'mirror', group: 'engines', kind: 'range', label: 'bufferTimeMultiplier', paths: M('bufferTimeMultiplier'),
    min: 0.5, max: 10, step: 0.1, unit: '×', scale: 1, enabledWhen: (p) => !p.engines.mirror.dynamicAdjustment,
    hint: 'Buffer time = send interval × this (Mirror: "around 2"). Used when dynamicAdjustment is off.' },
  { id: 'mirror-dynamicAdjustmentTolerance', engine: 'mirror', group: 'engines', kind: 'range', label: 'dynamicAdjustmentTolerance', paths: M('dynamicAdjustmentTolerance'),
    min: 0, max: 5, step: 0.25, unit: '×', scale: 1, enabledWhen: (p) => p.engines.mirror.dynamicAdjustment },
  { id: 'mirror-deliveryTimeEmaDuration', engine: 'mirror', group: 'engines', kind: 'range', label: 'deliveryTimeEmaDuration', paths: M('deliveryTimeEmaDuration'),
    min: 1, max: 10, step: 1, unit: 's', scale: 1, enabledWhen: (p) => p.engines.mirror.dynamicAdjustment },
  { id: 'mirror-catchupSpeed', engine: 'mirror', group: 'engines', kind: 'range', label: 'catchupSpeed', paths: M('catchupSpeed'),
    min: 0, max: 20, step: 0.5, unit: '%', scale: 100 },
  { id: 'mirror-slowdownSpeed', engine: 'mirror', group: 'engines', kind: 'range', label: 'slowdownSpeed', paths: M('slowdownSpeed'),
    min: 0, max: 20, step: 0.5, unit: '%', scale: 100 },
  { id: 'mirror-catchupPositiveThreshold', engine: 'mirror', group: 'engines', kind: 'range', label: 'catchupPositiveThreshold', paths: M('catchupPositiveThreshold'),
    min: 0, max: 5, step: 0.25, unit: '×', scale: 1 },
  { id: 'mirror-catchupNegativeThreshold', engine: 'mirror', group: 'engines', kind: 'range', label: 'catchupNegativeThreshold', paths: M('catchupNegativeThreshold'),
    min: -5, max: 0, step: 0.25, unit: '×', scale: 1,
    hint: 'Both thresholds are in send intervals ("frames" in Mirror) of drift from the buffer time.' },
  { id: 'mirror-driftEmaDuration', engine: 'mirror', group: 'engines', kind: 'range', label: 'driftEmaDuration', paths: M('driftEmaDuration'),
    min: 1, max: 10, step: 1, unit: 's', scale: 1 },
  { id: 'mirror-bufferLimit', engine: 'mirror', group: 'engines', kind: 'range', label: 'bufferLimit', paths: M('bufferLimit'),
    min: 2, max: 64, step: 1, unit: '', scale: 1 },

  { id: 'ngo-ServerBufferSec', engine: 'ngo', group: 'engines', kind: 'range', label: 'ServerBufferSec', paths: N('ServerBufferSec'),
    min: 0, max: 300, step: 5, unit: 'ms', scale: 1000,
    hint: 'Server time = the last time sync (1 per second) − this; render time = server time − 1 tick (TickRate = send rate).' },
  { id: 'ngo-MaximumInterpolationTime', engine: 'ngo', group: 'engines', kind: 'range', label: 'MaximumInterpolationTime', paths: N('MaximumInterpolationTime'),
    min: 1, max: 500, step: 1, unit: 'ms', scale: 1000,
    hint: 'The second lerp: each frame the value moves deltaTime / this of the way to the interpolated target.' },
  { id: 'ngo-HardResetThresholdSec', engine: 'ngo', group: 'engines', kind: 'range', label: 'HardResetThresholdSec', paths: N('HardResetThresholdSec'),
    min: 10, max: 1000, step: 10, unit: 'ms', scale: 1000 },
  { id: 'ngo-AdjustmentRatio', engine: 'ngo', group: 'engines', kind: 'range', label: 'AdjustmentRatio', paths: N('AdjustmentRatio'),
    min: 0, max: 10, step: 0.5, unit: '%', scale: 100 },
  { id: 'ngo-LerpUnclamped', engine: 'ngo', group: 'engines', kind: 'check', label: 'LerpUnclamped', paths: N('LerpUnclamped'),
    hint: 'NGO 1.0 extrapolated up to MaxInterpolationBound intervals (Mathf.LerpUnclamped); later 1.x clamps (off).' },

  { id: 'source-cl_interp', engine: 'source', group: 'engines', kind: 'range', label: 'cl_interp', paths: S('cl_interp'),
    min: 0, max: 500, step: 5, unit: 'ms', scale: 1000,
    hint: 'Lerp = max(cl_interp, cl_interp_ratio / cl_updaterate), rounded to server ticks, + 1 tick.' },
  { id: 'source-cl_interp_ratio', engine: 'source', group: 'engines', kind: 'range', label: 'cl_interp_ratio', paths: S('cl_interp_ratio'),
    min: 1, max: 5, step: 0.5, unit: '', scale: 1 },
  { id: 'source-cl_updaterate', engine: 'source', group: 'engines', kind: 'range', label: 'cl_updaterate', paths: S('cl_updaterate'),
    min: 10, max: 128, step: 1, unit: '/s', scale: 1 },
  { id: 'source-cl_extrapolate', engine: 'source', group: 'engines', kind: 'check', label: 'cl_extrapolate', paths: S('cl_extrapolate') },
  { id: 'source-cl_extrapolate_amount', engine: 'source', group: 'engines', kind: 'range', label: 'cl_extrapolate_amount', paths: S('cl_extrapolate_amount'),
    min: 0, max: 1000, step: 10, unit: 'ms', scale: 1000, enabledWhen: (p) => p.engines.source.cl_extrapolate },

  { id: 'geckos-interpolationBuffer', engine: 'geckos', group: 'engines', kind: 'range', label: 'interpolationBuffer', paths: G('interpolationBuffer'),
    min: 0, max: 500, step: 5, unit: 'ms', scale: 1,
    hint: 'Render time = now − timeOffset (latency included) − this. Outside the vault calcInterpolation returns nothing.' },
  { id: 'geckos-autoCorrectTimeOffset', engine: 'geckos', group: 'engines', kind: 'check', label: 'autoCorrectTimeOffset', paths: G('autoCorrectTimeOffset') },
  { id: 'geckos-vaultSize', engine: 'geckos', group: 'engines', kind: 'range', label: 'vaultSize', paths: G('vaultSize'),
    min: 2, max: 240, step: 1, unit: '', scale: 1 },
];
