// Every control of the rail: where its value lives in the run's parameters, its label, when it is shown.
// A slider's range, step and unit, and a choice's names, are the core's (`SCHEMA`: each parameter as src/ states
// it beside its field); `scale` converts the parameter (seconds, fractions) into what the control shows (ms, %).
// A control's id is its parameter's key unless it says otherwise (an engine's: `mirror-bufferLimit`).
// The URL hash stores control values by id, in display units, so a link reproduces a view.
import { SCHEMA } from '../pkg/params-schema.js';
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

const DECLARED = [
  { id: 'preset', group: 'network', kind: 'preset', label: 'Network preset',
    options: [['custom', 'Custom'], ['lan', 'LAN (30 Hz, render delay 30 ms)'], ['sameRegion', 'Same region (30 Hz, render delay 50 ms)'],
      ['crossRegion', 'Cross region (20 Hz, render delay 100 ms)'], ['mobile', 'Mobile (15 Hz, render delay 150 ms)']],
    hint: 'Seed 004 §5.3: send rate and interpolation delay per network; link conditions are ours.' },
  { id: 'latency', group: 'network', kind: 'range', label: 'Latency', paths: BOTH('latency') },
  { id: 'jitter', group: 'network', kind: 'range', label: 'Jitter', paths: BOTH('jitter') },
  { id: 'jitterModel', group: 'network', kind: 'select', label: 'Jitter distribution', paths: BOTH('jitterModel'),
    options: [['uniform', 'Uniform ± jitter'], ['normal', 'Normal (σ = jitter)'], ['exponential', 'Exponential tail'],
      ['logNormal', 'Log-normal tail (median = jitter)']] },
  // The log-normal tail's shape: shown while that model is chosen (the other models do not read it).
  { id: 'jitterSigma', group: 'network', kind: 'range', label: 'Tail spread (σ of ln)', paths: BOTH('jitterSigma'),
    visibleWhen: (params) => params.network.downlink.jitterModel === 'logNormal' },
  { id: 'loss', group: 'network', kind: 'range', label: 'Packet loss', paths: BOTH('loss') },
  { id: 'lossModel', group: 'network', kind: 'select', label: 'Loss model', paths: BOTH('lossModel'),
    options: [['uniform', 'Uniform'], ['burst', 'Burst (Gilbert–Elliott)']] },
  { group: 'network', kind: 'range', label: 'Send rate', paths: ['scenario.sendRate'] },

  { group: 'remote', kind: 'range', label: 'Render delay (behind server now)', paths: ['remote.clock.renderDelay'],
    hint: 'Counted from the server\'s present, not from the newest snapshot (that one is this minus the latency: seed 000\'s RENDER_DELAY_MS and seed 004\'s interpolation delay). Default 120 ms = 60 ms of latency and jitter + one 50 ms send interval + 10; seed 000\'s 100 ms runs dry here on 8 % of frames.' },
  { id: 'policy', group: 'remote', kind: 'select', label: 'Underrun policy', paths: ['remote.underrun.underrunPolicy'],
    options: [['extrapolate-decay', 'Extrapolate — velocity decay (recommended)'], ['extrapolate-seed', 'Extrapolate — seed 000 formula'],
      ['hold', 'Hold (freeze at the newest snapshot)'], ['snap', 'Snap to newest'], ['hide', 'Hide']],
    hint: 'The decay is the project\'s default: it damps and caps like seed 000 §4.3.5 but never walks back.' },
  { group: 'remote', kind: 'select', label: 'Extrapolation cap', paths: ['remote.underrun.capRule'],
    options: [['maxExtrapolation', 'Max extrapolation (seed 000: 100–200 ms)'], ['halfSendInterval', '½ send interval (seed 004 §3.4)']] },
  { group: 'remote', kind: 'range', label: 'Max extrapolation', paths: ['remote.underrun.maxExtrapolation'],
    enabledWhen: (params) => params.remote.underrun.capRule !== 'halfSendInterval' },
  { group: 'remote', kind: 'select', label: 'Interpolation', paths: ['remote.buffer.interpolation'],
    options: [['linear', 'Linear (the seeds)'], ['hermite', 'Cubic Hermite (uses velocity)']] },
  { group: 'remote', kind: 'select', label: 'Before the oldest snapshot', paths: ['remote.buffer.beforeOldest'],
    options: [['gap', 'Gap, no position (seed 002)'], ['oldest', 'Show the oldest (seed 000 §4.3.4)']] },
  { group: 'remote', kind: 'select', label: 'Clock', paths: ['remote.clock.clock'],
    options: [['known', 'Known offset (ideal)'], ['reanchor', 'Re-anchor on every snapshot (seed 000)'],
      ['smooth', 'Smoothed estimate (seed 004)'], ['timescale', 'Timescale to buffer depth']] },
  { id: 'adaptive', group: 'remote', kind: 'check', label: 'Adaptive delay', paths: ['remote.clock.adaptiveDelay.enabled'] },
  { id: 'adaptiveMode', group: 'remote', kind: 'select', label: 'Adaptive controller', paths: ['remote.clock.adaptiveDelay.mode'],
    options: [['jitter', 'Follows the jitter (project)'], ['seed004', 'RTT above 100 ms (seed 004 §4.2)']],
    visibleWhen: (params) => params.remote.clock.adaptiveDelay.enabled },
  { id: 'adaptiveThreshold', group: 'remote', kind: 'range', label: 'RTT threshold', paths: ['remote.clock.adaptiveDelay.seed004.rttThreshold'], visibleWhen: seed004 },
  { id: 'adaptiveHigh', group: 'remote', kind: 'range', label: 'Delay above it', paths: ['remote.clock.adaptiveDelay.seed004.highDelay'], visibleWhen: seed004 },
  { id: 'adaptiveLow', group: 'remote', kind: 'range', label: 'Delay below it', paths: ['remote.clock.adaptiveDelay.seed004.lowDelay'], visibleWhen: seed004 },
  { id: 'adaptiveGain', group: 'remote', kind: 'range', label: 'Delay lerp per sample', paths: ['remote.clock.adaptiveDelay.seed004.delayGain'], visibleWhen: seed004 },
  { id: 'adaptiveRttGain', group: 'remote', kind: 'range', label: 'RTT lerp per sample', paths: ['remote.clock.adaptiveDelay.seed004.rttGain'], visibleWhen: seed004 },
  { id: 'adaptiveInterval', group: 'remote', kind: 'range', label: 'Sample every', paths: ['remote.clock.adaptiveDelay.seed004.sampleInterval'], visibleWhen: seed004,
    hint: 'Seed 004 §4.2: RTT every 200 ms, lerp 0.1; delay lerp 0.02 towards 150 ms above 100 ms of RTT, else 50 ms.' },

  { group: 'local', kind: 'range', label: 'Half-life', paths: ['local.halfLife'] },
  { group: 'local', kind: 'select', label: 'Correction smoothing', paths: ['local.smoothing'],
    options: [['halfLife', 'Half-life offset (seed 003)'], ['snap', 'Snap (no smoothing)'],
      ['firstVersion', 'First version: lerp 0.1 per frame'], ['linear', 'Linear over smooth time']] },
  { group: 'local', kind: 'check', label: 'Input off the physics step (the bug)', paths: ['local.mismatch'] },

  { group: 'paths', kind: 'range', label: 'Lerp factor', paths: ['paths.lerp.lerpFactor'] },

  { group: 'paths', kind: 'check', label: 'V2 batches (offsetMs)', paths: ['paths.withOffsets'] },
  { id: 'pathSpeed', group: 'paths', kind: 'range', label: 'Path speed', paths: ['paths.player.speed'],
    hint: 'V1 batches only: without offsetMs each segment lasts distance / speed (seed 001).',
    enabledWhen: (params) => !params.paths.withOffsets },
  { group: 'paths', kind: 'range', label: 'Stale gap (snap condition 1)', paths: ['paths.player.staleGap'] },
  { group: 'paths', kind: 'range', label: 'Hard-snap distance (condition 2)', paths: ['paths.player.hardSnapDistance'] },

  { group: 'sim', kind: 'select', label: 'Motion script', paths: ['scenario.motion'],
    options: [['turns', 'Straight runs, sharp turns'], ['circle', 'Circle'], ['stopAndGo', 'Stop and go'], ['respawn', 'Respawn every 4 s']] },
  { group: 'sim', kind: 'range', label: 'Frame rate', paths: ['fps'] },
  { group: 'sim', kind: 'seed', label: 'Seed', paths: ['seed'] },
  ...ENGINE_CONTROLS,
];

/**
 * A declared control completed from the core's schema: its id (the key, unless given), a slider's
 * `min`/`max`/`step`/`unit`/`scale`; a choice's names and a check's kind are held to the core's. A control that
 * names no parameter of the core, or offers other names than it, is left off the rail and its fault kept in
 * `SCHEMA_FAULTS` (the page shows them in the banner), rather than send values the core refuses.
 */
export function stated(spec) {
  if (spec.kind === 'preset') return spec;
  const key = spec.paths[0].split('.').pop();
  const id = spec.id ?? (spec.engine ? `${spec.engine}-${key}` : key);
  const entries = spec.paths.map((path) => SCHEMA[path]);
  const fault = (what) => new Error(`control ${id}: ${what} (pkg/params-schema.js, from the core's parameters)`);
  if (entries.some((entry) => !entry)) throw fault(`no parameter ${spec.paths.filter((p) => !SCHEMA[p]).join(', ')}`);
  const [entry] = entries;
  if (entries.some((other) => JSON.stringify(other) !== JSON.stringify(entry))) throw fault('its parameters differ');
  const out = { ...spec, id, label: spec.label ?? key };
  if (spec.kind === 'range' || spec.kind === 'seed') {
    if (!entry.control) throw fault('the core states no control for it');
    const { min, max, step, unit, scale } = entry.control;
    return Object.assign(out, { min, max, step, unit, scale });
  }
  if (spec.kind === 'select') {
    const names = spec.options.map(([name]) => name);
    if (names.length !== entry.options.length || names.some((name) => !entry.options.includes(name))) {
      throw fault(`offers ${names.join(', ')}; the core's names are ${entry.options.join(', ')}`);
    }
  }
  if (spec.kind === 'check' && entry.kind !== 'flag') throw fault(`a check for a ${entry.kind}`);
  return out;
}

/** Why a declared control is not on the rail (none when params.js and the core agree). */
export const SCHEMA_FAULTS = [];

export const CONTROLS = DECLARED.flatMap((spec) => {
  try {
    return [stated(spec)];
  } catch (fault) {
    SCHEMA_FAULTS.push(fault.message);
    return [];
  }
});

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
  'notice.unknownSettings': ({ count, keys }) => `Ignored ${count} unknown settings: ${keys}.`,
  'notice.more': ({ count }) => `… and ${count} more settings of this link ignored or changed.`,
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
 * (`t`, `lang`, `lesson`, `step`, `stall`, `kick`, `net`, `engines`, `present`, an embed's `fig`, and the recorder's
 * `record`, `rate`, `seconds`, `autostart`: record.js reads them, and only beside `record`) in `extras`.
 */
export function parseHash(hash, t = english) {
  const values = {};
  const notices = [];
  const extras = {};
  const unknown = [];
  const entries = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key, rawValue] of entries) {
    if (['t', 'lang', 'lesson', 'step', 'stall', 'kick', 'net', 'engines', 'present', 'fig', 'record', 'rate', 'seconds', 'autostart'].includes(key)) {
      extras[key] = rawValue;
      continue;
    }
    const spec = byId[key];
    if (!spec || spec.kind === 'preset') {
      if (!unknown.includes(key)) unknown.push(key);
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
  // Unknown keys make one notice however many a link carries: the first few named, the rest counted.
  if (unknown.length === 1) notices.unshift(t('notice.unknownSetting', { key: quoted(unknown[0]) }));
  else if (unknown.length > 1) {
    const named = unknown.slice(0, UNKNOWN_NAMED).map((k) => `“${quoted(k)}”`).join(', ');
    notices.unshift(t('notice.unknownSettings', { count: unknown.length, keys: unknown.length > UNKNOWN_NAMED ? `${named} …` : named }));
  }
  return { values, notices, extras };
}

/** How many unknown keys the summarising notice names. */
const UNKNOWN_NAMED = 3;
/** Notices shown at once; beyond it one line counts the rest. */
export const NOTICES_SHOWN = 8;

/**
 * A link's notices as one text: each said once, at most NOTICES_SHOWN lines, then how many more (a link may carry
 * anything: a long bad hash must not bury the page under notices). `t` words the count.
 */
export function summariseNotices(notices, t = english) {
  const once = [...new Set(notices)];
  if (once.length <= NOTICES_SHOWN) return once.join('\n');
  const rest = once.length - (NOTICES_SHOWN - 1);
  return [...once.slice(0, NOTICES_SHOWN - 1), t('notice.more', { count: rest })].join('\n');
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
