// Plot 2 — the correction offset after one correction (seed 003 §"第四步"), and the run's corrections.
//
// Top: how much of one correction is still shown t ms later, for each way of showing it — the half-life offset
// (halves every `halfLife`, whatever the frame rate), snap (the whole jump at once), linear over `smoothTime`,
// and the article's first version `lerp(…, 0.1)` per frame (a lerp chase: its speed depends on the fps).
// The curves are the real smoother run frame by frame in Rust (`model.decayCurves`). The x axis only changes in
// steps, so dragging Half-life visibly stretches the curve; the dots mark ½, ¼, ⅛ at 1, 2, 3 half-lives.
// Bottom strip: every reconcile of the run at its local time, its bar as tall as the correction it made
// (a rug of ticks when the prediction matched), with the playhead. The top's "now" dot sits at the time since
// the last correction, on the current smoothing mode's curve: the two halves of the figure are one story.
// Clicking the strip moves the playhead there.

import { COLORS, cross, cssWidth } from '../canvas.js';
import { createFigure } from './figure.js';
import { axes, scale, ticks, niceCeil, polyline, label, textWidth, fitText, DASH, needsCasing, cursor } from './axes.js';
import { t, getLang } from '../strings/i18n.js';

const RANGES = [0.5, 1, 2, 3];
const EPS = 1e-6;
/** A smoothing mode's short name (`plot.smoothing.*`: half-life, snap, first version, linear). */
const modeText = (mode) => t(`plot.smoothing.${mode}`);

function rangeFor(halfLife, smoothTime) {
  const need = Math.max(4 * halfLife, 1.2 * smoothTime);
  return RANGES.find((r) => r >= need) ?? RANGES[RANGES.length - 1];
}

function valueAt(curve, t) {
  if (!curve?.length) return null;
  const dt = curve.length > 1 ? curve[1].time - curve[0].time : 1;
  const k = t / dt;
  const i = Math.min(Math.max(Math.floor(k), 0), curve.length - 1);
  const j = Math.min(i + 1, curve.length - 1);
  return curve[i].offset + (curve[j].offset - curve[i].offset) * Math.min(Math.max(k - i, 0), 1);
}

/** The corrections of the run: plain arrays, copied once per run. */
function readCorrections(model) {
  const c = model.table('corrections');
  const at = [];
  const size = [];
  const reset = [];
  for (let i = 0; i < c.rows; i++) {
    const row = i * c.stride;
    at.push(c.view[row + c.col.local]);
    size.push(c.view[row + c.col.size]);
    reset.push(c.view[row + c.col.reset] === 1);
  }
  let moved = 0;
  let max = 0;
  for (let i = 0; i < size.length; i++) {
    if (size[i] > EPS || reset[i]) moved += 1;
    if (size[i] > max) max = size[i];
  }
  return { at, size, reset, moved, max, count: size.length };
}

export function mount(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-decay',
    width: 360,
    height: 270,
    i18n: 'plot.decay',
  });
  let cache = { key: '' };
  let runCache = { runId: -1 };

  function data(model) {
    const { halfLife, smoothTime } = model.params.local;
    const fps = model.params.fps;
    const until = rangeFor(halfLife, smoothTime);
    const key = `${halfLife}|${smoothTime}|${fps}|${until}`;
    if (cache.key !== key) {
      cache = { key, halfLife, smoothTime, fps, until, curves: model.decayCurves(1, fps, until) };
    }
    if (runCache.runId !== model.runId) runCache = { runId: model.runId, ...readCorrections(model) };
    return { ...cache, corr: runCache };
  }

  function layout(w, h) {
    return {
      chart: { left: 36, top: 36, right: w - 12, bottom: h - 98 },
      strip: { left: 36, top: h - 58, right: w - 12, bottom: h - 22 },
    };
  }

  function paintChart(ctx, box, d, mode, theme) {
    const x = scale(0, d.until, box.left, box.right);
    const y = scale(0, 1, box.bottom, box.top);
    axes(ctx, box, {
      x, y, theme,
      xTicks: ticks(0, d.until * 1000, 5).map((v) => v / 1000),
      yTicks: [0, 0.25, 0.5, 0.75, 1],
      xFormat: (v) => `${Math.round(v * 1000)}`,
      yFormat: (v) => `${Math.round(v * 100)}`,
      xLabel: t('plot.decay.x'),
      yLabel: t('plot.decay.y'),
    });
    const pts = (curve) => curve.map((p) => [x(p.time), y(p.offset)]);
    const width = (name) => (name === mode ? 2.8 : 1.6);
    const ink = theme.ink;
    // Snap: the whole correction at once — a vertical jump at t = 0.
    polyline(ctx, [[x(0) + 1, y(1)], [x(0) + 1, y(0)]], { color: ink, width: width('snap') });
    polyline(ctx, pts(d.curves.linear), { color: ink, width: width('linear'), dash: DASH.extrapolated, alpha: 0.8 });
    polyline(ctx, pts(d.curves.firstVersion), { color: COLORS.lerp, width: width('firstVersion'), dash: DASH.lerp, cap: 'round' });
    // The first version moves once per frame: at a low frame rate, show the frames.
    const fvPts = pts(d.curves.firstVersion);
    if (fvPts.length > 1 && fvPts[1][0] - fvPts[0][0] > 6) {
      ctx.fillStyle = COLORS.lerp;
      for (const [px, py] of fvPts) {
        ctx.beginPath();
        ctx.arc(px, py, 2, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    polyline(ctx, pts(d.curves.halfLife), { color: COLORS.offset, width: width('halfLife'), cased: needsCasing(COLORS.offset, theme) });

    // ½, ¼, ⅛ at one, two, three half-lives.
    const marks = ['½', '¼', '⅛'];
    for (let k = 1; k <= 3; k++) {
      const t = k * d.halfLife;
      if (t > d.until) break;
      const v = 0.5 ** k;
      ctx.save();
      ctx.strokeStyle = theme.muted;
      ctx.setLineDash(DASH.guide);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(Math.round(x(t)) + 0.5, y(v));
      ctx.lineTo(Math.round(x(t)) + 0.5, box.bottom);
      ctx.stroke();
      ctx.restore();
      ctx.beginPath();
      ctx.arc(x(t), y(v), 3.2, 0, Math.PI * 2);
      ctx.fillStyle = COLORS.offset;
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = COLORS.casing;
      ctx.stroke();
      label(ctx, marks[k - 1], x(t) + 5, y(v) - 4, { color: ink, size: 11, halo: theme.panel, weight: '600' });
    }
    const hlMs = Math.round(d.halfLife * 1000);
    const hlText = fitText(ctx, [t('plot.decay.halfLifeLabel', { ms: hlMs }), t('plot.decay.halfLifeShort', { ms: hlMs })], box.right - box.left - 8, 10.5, '600');
    const hx = Math.min(x(d.halfLife) + 14, box.right - textWidth(ctx, hlText, 10.5, '600'));
    label(ctx, hlText, Math.max(box.left + 8, hx), y(0.5) - 12, { color: ink, size: 10.5, halo: theme.panel, weight: '600' });

    // Direct labels for the other modes, where their curves are.
    const fvT = Math.min(d.until * 0.55, 14 / d.fps);
    const fv = valueAt(d.curves.firstVersion, fvT);
    const fvText = fitText(ctx, [t('plot.decay.firstVersionLabel', { fps: Math.round(d.fps) }), modeText('firstVersion')], box.right - box.left - 8, 10.5);
    label(ctx, fvText, Math.min(x(fvT) + 6, box.right - textWidth(ctx, fvText, 10.5)), Math.max(y(fv) - 6, y(0.5) + 12), { color: ink, size: 10.5, halo: theme.panel });
    const st = Math.min(d.smoothTime, d.until);
    const linText = fitText(ctx, [t('plot.decay.linearLabel', { ms: Math.round(d.smoothTime * 1000) }), modeText('linear')], box.right - box.left - 8, 10.5);
    label(ctx, linText, Math.min(x(st) + 4, box.right - textWidth(ctx, linText, 10.5)), box.bottom - 6, { color: ink, size: 10.5, halo: theme.panel });
    label(ctx, `← ${modeText('snap')}`, x(0) + 4, y(0.15), { color: ink, size: 10.5, halo: theme.panel });
  }

  function paintStrip(ctx, box, d, duration, theme) {
    const { corr } = d;
    const x = scale(0, duration, box.left, box.right);
    const yMax = niceCeil(corr.max || 1, 2);
    const y = scale(0, yMax, box.bottom, box.top);
    // The count shares the y label's line, right-aligned: it gets the room it needs (shorter forms when tight).
    const movedVars = { moved: corr.moved, count: corr.count, max: +corr.max.toFixed(2) };
    const moved = fitText(ctx, [
      corr.moved ? t('plot.decay.movedMax', movedVars) : t('plot.decay.moved', movedVars),
      t('plot.decay.moved', movedVars), t('plot.decay.movedShort', movedVars),
    ], (box.right - box.left) * 0.55, 10);
    axes(ctx, box, {
      x, y, theme,
      xTicks: ticks(0, duration, 6),
      yTicks: [0, yMax],
      xFormat: (v) => `${+v.toFixed(1)}`,
      yFormat: (v) => `${+v.toFixed(1)}`,
      xLabel: t('plot.runTime'),
      yLabel: t('plot.decay.stripY'),
      yLabelWidth: box.right - box.left - textWidth(ctx, moved, 10) - 10,
      grid: false,
    });
    label(ctx, moved, box.right, box.top - 6, { color: theme.muted, size: 10, align: 'right' });
    // Rug: every reconcile.
    ctx.save();
    ctx.strokeStyle = theme.muted;
    ctx.lineWidth = 1;
    ctx.globalAlpha = 0.6;
    ctx.beginPath();
    for (let i = 0; i < corr.count; i++) {
      const px = Math.round(x(corr.at[i])) + 0.5;
      ctx.moveTo(px, box.bottom);
      ctx.lineTo(px, box.bottom - 3);
    }
    ctx.stroke();
    ctx.restore();
    // Bars: the corrections that moved the player (offset colour; on light panels every bar's casing goes
    // down first, so dense runs still read as yellow with dark edges).
    const cased = needsCasing(COLORS.offset, theme);
    const bars = [];
    for (let i = 0; i < corr.count; i++) {
      const px = Math.round(x(corr.at[i]));
      if (corr.reset[i]) cross(ctx, px, box.top + 4, 3.5, theme.ink);
      else if (corr.size[i] > EPS) bars.push([px, Math.min(y(corr.size[i]), box.bottom - 2)]);
    }
    if (cased) {
      ctx.fillStyle = COLORS.casing;
      for (const [px, top] of bars) ctx.fillRect(px - 1.5, top - 1, 4, box.bottom - top + 1);
    }
    ctx.fillStyle = COLORS.offset;
    for (const [px, top] of bars) ctx.fillRect(px - 0.5, top, 2, box.bottom - top);
    if (!corr.moved) {
      label(ctx, fitText(ctx, [t('plot.decay.none', { control: t('control.mismatch') }), t('plot.decay.noneShort')], box.right - box.left - 8, 10.5), (box.left + box.right) / 2, (box.top + box.bottom) / 2 + 2, { color: theme.ink, size: 10.5, align: 'center', halo: theme.panel });
    }
  }

  function lastCorrection(corr, t) {
    let lo = 0;
    let hi = corr.count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (corr.at[mid] <= t) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    for (let i = found; i >= 0; i--) if (corr.size[i] > EPS || corr.reset[i]) return i;
    return -1;
  }

  function paintOverlay(ctx, w, h, d, mode, playhead, duration, theme) {
    const { chart, strip } = layout(w, h);
    const xs = scale(0, duration, strip.left, strip.right);
    cursor(ctx, xs(playhead), strip.top - 2, strip.bottom, theme);
    const i = lastCorrection(d.corr, playhead);
    if (i < 0) return;
    const since = playhead - d.corr.at[i];
    const size = d.corr.size[i];
    const x = scale(0, d.until, chart.left, chart.right);
    const y = scale(0, 1, chart.bottom, chart.top);
    let text;
    if (d.corr.reset[i]) {
      text = [t('plot.decay.nowReset', { ms: Math.round(since * 1000) })];
    } else if (since <= d.until) {
      const left = mode === 'snap' ? 0 : valueAt(d.curves[mode], since);
      const px = x(since);
      ctx.save();
      ctx.strokeStyle = theme.ink;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(Math.round(px) + 0.5, chart.top + 12);
      ctx.lineTo(Math.round(px) + 0.5, chart.bottom);
      ctx.stroke();
      ctx.restore();
      ctx.beginPath();
      ctx.arc(px, y(left), 4.5, 0, Math.PI * 2);
      ctx.fillStyle = theme.ink;
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = theme.panel;
      ctx.stroke();
      const vars = { ms: Math.round(since * 1000), size: +size.toFixed(2), pct: Math.round(left * 100), left: +(left * size).toFixed(2), mode: modeText(mode) };
      text = [t('plot.decay.now', vars), t('plot.decay.nowShort', vars)];
    } else {
      text = [t('plot.decay.gone', { s: +since.toFixed(2), size: +size.toFixed(2) })];
    }
    text = fitText(ctx, text, w - 12, 10.5, '600');
    label(ctx, text, chart.left - 30, 13, { color: theme.ink, size: 10.5, weight: '600', halo: theme.panel });
  }

  /** What the overlay shows, at pixel resolution: it is only redrawn when this changes. */
  function overlayKey(d, playhead, duration) {
    const w = cssWidth(fig.canvas);
    const { strip } = layout(w, Math.round(w * 0.75));
    const i = lastCorrection(d.corr, playhead);
    const since = i < 0 ? -1 : playhead - d.corr.at[i];
    return [Math.round(scale(0, duration, strip.left, strip.right)(playhead)), i, since >= 0 && since <= d.until ? Math.round(since * 1000) : -1];
  }

  // Clicking the strip moves the playhead to that run time.
  fig.stage.addEventListener('click', (event) => {
    const p = fig.pointer(event);
    const { strip } = layout(p.w, p.h);
    const px = p.x;
    const py = p.y;
    if (py < strip.top - 8 || py > strip.bottom + 16 || px < strip.left || px > strip.right) return;
    const duration = host.model().duration;
    host.seek(scale(0, duration, strip.left, strip.right).invert(px));
    host.requestDraw();
  });
  fig.stage.addEventListener('pointermove', (event) => {
    const p = fig.pointer(event);
    const { strip } = layout(p.w, p.h);
    const py = p.y;
    fig.stage.style.cursor = py >= strip.top - 8 && py <= strip.bottom + 16 ? 'pointer' : '';
  });

  return {
    draw({ model, playhead, theme }) {
      const d = data(model);
      const mode = model.params.local.smoothing;
      const duration = model.duration;
      const current = (on) => (on ? t('plot.current') : '');
      fig.setLegend([
        { text: `${modeText('halfLife')}${current(mode === 'halfLife')}`, swatch: { color: COLORS.offset, width: 2.5, cased: !theme.dark, mark: 'circle' } },
        { text: `${t('plot.decay.legendFirstVersion')}${current(mode === 'firstVersion')}`, swatch: { color: COLORS.lerp, dash: '1.5 3.5' } },
        { text: `${modeText('linear')}${current(mode === 'linear')}`, swatch: { color: theme.ink, dash: '6 4' } },
        { text: `${modeText('snap')}${current(mode === 'snap')}`, swatch: { color: theme.ink, width: 1.5 } },
        { text: t('plot.decay.legendStrip'), swatch: { color: COLORS.offset, line: false, mark: 'square' } },
      ]);
      fig.paint(
        [d.key, d.corr.runId, mode, duration, theme.dark, theme.ink, getLang()],
        (ctx, w, h) => {
          const { chart, strip } = layout(w, h);
          paintChart(ctx, chart, d, mode, theme);
          paintStrip(ctx, strip, d, duration, theme);
        },
        (ctx, w, h) => paintOverlay(ctx, w, h, d, mode, playhead, duration, theme),
        overlayKey(d, playhead, duration),
      );
    },
    figure: fig,
  };
}
