// The league table: every strategy — the engines and the articles' references — on every network
// preset of seed 004 §5.3 and on the current (custom) network, scored against the truth with the page's own
// quality metrics; on a recorded or imported trace, every strategy on that trace's deliveries (one column,
// `netcode-lab compare --trace`'s table). One metric at a time (the buttons above the table choose it); in each network's column the
// lowest value is best, marked ★ and bold (never colour alone). It is recomputed after every change, in the
// simulation worker (sim-worker.js): the main thread only fills the table; while a newer table is being
// computed the old numbers stay, marked as updating; a result overtaken by a newer change is dropped.
import { STRATEGY_NAMES, swatch } from './engines-style.js';
import { strategyName, nameLang } from './engines.js';
import { el } from '../dom.js';
import { t, onLangChange, loadPart } from '../strings/i18n.js';

// Its words are a strings part fetched after the first frame (i18n.js).
await loadPart('later');

export const NETWORKS = ['lan', 'sameRegion', 'crossRegion', 'mobile', 'custom'];
/** The one column of a recorded or imported trace (the core's `leagueTrace` names its network so). */
export const TRACE_NETWORKS = ['trace'];

/** The metric columns: key in the core's metrics, how a value reads. */
export const METRICS = [
  { id: 'rmsError', format: (v) => v.toFixed(2) },
  { id: 'addedLatency', format: (v) => `${Math.round(v * 1000)}` },
  { id: 'underrunShare', format: (v) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}`) },
  { id: 'stalls', format: (v) => `${v}` },
  { id: 'snaps', format: (v) => `${v}` },
  { id: 'jerk', format: (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(2)} M` : `${(v / 1e3).toFixed(0)} k`) },
];

/**
 * The table in #league. `host`: `theme()` (its swatches), `worker()` (the simulation worker that computes it),
 * `inDrag()` and `afterDrag(fn)` (a drag's tables wait for its pause).
 */
export function mount(host) {
  const root = document.getElementById('league');
  const metricButtons = el('div', { class: 'league-metrics', role: 'radiogroup', 'aria-label': t('league.metric'), 'data-i18n-aria-label': 'league.metric' });
  const status = el('p', { class: 'league-status', id: 'league-status', 'aria-live': 'polite' });
  const table = el('table', { id: 'league-table', class: 'league-table' });
  const caption = el('p', { class: 'league-caption', text: t('league.caption'), 'data-i18n': 'league.caption' });
  const unit = el('p', { class: 'league-unit', id: 'league-unit' });
  root.replaceChildren(
    el('div', { class: 'league-head' }, el('h2', { text: t('league.title'), 'data-i18n': 'league.title' }), metricButtons),
    caption, unit, el('div', { class: 'league-scroll' }, table), status);

  const state = { metric: 'rmsError', result: null, pending: false, error: null, key: null, version: 0, networks: NETWORKS };
  const buttons = new Map();
  for (const m of METRICS) {
    const b = el('button', { type: 'button', role: 'radio', 'data-metric': m.id, 'aria-checked': String(m.id === state.metric),
      text: t(`league.metric.${m.id}`), 'data-i18n': `league.metric.${m.id}`, 'data-glossary': m.id === 'jerk' ? 'jerk' : undefined });
    b.addEventListener('click', () => {
      state.metric = m.id;
      for (const [id, button] of buttons) button.setAttribute('aria-checked', String(id === m.id));
      render();
    });
    buttons.set(m.id, b);
    metricButtons.append(b);
  }

  /** The state and its sentence, without touching the table: what a change costs while its table is computed. */
  function renderStatus() {
    // Written only when they differ: a drag calls this on every change, and each attribute set restyles the table.
    const shown = state.error ? 'error' : state.pending ? 'pending' : state.result ? 'ready' : 'waiting';
    if (root.dataset.state !== shown) root.dataset.state = shown;
    if (root.getAttribute('aria-busy') !== String(state.pending)) root.setAttribute('aria-busy', String(state.pending));
    const r = state.result;
    const text = state.error
      ? t('league.failed', { message: state.error })
      : state.pending
        ? t('league.updating')
        : r ? (r.seed === null || r.seed === undefined
          ? t('league.doneTrace', { duration: r.duration.toFixed(1) })
          : t('league.done', { seed: r.seed, duration: r.duration })) : t('league.waiting');
    if (status.textContent !== text) status.textContent = text;
  }

  /**
   * The table's rows and cells are built once (again when the language or the theme changes) and then only
   * their words change: rebuilt after every drag, its ~60 elements and 9 swatches would each be a layout and a
   * paint of the whole table; a cell whose text and mark stay the same is not touched.
   */
  let built = null;
  let langVersion = 0;
  function build() {
    const theme = host.theme();
    const networks = state.networks;
    const key = `${langVersion}|${theme?.dark ?? false}|${networks.join()}`;
    if (built?.key === key) return built;
    const head = el('tr', {}, el('th', { scope: 'col', text: t('league.strategy'), 'data-i18n': 'league.strategy' }),
      ...networks.map((n) => el('th', { scope: 'col', 'data-network': n, text: t(`league.network.${n}`), 'data-i18n': `league.network.${n}` })));
    const cells = new Map();
    const rows = STRATEGY_NAMES.map((name) => el('tr', { 'data-strategy': name },
      el('th', { scope: 'row' }, swatch(name, theme ?? { dark: false, paper: '#fff' }, 14), el('span', { lang: nameLang(name), text: strategyName(name) })),
      ...networks.map((network) => {
        const td = el('td', { 'data-network': network });
        cells.set(`${network}|${name}`, td);
        return td;
      })));
    table.setAttribute('aria-describedby', 'league-unit');
    table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
    built = { key, cells };
    return built;
  }

  /** One cell: `…` until its number is in, else the number, ★ and bold when it is the column's best. */
  function fill(td, cell, metric) {
    const value = cell?.metrics[metric.id];
    const best = Boolean(cell?.best.includes(metric.id));
    const text = cell ? metric.format(value) : '…';
    const signature = `${cell ? 1 : 0}|${best}|${text}|${value}`;
    if (td._signature === signature) return;
    td._signature = signature;
    td.replaceChildren(...(best ? [el('span', { class: 'star', 'aria-hidden': 'true', text: '★ ' })] : []), text);
    const set = (name, v) => (v === undefined ? td.removeAttribute(name) : td.setAttribute(name, v));
    set('data-best', best ? 'true' : undefined);
    set('data-value', cell ? String(value ?? '') : undefined);
    set('aria-label', best ? t('league.bestAria', { value: text }) : undefined);
  }

  function render() {
    root.dataset.metric = state.metric;
    renderStatus();
    const metric = METRICS.find((m) => m.id === state.metric);
    const { cells } = build();
    const byKey = new Map((state.result?.cells ?? []).map((c) => [`${c.network}|${c.strategy}`, c]));
    for (const [key, td] of cells) fill(td, byKey.get(key), metric);
    unit.textContent = t(`league.unit.${metric.id}`);
  }

  /** While a slider is dragged, the table is asked for once the drag pauses (`afterDrag`), not per change: its cancel. */
  let deferred = null;

  /**
   * After every run: ask the worker for the table of the current parameters, or of the imported trace with the
   * current engine settings (its bytes go to the worker, which reads and replays them itself). During a
   * drag (scheduler.js `inDrag`) the request waits until the changes pause: 45 strategy runs per change would keep the
   * worker — and on a two-core phone the CPU the frames need — busy for numbers nobody reads mid-drag, and each
   * answer rebuilds the table. The old numbers stay, marked as updating, until the newest table lands.
   */
  function refresh(model) {
    deferred?.();
    deferred = null;
    const params = model.params;
    const trace = model.imported ? model.importBytes : null;
    if (model.imported && !trace) {
      state.key = null;
      state.error = t('league.noTraceBytes');
      state.pending = false;
      render();
      return;
    }
    const key = trace ? `trace|${model.runId}|${JSON.stringify(params.engines)}` : JSON.stringify(params);
    if (key === state.key) return;
    state.key = key;
    const networks = trace ? TRACE_NETWORKS : NETWORKS;
    if (networks !== state.networks) {
      // Another kind of table: the old numbers belong to other columns.
      state.networks = networks;
      state.result = null;
    }
    state.pending = true;
    renderStatus(); // the old numbers stay, marked as updating; the table is rebuilt when the new one lands
    if (host.inDrag()) {
      deferred = host.afterDrag(() => {
        deferred = null;
        request(params, key, trace);
      });
      return;
    }
    request(params, key, trace);
  }

  function request(params, key, trace) {
    const job = trace
      ? host.worker().request('league', 'leagueTrace', { bytes: trace, params })
      : host.worker().request('league', 'league', { params, networks: NETWORKS });
    job.then((result) => {
      // A newer change overtook this one (at the worker, or while its own request waits for the drag to pause).
      if (result === undefined || key !== state.key) return;
      state.result = result;
      state.error = null;
      state.pending = false;
      state.version += 1;
      render();
    }, (error) => {
      if (key !== state.key) return;
      state.error = error?.message ?? String(error);
      state.pending = false;
      render();
    });
  }

  render();
  onLangChange(() => { langVersion += 1; render(); });
  return {
    refresh,
    relabel: () => { langVersion += 1; render(); },
    get state() { return state; },
  };
}
