// Plot 4 — the clock under the render time (seed 004 §2 "时钟是插值的地基", §4.2 adaptive delay).
//
// Top: every RTT sample the render clock took (○ accepted, ✕ rejected as an outlier — seed 004 §2.2 "如果某个
// 样本偏离平均值太多直接丢弃", ◎ a reseed after too many rejects), the smoothed RTT the clock trusts, and the
// render delay in use (it only moves when Adaptive delay is on) and where it is heading. The controller that is on
// is drawn: seed 004 §4.2's (its own smoothed RTT, sampled every 200 ms with lerp 0.1, against its 100 ms
// threshold: RTT above it → delay towards 150 ms, else 50 ms, by 2 % per sample) or the project's (the target
// follows the measured jitter: k send intervals + m standard deviations, plus the latency the clock believes in).
// Bottom: the clock error, estimated server time minus the true one: it should settle near zero and stay there
// while the raw RTT jumps about — "a smooth curve, no sudden steps back or leaps forward".
// The cursor is the playhead. Clicking the plot moves the playhead there.

import { COLORS, cross, cssWidth } from '../canvas.js';
import { createFigure } from './figure.js';
import { axes, scale, ticks, niceCeil, polyline, label, textWidth, fitText, cursor, needsCasing } from './axes.js';
import { t, getLang } from '../strings/i18n.js';

/** Everything the plot needs from one run, copied out of wasm memory once. */
function readRun(model) {
  const r = model.table('rtt');
  const verdicts = model.codes.rttVerdict;
  const samples = [];
  for (let i = 0; i < r.rows; i++) {
    const row = i * r.stride;
    samples.push({
      at: r.view[row + r.col.at],
      rtt: r.view[row + r.col.rtt],
      smoothed: r.view[row + r.col.smoothed],
      verdict: verdicts[r.view[row + r.col.verdict]] ?? 'invalid',
    });
  }
  const f = model.table('frames');
  const n = f.rows;
  const local = new Float64Array(n);
  const error = new Float64Array(n);
  const delay = new Float64Array(n);
  const target = new Float64Array(n);
  const controllerRtt = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const row = i * f.stride;
    local[i] = f.view[row + f.col.local];
    error[i] = f.view[row + f.col.clockError];
    delay[i] = f.view[row + f.col.delay];
    target[i] = f.view[row + f.col.delayTarget];
    controllerRtt[i] = f.view[row + f.col.adaptiveRtt];
  }
  const adaptive = model.imported ? { enabled: false } : model.params.remote.clock.adaptiveDelay;
  const mode = adaptive.enabled ? adaptive.mode : 'fixed';
  const threshold = mode === 'seed004' ? adaptive.seed004.rttThreshold : NaN;
  const finite = (a) => a.filter(Number.isFinite);
  const rtts = finite(samples.map((s) => s.rtt)).sort((a, b) => a - b);
  const p98 = rtts.length ? rtts[Math.min(rtts.length - 1, Math.floor(rtts.length * 0.98))] : 0.1;
  const maxDelay = Math.max(0, ...finite(Array.from(delay)), ...(mode === 'fixed' ? [] : finite(Array.from(target))), Number.isFinite(threshold) ? threshold : 0);
  // The error's range once settled (the first seconds converge from far off and are drawn clipped).
  const settled = [];
  let first = NaN;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(error[i])) continue;
    if (Number.isNaN(first)) first = error[i];
    if (local[i] >= Math.min(2, local[n - 1] / 4)) settled.push(Math.abs(error[i]));
  }
  settled.sort((a, b) => a - b);
  const maxErr = settled.length ? settled[Math.floor((settled.length - 1) * 0.99)] * 1.6 : 0;
  return {
    runId: model.runId,
    samples, local, error, delay, target, controllerRtt, mode, threshold,
    yMax: niceCeil(Math.max(p98 * 1.15, maxDelay * 1.1, 0.02) * 1000, 4),
    errMax: niceCeil(Math.max(maxErr * 1000, 2), 2),
    firstError: first,
    rejected: samples.filter((s) => s.verdict === 'rejected').length,
  };
}

export function mount(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-clock',
    width: 360,
    height: 270,
    i18n: 'plot.clock',
  });
  let run = { runId: -1 };

  function layout(w, h) {
    const left = 36;
    const right = w - 12;
    return {
      top: { left, right, top: 36, bottom: Math.round(h * 0.58) },
      bottom: { left, right, top: Math.round(h * 0.58) + 26, bottom: h - 30 },
    };
  }

  function paintStatic(ctx, w, h, d, duration, theme) {
    const l = layout(w, h);
    const x = scale(0, duration, l.top.left, l.top.right);
    const y = scale(0, d.yMax, l.top.bottom, l.top.top);
    const ye = scale(-d.errMax, d.errMax, l.bottom.bottom, l.bottom.top);
    const xTicks = ticks(0, duration, 6);
    // The sample count shares the y label's line, right-aligned: it gets the room it needs.
    const counts = fitText(ctx, [t('plot.clock.samples', { n: d.samples.length, rejected: d.rejected }), t('plot.clock.samplesShort', { n: d.samples.length, rejected: d.rejected })], (l.top.right - l.top.left) * 0.45, 10);
    axes(ctx, l.top, { x, y, theme, xTicks, yTicks: ticks(0, d.yMax, 3), xFormat: () => '', yFormat: (v) => `${v}`, yLabel: t('plot.clock.y'), yLabelWidth: l.top.right - l.top.left - textWidth(ctx, counts, 10) - 10 });
    axes(ctx, l.bottom, { x, y: ye, theme, xTicks, yTicks: [-d.errMax, 0, d.errMax], xFormat: (v) => `${+v.toFixed(1)}`, yFormat: (v) => `${v > 0 ? '+' : ''}${v}`, xLabel: t('plot.runTime'), yLabel: t('plot.clock.yError') });
    label(ctx, counts, l.top.right, l.top.top - 6, { color: theme.muted, size: 10, align: 'right' });

    // Render delay in use (render colour: it is the render clock's lag).
    const delayPts = [];
    const step = Math.max(1, Math.floor(d.local.length / (l.top.right - l.top.left)));
    for (let i = 0; i < d.local.length; i += step) delayPts.push([x(d.local[i]), y(Math.min(d.delay[i] * 1000, d.yMax))]);
    polyline(ctx, delayPts, { color: COLORS.render, width: 2 });
    if (d.mode !== 'fixed') {
      // Where the adaptive delay is heading (the controller that is on).
      const targetPts = [];
      for (let i = 0; i < d.local.length; i += step) targetPts.push(Number.isFinite(d.target[i]) ? [x(d.local[i]), y(Math.min(d.target[i] * 1000, d.yMax))] : null);
      polyline(ctx, targetPts, { color: COLORS.render, width: 1.2, dash: [5, 4] });
    }
    if (d.mode === 'seed004') {
      // Seed 004 §4.2: its own smoothed RTT (lerp 0.1 every 200 ms) against the threshold.
      const ty = Math.round(y(Math.min(d.threshold * 1000, d.yMax))) + 0.5;
      polyline(ctx, [[l.top.left, ty], [l.top.right, ty]], { color: COLORS.extrapolated, width: 1, dash: [2, 3] });
      label(ctx, t('plot.clock.threshold', { ms: Math.round(d.threshold * 1000) }), l.top.left + 4, ty - 3, { color: theme.ink, size: 10, halo: theme.panel });
      const rttPts = [];
      for (let i = 0; i < d.local.length; i += step) rttPts.push(Number.isFinite(d.controllerRtt[i]) ? [x(d.local[i]), y(Math.min(d.controllerRtt[i] * 1000, d.yMax))] : null);
      polyline(ctx, rttPts, { color: COLORS.extrapolated, width: 2, cased: needsCasing(COLORS.extrapolated, theme) });
    }
    // Raw samples.
    const top = y(d.yMax);
    for (const s of d.samples) {
      if (!Number.isFinite(s.rtt) || !Number.isFinite(s.at)) continue;
      const px = x(s.at);
      const over = s.rtt * 1000 > d.yMax;
      const py = over ? top + 3 : y(s.rtt * 1000);
      if (s.verdict === 'rejected') cross(ctx, px, py, 3.2, theme.ink);
      else {
        ctx.beginPath();
        ctx.arc(px, py, 2.4, 0, Math.PI * 2);
        ctx.lineWidth = 1.2;
        ctx.strokeStyle = theme.muted;
        ctx.stroke();
        if (s.verdict === 'reseeded') {
          ctx.beginPath();
          ctx.arc(px, py, 0.9, 0, Math.PI * 2);
          ctx.fillStyle = theme.ink;
          ctx.fill();
        }
      }
      if (over) label(ctx, '↑', px + 3, py + 4, { color: theme.ink, size: 9 });
    }
    // Smoothed RTT.
    polyline(ctx, d.samples.filter((s) => Number.isFinite(s.smoothed)).map((s) => [x(s.at), y(Math.min(s.smoothed * 1000, d.yMax))]), { color: theme.ink, width: 1.8 });

    // Clock error, with the true clock at zero.
    ctx.save();
    ctx.strokeStyle = theme.truth;
    ctx.lineWidth = 1;
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.moveTo(l.bottom.left, Math.round(ye(0)) + 0.5);
    ctx.lineTo(l.bottom.right, Math.round(ye(0)) + 0.5);
    ctx.stroke();
    ctx.restore();
    const errPts = [];
    for (let i = 0; i < d.local.length; i++) {
      const e = d.error[i];
      errPts.push(Number.isFinite(e) ? [x(d.local[i]), ye(Math.max(-d.errMax, Math.min(d.errMax, e * 1000)))] : null);
    }
    polyline(ctx, errPts, { color: theme.ink, width: 1.5 });
    if (Number.isFinite(d.firstError) && Math.abs(d.firstError * 1000) > d.errMax) {
      const sign = d.firstError < 0 ? '−' : '+';
      const arrowY = d.firstError < 0 ? l.bottom.bottom - 4 : l.bottom.top + 12;
      label(ctx, t('plot.clock.startsAt', { arrow: d.firstError < 0 ? '↓' : '↑', v: `${sign}${Math.abs(d.firstError * 1000).toFixed(0)}` }), l.bottom.left + 6, arrowY, { color: theme.ink, size: 10, halo: theme.panel });
    }
  }

  function indexAt(d, t) {
    let lo = 0;
    let hi = d.local.length - 1;
    if (hi < 0) return -1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (d.local[mid] <= t) lo = mid;
      else hi = mid;
    }
    return lo;
  }

  /** The values under the playhead: the last smoothed RTT, the clock error and the delay. */
  function readAt(d, playhead) {
    let smoothed = NaN;
    for (const s of d.samples) {
      if (s.at > playhead) break;
      if (Number.isFinite(s.smoothed)) smoothed = s.smoothed;
    }
    const i = indexAt(d, playhead);
    return { smoothed, err: i >= 0 ? d.error[i] : NaN, delay: i >= 0 ? d.delay[i] : NaN };
  }

  function paintOverlay(ctx, w, h, d, duration, playhead, theme) {
    const l = layout(w, h);
    const x = scale(0, duration, l.top.left, l.top.right);
    const px = x(playhead);
    cursor(ctx, px, l.top.top, l.top.bottom, theme);
    cursor(ctx, px, l.bottom.top, l.bottom.bottom, theme);
    const { smoothed, err, delay } = readAt(d, playhead);
    const parts = [Number.isFinite(smoothed) ? t('plot.clock.nowRtt', { ms: Math.round(smoothed * 1000) }) : t('plot.clock.noRtt')];
    if (Number.isFinite(delay)) parts.push(t('plot.clock.nowDelay', { ms: Math.round(delay * 1000) }));
    const text = fitText(ctx, [t('plot.now', { what: parts.join(' · ') }), t('plot.now', { what: parts[0] })], w - 12, 10.5, '600');
    label(ctx, text, l.top.left - 30, 13, { color: theme.ink, size: 10.5, weight: '600', halo: theme.panel });
    const errText = Number.isFinite(err) ? `${err >= 0 ? '+' : '−'}${Math.abs(err * 1000).toFixed(1)} ms` : t('plot.clock.uncertain');
    const tw = textWidth(ctx, errText, 10.5, '600');
    label(ctx, errText, px + 4 + tw > l.bottom.right ? px - 4 - tw : px + 4, l.bottom.top + 10, { color: theme.ink, size: 10.5, weight: '600', halo: theme.panel });
  }

  /** What the overlay shows, at pixel and readout resolution: it is only redrawn when this changes. */
  function overlayKey(d, duration, playhead) {
    const l = layout(cssWidth(fig.canvas), 0);
    const { smoothed, err, delay } = readAt(d, playhead);
    return [Math.round(scale(0, duration, l.top.left, l.top.right)(playhead)), Math.round(smoothed * 1000), Math.round(err * 10000), Math.round(delay * 1000)];
  }

  fig.stage.classList.add('seekable');
  fig.stage.addEventListener('click', (event) => {
    const p = fig.pointer(event);
    const l = layout(p.w, p.h);
    const px = p.x;
    if (px < l.top.left || px > l.top.right) return;
    host.seek(scale(0, host.model().duration, l.top.left, l.top.right).invert(px));
    host.requestDraw();
  });

  return {
    draw({ model, playhead, theme }) {
      if (run.runId !== model.runId) run = readRun(model);
      const duration = model.duration;
      fig.setLegend([
        { text: t('plot.clock.legendSample'), swatch: { color: theme.muted, mark: 'ring', line: false } },
        { text: t('plot.clock.legendRejected'), swatch: { color: theme.ink, mark: 'cross', line: false } },
        { text: t('plot.clock.legendSmoothed'), swatch: { color: theme.ink, width: 1.8 } },
        ...(run.mode === 'seed004' ? [{ text: t('plot.clock.legendSeed004'), swatch: { color: COLORS.extrapolated, width: 2, cased: !theme.dark } }] : []),
        { text: t(`plot.clock.legendDelay.${run.mode}`), swatch: { color: COLORS.render, width: 2 } },
        ...(run.mode !== 'fixed' ? [{ text: t('plot.clock.legendTarget'), swatch: { color: COLORS.render, width: 1.2, dash: '5 4' } }] : []),
        { text: t('plot.clock.legendError'), swatch: { color: theme.ink, width: 1.5 } },
      ]);
      fig.figure.dataset.controller = run.mode;
      fig.paint(
        [run.runId, duration, theme.dark, theme.ink, getLang()],
        (ctx, w, h) => paintStatic(ctx, w, h, run, duration, theme),
        (ctx, w, h) => paintOverlay(ctx, w, h, run, duration, playhead, theme),
        overlayKey(run, duration, playhead),
      );
    },
    figure: fig,
  };
}
