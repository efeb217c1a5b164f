// The engines' parameters as rail controls (group "Engines"): labelled with each engine's own name for the
// setting (Mirror's `bufferTimeMultiplier`, NGO's `InterpolationBufferTickOffset`, Source's `cl_interp`, geckos.io's
// `interpolationBuffer`, lightyear's `send_interval_ratio`, FishNet's `interpolation`, NetEQ's `quantile`), defaults
// from the engine's source (src/engines/*.rs says where), kept in the URL like
// any control. `engine` names the engine a control belongs to (the rail gives each engine a sub-heading); a
// control's id is `engine-key` and its label the key (params.js), its range, step and unit the core's.
// Gambetta's demo and the articles' references have no settings of their own here.

const M = (field) => [`engines.mirror.${field}`];
const N = (field) => [`engines.ngo.${field}`];
const N1 = (field) => [`engines.ngo1x.${field}`];
const S = (field) => [`engines.source.${field}`];
const G = (field) => [`engines.geckos.${field}`];
const LY = (field) => [`engines.lightyear.${field}`];
const F = (field) => [`engines.fishnet.${field}`];
const Q = (field) => [`engines.neteq.${field}`];

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
  { engine: 'mirror', group: 'engines', kind: 'check', paths: M('timelineOffset'),
    hint: 'The NetworkTransform keys each update one send interval after it was sent: one interval more latency (mirror only).' },
  { engine: 'mirror', group: 'engines', kind: 'check', paths: M('onlySyncOnChange'),
    hint: 'On: an update more than bufferResetMultiplier send intervals after the newest key clears the entity\'s buffer (mirror only).' },
  { engine: 'mirror', group: 'engines', kind: 'range', paths: M('bufferResetMultiplier'), enabledWhen: (p) => p.engines.mirror.onlySyncOnChange },

  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('InterpolationBufferTickOffset'),
    hint: 'Render time = LocalTime − (1 + this) ticks. LocalTime runs ½ RTT + 1 tick ahead of the last time sync, so at 0 (the default) the render time is past the newest state: NGO 2.x holds it (t = 1) and only the second lerp smooths. More ticks than the one-way delay bring it back between states.' },
  { engine: 'ngo', group: 'engines', kind: 'check', paths: N('PositionLerpSmoothing'),
    hint: 'The second lerp (on by default): each frame the drawn value moves deltaTime / PositionMaxInterpolationTime of the way to the first lerp\'s value.' },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('PositionMaxInterpolationTime'), enabledWhen: (p) => p.engines.ngo.PositionLerpSmoothing },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('ServerBufferSec'),
    hint: 'Server time = the last time sync − this. NGO 2.x renders on LocalTime, so this only moves the spawn and the clock\'s hard resets.' },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('HardResetThresholdSec') },
  { engine: 'ngo', group: 'engines', kind: 'range', paths: N('AdjustmentRatio') },

  { engine: 'ngo-1x', group: 'engines', kind: 'range', paths: N1('ServerBufferSec'),
    hint: 'Server time = the last time sync (1 per second) − this; render time = server time − 1 tick (TickRate = send rate).' },
  { engine: 'ngo-1x', group: 'engines', kind: 'range', paths: N1('MaximumInterpolationTime'),
    hint: 'The second lerp: each frame the value moves deltaTime / this of the way to the interpolated target.' },
  { engine: 'ngo-1x', group: 'engines', kind: 'range', paths: N1('HardResetThresholdSec') },
  { engine: 'ngo-1x', group: 'engines', kind: 'range', paths: N1('AdjustmentRatio') },
  { engine: 'ngo-1x', group: 'engines', kind: 'check', paths: N1('LerpUnclamped'),
    hint: 'NGO 1.0 extrapolated up to MaxInterpolationBound intervals (Mathf.LerpUnclamped); later 1.x clamps (off).' },

  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_interp'),
    hint: 'Lerp = max(cl_interp, cl_interp_ratio / cl_updaterate), rounded to server ticks, + 1 tick.' },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_interp_ratio') },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_updaterate') },
  { engine: 'source', group: 'engines', kind: 'check', paths: S('cl_extrapolate') },
  { engine: 'source', group: 'engines', kind: 'range', paths: S('cl_extrapolate_amount'), enabledWhen: (p) => p.engines.source.cl_extrapolate },

  { engine: 'geckos', group: 'engines', kind: 'check', paths: G('withServerFps'),
    hint: 'The README\'s client, new SnapshotInterpolation(serverFPS) at the stream\'s send rate: interpolationBuffer = (1000 / serverFPS) * 3, three frames (150 ms at 20 Hz). Off: the interpolationBuffer below.' },
  { engine: 'geckos', group: 'engines', kind: 'range', paths: G('interpolationBuffer'), enabledWhen: (p) => !p.engines.geckos.withServerFps,
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

  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('quantile'),
    hint: 'Target delay = the delay this share of packets (relative to the fastest of the last 2 s) arrives within, in 20 ms buckets.' },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('forgetFactor'),
    hint: 'Each half-second sample keeps this much of the histogram: a jitter spike is forgotten over about 1 / (1 − this) samples.' },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('startForgetWeight') },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('resampleIntervalMs') },
  { engine: 'neteq', group: 'engines', kind: 'check', paths: Q('useReorderOptimizer') },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('reorderForgetFactor'), enabledWhen: (p) => p.engines.neteq.useReorderOptimizer },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('msPerLossPercent'), enabledWhen: (p) => p.engines.neteq.useReorderOptimizer },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('minDelayMs') },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('maxDelayMs') },
  { engine: 'neteq', group: 'engines', kind: 'range', paths: Q('maxPacketsInBuffer') },
];
