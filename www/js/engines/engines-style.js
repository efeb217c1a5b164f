// How each strategy of the Engines panel looks: a concept family of its own (page guide §2: one colour per
// concept), so each gets a colour that none of the eight concepts uses — dark enough for 3:1 on white, with a
// lighter twin for the dark theme — AND a shape of its own AND its name written beside it, so colour never
// carries the meaning alone. Ghosts are hollow (drawn, not the ◆ the page renders); `playground` is that ◆
// itself (the page's own pipeline), in the render colour.
import { FONT } from '../canvas.js';

/** name → {light, dark, shape, letter}; the order is the table's. */
export const STRATEGY_STYLES = {
  mirror: { light: '#332288', dark: '#9488E8', shape: 'hexagon', letter: 'M' },
  'mirror-core': { light: '#7E3C8C', dark: '#D9A0E6', shape: 'heptagon', letter: 'm' },
  ngo: { light: '#882255', dark: '#E07AAB', shape: 'pentagon', letter: 'N' },
  'ngo-1x': { light: '#1D4E89', dark: '#7FB0E8', shape: 'square', letter: 'n' },
  source: { light: '#7A4A0A', dark: '#C9A27E', shape: 'star', letter: 'S' },
  geckos: { light: '#5C5C0A', dark: '#C2C24A', shape: 'plus', letter: 'g' },
  lightyear: { light: '#2F6B2F', dark: '#8CCB8C', shape: 'triangleDown', letter: 'Y' },
  fishnet: { light: '#1F4E8C', dark: '#7FA9E0', shape: 'triangleUp', letter: 'F' },
  gambetta: { light: '#1E5A5A', dark: '#78BDBD', shape: 'bowtie', letter: 'G' },
  neteq: { light: '#7B1FA2', dark: '#CE93D8', shape: 'star4', letter: 'Q' },
  seed000: { light: '#3E4C66', dark: '#A3B2CC', shape: 'octagon', letter: '0' },
  seed004: { light: '#6B3F2F', dark: '#C79D8E', shape: 'triangleLeft', letter: '4' },
  playground: { light: '#D55E00', dark: '#D55E00', shape: 'diamond', letter: '◆' },
  latest: { light: '#555555', dark: '#B4B4B4', shape: 'triangleRight', letter: 'L' },
};

export const STRATEGY_NAMES = Object.keys(STRATEGY_STYLES);
/** The engines of other stacks (the rest are the articles' references). */
export const ENGINE_NAMES = ['mirror', 'mirror-core', 'ngo', 'ngo-1x', 'source', 'geckos', 'lightyear', 'fishnet', 'gambetta', 'neteq'];
/** How many strategies the panel draws at once. */
export const MAX_PICKED = 4;

export function strategyColor(name, theme) {
  const s = STRATEGY_STYLES[name];
  return s ? (theme?.dark ? s.dark : s.light) : '#777777';
}

function polygon(ctx, x, y, r, n, rotation, inner = null) {
  ctx.beginPath();
  const count = inner ? n * 2 : n;
  for (let i = 0; i < count; i++) {
    const a = rotation + (i * 2 * Math.PI) / count;
    const rr = inner && i % 2 === 1 ? inner : r;
    const px = x + rr * Math.cos(a);
    const py = y + rr * Math.sin(a);
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  }
  ctx.closePath();
}

/** Traces the strategy's shape of radius `r` around (x, y) as the current path. */
export function shapePath(ctx, shape, x, y, r) {
  switch (shape) {
    case 'hexagon': return polygon(ctx, x, y, r, 6, 0);
    case 'pentagon': return polygon(ctx, x, y, r, 5, -Math.PI / 2);
    case 'octagon': return polygon(ctx, x, y, r * 0.95, 8, Math.PI / 8);
    case 'star': return polygon(ctx, x, y, r * 1.15, 5, -Math.PI / 2, r * 0.5);
    case 'diamond': return polygon(ctx, x, y, r, 4, 0);
    case 'square': return polygon(ctx, x, y, r, 4, Math.PI / 4);
    case 'triangleLeft': return polygon(ctx, x, y, r, 3, Math.PI);
    case 'triangleRight': return polygon(ctx, x, y, r, 3, 0);
    case 'triangleDown': return polygon(ctx, x, y, r, 3, Math.PI / 2);
    case 'triangleUp': return polygon(ctx, x, y, r, 3, -Math.PI / 2);
    case 'heptagon': return polygon(ctx, x, y, r, 7, -Math.PI / 2);
    case 'star4': return polygon(ctx, x, y, r * 1.15, 4, 0, r * 0.45);
    case 'plus': {
      const a = r * 0.38;
      ctx.beginPath();
      ctx.moveTo(x - a, y - r); ctx.lineTo(x + a, y - r); ctx.lineTo(x + a, y - a); ctx.lineTo(x + r, y - a);
      ctx.lineTo(x + r, y + a); ctx.lineTo(x + a, y + a); ctx.lineTo(x + a, y + r); ctx.lineTo(x - a, y + r);
      ctx.lineTo(x - a, y + a); ctx.lineTo(x - r, y + a); ctx.lineTo(x - r, y - a); ctx.lineTo(x - a, y - a);
      ctx.closePath();
      return undefined;
    }
    case 'bowtie': {
      ctx.beginPath();
      ctx.moveTo(x - r, y - r * 0.8); ctx.lineTo(x + r, y + r * 0.8); ctx.lineTo(x + r, y - r * 0.8); ctx.lineTo(x - r, y + r * 0.8);
      ctx.closePath();
      return undefined;
    }
    default:
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      return undefined;
  }
}

/** The strategy's ghost mark: its shape, hollow (paper inside), stroked in its colour. `filled` for the ◆. */
export function ghostMark(ctx, name, x, y, r, theme, { filled = false } = {}) {
  const s = STRATEGY_STYLES[name];
  const color = strategyColor(name, theme);
  shapePath(ctx, s?.shape ?? 'circle', x, y, r);
  ctx.fillStyle = filled ? color : theme.paper ?? '#ffffff';
  ctx.globalAlpha = filled ? 1 : 0.85;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.lineWidth = 2;
  ctx.strokeStyle = color;
  ctx.stroke();
}

const swatchUrls = new Map();
/** Swatches waiting for their picture: key → { paint, images }. */
const unpainted = new Map();

/** A transparent 1×1 picture: an `<img>` with its size set holds its place until its swatch is painted. */
const BLANK = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * Paints waiting swatches (a canvas → PNG per look, a few ms each on a slow phone) while the idle period lasts,
 * at least one each time; what is left waits for the next idle period, so this never becomes a long task.
 */
function paintSwatches(deadline) {
  for (const [key, { paint, images }] of unpainted) {
    swatchUrls.set(key, paint());
    for (const img of images) img.src = swatchUrls.get(key);
    unpainted.delete(key);
    if (deadline && deadline.timeRemaining() < 5) break;
  }
  if (unpainted.size) whenIdle(paintSwatches);
}

/**
 * A small legend swatch for `name`, sized for text: an `<img>` of the mark drawn once per look (name, theme,
 * size, pixel ratio). Not a canvas: every canvas is a compositor layer, and the text after two dozen of them
 * would be squashed into page-sized layers that are repainted whenever a readout changes. A look not
 * drawn yet is painted when the main thread is idle (the image keeps its size meanwhile, so nothing moves): the
 * panel is built before the first frame, its two dozen PNG encodings need not be.
 */
export function swatch(name, theme, size = 16) {
  const dpr = window.devicePixelRatio || 1;
  const key = `${name}|${theme.dark}|${theme.paper}|${size}|${dpr}`;
  const paint = () => {
    const c = document.createElement('canvas');
    c.width = size * dpr;
    c.height = size * dpr;
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ghostMark(ctx, name, size / 2, size / 2, size / 2 - 2.5, theme, { filled: name === 'playground' });
    return c.toDataURL();
  };
  const img = document.createElement('img');
  if (swatchUrls.has(key)) {
    img.src = swatchUrls.get(key);
  } else {
    img.src = BLANK;
    if (unpainted.size === 0) afterFirstFrame(() => whenIdle(paintSwatches));
    if (!unpainted.has(key)) unpainted.set(key, { paint, images: [] });
    unpainted.get(key).images.push(img);
  }
  img.width = size;
  img.height = size;
  img.alt = '';
  img.className = 'engine-swatch';
  img.setAttribute('aria-hidden', 'true');
  img.dataset.strategy = name;
  return img;
}

/**
 * Runs `fn` once the page says its first frame is drawn (`data-ready` on <html>): the boot's phases leave idle
 * moments between them, and swatches painted there (two dozen PNG encodings) delayed the first frame.
 */
function afterFirstFrame(fn) {
  const root = document.documentElement;
  if (root.dataset.ready) return fn();
  const observer = new MutationObserver(() => {
    if (!root.dataset.ready) return;
    observer.disconnect();
    fn();
  });
  observer.observe(root, { attributes: true, attributeFilter: ['data-ready'] });
}

/** Runs `fn` when the main thread is idle (at most 300 ms later). */
function whenIdle(fn) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 300 });
  else setTimeout(() => fn(null), 50);
}
