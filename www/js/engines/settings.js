// "Your settings": what to set for the network on screen — simulated, recorded, imported or fitted. Per engine,
// the smallest setting in its own terms that keeps the share of frames run dry at or under a target (a slider,
// 0.1–10 %), sorted by the latency it costs. Each row is a full run at that setting (the core's `tune`,
// src/tune/mod.rs: bisection over the very runs the league table makes), so its underrun is the checked one;
// the step below it is shown over the target, so that the minimality is visible. "Copy" gives the setting in the
// engine's own language: C# for Mirror, NGO and FishNet, console variables for Source, TypeScript for geckos.io and
// for a client of this core, Rust for lightyear, C++ for NetEQ. Computed in the simulation worker after every change, as the league table is.
import { swatch } from './engines-style.js';
import { strategyName, nameLang } from './engines.js';
import { el } from '../dom.js';
import { t, onLangChange, loadPart } from '../strings/i18n.js';

await loadPart('later');

const fixed = (v, digits) => Number(v.toFixed(digits));

/** The row's setting as code a developer of that engine pastes (`row.settings`: the engine's own names). */
export function snippet(row) {
  const s = row.settings;
  switch (row.strategy) {
    case 'mirror': {
      const lines = ['// Mirror: NetworkManager ▸ Snapshot Interpolation (NetworkClient.snapshotSettings)',
        'var settings = NetworkManager.singleton.snapshotSettings;',
        `settings.dynamicAdjustment = ${s.dynamicAdjustment};`];
      if ('bufferTimeMultiplier' in s) lines.push(`settings.bufferTimeMultiplier = ${s.bufferTimeMultiplier}f;`);
      if ('dynamicAdjustmentTolerance' in s) lines.push(`settings.dynamicAdjustmentTolerance = ${s.dynamicAdjustmentTolerance}f;`);
      return lines.join('\n');
    }
    case 'ngo':
      return ['// Unity Netcode for GameObjects 2.x: a static of NetworkTransform, in whole ticks',
        `NetworkTransform.InterpolationBufferTickOffset = ${s.InterpolationBufferTickOffset};`].join('\n');
    case 'ngo-1x':
      return ['// Unity Netcode for GameObjects 1.x: the client\'s time system',
        `NetworkManager.Singleton.NetworkTimeSystem.ServerBufferSec = ${s.ServerBufferSec};`].join('\n');
    case 'source':
      return [`cl_updaterate ${s.cl_updaterate}`, `cl_interp_ratio ${s.cl_interp_ratio}`, `cl_interp ${s.cl_interp}`,
        `// the lerp: max(cl_interp, cl_interp_ratio / cl_updaterate) = ${fixed(1000 * s.cl_interp_ratio / s.cl_updaterate, 1)} ms`].join('\n');
    case 'geckos':
      return ['// geckos.io snapshot-interpolation, on the client',
        `SI.interpolationBuffer.set(${s.interpolationBuffer}) // ms`].join('\n');
    case 'lightyear':
      return ['// lightyear 0.29 (Rust): the client\'s interpolation delay, max(send interval × ratio, min_delay)',
        `InterpolationConfig { min_delay: Duration::from_millis(5), send_interval_ratio: ${s.send_interval_ratio} }`].join('\n');
    case 'fishnet':
      return ['// Fish-Networking: NetworkTransform ▸ Smoothing ▸ Interpolation, in ticks (the inspector\'s field)',
        `interpolation = ${s.interpolation};`].join('\n');
    case 'neteq':
      return ['// WebRTC NetEQ (C++): the delay manager\'s quantile, DelayManager::Config',
        `config.quantile = ${s.quantile};`].join('\n');
    case 'playground':
      return ['// a client of this core (Cocos Creator or any TypeScript): the remote pipeline\'s render delay',
        `playground.setParams({ remote: { clock: { renderDelay: ${s.renderDelay} } } }) // s`].join('\n');
    default:
      return JSON.stringify(s);
  }
}

/** `name=value` of the tuned setting, then those it goes with. */
function settingText(row) {
  const entries = Object.entries(row.settings);
  entries.sort(([a], [b]) => (a === row.setting ? -1 : b === row.setting ? 1 : 0));
  return entries.map(([k, v]) => `${k} = ${v}`).join(', ');
}

const pct = (share) => `${fixed(100 * share, 2)} %`;

/**
 * The panel in #your-settings. `host`: `theme()`, `worker()`, `inDrag()`, `afterDrag(fn)` (as the league table's).
 */
export function mount(host) {
  const root = document.getElementById('your-settings');
  const target = el('input', { type: 'range', id: 'settings-target', min: '0.1', max: '10', step: '0.1', value: '1' });
  const targetOut = el('output', { for: 'settings-target', id: 'settings-target-value' });
  const status = el('p', { class: 'league-status', id: 'settings-status', 'aria-live': 'polite' });
  const table = el('table', { id: 'settings-table', class: 'league-table settings-table' });
  const snippetBox = el('pre', { class: 'settings-snippet', id: 'settings-snippet', hidden: '' });
  root.replaceChildren(
    el('div', { class: 'league-head' }, el('h2', { text: t('settings.title'), 'data-i18n': 'settings.title' }),
      el('label', { class: 'settings-target', for: 'settings-target' },
        el('span', { text: t('settings.target'), 'data-i18n': 'settings.target' }), target, targetOut)),
    el('p', { class: 'league-caption', text: t('settings.caption'), 'data-i18n': 'settings.caption' }),
    el('div', { class: 'league-scroll' }, table), snippetBox, status);

  const state = { result: null, pending: false, error: null, key: null, version: 0 };
  let model = null;

  const targetShare = () => Number(target.value) / 100;
  function showTarget() {
    targetOut.textContent = `${Number(target.value).toFixed(1)} %`;
  }

  /** The state and its sentence only: what a change costs while its answer is computed (a drag re-lays no table). */
  function renderStatus() {
    const shown = state.error ? 'error' : state.pending ? 'pending' : state.result ? 'ready' : 'waiting';
    if (root.dataset.state !== shown) root.dataset.state = shown;
    if (root.getAttribute('aria-busy') !== String(state.pending)) root.setAttribute('aria-busy', String(state.pending));
    if (state.error) {
      // A run too short to judge the target is said in the reader's language; any other refusal quotes the core.
      const short = /(\d+) frames are too few .* at least (\d+) are needed/.exec(state.error);
      status.replaceChildren(...(short
        ? [t('settings.tooShort', { frames: short[1], needed: short[2] })]
        : [t('settings.failed'), el('code', { lang: 'en', text: state.error })]));
    } else {
      const text = state.pending ? t('league.updating') : state.result ? t('settings.done', { network: networkName(state.result.network) }) : t('league.waiting');
      if (status.textContent !== text) status.textContent = text;
    }
  }

  function render() {
    renderStatus();
    const theme = host.theme() ?? { dark: false, paper: '#fff' };
    const head = el('tr', {}, ...['engine', 'setting', 'checked', 'latency', 'rms', 'lower', 'copy']
      .map((k) => el('th', { scope: 'col', text: t(`settings.col.${k}`), 'data-i18n': `settings.col.${k}` })));
    const rows = [...(state.result?.rows ?? [])].sort((a, b) => a.latencyMs - b.latencyMs).map((row) => {
      const copy = el('button', { type: 'button', class: 'settings-copy', text: t('settings.copy'), 'data-i18n': 'settings.copy' });
      copy.addEventListener('click', () => copySnippet(row));
      const lower = row.nextLower
        ? [el('code', { text: `${row.setting} = ${row.nextLower.settings[row.setting]}` }), row.nextLower.shown < 0.5
          ? t('settings.lowerNothing', { shown: pct(row.nextLower.shown) })
          : t('settings.lower', { underrun: pct(row.nextLower.underrun) })]
        : [row.met ? t('settings.lowest') : t('settings.notMet')];
      return el('tr', { 'data-strategy': row.strategy, 'data-setting': row.setting, 'data-met': String(row.met),
        'data-underrun': String(row.underrun) },
      el('th', { scope: 'row' }, swatch(row.strategy, theme, 14), el('span', { lang: nameLang(row.strategy), text: strategyName(row.strategy) })),
      el('td', { class: 'settings-setting' }, el('code', { text: settingText(row) })),
      el('td', { text: row.met ? t('settings.checked', { underrun: pct(row.underrun) }) : t('settings.best', { underrun: pct(row.underrun) }) }),
      el('td', { text: `${Math.round(row.latencyMs)}` }),
      el('td', { text: row.rms.toFixed(2) }),
      el('td', { class: 'settings-lower' }, ...lower),
      el('td', {}, copy));
    });
    const skipped = (state.result?.skipped ?? []).map((s) => el('tr', { 'data-strategy': s.strategy, 'data-skipped': 'true' },
      el('th', { scope: 'row' }, swatch(s.strategy, theme, 14), el('span', { lang: nameLang(s.strategy), text: strategyName(s.strategy) })),
      el('td', { colspan: '6', text: t('settings.skipped', { setting: s.setting }) })));
    table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows, ...skipped));
  }

  function networkName(network) {
    return network === 'trace' ? t('league.network.trace') : t('league.network.custom');
  }

  async function copySnippet(row) {
    const text = snippet(row);
    snippetBox.hidden = false;
    snippetBox.textContent = text;
    snippetBox.dataset.strategy = row.strategy;
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t('settings.copied');
    } catch {
      status.textContent = t('settings.copyByHand');
    }
  }

  let deferred = null;
  /** After every run, and when the target moves: the worker's answer for the network on screen. */
  function refresh(m = model) {
    model = m;
    if (!model) return;
    deferred?.();
    deferred = null;
    const params = model.params;
    const trace = model.imported ? model.importBytes : null;
    const share = targetShare();
    const key = `${share}|${trace ? `trace|${model.runId}|${JSON.stringify(params.engines)}` : JSON.stringify(params)}`;
    if (key === state.key) return;
    state.key = key;
    state.pending = true;
    renderStatus(); // the old rows stay, marked as updating, until the new answer lands
    const ask = () => host.worker().request('tune', 'tune', { params, target: share, bytes: trace }).then((result) => {
      if (result === undefined || key !== state.key) return;
      state.result = result;
      state.error = null;
      state.pending = false;
      state.version += 1;
      render();
    }, (error) => {
      if (key !== state.key) return;
      state.error = error?.message ?? String(error);
      state.result = null;
      state.pending = false;
      render();
    });
    if (host.inDrag()) deferred = host.afterDrag(() => { deferred = null; ask(); });
    else ask();
  }

  target.addEventListener('input', () => {
    showTarget();
    refresh();
  });
  showTarget();
  render();
  onLangChange(() => render());
  return { refresh, get state() { return state; } };
}
