// The Engines panel: pick up to four strategies — Mirror, Unity NGO, Source, geckos.io, Gambetta's
// demo, or one of the articles' references — and each is replayed by the core on this very run (the same
// packets lost, late and reordered) and drawn as a labelled ghost in the Remote view and as its render-time
// mark on the render lane. A line under the picks says, at the playhead, what each is doing and how far behind
// the truth it draws. The picks live in the URL (`engines=mirror,source`).
//
// Drawing reads copies of each strategy's rows (render time, x, y, mode per frame) that the core makes once per
// run (model.engine); nothing is simulated per frame.
import { STRATEGY_STYLES, STRATEGY_NAMES, ENGINE_NAMES, MAX_PICKED, ghostMark, strategyColor, swatch } from './engines-style.js';
import { label, measure } from '../views/view-kit.js';
import { el } from '../dom.js';
import { getZoom } from '../canvas.js';
import { t, onLangChange } from '../strings/i18n.js';
import { quoted } from '../params.js';

const TRAIL_SECONDS = 1;
/** Strategies whose chip explains which part of the engine runs (`engine.about.NAME`, the chip's title). */
const ABOUT = ['mirror', 'mirror-core'];

/** `engines=` from the URL: known names, no repeats, at most four; each name left out is said in `notices`. */
export function parsePicks(value, notices = null) {
  const out = [];
  for (const name of String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    if (!STRATEGY_STYLES[name]) notices?.push(t('notice.badEngine', { value: quoted(name), names: STRATEGY_NAMES.join(', ') }));
    else if (out.includes(name)) continue;
    else if (out.length >= MAX_PICKED) notices?.push(t('notice.tooManyEngines', { value: quoted(name), max: MAX_PICKED }));
    else out.push(name);
  }
  return out;
}

/** Short name of a strategy, as drawn beside its ghost. */
export function strategyName(name) {
  return t(`engine.${name}`);
}

/** Engines whose shown name says what part of the engine runs (`Mirror core`): translated like any text. */
const DESCRIBED = ['mirror-core'];

/** `lang` of a strategy's name: the engines' names are proper names, the same in every language. */
export function nameLang(name) {
  return ENGINE_NAMES.includes(name) && !DESCRIBED.includes(name) ? 'en' : undefined;
}

/** The panel in #engines; `host.changed()`: the picks changed (the URL keeps them, the views show them). */
export function mount(host) {
  const root = document.getElementById('engines');
  const chips = el('div', { class: 'engine-chips', role: 'group', 'aria-label': t('engines.pick'), 'data-i18n-aria-label': 'engines.pick' });
  const note = el('p', { class: 'engine-note', id: 'engines-note', 'aria-live': 'polite' });
  const head = el('div', { class: 'engines-head' },
    el('h2', { text: t('engines.title'), 'data-i18n': 'engines.title' }),
    el('p', { class: 'engines-intro', text: t('engines.intro'), 'data-i18n': 'engines.intro' }));
  // Why a chip is greyed out: four are drawn at once (said under the chips and on each greyed chip).
  const fullNote = el('p', { class: 'engine-full hint', id: 'engines-full', hidden: '' });
  root.replaceChildren(head, chips, fullNote, note);
  const buttons = new Map();
  let themeDark = null;

  const panel = {
    picks: [],
    /** What the last draw said per picked strategy (for the end-to-end tests). */
    last: null,
    set(picks) {
      this.picks = parsePicks(picks.join(','));
      this.sync();
    },
    toggle(name) {
      const on = this.picks.includes(name);
      if (!on && this.picks.length >= MAX_PICKED) return;
      this.set(on ? this.picks.filter((n) => n !== name) : [...this.picks, name]);
      host.changed();
    },
    /** The URL's value (`undefined` when nothing is picked, so the key is left out). */
    hashValue() {
      return this.picks.length ? this.picks.join(',') : undefined;
    },
    sync() {
      const full = this.picks.length >= MAX_PICKED;
      for (const [name, button] of buttons) {
        const on = this.picks.includes(name);
        button.setAttribute('aria-pressed', String(on));
        button.disabled = !on && full;
        if (button.disabled) button.setAttribute('aria-describedby', 'engines-full');
        else button.removeAttribute('aria-describedby');
      }
      fullNote.hidden = !full;
      fullNote.textContent = full ? t('engines.full', { max: MAX_PICKED }) : '';
      root.dataset.picked = this.picks.join(',');
    },
    /** The picked strategies with their rows on the current run or the imported trace (its deliveries replayed). */
    scene(model) {
      if (!this.picks.length) return [];
      return this.picks.map((name) => ({ name, ...model.engine(name) }));
    },
    /** Refreshes swatches when the theme flips, and the playhead line. */
    draw(scene) {
      if (themeDark !== scene.theme.dark) {
        themeDark = scene.theme.dark;
        for (const [name, button] of buttons) button.querySelector('.engine-swatch')?.replaceWith(swatch(name, scene.theme));
      }
      const lines = [];
      const last = {};
      for (const e of scene.engines ?? []) {
        const r = e.rows;
        const base = scene.index * e.stride;
        const mode = scene.model.codes.shown[r[base + e.col.mode]] ?? 'nothing';
        const rt = r[base + e.col.renderTime];
        const serverNow = scene.frame.serverNow;
        const behind = Number.isFinite(rt) && Number.isFinite(serverNow) ? Math.round((serverNow - rt) * 1000) : null;
        last[e.name] = { mode, behind, x: r[base + e.col.x], y: r[base + e.col.y] };
        lines.push(t('engines.now', { name: strategyName(e.name), mode: t(`engines.mode.${mode}`), behind: behind ?? '—' }));
      }
      this.last = last;
      const text = lines.length ? lines.join(' · ') : t('engines.none');
      if (note.textContent !== text) note.textContent = text;
    },
  };

  for (const name of STRATEGY_NAMES) {
    const about = ABOUT.includes(name) ? `engine.about.${name}` : undefined;
    const button = el('button', { type: 'button', class: 'engine-chip', 'data-strategy': name, 'aria-pressed': 'false',
      title: about && t(about), 'data-i18n-title': about },
    swatch(name, { dark: false, paper: '#fff' }),
    el('span', { class: 'engine-chip-name', lang: nameLang(name), text: strategyName(name), 'data-i18n': `engine.${name}` }));
    button.addEventListener('click', () => panel.toggle(name));
    buttons.set(name, button);
    chips.append(button);
  }
  onLangChange(() => panel.sync());
  return panel;
}

/**
 * The picked strategies' ghosts in the Remote view: a thin trail of the last second and the hollow mark at
 * the playhead, each named beside it (labels stacked so two ghosts on one spot stay readable). `taken`: boxes
 * (CSS px) the view has already written in — the page's ◆ and its "truth now" label — that no name may cover.
 * Returns each drawn ghost with the box its name took.
 */
export function drawGhosts(ctx, map, scene, taken = []) {
  const engines = scene.engines ?? [];
  if (!engines.length) return [];
  const { theme, index, frames } = scene;
  const local = (i) => frames.view[i * frames.stride + frames.col.local];
  const now = local(index);
  const first = scene.model.frameAt(now - TRAIL_SECONDS, frames);
  const placed = [];
  const drawn = [];
  engines.forEach((e, k) => {
    const color = strategyColor(e.name, theme);
    const r = e.rows;
    const xAt = (i) => r[i * e.stride + e.col.x];
    const yAt = (i) => r[i * e.stride + e.col.y];
    // Trail: broken where nothing was shown or where it jumped more than a frame could move.
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.globalAlpha = 0.55;
    ctx.setLineDash(k % 2 ? [4, 2] : []);
    ctx.beginPath();
    let open = false;
    for (let i = first; i <= index; i++) {
      const x = xAt(i);
      const y = yAt(i);
      if (!Number.isFinite(x) || !Number.isFinite(y)) { open = false; continue; }
      const px = map.x(x);
      const py = map.y(y);
      if (open) ctx.lineTo(px, py);
      else ctx.moveTo(px, py);
      open = true;
    }
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
    const x = xAt(index);
    const y = yAt(index);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const px = map.x(x);
    const py = map.y(y);
    ghostMark(ctx, e.name, px, py, 6.5, theme, { filled: e.name === 'playground' });
    drawn.push({ name: e.name, x, y, px, py, color });
  });
  const names = nameGhosts(ctx, drawn, theme, taken);
  return drawn.map(({ name, x, y }, k) => ({ name, x, y, label: names[k] }));
}

/**
 * Names each ghost beside its mark: the first free spot of right, left, above, below (ghosts often sit on one
 * spot: their names must not pile up on each other, nor on what the view wrote before them, `taken`), then
 * further out in the same order with a thin leader line back to the mark. Returns the box of each name.
 */
function nameGhosts(ctx, drawn, theme, taken) {
  const w = (ctx.canvas.clientWidth || ctx.canvas.width) / getZoom();
  const h = (ctx.canvas.clientHeight || ctx.canvas.height) / getZoom();
  // The marks themselves, the status lines the Remote view writes along its top (views-remote.js corner()), and
  // what the view wrote where the ghosts are.
  const boxes = [...drawn.map((d) => ({ x: d.px - 7, y: d.py - 7, w: 14, h: 14 })), { x: 0, y: 0, w, h: 50 }, ...taken];
  const names = [];
  const free = (b) => b.x >= 2 && b.y >= 2 && b.x + b.w <= w - 2 && b.y + b.h <= h - 2
    && !boxes.some((o) => b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h);
  for (const d of drawn) {
    const text = strategyName(d.name);
    const tw = measure(ctx, text, 10, '600');
    const th = 11;
    let spot = null;
    for (const reach of [9, 22, 36, 52]) {
      const candidates = [
        { x: d.px + reach, y: d.py - th / 2 }, { x: d.px - reach - tw, y: d.py - th / 2 },
        { x: d.px - tw / 2, y: d.py - reach - th }, { x: d.px - tw / 2, y: d.py + reach },
        { x: d.px + reach, y: d.py - reach - th / 2 }, { x: d.px + reach, y: d.py + reach - th / 2 },
      ];
      spot = candidates.map((c) => ({ ...c, w: tw, h: th, reach })).find(free);
      if (spot) break;
    }
    spot ??= { x: Math.min(d.px + 9, w - tw - 2), y: d.py - th / 2, w: tw, h: th, reach: 9 };
    boxes.push(spot);
    names.push({ x: spot.x, y: spot.y, w: spot.w, h: spot.h });
    if (spot.reach > 9) {
      ctx.strokeStyle = d.color;
      ctx.lineWidth = 1;
      ctx.globalAlpha = 0.7;
      ctx.beginPath();
      ctx.moveTo(d.px, d.py);
      ctx.lineTo(Math.max(spot.x, Math.min(d.px, spot.x + spot.w)), Math.max(spot.y, Math.min(d.py, spot.y + spot.h)));
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
    label(ctx, text, spot.x, spot.y + th - 2, { color: d.color, halo: theme.panel, size: 10, weight: '600' });
  }
  return names;
}

/**
 * Each picked strategy's render time on the render lane: its mark on a row of its own just above the lane (so
 * the ◆ cursor and its labels stay clear), a dotted tick down to the lane, its letter beside it (letters of
 * marks on one spot step aside rather than overprint).
 */
export function drawLaneMarks(g, scene, laneY) {
  const engines = scene.engines ?? [];
  const { ctx, X, toLocal, theme, L } = g;
  // Midway between the arrival lane's ○ and the runway words written just above the render lane.
  const y = (L.y.arrival + 7 + laneY - 20) / 2;
  const marks = [];
  const taken = [];
  for (const e of engines) {
    const rt = e.rows[scene.index * e.stride + e.col.renderTime];
    if (!Number.isFinite(rt)) continue;
    const x = X(toLocal(rt));
    const color = strategyColor(e.name, theme);
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.setLineDash([1.5, 2]);
    ctx.beginPath();
    ctx.moveTo(x, y + 5);
    ctx.lineTo(x, laneY - 2);
    ctx.stroke();
    ctx.setLineDash([]);
    ghostMark(ctx, e.name, x, y, 4.5, theme, { filled: e.name === 'playground' });
    let lx = x + 7;
    while (taken.some((t) => Math.abs(t - lx) < 8)) lx += 8;
    taken.push(lx);
    label(ctx, STRATEGY_STYLES[e.name].letter, lx, y + 3.5, { color, halo: theme.panel, size: 9, weight: '700' });
    marks.push({ name: e.name, renderTime: rt });
  }
  return marks;
}
