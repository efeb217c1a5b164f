// Every control of the rail: where its value lives in the run's parameters, its range, unit and label.
// `scale` converts the parameter (seconds, fractions) into what the control shows (ms, %).
// The URL hash stores control values by id, in display units, so a link reproduces a view.
import { ENGINE_CONTROLS } from './engines/engine-params.js';

export const GROUPS = [
  { id: 'network', label: 'Network' },
  { id: 'remote', label: 'Remote smoothing' },
  { id: 'local', label: 'Prediction' },
  { id: 'paths', label: 'Path playback' },
  { id: 'sim', label: 'Simulation' },
  { id: 'engines', label: 'Engines', collapsed: true },
];

const BOTH = (field) => [`network.downlink.${field}`, `network.uplink.${field}`];
/** Seed 004's controller knobs show only while that controller is on. */
const seed004 = (params) => params.remote.clock.adaptiveDelay.enabled && params.remote.clock.adaptiveDelay.mode === 'seed004';

export const CONTROLS = [
  { id: 'preset', group: 'network', kind: 'preset', label: 'Network preset',
    options: [['custom', 'Custom'], ['lan', 'LAN (30 Hz, 30 ms)'], ['sameRegion', 'Same region (30 Hz, 50 ms)'],
      ['crossRegion', 'Cross region (20 Hz, 100 ms)'], ['mobile', 'Mobile (15 Hz, 150 ms)']],
    hint: 'Seed 004 §5.3: send rate and interpolation delay per network; link conditions are ours.' },
  { id: 'latency', group: 'network', kind: 'range', label: 'Latency', paths: BOTH('latency'), min: 0, max: 400, step: 5, unit: 'ms', scale: 1000 },
  { id: 'jitter', group: 'network', kind: 'range', label: 'Jitter', paths: BOTH('jitter'), min: 0, max: 150, step: 1, unit: 'ms', scale: 1000 },
  { id: 'jitterModel', group: 'network', kind: 'select', label: 'Jitter distribution', paths: BOTH('jitterModel'),
    options: [['uniform', 'Uniform ± jitter'], ['normal', 'Normal (σ = jitter)'], ['exponential', 'Exponential tail']] },
  { id: 'loss', group: 'network', kind: 'range', label: 'Packet loss', paths: BOTH('loss'), min: 0, max: 50, step: 0.5, unit: '%', scale: 100 },
  { id: 'lossModel', group: 'network', kind: 'select', label: 'Loss model', paths: BOTH('lossModel'),
    options: [['uniform', 'Uniform'], ['burst', 'Burst (Gilbert–Elliott)']] },
  { id: 'sendRate', group: 'network', kind: 'range', label: 'Send rate', paths: ['scenario.sendRate'], min: 5, max: 60, step: 1, unit: 'Hz', scale: 1 },

  { id: 'renderDelay', group: 'remote', kind: 'range', label: 'Render delay', paths: ['remote.clock.renderDelay'], min: 0, max: 400, step: 5, unit: 'ms', scale: 1000 },
  { id: 'policy', group: 'remote', kind: 'select', label: 'Underrun policy', paths: ['remote.underrun.underrunPolicy'],
    options: [['extrapolate-decay', 'Extrapolate — velocity decay (recommended)'], ['extrapolate-seed', 'Extrapolate — seed 000 formula'],
      ['hold', 'Hold (freeze at the newest snapshot)'], ['snap', 'Snap to newest'], ['hide', 'Hide']],
    hint: 'The decay is the project\'s default: it damps and caps like seed 000 §4.3.5 but never walks back.' },
  { id: 'capRule', group: 'remote', kind: 'select', label: 'Extrapolation cap', paths: ['remote.underrun.capRule'],
    options: [['maxExtrapolation', 'Max extrapolation (seed 000: 100–200 ms)'], ['halfSendInterval', '½ send interval (seed 004 §3.4)']] },
  { id: 'maxExtrapolation', group: 'remote', kind: 'range', label: 'Max extrapolation', paths: ['remote.underrun.maxExtrapolation'], min: 0, max: 400, step: 5, unit: 'ms', scale: 1000,
    enabledWhen: (params) => params.remote.underrun.capRule !== 'halfSendInterval' },
  { id: 'interpolation', group: 'remote', kind: 'select', label: 'Interpolation', paths: ['remote.buffer.interpolation'],
    options: [['linear', 'Linear (the seeds)'], ['hermite', 'Cubic Hermite (uses velocity)']] },
  { id: 'beforeOldest', group: 'remote', kind: 'select', label: 'Before the oldest snapshot', paths: ['remote.buffer.beforeOldest'],
    options: [['gap', 'Gap, no position (seed 002)'], ['oldest', 'Show the oldest (seed 000 §4.3.4)']] },
  { id: 'clock', group: 'remote', kind: 'select', label: 'Clock', paths: ['remote.clock.clock'],
    options: [['known', 'Known offset (ideal)'], ['reanchor', 'Re-anchor on every snapshot (seed 000)'],
      ['smooth', 'Smoothed estimate (seed 004)'], ['timescale', 'Timescale to buffer depth']] },
  { id: 'adaptive', group: 'remote', kind: 'check', label: 'Adaptive delay', paths: ['remote.clock.adaptiveDelay.enabled'] },
  { id: 'adaptiveMode', group: 'remote', kind: 'select', label: 'Adaptive controller', paths: ['remote.clock.adaptiveDelay.mode'],
    options: [['jitter', 'Follows the jitter (project)'], ['seed004', 'RTT above 100 ms (seed 004 §4.2)']],
    visibleWhen: (params) => params.remote.clock.adaptiveDelay.enabled },
  { id: 'adaptiveThreshold', group: 'remote', kind: 'range', label: 'RTT threshold', paths: ['remote.clock.adaptiveDelay.seed004.rttThreshold'], min: 0, max: 400, step: 5, unit: 'ms', scale: 1000, visibleWhen: seed004 },
  { id: 'adaptiveHigh', group: 'remote', kind: 'range', label: 'Delay above it', paths: ['remote.clock.adaptiveDelay.seed004.highDelay'], min: 0, max: 500, step: 5, unit: 'ms', scale: 1000, visibleWhen: seed004 },
  { id: 'adaptiveLow', group: 'remote', kind: 'range', label: 'Delay below it', paths: ['remote.clock.adaptiveDelay.seed004.lowDelay'], min: 0, max: 500, step: 5, unit: 'ms', scale: 1000, visibleWhen: seed004 },
  { id: 'adaptiveGain', group: 'remote', kind: 'range', label: 'Delay lerp per sample', paths: ['remote.clock.adaptiveDelay.seed004.delayGain'], min: 0.005, max: 0.2, step: 0.005, unit: '/sample', scale: 1, visibleWhen: seed004 },
  { id: 'adaptiveRttGain', group: 'remote', kind: 'range', label: 'RTT lerp per sample', paths: ['remote.clock.adaptiveDelay.seed004.rttGain'], min: 0.01, max: 1, step: 0.01, unit: '/sample', scale: 1, visibleWhen: seed004 },
  { id: 'adaptiveInterval', group: 'remote', kind: 'range', label: 'Sample every', paths: ['remote.clock.adaptiveDelay.seed004.sampleInterval'], min: 50, max: 1000, step: 10, unit: 'ms', scale: 1000, visibleWhen: seed004,
    hint: 'Seed 004 §4.2: RTT every 200 ms, lerp 0.1; delay lerp 0.02 towards 150 ms above 100 ms of RTT, else 50 ms.' },

  { id: 'halfLife', group: 'local', kind: 'range', label: 'Half-life', paths: ['local.halfLife'], min: 5, max: 500, step: 5, unit: 'ms', scale: 1000 },
  { id: 'smoothing', group: 'local', kind: 'select', label: 'Correction smoothing', paths: ['local.smoothing'],
    options: [['halfLife', 'Half-life offset (seed 003)'], ['snap', 'Snap (no smoothing)'],
      ['firstVersion', 'First version: lerp 0.1 per frame'], ['linear', 'Linear over smooth time']] },
  { id: 'mismatch', group: 'local', kind: 'check', label: 'Input off the physics step (the bug)', paths: ['local.mismatch'] },

  { id: 'lerpFactor', group: 'paths', kind: 'range', label: 'Lerp factor', paths: ['paths.lerp.lerpFactor'], min: 0.01, max: 1, step: 0.01, unit: '/frame', scale: 1 },

  { id: 'withOffsets', group: 'paths', kind: 'check', label: 'V2 batches (offsetMs)', paths: ['paths.withOffsets'] },
  { id: 'pathSpeed', group: 'paths', kind: 'range', label: 'Path speed', paths: ['paths.player.speed'], min: 30, max: 300, step: 5, unit: 'px/s', scale: 1,
    hint: 'V1 batches only: without offsetMs each segment lasts distance / speed (seed 001).',
    enabledWhen: (params) => !params.paths.withOffsets },
  { id: 'staleGap', group: 'paths', kind: 'range', label: 'Stale gap (snap condition 1)', paths: ['paths.player.staleGap'], min: 0, max: 3000, step: 50, unit: 'ms', scale: 1000 },
  { id: 'hardSnapDistance', group: 'paths', kind: 'range', label: 'Hard-snap distance (condition 2)', paths: ['paths.player.hardSnapDistance'], min: 0, max: 400, step: 5, unit: 'px', scale: 1 },

  { id: 'motion', group: 'sim', kind: 'select', label: 'Motion script', paths: ['scenario.motion'],
    options: [['turns', 'Straight runs, sharp turns'], ['circle', 'Circle'], ['stopAndGo', 'Stop and go'], ['respawn', 'Respawn every 4 s']] },
  { id: 'fps', group: 'sim', kind: 'range', label: 'Frame rate', paths: ['fps'], min: 10, max: 240, step: 1, unit: 'fps', scale: 1 },
  { id: 'seed', group: 'sim', kind: 'seed', label: 'Seed', paths: ['seed'], min: 0, max: 2 ** 32 - 1 },
  ...ENGINE_CONTROLS,
];

export const byId = Object.fromEntries(CONTROLS.map((c) => [c.id, c]));

/** Rounds a display value to the control's step (avoids 150.00000000000003 ms). */
export function roundToStep(spec, value) {
  if (!spec.step) return value;
  const digits = Math.max(0, -Math.floor(Math.log10(spec.step)) + 1);
  return Number((Math.round(value / spec.step) * spec.step).toFixed(digits));
}

/** What the control shows for `params`. */
export function displayValue(spec, params, getPath) {
  const raw = getPath(params, spec.paths[0]);
  if (spec.kind === 'range') return roundToStep(spec, raw * spec.scale);
  return raw;
}

/** `params` with the control's display `value` written into every path it controls. */
export function applyValue(spec, params, value, setPath) {
  let out = params;
  const raw = spec.kind === 'range' ? value / spec.scale : value;
  for (const path of spec.paths) out = setPath(out, path, raw);
  return out;
}

/** The extrapolation cap in force (s): `maxExtrapolation`, or half of `sendInterval` under seed 004's rule. */
export function capInForce(params, sendInterval) {
  return params.remote.underrun.capRule === 'halfSendInterval' ? sendInterval / 2 : params.remote.underrun.maxExtrapolation;
}

/** English notices, for callers without a translator (`t(key, vars)` from i18n.js words them in either language). */
const ENGLISH = {
  'notice.unknownSetting': ({ key }) => `Ignored unknown setting “${key}”.`,
  'notice.badOption': ({ label, value, options }) => `Ignored ${label} “${value}”: not one of ${options}.`,
  'notice.badCheck': ({ label, value }) => `Ignored ${label} “${value}”: use 1 or 0.`,
  'notice.notNumber': ({ label, value }) => `Ignored ${label} “${value}”: not a number.`,
  'notice.clamped': ({ label, value, min, max, unit, used }) => `${label} ${value} is outside ${min}–${max}${unit}; using ${used}.`,
  'notice.rounded': ({ label, value, used }) => `${label} ${value} is not a whole number; using ${used}.`,
};

/** A value from the URL as a notice quotes it: at most 40 characters (a link may carry anything). */
export function quoted(value) {
  const chars = [...String(value)];
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
}
const english = (key, vars) => (ENGLISH[key] ? ENGLISH[key](vars) : (CONTROLS.find((c) => `control.${c.id}` === key)?.label ?? key));

/**
 * Reads control values from a URL hash. Returns `{values, notices, extras}`: values clamped into range,
 * every ignored or clamped entry explained in `notices` (worded by `t`, English by default), non-control keys
 * (`t`, `lang`, `lesson`, `step`, `stall`, `kick`, `net`, `engines`, `present`, and an embed's `fig`) in `extras`.
 */
export function parseHash(hash, t = english) {
  const values = {};
  const notices = [];
  const extras = {};
  const entries = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, rawValue] of entries) {
    if (['t', 'lang', 'lesson', 'step', 'stall', 'kick', 'net', 'engines', 'present', 'fig'].includes(key)) {
      extras[key] = rawValue;
      continue;
    }
    const spec = byId[key];
    if (!spec || spec.kind === 'preset') {
      notices.push(t('notice.unknownSetting', { key: quoted(key) }));
      continue;
    }
    const value = quoted(rawValue);
    const label = t(`control.${spec.id}`);
    if (spec.kind === 'select') {
      if (spec.options.some(([v]) => v === rawValue)) values[key] = rawValue;
      else notices.push(t('notice.badOption', { label, value, options: spec.options.map(([v]) => v).join(', ') }));
      continue;
    }
    if (spec.kind === 'check') {
      if (['1', 'true', '0', 'false'].includes(rawValue)) values[key] = rawValue === '1' || rawValue === 'true';
      else notices.push(t('notice.badCheck', { label, value }));
      continue;
    }
    const n = Number(rawValue);
    if (rawValue.trim() === '' || !Number.isFinite(n)) {
      notices.push(t('notice.notNumber', { label, value }));
      continue;
    }
    const whole = spec.kind === 'seed' ? Math.round(n) : n;
    const clamped = Math.min(spec.max, Math.max(spec.min, whole));
    if (clamped !== whole) notices.push(t('notice.clamped', { label, value, min: spec.min, max: spec.max, unit: spec.unit ? ` ${spec.unit}` : '', used: clamped }));
    else if (whole !== n) notices.push(t('notice.rounded', { label, value, used: whole }));
    values[key] = clamped;
  }
  return { values, notices, extras };
}

/** The hash for the controls whose value differs from the defaults, plus `extras`. */
export function formatHash(params, defaults, getPath, extras = {}) {
  const out = new URLSearchParams();
  for (const spec of CONTROLS) {
    if (spec.kind === 'preset') continue;
    const value = displayValue(spec, params, getPath);
    if (value !== displayValue(spec, defaults, getPath)) out.set(spec.id, spec.kind === 'check' ? (value ? '1' : '0') : String(value));
  }
  for (const [k, v] of Object.entries(extras)) if (v !== undefined && v !== null && v !== '') out.set(k, String(v));
  return out.toString();
}
