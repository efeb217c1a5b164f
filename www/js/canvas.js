// Canvas helpers shared by every drawing module: DPR-scaled surfaces, the colour of each concept, and
// the few marks the page uses (one shape per concept, as in the page guide).

/** One colour per concept (Okabe–Ito); `truth` follows the theme. */
export const COLORS = {
  snapshot: '#0072B2',
  arrival: '#56B4E9',
  render: '#D55E00',
  extrapolated: '#E69F00',
  lerp: '#CC79A7',
  timed: '#009E73',
  offset: '#F0E442',
  casing: '#222222',
};

/** Theme colours read from CSS custom properties (light/dark). */
export function theme() {
  const css = getComputedStyle(document.documentElement);
  const v = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  return {
    ink: v('--ink', '#1b1d21'),
    muted: v('--muted', '#5d636e'),
    line: v('--line', '#d9dce1'),
    panel: v('--panel', '#f4f5f7'),
    paper: v('--paper', '#ffffff'),
    truth: v('--truth', '#000000'),
    dark: window.matchMedia('(prefers-color-scheme: dark)').matches,
  };
}

// Classroom mode and picture export. Every canvas is drawn in *logical* px: its CSS width divided by
// the zoom. Present mode zooms the views and lanes ×2, so the same drawing — marks, lines and the 10–12 px
// labels — fills a projector at 20–24 px; a PNG export draws the figure once more with 2 backing pixels per
// logical px. `ratio()` is the backing pixels per logical px every painter sizes its canvas with.
let zoom = 1;
let exportRatio = null;
/** The smallest label size (logical px) while zoomed: at zoom 2 no canvas text is under 20 CSS px. */
const ZOOMED_MIN_FONT = 10;

/** Sets the zoom (1 normally, 2 in present mode); callers redraw afterwards. */
export function setZoom(z) {
  zoom = z > 0 && Number.isFinite(z) ? z : 1;
}

export const getZoom = () => zoom;

/** Backing-store pixels per logical px: the screen's (device pixels × zoom) or, while exporting, the export's. */
export function ratio() {
  return exportRatio ?? (window.devicePixelRatio || 1) * zoom;
}

/** Runs `draw()` with every canvas sized at `r` backing pixels per logical px (a PNG at 2×), then restores. */
export function withExportRatio(r, draw) {
  exportRatio = r;
  try {
    return draw();
  } finally {
    exportRatio = null;
  }
}

/** The size a label is drawn at: its own, but never under ZOOMED_MIN_FONT while zoomed. */
export function fontSize(size) {
  return zoom > 1 ? Math.max(size, ZOOMED_MIN_FONT) : size;
}

// Reading `clientWidth` during a redraw forces the browser to lay the page out again (the rail and readouts
// were just rewritten): a few ms per canvas per frame. Widths are kept here instead, updated by a
// ResizeObserver, which also announces a change with a `netcode-lab-resize` event so the page redraws.
const widths = new WeakMap();
const resizes = typeof ResizeObserver === 'function'
  ? new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      const w = entry.contentBoxSize?.[0]?.inlineSize ?? entry.contentRect.width;
      if (w > 0 && widths.get(entry.target) !== w) {
        widths.set(entry.target, w);
        changed = true;
      }
    }
    if (changed) window.dispatchEvent(new Event('netcode-lab-resize'));
  })
  : null;

/** The element's width in logical px (its CSS content width ÷ the zoom), without forcing a layout after the first call. */
export function cssWidth(element) {
  let w = widths.get(element);
  if (w === undefined) {
    w = element.clientWidth || element.width || 0;
    widths.set(element, w);
    resizes?.observe(element);
  }
  return w / zoom;
}

/** Reads the width of every canvas under `root` at once (one layout), for those not yet known. */
export function measureWidths(root) {
  const fresh = [...root.querySelectorAll('canvas')].filter((c) => !widths.has(c));
  const read = fresh.map((c) => c.clientWidth || c.width || 0);
  fresh.forEach((c, i) => {
    widths.set(c, read[i]);
    resizes?.observe(c);
  });
}

/** Sizes `canvas` to its CSS width × devicePixelRatio, keeps its aspect ratio, returns a ready context. */
export function surface(canvas) {
  if (!canvas.dataset.aspect) canvas.dataset.aspect = String(canvas.height / canvas.width);
  const dpr = ratio();
  const w = cssWidth(canvas) || canvas.width;
  const h = Math.round(w * Number(canvas.dataset.aspect));
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  return { ctx, w, h };
}

export const FONT = '-apple-system, "Segoe UI", Roboto, Arial, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif';

export function text(ctx, color, s, x, y, size = 12, align = 'left') {
  ctx.fillStyle = color;
  ctx.font = `${fontSize(size)}px ${FONT}`;
  ctx.textAlign = align;
  ctx.fillText(s, x, y);
  ctx.textAlign = 'left';
}

export function line(ctx, x1, y1, x2, y2) {
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
  ctx.stroke();
}

export function square(ctx, x, y, size, color, filled = true) {
  ctx.lineWidth = 1.5;
  if (filled) {
    ctx.fillStyle = color;
    ctx.fillRect(x - size / 2, y - size / 2, size, size);
  } else {
    ctx.strokeStyle = color;
    ctx.strokeRect(x - size / 2, y - size / 2, size, size);
  }
}

export function circle(ctx, x, y, r, color, filled = true) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, Math.PI * 2);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = color;
  ctx.stroke();
  if (filled) {
    ctx.fillStyle = color;
    ctx.fill();
  }
}

/** The path of a diamond of half-diagonal `r` around (x, y), as a new path (not filled or stroked). */
export function diamondPath(ctx, x, y, r) {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
}

/** A diamond; `cased` adds the 1 px dark outline light colours need on white (page guide §2). */
export function diamond(ctx, x, y, r, color, { filled = true, cased = false } = {}) {
  diamondPath(ctx, x, y, r);
  if (filled) {
    ctx.fillStyle = color;
    ctx.fill();
  }
  ctx.lineWidth = cased ? 1 : 1.5;
  ctx.strokeStyle = cased ? COLORS.casing : color;
  if (cased || !filled) ctx.stroke();
}

export function triangle(ctx, x, y, r, color, up = true) {
  const s = up ? -1 : 1;
  ctx.beginPath();
  ctx.moveTo(x, y + s * r);
  ctx.lineTo(x + r * 0.9, y - s * r * 0.6);
  ctx.lineTo(x - r * 0.9, y - s * r * 0.6);
  ctx.closePath();
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = COLORS.casing;
  ctx.stroke();
}

export function cross(ctx, x, y, r, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  line(ctx, x - r, y - r, x + r, y + r);
  line(ctx, x - r, y + r, x + r, y - r);
}

/** Diagonal hatch over a rectangle (statuses use outline and hatch, never a new hue). */
export function hatch(ctx, x, y, w, h, color, gap = 6) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1;
  for (let d = -h; d < w; d += gap) line(ctx, x + d, y + h, x + d + h, y);
  ctx.restore();
}

/** Maps world coordinates (the arena, y up) into a box of the canvas, keeping the aspect ratio. */
export function worldMapper({ w, h, pad = 14, extent = { x: 130, y: 80 }, center = { x: 0, y: 0 } }) {
  const scale = Math.min((w - 2 * pad) / (2 * extent.x), (h - 2 * pad) / (2 * extent.y));
  return {
    scale,
    x: (x) => w / 2 + (x - center.x) * scale,
    y: (y) => h / 2 - (y - center.y) * scale,
  };
}

/** Formats seconds as milliseconds for readouts. */
/** Seconds as milliseconds with `digits` decimals; a value that rounds to zero is 0, never −0. */
/** `v` with `digits` decimals, never "-0.0": a value that rounds to zero is shown as zero. */
export const fixed = (v, digits = 1) => v.toFixed(digits).replace(/^-(0(\.0+)?)$/, '$1');
export const ms = (s, digits = 0) => (Number.isFinite(s) ? `${fixed(s * 1000, digits)} ms` : '—');
