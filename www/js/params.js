// Every control of the rail: where its value lives in the run's parameters, its range, unit and label.
// `scale` converts the parameter (seconds, fractions) into what the control shows (ms, %).
// The URL hash stores control values by id, in display units, so a link reproduces a view.

export const GROUPS = [
  { id: 'network', label: 'Network' },
  { id: 'remote', label: 'Remote smoothing' },
  { id: 'local', label: 'Prediction' },
  { id: 'paths', label: 'Path playback' },
  { id: 'sim', label: 'Simulation' },
];

const BOTH = (field) => [`network.downlink.${field}`, `network.uplink.${field}`];

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
    options: [['hold', 'Hold (freeze last shown)'], ['extrapolate-seed', 'Extrapolate — seed 000 formula'],
      ['extrapolate-decay', 'Extrapolate — velocity decay'], ['snap', 'Snap to newest'], ['hide', 'Hide']] },
  { id: 'maxExtrapolation', group: 'remote', kind: 'range', label: 'Max extrapolation', paths: ['remote.underrun.maxExtrapolation'], min: 0, max: 400, step: 5, unit: 'ms', scale: 1000 },
  { id: 'interpolation', group: 'remote', kind: 'select', label: 'Interpolation', paths: ['remote.buffer.interpolation'],
    options: [['linear', 'Linear (the seeds)'], ['hermite', 'Cubic Hermite (uses velocity)']] },
  { id: 'clock', group: 'remote', kind: 'select', label: 'Clock', paths: ['remote.clock.clock'],
    options: [['known', 'Known offset (ideal)'], ['reanchor', 'Re-anchor on every snapshot (seed 000)'],
      ['smooth', 'Smoothed estimate (seed 004)'], ['timescale', 'Timescale to buffer depth']] },
  { id: 'adaptive', group: 'remote', kind: 'check', label: 'Adaptive delay', paths: ['remote.clock.adaptiveDelay.enabled'] },

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

  { id: 'motion', group: 'sim', kind: 'select', label: 'Motion script', paths: ['scenario.motion'],
    options: [['turns', 'Straight runs, sharp turns'], ['circle', 'Circle'], ['stopAndGo', 'Stop and go'], ['respawn', 'Respawn every 4 s']] },
  { id: 'fps', group: 'sim', kind: 'range', label: 'Frame rate', paths: ['fps'], min: 10, max: 240, step: 1, unit: 'fps', scale: 1 },
  { id: 'seed', group: 'sim', kind: 'seed', label: 'Seed', paths: ['seed'], min: 0, max: 2 ** 32 - 1 },
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

/** English notices, for callers without a translator (`t(key, vars)` from i18n.js words them in either language). */
const ENGLISH = {
  'notice.unknownSetting': ({ key }) => `Ignored unknown setting “${key}”.`,
  'notice.badOption': ({ label, value, options }) => `Ignored ${label} “${value}”: not one of ${options}.`,
  'notice.badCheck': ({ label, value }) => `Ignored ${label} “${value}”: use 1 or 0.`,
  'notice.notNumber': ({ label, value }) => `Ignored ${label} “${value}”: not a number.`,
  'notice.clamped': ({ label, value, min, max, unit, used }) => `${label} ${value} is outside ${min}–${max}${unit}; using ${used}.`,
};
const english = (key, vars) => (ENGLISH[key] ? ENGLISH[key](vars) : (CONTROLS.find((c) => `control.${c.id}` === key)?.label ?? key));

/**
 * Reads control values from a URL hash. Returns `{values, notices, extras}`: values clamped into range,
 * every ignored or clamped entry explained in `notices` (worded by `t`, English by default), non-control keys
 * (`t`, `lang`, `lesson`, `step`, `stall`, `kick`) in `extras`.
 */
export function parseHash(hash, t = english) {
  const values = {};
  const notices = [];
  const extras = {};
  const entries = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, rawValue] of entries) {
    if (['t', 'lang', 'lesson', 'step', 'stall', 'kick'].includes(key)) {
      extras[key] = rawValue;
      continue;
    }
    const spec = byId[key];
    if (!spec || spec.kind === 'preset') {
      notices.push(t('notice.unknownSetting', { key }));
      continue;
    }
    const label = t(`control.${spec.id}`);
    if (spec.kind === 'select') {
      if (spec.options.some(([v]) => v === rawValue)) values[key] = rawValue;
      else notices.push(t('notice.badOption', { label, value: rawValue, options: spec.options.map(([v]) => v).join(', ') }));
      continue;
    }
    if (spec.kind === 'check') {
      if (['1', 'true', '0', 'false'].includes(rawValue)) values[key] = rawValue === '1' || rawValue === 'true';
      else notices.push(t('notice.badCheck', { label, value: rawValue }));
      continue;
    }
    const n = Number(rawValue);
    if (rawValue.trim() === '' || !Number.isFinite(n)) {
      notices.push(t('notice.notNumber', { label, value: rawValue }));
      continue;
    }
    const clamped = Math.min(spec.max, Math.max(spec.min, spec.kind === 'seed' ? Math.round(n) : n));
    if (clamped !== n) notices.push(t('notice.clamped', { label, value: rawValue, min: spec.min, max: spec.max, unit: spec.unit ? ` ${spec.unit}` : '', used: clamped }));
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
