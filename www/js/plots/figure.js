// One plot on the page: a <figure class="plot"> holding a title, a one-line "what to look at" caption and a
// legend (inline SVG swatches drawn in each concept's colour, line style and mark), above a canvas.
//
// Two stacked canvases so a frame costs almost nothing:
//   static   everything that only changes with the run, the size or the theme (axes, curves, labels),
//            repainted only when its key changes;
//   overlay  what moves with the playhead (cursor, "now" marker, readout), cleared and drawn every frame.
// While playing, a figure scrolled out of view skips its overlay until it comes back (page guide: pause
// off-screen); paused, every figure follows a seek so the whole page always shows one moment.

import { COLORS, cssWidth, ratio, getZoom } from '../canvas.js';
import { t, loadPart } from '../strings/i18n.js';

// The plots' and the comparison's words are a strings part fetched after the first frame (i18n.js).
await loadPart('later');

const SVG = 'http://www.w3.org/2000/svg';

let sheetLoaded = null;

/**
 * Adds the plots' stylesheet once, unless the page links it already (embed.html does; index.html does not: its
 * first frame shows no plot, so their sheet is fetched with them, after it — ~0.7 KB less before data-ready).
 * Resolves once the sheet applies, so a figure is never laid out unstyled and then moved (a layout shift):
 * boot.js mounts the plots and the comparison after it (`styled`). A sheet that fails to load resolves too — the
 * figures still work, unstyled. Its address is the page's, not this module's: in dist (`cargo xtask dist`) this
 * code sits in a bundled chunk elsewhere.
 */
export function ensureStylesheet() {
  // dist merges a page's sheets into one that says what it holds (xtask/src/dist.rs `merge_stylesheets`).
  if (document.querySelector('link[rel=stylesheet][href$="plots.css"]:not([data-plots-css]), link[data-holds~="plots.css"]')) return Promise.resolve();
  if (sheetLoaded) return sheetLoaded;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('plots.css', document.baseURI).href;
  link.dataset.plotsCss = '';
  sheetLoaded = new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
  document.head.append(link);
  return sheetLoaded;
}

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A legend swatch: a short line in the concept's colour and dash, with its mark in the middle.
 * `key = {color, dash, width, mark, cased, fill}`; marks: square, circle, ring, diamond, up, down, cross, hatch.
 */
export function swatch({ color, dash, width = 2, mark, cased = false, line = true, fill }) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', '26');
  svg.setAttribute('height', '12');
  svg.setAttribute('viewBox', '0 0 26 12');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('swatch');
  const add = (tag, attrs) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    svg.append(node);
    return node;
  };
  if (fill === 'hatch') {
    add('rect', { x: 2, y: 1.5, width: 22, height: 9, fill: 'none', stroke: color, 'stroke-width': 1 });
    for (let x = 3; x <= 17; x += 4) add('line', { x1: x, y1: 10, x2: x + 6, y2: 2, stroke: color, 'stroke-width': 1 });
  }
  if (line) {
    if (cased) add('line', { x1: 1, y1: 6, x2: 25, y2: 6, stroke: COLORS.casing, 'stroke-width': width + 2, 'stroke-dasharray': dash ?? '', 'stroke-linecap': 'round', class: 'casing' });
    add('line', { x1: 1, y1: 6, x2: 25, y2: 6, stroke: color, 'stroke-width': width, 'stroke-dasharray': dash ?? '', 'stroke-linecap': dash && dash.startsWith('1') ? 'round' : 'butt' });
  }
  const stroke = cased ? COLORS.casing : color;
  switch (mark) {
    case 'square': add('rect', { x: 9.5, y: 2.5, width: 7, height: 7, fill: color, stroke: cased ? COLORS.casing : 'none', 'stroke-width': 1 }); break;
    case 'circle': add('circle', { cx: 13, cy: 6, r: 3.5, fill: color, stroke }); break;
    case 'ring':
      if (cased) add('circle', { cx: 13, cy: 6, r: 3.5, fill: 'none', stroke: COLORS.casing, 'stroke-width': 3 });
      add('circle', { cx: 13, cy: 6, r: 3.5, fill: 'none', stroke: color, 'stroke-width': 1.5 });
      break;
    case 'diamond': add('path', { d: 'M13 1.5 L17.5 6 L13 10.5 L8.5 6 Z', fill: color, stroke: COLORS.casing, 'stroke-width': 1 }); break;
    case 'up': add('path', { d: 'M13 1.5 L17.5 10 L8.5 10 Z', fill: color, stroke: COLORS.casing, 'stroke-width': 1 }); break;
    case 'down': add('path', { d: 'M13 10.5 L17.5 2 L8.5 2 Z', fill: color, stroke: COLORS.casing, 'stroke-width': 1 }); break;
    case 'cross': add('path', { d: 'M9.5 2.5 L16.5 9.5 M9.5 9.5 L16.5 2.5', stroke: color, 'stroke-width': 1.8, fill: 'none' }); break;
    default: break;
  }
  return svg;
}

/**
 * Builds a figure into `parent`. Returns `{figure, canvas, overlay, stage, setLegend, paint, pointer}`: `stage` is the
 * box holding the two stacked canvases (listen for pointer and key events on it); `canvas` the static one.
 * `width`/`height` set the aspect ratio (the canvases are drawn at their CSS width × devicePixelRatio).
 * `i18n` is the prefix of the figure's strings: `<i18n>.title`, `<i18n>.caption` and `<i18n>.aria` (the canvas's
 * description), tagged with `data-i18n` so a language switch rewrites them.
 * `host`, the page that draws the figure: `requestDraw()` (one redraw at the next frame unless the run plays: hover,
 * async data, the figure scrolled in), `inDrag()` (a slider is being dragged), `playing()`.
 */
export function createFigure(parent, { host, id, legend = [], width, height, className = '', i18n }) {
  const figure = el('figure', { class: `plot ${className}`.trim(), id });
  const figcaption = el('figcaption');
  const titleEl = el('span', { class: 'title', 'data-i18n': `${i18n}.title` }, t(`${i18n}.title`));
  const captionEl = el('span', { class: 'caption', 'data-i18n': `${i18n}.caption` }, t(`${i18n}.caption`));
  const legendEl = el('span', { class: 'legend plot-legend' });
  figcaption.append(titleEl, captionEl, legendEl);
  const stage = el('div', { class: 'plot-stage', role: 'img', 'aria-label': t(`${i18n}.aria`), 'data-i18n-aria-label': `${i18n}.aria` });
  const canvas = el('canvas', { class: 'plot-static', width, height, 'aria-hidden': 'true' });
  const overlay = el('canvas', { class: 'plot-overlay', width, height, 'aria-hidden': 'true' });
  stage.append(canvas, overlay);
  figure.append(figcaption, stage);
  parent.append(figure);

  let legendKey = '';
  function setLegend(items) {
    const key = JSON.stringify(items);
    if (key === legendKey) return;
    legendKey = key;
    legendEl.replaceChildren(...items.map((item) => {
      const k = el('span', { class: 'k' });
      if (item.swatch) k.append(swatch(item.swatch));
      k.append(document.createTextNode(item.text));
      return k;
    }));
  }
  setLegend(legend);

  let staticKey = null;
  let visible = true;
  let overlayDirty = true;
  let lastOverlayKey = null;
  if ('IntersectionObserver' in window) {
    new IntersectionObserver((entries) => {
      const was = visible;
      visible = entries.some((e) => e.isIntersecting);
      if (visible && !was) {
        overlayDirty = true;
        host.requestDraw();
      }
    }).observe(stage);
  }
  // The aspect ratio lives on the canvas (as canvas.js `surface` keeps it), so an embed can make it flatter to fit.
  canvas.dataset.aspect = String(height / width);
  const aspect = () => Number(canvas.dataset.aspect);

  /**
   * Draws the figure: `paintStatic(ctx, w, h)` onto the lower canvas when `key` (anything JSON-able) or the
   * size changed; `paintOverlay(ctx, w, h)` onto the upper one while the figure is on screen, skipped when
   * `overlayKey` (optional, JSON-able: what the overlay shows, e.g. pixel positions) is the same as last time.
   * Returns false when nothing was drawn.
   */
  function paint(key, paintStatic, paintOverlay, overlayKey) {
    const w = cssWidth(canvas);
    if (!w) return false;
    const h = Math.round(w * aspect());
    const dpr = ratio();
    const pw = Math.round(w * dpr);
    const ph = Math.round(h * dpr);
    if (canvas.width !== pw || canvas.height !== ph) {
      canvas.width = overlay.width = pw;
      canvas.height = overlay.height = ph;
      staticKey = null;
    }
    // Off screen during a slider drag: nothing, not even a new static layer (offscreen.js); drawn when it scrolls in.
    if (!visible && host.inDrag()) {
      overlayDirty = true;
      return false;
    }
    const fullKey = JSON.stringify([key, dpr]);
    const staticChanged = fullKey !== staticKey;
    if (staticChanged) {
      const sctx = canvas.getContext('2d');
      sctx.setTransform(1, 0, 0, 1, 0, 0);
      sctx.clearRect(0, 0, pw, ph);
      sctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paintStatic(sctx, w, h);
      staticKey = fullKey;
    }
    // Off screen and playing: skip (it is redrawn when it scrolls back). Paused (a seek, a step): always draw.
    if (!staticChanged && !visible && !overlayDirty && host.playing()) return false;
    const oKey = overlayKey === undefined ? null : JSON.stringify(overlayKey);
    if (!staticChanged && !overlayDirty && oKey !== null && oKey === lastOverlayKey) return false;
    lastOverlayKey = oKey;
    const ctx = overlay.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, pw, ph);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    paintOverlay?.(ctx, w, h);
    overlayDirty = false;
    return true;
  }

  /** An event's position in the canvas's own coordinates, with the drawing's size: `{x, y, w, h}`. */
  function pointer(event) {
    const rect = canvas.getBoundingClientRect();
    const z = getZoom();
    const w = canvas.clientWidth / z;
    return { x: (event.clientX - rect.left - canvas.clientLeft) / z, y: (event.clientY - rect.top - canvas.clientTop) / z, w, h: Math.round(w * aspect()) };
  }

  /** The figure was passed by without drawing (plots.js, out of view in a drag): its next paint draws the overlay. */
  const skipped = () => { overlayDirty = true; };

  return { figure, canvas, overlay, stage, caption: captionEl, legend: legendEl, setLegend, paint, pointer, isVisible: () => visible, skipped };
}

/** Asks `host` for a redraw when any of `elements` changes size, e.g. the stylesheet arriving or the rail folding. */
export function watchSize(host, elements) {
  if (!('ResizeObserver' in window)) return;
  const sizes = new Map();
  const observer = new ResizeObserver((entries) => {
    let changed = false;
    for (const e of entries) {
      const w = Math.round(e.contentRect.width);
      // The first notification comes for every figure just mounted: it asks for a redraw only when the canvas
      // was not drawn at this width (a whole-page redraw per mount was a long task after the first frame).
      const drawnAt = Math.round((w / getZoom()) * ratio()) === e.target.width;
      if (sizes.has(e.target) ? sizes.get(e.target) !== w : !drawnAt) changed = true;
      sizes.set(e.target, w);
    }
    if (changed) host.requestDraw();
  });
  for (const element of elements) observer.observe(element);
}
