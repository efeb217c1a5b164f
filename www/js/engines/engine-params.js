// The engines' parameters as rail controls (group "Engines"): labelled with each engine's own name for the
// setting (Mirror's `bufferTimeMultiplier`, NGO's `ServerBufferSec`, Source's `cl_interp`, geckos.io's
// `interpolationBuffer`, lightyear's `send_interval_ratio`, FishNet's `interpolation`), defaults from the engine's source (src/engines/*.rs says where), kept in the URL like
// any control. `engine` names the engine a control belongs to (the rail gives each engine a sub-heading); a
// control's id is `engine-key` and its label the key (params.js), its range, step and unit the core's.
// Gambetta's demo and the articles' references have no settings of their own here.

const M = (field) => [`engines.mirror.${field}`];
const N = (field) => [`engines.ngo.${field}`];
const S = (field) => [`engines.source.${field}`];
const G = (field) => [`engines.geckos.${field}`];
const LY = (field) => [`engines.lightyear.${field}`];
const F = (field) => [`engines.fishnet.${field}`];

export const ENGINE_CONTROLS = [
  { engine: 'mirror', group: 'engines', kind: 'check', paths: M('dynamicAdjustment'),
    hint: 'On: bufferTimeMultiplier = (sendInterval + jitter σ) / sendInterval + dynamicAdjustmentTolerance, after every snapshot.' },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('bufferTimeMultiplier'), enabledWhen: (p) => !p.engines.mirror.dynamicAdjustment,
    hint: 'Buffer time = send interval × this (Mirror: "around 2"). Used when dynamicAdjustment is off.' },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('dynamicAdjustmentTolerance'), enabledWhen: (p) => p.engines.mirror.dynamicAdjustment },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('deliveryTimeEmaDuration'), enabledWhen: (p) => p.engines.mirror.dynamicAdjustment },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('catchupSpeed') },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('slowdownSpeed') },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('catchupPositiveThreshold') },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('catchupNegativeThreshold'),
    hint: 'Both thresholds are in send intervals ("frames" in Mirror) of drift from the buffer time.' },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('driftEmaDuration') },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('bufferLimit') },

  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('ServerBufferSec'),
    hint: 'Server time = the last time sync (1 per second) − this; render time = server time − 1 tick (TickRate = send rate).' },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('MaximumInterpolationTime'),
    hint: 'The second lerp: each frame the value moves deltaTime / this of the way to the interpolated target.' },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('HardResetThresholdSec') },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('AdjustmentRatio') },
  { engine: 'ngo', group: 'engines', kind: 'check', paths: N('LerpUnclamped'),
    hint: 'NGO 1.0 extrapolated up to MaxInterpolationBound intervals (Mathf.LerpUnclamped); later 1.x clamps (off).' },

  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_interp'),
    hint: 'Lerp = max(cl_interp, cl_interp_ratio / cl_updaterate), rounded to server ticks, + 1 tick.' },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_interp_ratio') },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_updaterate') },
  { engine: 'source', group: 'engines', kind: 'check', paths: S('cl_extrapolate') },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_extrapolate_amount'), enabledWhen: (p) => p.engines.source.cl_extrapolate },

  { engine: 'geckos', group: 'engines', kind: 'range', paths: G('interpolationBuffer'),
    hint: 'Render time = now − timeOffset (latency included) − this. Outside the vault calcInterpolation returns nothing.' },
  { engine: 'geckos', group: 'engines', kind: 'check', paths: G('autoCorrectTimeOffset') },
  { engine: 'geckos', group: 'engines', kind: 'range', paths: G('vaultSize') },

  { engine: 'lightyear', group: 'engines', kind: 'range', paths: LY('send_interval_ratio'),
    hint: 'Render time = the estimated server time − max(send interval × this, min_delay) − (4 × jitter + 1 tick); past the newest state it holds it.' },
  { engine: 'lightyear', group: 'engines', kind: 'range', paths: LY('min_delay'),
    hint: 'The delay is at least this (5 ms); it governs when the server replicates every tick, the library default.' },

  { engine: 'fishnet', group: 'engines', kind: 'range', paths: F('interpolation'),
    hint: 'NetworkTransform starts moving once this many goals (packets) are queued, each at its own packet\'s rate; more than this + 3 queued drops the oldest and snaps. It never extrapolates.' },
  { engine: 'fishnet', group: 'engines', kind: 'check', paths: F('enableTeleport') },
  { engine: 'fishnet', group: 'engines', kind: 'range', paths: F('teleportThreshold'), enabledWhen: (p) => p.engines.fishnet.enableTeleport },
];
