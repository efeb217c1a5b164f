// "Your network: recorded vs fitted" — shown while an imported (or recorded) snapshot trace is the current network.
// The core fits a network model to the trace (`Playground.fitTrace`, src/fit/: the one-way delay's floor and
// quantiles, a log-normal jitter, Gilbert–Elliott burst loss, reordering, duplication, the send interval, the clock
// skew) and draws the fitted downlink once (seed 1) for as many sends as the recording; the import worker computes
// it beside the import (trace-worker.js). Two small plots set the recording beside that draw:
//   delay   the one-way delay of every copy that arrived, in 5 ms bins (share of copies): recorded bars, fitted
//           outline; the floor (base) and the recording's p50 / p95 / p99 marked.
//   bursts  the runs of consecutive lost snapshots by length (1 … 9, ≥ 10): recorded bars, fitted outline.
// Under them, the fitted numbers in plain words and "Use the fitted model": the simulator's downlink, rates, clock
// skew and length become the fit's (`fittedParams`, what `netcode-lab fit --params` prints), so any seed then
// generates more of the same network.
import { COLORS } from '../canvas.js';
import { createFigure, ensureStylesheet, watchSize } from './figure.js';
import { axes, scale, ticks, niceCeil, label, textWidth, fitText, DASH, needsCasing } from './axes.js';
import { t, getLang } from '../strings/i18n.js';

/** `target` with every key of `patch` written in, plain objects merged key by key. */
export function merged(target, patch) {
  const out = structuredClone(target);
  const into = (to, from) => {
    for (const [key, value] of Object.entries(from)) {
      if (value && typeof value === 'object' && !Array.isArray(value) && to[key] && typeof to[key] === 'object') into(to[key], value);
      else to[key] = value;
    }
  };
  into(out, patch);
  return out;
}

const ms = (s) => s * 1000;
/** A number for the words line: `digits` decimals, trailing zeros dropped. */
const num = (v, digits = 1) => (Number.isFinite(v) ? String(+v.toFixed(digits)) : '—');

/** The fitted numbers in plain words (`fit`: `fitTrace`'s `fit`). */
export function fitWords(fit) {
  const base = fit.latency.base;
  return t('plot.fit.words', {
    base: num(ms(base), 1),
    p95: num(ms(fit.latency.p95), 1),
    jitter: num(ms(fit.jitter.median), 1),
    sigma: num(fit.jitter.sigma, 2),
    loss: num(fit.loss.rate * 100, 1),
    burst: fit.loss.meanBurst === null ? '—' : num(fit.loss.meanBurst, 1),
    reorder: num(fit.reorder.rate * 100, 1),
    duplicate: num(fit.duplicate.rate * 100, 1),
    rate: fit.sendInterval ? num(1 / fit.sendInterval, 1) : '—',
    skew: fit.clockSkewPpm === null ? '—' : num(fit.clockSkewPpm, 0),
  }).replace(/([\d—]) (%|ms|ppm)/g, '$1\u00a0$2'); // a number never wraps away from its unit
}

/** The plot area: room above it for the marks' names (three rows) and the y unit, below it for the x axis. */
function box(w, h) {
  return { left: 40, right: w - 10, top: 48, bottom: h - 34 };
}

/** The x axis's name, centred under its tick labels (every tick label keeps its place: ≥ 10 is one of them). */
function xName(ctx, b, h, text, theme) {
  label(ctx, fitText(ctx, text, b.right - b.left, 10.5), (b.left + b.right) / 2, h - 5, { color: theme.ink, size: 10.5, align: 'center' });
}

/** A histogram's bars (`heights` in the y scale's units) over the bands `[x0, x1]` of `bands`. */
function bars(ctx, bands, heights, y, bottom, theme) {
  ctx.save();
  ctx.fillStyle = COLORS.arrival;
  const cased = needsCasing(COLORS.arrival, theme);
  ctx.strokeStyle = COLORS.casing;
  ctx.lineWidth = 1;
  bands.forEach(([x0, x1], i) => {
    if (!(heights[i] > 0)) return;
    const gap = x1 - x0 > 6 ? 1 : 0;
    const top = Math.min(y(heights[i]), bottom - 1);
    ctx.fillRect(x0 + gap, top, x1 - x0 - 2 * gap, bottom - top);
    if (cased && x1 - x0 > 3) ctx.strokeRect(x0 + gap + 0.5, top + 0.5, x1 - x0 - 2 * gap - 1, bottom - top - 1);
  });
  ctx.restore();
}

/** The fitted model's histogram as a dashed outline over the same bands. */
function outline(ctx, bands, heights, y, bottom, theme, stepped) {
  ctx.save();
  ctx.strokeStyle = theme.ink;
  ctx.lineWidth = 1.6;
  ctx.setLineDash([5, 3]);
  ctx.beginPath();
  if (stepped) {
    ctx.moveTo(bands[0][0], bottom);
    bands.forEach(([x0, x1], i) => {
      const py = y(heights[i]);
      ctx.lineTo(x0, py);
      ctx.lineTo(x1, py);
    });
    ctx.lineTo(bands[bands.length - 1][1], bottom);
  } else {
    bands.forEach(([x0, x1], i) => {
      if (!(heights[i] > 0)) return;
      const py = Math.round(y(heights[i])) + 0.5;
      ctx.moveTo(x0 + 2, bottom);
      ctx.lineTo(x0 + 2, py);
      ctx.lineTo(x1 - 2, py);
      ctx.lineTo(x1 - 2, bottom);
    });
  }
  ctx.stroke();
  ctx.restore();
}

const sum = (a) => a.reduce((s, v) => s + v, 0);

function paintDelay(ctx, w, h, figure, theme) {
  const b = box(w, h);
  const { fit, recorded, fitted } = figure;
  const width = recorded.delay.binWidth;
  const n = recorded.delay.counts.length;
  const base = ms(fit.latency.base);
  const x = scale(base, base + ms(n * width), b.left, b.right);
  const share = (hist) => {
    const total = sum(hist.counts) + hist.over;
    return hist.counts.map((c) => (total ? (100 * c) / total : 0));
  };
  const rec = share(recorded.delay);
  const fitShare = share(fitted.delay);
  const top = niceCeil(Math.max(1, ...rec, ...fitShare), 4);
  const y = scale(0, top, b.bottom, b.top);
  axes(ctx, b, {
    x, y, theme,
    xTicks: ticks(base, base + ms(n * width), Math.max(2, Math.floor((b.right - b.left) / 60))),
    yTicks: ticks(0, top, 3),
    xFormat: (v) => `${+v.toFixed(1)}`,
    yFormat: (v) => `${+v.toFixed(1)}%`, // the unit on the ticks: the marks' names use the room above the plot
  });
  xName(ctx, b, h, t('plot.fitDelay.x'), theme);
  const bands = rec.map((_, i) => [x(base + ms(i * width)), x(base + ms((i + 1) * width))]);
  bars(ctx, bands, rec, y, b.bottom, theme);
  outline(ctx, bands, fitShare, y, b.bottom, theme, true);
  // The floor and the recording's quantiles: guides with their names, staggered where they would overlap.
  const marks = [['base', fit.latency.base], ['p50', fit.latency.p50], ['p95', fit.latency.p95], ['p99', fit.latency.p99]];
  let lastRight = -Infinity;
  let row = 0;
  for (const [name, value] of marks) {
    const px = Math.min(x(ms(value)), b.right);
    const text = name === 'base' ? t('plot.fitDelay.base', { ms: num(ms(value), 0) }) : `${name} ${num(ms(value), 0)}`;
    const tw = textWidth(ctx, text, 10);
    const lx = Math.max(b.left + 2, Math.min(px + 3, b.right - tw));
    row = lx < lastRight + 4 ? (row + 1) % 3 : 0;
    const ly = 10 + row * 10;
    ctx.save();
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1;
    ctx.setLineDash(DASH.guide);
    ctx.beginPath();
    ctx.moveTo(Math.round(px) + 0.5, ly - 8);
    ctx.lineTo(Math.round(px) + 0.5, b.bottom);
    ctx.stroke();
    ctx.restore();
    label(ctx, text, lx, ly, { color: theme.ink, size: 10, halo: theme.panel });
    lastRight = lx + tw;
  }
  if (recorded.delay.over > 0) {
    const text = fitText(ctx, [t('plot.fitDelay.over', { n: recorded.delay.over }), `+${recorded.delay.over}`], (b.right - b.left) / 2, 10);
    label(ctx, text, b.right, b.top + 10, { color: theme.muted, size: 10, align: 'right', halo: theme.panel });
  }
  return { recorded: rec, fitted: fitShare, marks: Object.fromEntries(marks.map(([k, v]) => [k, v])) };
}

function paintBursts(ctx, w, h, figure, theme) {
  const b = box(w, h);
  const rec = figure.recorded.bursts.counts;
  const fitCounts = figure.fitted.bursts.counts;
  const n = rec.length;
  const x = scale(0, n, b.left, b.right);
  const top = niceCeil(Math.max(1, ...rec, ...fitCounts), 3);
  const y = scale(0, top, b.bottom, b.top);
  const whole = ticks(0, top, 3).filter((v) => Number.isInteger(v));
  axes(ctx, b, {
    x, y, theme,
    xTicks: rec.map((_, i) => i + 0.5),
    yTicks: whole,
    xFormat: (v) => (v > n - 1 ? `≥${n}` : `${Math.round(v + 0.5)}`),
    yFormat: (v) => `${v}`,
    yLabel: t('plot.fitBursts.y'),
  });
  xName(ctx, b, h, t('plot.fitBursts.x'), theme);
  const bands = rec.map((_, i) => [x(i) + 2, x(i + 1) - 2]);
  bars(ctx, bands, rec, y, b.bottom, theme);
  outline(ctx, bands, fitCounts, y, b.bottom, theme, false);
  if (sum(rec) === 0 && sum(fitCounts) === 0) {
    label(ctx, t('plot.fitBursts.none'), (b.left + b.right) / 2, (b.top + b.bottom) / 2, { color: theme.muted, size: 11, align: 'center' });
  }
  return { recorded: rec, fitted: fitCounts };
}

/**
 * Mounts the figure into #fit. `host`: `fit()` (the current import's `{figure, trace}` or null), `model()`,
 * `apply(params)`, `setPreset(name)`, and for the figures `requestDraw()`, `inDrag()`, `playing()`.
 */
export async function mount(host) {
  await ensureStylesheet();
  const section = document.getElementById('fit');
  // Named here, not in the HTML: its words are the `later` strings, fetched after the first frame.
  section.setAttribute('aria-label', t('plot.fit.title'));
  section.dataset.i18nAriaLabel = 'plot.fit.title';
  const heading = document.createElement('h2');
  heading.dataset.i18n = 'plot.fit.title';
  heading.textContent = t('plot.fit.title');
  section.append(heading);
  const legend = [
    { text: t('plot.fit.legendRecorded'), swatch: { color: COLORS.arrival, mark: 'square', line: false, cased: true } },
    { text: t('plot.fit.legendFitted'), swatch: { color: 'currentColor', dash: '5 3', width: 1.6 } },
  ];
  const delay = createFigure(section, { host, id: 'plot-fit-delay', width: 360, height: 230, i18n: 'plot.fitDelay', legend });
  const bursts = createFigure(section, { host, id: 'plot-fit-bursts', width: 360, height: 230, i18n: 'plot.fitBursts', legend });
  const words = document.createElement('p');
  words.className = 'fit-words';
  words.id = 'fit-words';
  const row = document.createElement('div');
  row.className = 'fit-use';
  const use = document.createElement('button');
  use.type = 'button';
  use.id = 'fit-use';
  use.dataset.i18n = 'plot.fit.use';
  use.textContent = t('plot.fit.use');
  const hint = document.createElement('span');
  hint.className = 'hint';
  hint.id = 'fit-use-hint';
  row.append(use, hint);
  section.append(words, row);
  watchSize(host, [delay.canvas, bursts.canvas]);

  use.addEventListener('click', () => {
    const params = host.fit()?.figure.fittedParams;
    if (!params) return;
    host.setPreset('custom');
    host.apply(merged(host.model().params, params));
  });

  let shown = null; // the figure drawn, and in which language: the words are rewritten only when either changes
  const painter = {
    figures: [delay, bursts],
    /** What was last drawn, for the tests: the bars' and outlines' heights and the marks. */
    drawn: null,
    draw({ model, theme }) {
      const current = host.fit();
      const show = Boolean(current && model.imported && model.trace === current.trace);
      if (section.hidden === show) section.hidden = !show;
      if (!show) return;
      const figure = current.figure;
      const lang = getLang();
      if (shown?.figure !== figure || shown.lang !== lang) {
        shown = { figure, lang };
        words.textContent = fitWords(figure.fit);
        use.disabled = !figure.fittedParams;
        hint.textContent = figure.fittedParams ? t('plot.fit.useHint') : t('plot.fit.refused', { message: figure.paramsRefused ?? '' });
        const legendItems = [
          { text: t('plot.fit.legendRecorded'), swatch: { color: COLORS.arrival, mark: 'square', line: false, cased: needsCasing(COLORS.arrival, theme) } },
          { text: t('plot.fit.legendFitted'), swatch: { color: theme.ink, dash: '5 3', width: 1.6 } },
        ];
        delay.setLegend(legendItems);
        bursts.setLegend(legendItems);
      }
      const key = [current.id, theme.dark, theme.ink, lang];
      const drawn = { ...this.drawn };
      delay.paint(key, (ctx, w, h) => { drawn.delay = paintDelay(ctx, w, h, figure, theme); });
      bursts.paint(key, (ctx, w, h) => { drawn.bursts = paintBursts(ctx, w, h, figure, theme); });
      this.drawn = drawn;
    },
  };
  return painter;
}
