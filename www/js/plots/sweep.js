// Plot 3 — the render-delay trade-off (seed 000 §4.3.2, §4.3.10: "太小则频繁外推，太大则远端明显滞后").
//
// The same run (same seed, same packets) replayed for 31 render delays from 0 to 300 ms: what each delay buys
// (top: the share of frames in Underrun, hatched as the page hatches that status) and what it costs (bottom:
// the latency it adds to the remote player). Two panels on one delay axis rather than two y scales on one.
// The shaded band is the seed's advice, one to two send intervals; the knee is the first delay with < 1 %
// underruns. The vertical ◆ line is the current Render delay.
//
// Climbing the ladder (page guide §7.6): clicking or dragging on the plot sets the Render delay — through the
// slider itself (its value, then an `input` event), so the rail, the URL and the run all follow. The figure is
// a focusable slider too: ←/→ one step, PgUp/PgDn 50 ms, Home/End.
// The sweep re-runs the remote pipeline 31 times (tens of ms), so it runs in the simulation worker
// (sim-worker.js, its own core), only when a parameter other than the render delay changed (moving the delay
// leaves the curve as is); a result overtaken by a newer change is dropped, the main thread only draws.

import { COLORS, diamond } from '../canvas.js';
import { createFigure } from './figure.js';
import { axes, scale, ticks, niceCeil, polyline, label, textWidth, fitText, hatchPath, needsCasing } from './axes.js';
import { t, getLang } from '../strings/i18n.js';

const DELAYS = Array.from({ length: 31 }, (_, i) => i * 0.01);
const MAX = 0.3;

/** The run's parameters minus the render delay: the sweep only depends on these. */
function sweepKey(params) {
  const copy = structuredClone(params);
  copy.remote.clock.renderDelay = 0;
  return JSON.stringify(copy);
}

function interpolate(points, delay, field) {
  if (!points?.length) return NaN;
  const k = Math.min(Math.max(delay / 0.01, 0), points.length - 1);
  const i = Math.min(Math.floor(k), points.length - 2);
  return points[i][field] + (points[i + 1][field] - points[i][field]) * (k - i);
}

export function mount(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-sweep',
    width: 360,
    height: 270,
    i18n: 'plot.sweep',
  });
  const canvas = fig.stage;
  canvas.tabIndex = 0;
  canvas.setAttribute('role', 'slider');
  canvas.setAttribute('aria-valuemin', '0');
  canvas.setAttribute('aria-valuemax', '400');
  // A slider states its value from the start: the figure itself is drawn only as it comes near the viewport.
  const delayAtMount = host.model()?.params.remote.clock.renderDelay;
  if (Number.isFinite(delayAtMount)) canvas.setAttribute('aria-valuenow', String(Math.round(delayAtMount * 1000)));
  canvas.classList.add('interactive');
  fig.figure.dataset.sweep = 'pending';

  let sweep = { key: null, points: null, error: null, version: 0 };
  let pendingKey = null;
  let lastRunId = -1;
  let hover = null;
  let ariaText = '';

  function slider() {
    return document.getElementById('control-renderDelay');
  }

  let deferred = null; // cancels a request waiting for the drag's pause
  function schedule(model) {
    deferred?.();
    deferred = null;
    const key = sweepKey(model.params);
    if (key === sweep.key || key === pendingKey) {
      if (!pendingKey) fig.figure.dataset.sweep = 'ready'; // back to the curve shown (a deferral had marked it)
      return;
    }
    // Dragged past while out of view (a slider drag with the plots half on screen): asked for once the drag
    // pauses, so the worker is not kept busy (31 runs a change) for a curve nobody sees mid-drag.
    if (host.inDrag() && !fig.isVisible()) {
      fig.figure.dataset.sweep = 'pending';
      deferred = host.afterDrag(() => schedule(host.model()), () => false); // looked at again a drag gap later
      return;
    }
    pendingKey = key;
    fig.figure.dataset.sweep = 'pending';
    const settle = (points, error) => {
      pendingKey = null;
      // The run moved on meanwhile (e.g. dragged back to where the curve was): never show this curve for it.
      const now = host.model();
      if (now && key !== sweepKey(now.params)) return schedule(now);
      sweep = { key, points, error, version: sweep.version + 1 };
      fig.figure.dataset.sweep = deferred ? 'pending' : 'ready';
      host.requestDraw();
    };
    host.worker().request('sweep', 'sweep', { params: model.params, delays: DELAYS }).then(
      (points) => { if (points !== undefined) settle(points, null); }, // undefined: a newer change took over
      (error) => settle(null, error?.message ?? String(error)),
    );
  }

  function layout(w, h) {
    const left = 36;
    const right = w - 12;
    const top1 = 36;
    const bottom2 = h - 30;
    const gap = 24;
    const mid = (top1 + bottom2 - gap) / 2;
    return { top: { left, right, top: top1, bottom: mid }, bottom: { left, right, top: mid + gap, bottom: bottom2 } };
  }

  function scales(w, h, points) {
    const l = layout(w, h);
    const x = scale(0, MAX, l.top.left, l.top.right);
    const yu = scale(0, 100, l.top.bottom, l.top.top);
    const latMax = niceCeil(Math.max(0.1, ...(points ?? []).map((p) => p.addedLatency)) * 1000, 3);
    const yl = scale(0, latMax, l.bottom.bottom, l.bottom.top);
    return { l, x, yu, yl, latMax };
  }

  function paintStatic(ctx, w, h, model, theme) {
    const { l, x, yu, yl, latMax } = scales(w, h, sweep.points);
    const xTicks = ticks(0, MAX * 1000, 6).map((v) => v / 1000);
    const xFormat = (v) => `${Math.round(v * 1000)}`;
    // The seed's advice: one to two send intervals.
    const interval = 1 / model.params.scenario.sendRate;
    ctx.save();
    ctx.fillStyle = theme.line;
    ctx.globalAlpha = theme.dark ? 0.45 : 0.55;
    for (const box of [l.top, l.bottom]) {
      const a = x(Math.min(interval, MAX));
      const b = x(Math.min(2 * interval, MAX));
      ctx.fillRect(a, box.top, b - a, box.bottom - box.top);
    }
    ctx.restore();
    const bandX = x(Math.min(interval, MAX)) + 3;
    label(ctx, fitText(ctx, [t('plot.sweep.band'), t('plot.sweep.bandShort')], l.bottom.right - bandX - 2, 10), bandX, l.bottom.top + 10, { color: theme.muted, size: 10 });

    axes(ctx, l.top, { x, y: yu, theme, xTicks, yTicks: [0, 50, 100], xFormat: () => '', yFormat: (v) => `${v}`, yLabel: t('plot.sweep.yUnderrun') });
    axes(ctx, l.bottom, { x, y: yl, theme, xTicks, yTicks: ticks(0, latMax, 3), xFormat, yFormat: (v) => `${v}`, xLabel: t('plot.sweep.x'), yLabel: t('plot.sweep.yLatency') });

    if (sweep.error) {
      label(ctx, fitText(ctx, t('plot.sweep.refused', { message: sweep.error }), l.top.right - l.top.left - 8, 10.5), l.top.left + 6, l.top.top + 30, { color: theme.ink, size: 10.5 });
      return;
    }
    if (!sweep.points) {
      label(ctx, t('plot.sweep.measuring'), (l.top.left + l.top.right) / 2, (l.top.top + l.top.bottom) / 2, { color: theme.muted, size: 11, align: 'center' });
      return;
    }
    const pts = sweep.points;
    const under = pts.map((p) => [x(p.delay), yu(p.underrunShare * 100)]);
    const oc = COLORS.extrapolated;
    hatchPath(ctx, () => {
      ctx.beginPath();
      ctx.moveTo(under[0][0], l.top.bottom);
      for (const p of under) ctx.lineTo(p[0], p[1]);
      ctx.lineTo(under[under.length - 1][0], l.top.bottom);
      ctx.closePath();
    }, l.top, oc, 5);
    polyline(ctx, under, { color: oc, width: 2, cased: needsCasing(oc, theme) });
    polyline(ctx, pts.map((p) => [x(p.delay), yl(p.addedLatency * 1000)]), { color: COLORS.render, width: 2.2 });

    const knee = pts.find((p) => p.underrunShare < 0.01);
    if (knee) {
      const kx = x(knee.delay);
      ctx.save();
      ctx.strokeStyle = theme.ink;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(kx, yu(0) - 7);
      ctx.lineTo(kx, yu(0));
      ctx.stroke();
      ctx.restore();
      const text = t('plot.sweep.knee', { ms: Math.round(knee.delay * 1000) });
      const tw = textWidth(ctx, text, 10.5);
      label(ctx, text, Math.min(kx + 4, l.top.right - tw), yu(0) - 8, { color: theme.ink, size: 10.5, halo: theme.panel });
    }
  }

  /** The run's metrics: the page's for this frame (`null` while the worker's are on their way), else the core's. */
  const metricsOf = (model) => host.metricsFor(model);

  function paintOverlay(ctx, w, h, model, theme) {
    const { l, x, yu, yl } = scales(w, h, sweep.points);
    const delay = model.params.remote.clock.renderDelay;
    const shown = Math.min(delay, MAX);
    const px = x(shown);
    const pts = sweep.points;
    // The current delay's own numbers come from the run itself (exact, also between the sweep's 10 ms steps): in a
    // drag from the simulation worker (main.js `metricsForFrame`: ~4 ms on the main thread per change), so until
    // its answer for this run is in, the delay's line moves at once and its point and numbers a frame later.
    const metrics = metricsOf(model);
    const remote = metrics?.remote;
    const u = pts && remote ? remote.underrunShare : NaN;
    const lat = pts && remote ? remote.shown.addedLatency : NaN;
    if (hover !== null && Math.abs(hover - delay) > 0.002) {
      const hx = x(hover);
      ctx.save();
      ctx.strokeStyle = theme.muted;
      ctx.setLineDash([3, 3]);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(hx, l.top.top);
      ctx.lineTo(hx, l.bottom.bottom);
      ctx.stroke();
      ctx.restore();
      if (pts) {
        const hu = interpolate(pts, hover, 'underrunShare');
        const hl = interpolate(pts, hover, 'addedLatency');
        const vars = { ms: Math.round(hover * 1000), pct: (hu * 100).toFixed(hu < 0.1 ? 1 : 0), lat: Math.round(hl * 1000) };
        const text = fitText(ctx, [t('plot.sweep.hover', vars), t('plot.sweep.hoverShort', vars)], l.bottom.right - l.bottom.left - 4, 10);
        const tw = textWidth(ctx, text, 10);
        label(ctx, text, Math.max(l.bottom.left + 2, Math.min(hx - tw / 2, l.bottom.right - tw)), l.bottom.top - 7, { color: theme.muted, size: 10, halo: theme.panel });
      }
    }
    ctx.save();
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(Math.round(px) + 0.5, l.top.top);
    ctx.lineTo(Math.round(px) + 0.5, l.bottom.bottom);
    ctx.stroke();
    ctx.restore();
    if (Number.isFinite(u) && delay <= MAX) diamond(ctx, px, yu(u * 100), 5.5, COLORS.render, { cased: true });
    if (Number.isFinite(lat) && delay <= MAX) diamond(ctx, px, yl(lat * 1000), 5.5, COLORS.render, { cased: true });
    const parts = [t('plot.sweep.now', { ms: Math.round(delay * 1000), arrow: delay > MAX ? ' →' : '' })];
    if (Number.isFinite(u)) parts.push(t('plot.sweep.nowUnderrun', { pct: (u * 100).toFixed(u < 0.1 ? 1 : 0) }), `+${Math.round(lat * 1000)} ms`);
    const text = fitText(ctx, [parts.join(' · '), parts[0]], w - 12, 10.5, '600');
    label(ctx, text, l.top.left - 30, 13, { color: COLORS.render, size: 10.5, weight: '600', halo: theme.panel });
    const aria = Number.isFinite(u)
      ? t('plot.sweep.valueText', { ms: Math.round(delay * 1000), pct: (u * 100).toFixed(1), lat: Math.round(lat * 1000) })
      : `${Math.round(delay * 1000)} ms`;
    if (aria !== ariaText) {
      ariaText = aria;
      canvas.setAttribute('aria-valuenow', String(Math.round(delay * 1000)));
      canvas.setAttribute('aria-valuetext', aria);
    }
  }

  // ── Interaction: through the slider, so everything else follows. ──
  function setDelayMs(ms) {
    const input = slider();
    if (!input) return;
    const step = Number(input.step) || 5;
    const min = Number(input.min) || 0;
    const max = Number(input.max) || 400;
    const v = Math.min(max, Math.max(min, Math.round(ms / step) * step));
    if (Number(input.value) === v) return;
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  function delayAt(event) {
    const p = fig.pointer(event);
    const { x } = scales(p.w, p.h, sweep.points);
    return Math.min(MAX, Math.max(0, x.invert(p.x)));
  }

  let dragging = false;
  let dragFrame = 0;
  let dragTarget = null;
  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    dragging = true;
    canvas.setPointerCapture?.(event.pointerId);
    setDelayMs(delayAt(event) * 1000);
  });
  canvas.addEventListener('pointermove', (event) => {
    hover = delayAt(event);
    if (dragging) {
      dragTarget = hover;
      if (!dragFrame) {
        dragFrame = requestAnimationFrame(() => {
          dragFrame = 0;
          if (dragTarget !== null) setDelayMs(dragTarget * 1000);
        });
      }
    }
    host.requestDraw();
  });
  const stop = (event) => {
    dragging = false;
    if (canvas.hasPointerCapture?.(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  canvas.addEventListener('pointerleave', () => {
    if (!dragging) {
      hover = null;
      host.requestDraw();
    }
  });
  canvas.addEventListener('keydown', (event) => {
    const input = slider();
    if (!input) return;
    const step = Number(input.step) || 5;
    const now = Number(input.value);
    const moves = {
      ArrowLeft: now - step, ArrowDown: now - step, ArrowRight: now + step, ArrowUp: now + step,
      PageDown: now - 50, PageUp: now + 50, Home: Number(input.min) || 0, End: Number(input.max) || 400,
    };
    if (!(event.key in moves)) return;
    // Keep the arrows from also steering the local player (main.js listens on window).
    event.preventDefault();
    event.stopPropagation();
    setDelayMs(moves[event.key]);
  });
  canvas.addEventListener('keyup', (event) => {
    if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].includes(event.key)) event.stopPropagation();
  });

  return {
    draw({ model, theme }) {
      this.skip({ model });
      fig.setLegend([
        { text: t('plot.sweep.legendUnderrun'), swatch: { color: COLORS.extrapolated, fill: 'hatch', line: false } },
        { text: t('plot.sweep.legendLatency'), swatch: { color: COLORS.render, width: 2.2 } },
        { text: t('plot.sweep.legendCurrent'), swatch: { color: COLORS.render, mark: 'diamond', line: false } },
      ]);
      fig.paint(
        [sweep.version, model.params.scenario.sendRate, theme.dark, theme.ink, getLang()],
        (ctx, w, h) => paintStatic(ctx, w, h, model, theme),
        (ctx, w, h) => paintOverlay(ctx, w, h, model, theme),
        [model.params.remote.clock.renderDelay, hover === null ? null : Math.round(hover * 2000), sweep.version, Boolean(metricsOf(model))],
      );
    },
    /** What a frame does even while the figure is skipped (plots.js): asks for the run's sweep (or defers it). */
    skip({ model }) {
      if (model.runId !== lastRunId) {
        lastRunId = model.runId;
        schedule(model);
      }
    },
    figure: fig,
  };
}
