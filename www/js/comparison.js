// Lerp chase versus timed path playback on the same batches (seed 001), built into #comparison.
//
// Left, the world around the playhead: the true path (thin), the batches' points as they arrive (small ■; the
// newest batch's last point, circled, is what the lerp chases), the timed player ▼ (long dash, #009E73) playing
// the batches back along the truth a fixed delay behind, and the lerp chase ▲ (dotted, #CC79A7) cutting every
// corner towards the newest point.
// Right, the speed of both over the whole run with the playhead: the timed player holds the path's speed,
// the lerp chase spikes when a batch moves its target and crawls before the next — a sawtooth whose teeth start
// at the batch arrivals (○ along the bottom). Under it the run's two headline numbers per model
// (`metrics().paths`): RMS error against the truth after the best time shift, and speed variation σ/mean.

import { COLORS, cssWidth, triangle } from './canvas.js';
import { createFigure, ensureStylesheet, swatch, watchSize } from './plots/figure.js';
import { axes, scale, ticks, niceCeil, polyline, label, textWidth, fitText, DASH, cursor } from './plots/axes.js';
import { t, getLang } from './strings/i18n.js';

const TRUTH_WINDOW = 2.5;
const TRAIL = 1.5;

/** Per-run copies of the columns both panels read, plus bounds and robust speed range. */
/** What the path pipeline depends on (see src/sim/rerun.rs): equal keys, equal path columns. */
function pathsKey(model) {
  const p = model.params;
  return JSON.stringify([model.imported, p.seed, p.duration, p.fps, p.events, p.network, p.scenario.motion, p.scenario.speed, p.paths]);
}

function readRun(model) {
  const f = model.table('frames');
  const n = f.rows;
  const cols = ['local', 'truthX', 'truthY', 'timedX', 'timedY', 'lerpX', 'lerpY', 'timedSpeed', 'lerpSpeed'];
  const out = Object.fromEntries(cols.map((c) => [c, new Float64Array(n)]));
  for (let i = 0; i < n; i++) {
    const row = i * f.stride;
    for (const c of cols) out[c][i] = f.view[row + f.col[c]];
  }
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const [cx, cy] of [['truthX', 'truthY'], ['timedX', 'timedY'], ['lerpX', 'lerpY']]) {
    for (let i = 0; i < n; i++) {
      const x = out[cx][i];
      const y = out[cy][i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  if (!Number.isFinite(minX)) { minX = -120; maxX = 120; minY = -70; maxY = 70; }
  const speeds = [...out.timedSpeed, ...out.lerpSpeed].filter(Number.isFinite).sort((a, b) => a - b);
  const p99 = speeds.length ? speeds[Math.floor(speeds.length * 0.995) - 1] ?? speeds[speeds.length - 1] : 1;
  const b = model.table('batches');
  const batches = [];
  for (let i = 0; i < b.rows; i++) {
    const row = i * b.stride;
    batches.push({ sent: b.view[row + b.col.sent], arrival: b.view[row + b.col.arrival], seq: b.view[row + b.col.seq], points: b.view[row + b.col.points] });
  }
  return {
    runId: model.runId, n, ...out, batches,
    bounds: { minX, maxX, minY, maxY },
    speedMax: niceCeil(Math.max(p99, model.params.scenario.speed) * 1.08, 4),
    trueSpeed: model.params.scenario.speed,
    batchInterval: model.params.paths.batchInterval,
    sampleInterval: model.params.paths.sampleInterval,
  };
}

function indexAt(local, t) {
  let lo = 0;
  let hi = local.length - 1;
  if (hi < 0 || t <= local[0]) return 0;
  if (t >= local[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (local[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** World → canvas for the run's bounds, keeping the aspect ratio (y up). */
function mapper(bounds, w, h, pad = 16) {
  const spanX = Math.max(bounds.maxX - bounds.minX, 1);
  const spanY = Math.max(bounds.maxY - bounds.minY, 1);
  const s = Math.min((w - 2 * pad) / spanX, (h - 2 * pad - 14) / spanY);
  const cx = (bounds.minX + bounds.maxX) / 2;
  const cy = (bounds.minY + bounds.maxY) / 2;
  return { x: (x) => w / 2 + (x - cx) * s, y: (y) => (h + 14) / 2 - (y - cy) * s, s };
}

function mountWorld(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-paths-world',
    width: 360,
    height: 320,
    i18n: 'plot.pathsWorld',
  });

  function trail(d, m, cx, cy, from, to) {
    const pts = [];
    for (let i = indexAt(d.local, from); i <= to; i++) {
      const x = d[cx][i];
      const y = d[cy][i];
      pts.push(Number.isFinite(x) && Number.isFinite(y) ? [m.x(x), m.y(y)] : null);
    }
    return pts;
  }

  function paintStatic(ctx, w, h, d, theme) {
    const m = mapper(d.bounds, w, h);
    // The whole run's path, faint: the track both players are meant to follow.
    const pts = [];
    for (let i = 0; i < d.n; i += 2) pts.push([m.x(d.truthX[i]), m.y(d.truthY[i])]);
    polyline(ctx, pts, { color: theme.line, width: 3 });
    const vars = { s: +d.batchInterval.toFixed(2), ms: Math.round(d.sampleInterval * 1000) };
    label(ctx, fitText(ctx, [t('plot.pathsWorld.rate', vars), t('plot.pathsWorld.rateShort', vars)], w - 16, 10), w - 8, 14, { color: theme.muted, size: 10, align: 'right' });
  }

  function paintOverlay(ctx, w, h, d, index, playhead, theme) {
    const m = mapper(d.bounds, w, h);
    // Truth over the last few seconds, and where it is now.
    polyline(ctx, trail(d, m, 'truthX', 'truthY', playhead - TRUTH_WINDOW, index), { color: theme.truth, width: 1.2 });
    // Batch points that have arrived, for the part of the path on screen.
    let newest = null;
    for (const b of d.batches) {
      if (!(b.arrival <= playhead)) continue;
      if (b.sent < playhead - TRUTH_WINDOW - d.batchInterval) continue;
      if (!newest || b.sent > newest.sent) newest = b;
    }
    ctx.fillStyle = COLORS.snapshot;
    for (const b of d.batches) {
      if (!(b.arrival <= playhead) || b.sent < playhead - TRUTH_WINDOW - d.batchInterval) continue;
      const big = b === newest;
      const size = big ? 4 : 3;
      for (let t = b.sent - d.batchInterval; t <= b.sent + 1e-9; t += d.sampleInterval) {
        const i = indexAt(d.local, t);
        const x = d.truthX[i];
        const y = d.truthY[i];
        if (Number.isFinite(x)) ctx.fillRect(m.x(x) - size / 2, m.y(y) - size / 2, size, size);
      }
    }
    if (newest) {
      const i = indexAt(d.local, newest.sent);
      if (Number.isFinite(d.truthX[i])) {
        ctx.beginPath();
        ctx.arc(m.x(d.truthX[i]), m.y(d.truthY[i]), 6, 0, Math.PI * 2);
        ctx.strokeStyle = COLORS.lerp;
        ctx.lineWidth = 1.5;
        ctx.stroke();
      }
    }
    const tx = d.truthX[index];
    const ty = d.truthY[index];
    if (Number.isFinite(tx)) {
      ctx.beginPath();
      ctx.arc(m.x(tx), m.y(ty), 3.5, 0, Math.PI * 2);
      ctx.fillStyle = theme.truth;
      ctx.fill();
    }
    // The two players.
    polyline(ctx, trail(d, m, 'timedX', 'timedY', playhead - TRAIL, index), { color: COLORS.timed, width: 2.2, dash: DASH.timed });
    polyline(ctx, trail(d, m, 'lerpX', 'lerpY', playhead - TRAIL, index), { color: COLORS.lerp, width: 2.4, dash: DASH.lerp, cap: 'round' });
    const marks = [];
    if (Number.isFinite(d.timedX[index])) {
      const p = [m.x(d.timedX[index]), m.y(d.timedY[index])];
      triangle(ctx, p[0], p[1], 7, COLORS.timed, false);
      marks.push([p, t('plot.pathsWorld.timed'), COLORS.timed]);
    }
    if (Number.isFinite(d.lerpX[index])) {
      const p = [m.x(d.lerpX[index]), m.y(d.lerpY[index])];
      triangle(ctx, p[0], p[1], 7, COLORS.lerp, true);
      marks.push([p, t('plot.pathsWorld.lerp'), COLORS.lerp]);
    }
    if (Number.isFinite(tx)) marks.push([[m.x(tx), m.y(ty)], t('view.truthNow'), theme.truth]);
    // Labels beside the marks, nudged apart when they would overlap.
    const placed = [];
    for (const [[x, y], text] of marks) {
      let ly = y - 9;
      for (const q of placed) if (Math.abs(q[0] - x) < 60 && Math.abs(q[1] - ly) < 12) ly = q[1] + 13;
      const tw = textWidth(ctx, text, 10.5, '600');
      const lx = x + 9 + tw > w - 4 ? x - 9 - tw : x + 9;
      label(ctx, text, lx, ly, { color: theme.ink, size: 10.5, weight: '600', halo: theme.panel });
      placed.push([x, ly]);
    }
    const vars = newest && { seq: newest.seq, s: (playhead - newest.arrival).toFixed(2) };
    const info = newest
      ? fitText(ctx, [t('plot.pathsWorld.batch', vars), t('plot.pathsWorld.batchShort', vars)], w - 16, 10)
      : t('plot.pathsWorld.noBatch');
    label(ctx, info, 8, h - 8, { color: theme.muted, size: 10, halo: theme.panel });
  }

  return {
    figure: fig,
    draw(ctx, d) {
      const { playhead, theme } = ctx;
      const index = indexAt(d.local, playhead);
      fig.setLegend([
        { text: t('legend.truth'), swatch: { color: theme.truth, width: 1.2, mark: 'circle' } },
        { text: t('legend.timed'), swatch: { color: COLORS.timed, dash: '12 5', mark: 'down' } },
        { text: t('legend.lerp'), swatch: { color: COLORS.lerp, dash: '1.5 3.5', mark: 'up' } },
        { text: t('plot.pathsWorld.legendPoints'), swatch: { color: COLORS.snapshot, mark: 'square', line: false } },
      ]);
      fig.paint(
        [d.runId, theme.dark, theme.ink, getLang()],
        (c, w, h) => paintStatic(c, w, h, d, theme),
        (c, w, h) => paintOverlay(c, w, h, d, index, playhead, theme),
      );
    },
  };
}

function mountSpeed(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-paths-speed',
    width: 360,
    height: 250,
    i18n: 'plot.pathsSpeed',
  });
  const headline = document.createElement('div');
  headline.className = 'headline';
  fig.figure.append(headline);
  let headlineRun = '';

  function layout(w, h) {
    return { left: 40, top: 36, right: w - 12, bottom: h - 30 };
  }

  function paintStatic(ctx, w, h, d, duration, theme) {
    const box = layout(w, h);
    const x = scale(0, duration, box.left, box.right);
    const y = scale(0, d.speedMax, box.bottom, box.top);
    axes(ctx, box, { x, y, theme, xTicks: ticks(0, duration, 6), yTicks: ticks(0, d.speedMax, 4), xFormat: (v) => `${+v.toFixed(1)}`, yFormat: (v) => `${v}`, xLabel: t('plot.runTime'), yLabel: t('plot.pathsSpeed.y') });
    const series = (col) => {
      const pts = [];
      for (let i = 0; i < d.n; i++) {
        const v = d[col][i];
        pts.push(Number.isFinite(v) ? [x(d.local[i]), y(Math.min(v, d.speedMax))] : null);
      }
      return pts;
    };
    polyline(ctx, series('lerpSpeed'), { color: COLORS.lerp, width: 1.6, dash: [1.5, 2], cap: 'round' });
    polyline(ctx, series('timedSpeed'), { color: COLORS.timed, width: 2.2, dash: DASH.timed });
    // The true speed, for reference.
    polyline(ctx, [[box.left, y(d.trueSpeed)], [box.right, y(d.trueSpeed)]], { color: theme.truth, width: 1 });
    label(ctx, t('plot.pathsSpeed.trueSpeed', { v: Math.round(d.trueSpeed) }), box.right, y(d.trueSpeed) - 4, { color: theme.ink, size: 10, align: 'right', halo: theme.panel });
    // Batch arrivals: where each tooth starts.
    for (const b of d.batches) {
      if (!Number.isFinite(b.arrival)) continue;
      ctx.beginPath();
      ctx.arc(x(b.arrival), box.bottom - 5, 3, 0, Math.PI * 2);
      if (!theme.dark) {
        ctx.lineWidth = 3.2;
        ctx.strokeStyle = COLORS.casing;
        ctx.stroke();
      }
      ctx.lineWidth = 1.6;
      ctx.strokeStyle = COLORS.arrival;
      ctx.stroke();
    }
  }

  function paintOverlay(ctx, w, h, d, duration, playhead, theme) {
    const box = layout(w, h);
    const x = scale(0, duration, box.left, box.right);
    cursor(ctx, x(playhead), box.top, box.bottom, theme);
    const i = indexAt(d.local, playhead);
    const fmt = (v) => (Number.isFinite(v) ? `${Math.round(v)}` : '—');
    const vars = { timed: fmt(d.timedSpeed[i]), lerp: fmt(d.lerpSpeed[i]) };
    const text = fitText(ctx, [t('plot.pathsSpeed.now', vars), t('plot.pathsSpeed.nowShort', vars)], w - 8, 10.5, '600');
    label(ctx, text, box.left - 34, 13, { color: theme.ink, size: 10.5, weight: '600', halo: theme.panel });
  }

  /** What the overlay shows, at pixel and readout resolution: it is only redrawn when this changes. */
  function overlayKey(d, duration, playhead) {
    const box = layout(cssWidth(fig.canvas), 0);
    const i = indexAt(d.local, playhead);
    return [Math.round(scale(0, duration, box.left, box.right)(playhead)), Math.round(d.timedSpeed[i]), Math.round(d.lerpSpeed[i])];
  }

  function writeHeadline(model) {
    const p = model.metrics().paths;
    const cell = (cls, children) => {
      const s = document.createElement('span');
      s.className = cls;
      s.append(...children);
      return s;
    };
    const value = (v, unit, digits) => {
      const b = document.createElement('b');
      b.textContent = Number.isFinite(v) ? v.toFixed(digits) : '—';
      const u = document.createElement('span');
      u.className = 'unit';
      u.textContent = ` ${unit}`;
      return cell('v', [b, u]);
    };
    const units = t('plot.units');
    headline.replaceChildren(
      cell('what', []),
      cell('h', [swatch({ color: COLORS.timed, dash: '12 5', mark: 'down' }), t('plot.pathsWorld.timed')]),
      cell('h', [swatch({ color: COLORS.lerp, dash: '1.5 3.5', mark: 'up' }), t('plot.pathsWorld.lerp')]),
      cell('what', [t('plot.pathsSpeed.rms')]),
      value(p.timed.rmsError, units, 2), value(p.lerp.rmsError, units, 2),
      cell('what', [t('plot.pathsSpeed.variation')]),
      value(p.timedSpeedVariation * 100, '%', 0), value(p.lerpSpeedVariation * 100, '%', 0),
    );
    headline.dataset.lerpRms = String(p.lerp.rmsError);
  }

  return {
    figure: fig,
    draw(ctx, d) {
      const { model, playhead, theme } = ctx;
      if (headlineRun !== `${model.runId}|${getLang()}`) {
        headlineRun = `${model.runId}|${getLang()}`;
        writeHeadline(model);
      }
      fig.setLegend([
        { text: t('legend.timed'), swatch: { color: COLORS.timed, dash: '12 5' } },
        { text: t('legend.lerp'), swatch: { color: COLORS.lerp, dash: '1.5 2' } },
        { text: t('plot.pathsSpeed.legendTrue'), swatch: { color: theme.truth, width: 1 } },
        { text: t('plot.pathsSpeed.legendBatch'), swatch: { color: COLORS.arrival, mark: 'ring', line: false, cased: !theme.dark } },
      ]);
      fig.paint(
        [d.runId, model.duration, theme.dark, theme.ink, getLang()],
        (c, w, h) => paintStatic(c, w, h, d, model.duration, theme),
        (c, w, h) => paintOverlay(c, w, h, d, model.duration, playhead, theme),
        overlayKey(d, model.duration, playhead),
      );
    },
  };
}

/** Its stylesheet (plots.css), fetched as this module loads; boot.js mounts it once the sheet applies. */
export const styled = ensureStylesheet();

/** `host`: the figures' (plots/figure.js `createFigure`), and `model()`, `seek(t)` for a click on the speed plot. */
export function mount(host) {
  const root = document.getElementById('comparison');
  const heading = document.createElement('h2');
  const title = Object.assign(document.createElement('span'), { textContent: t('comparison.title') });
  title.dataset.i18n = 'comparison.title';
  const cite = Object.assign(document.createElement('span'), { className: 'cite', textContent: t('comparison.cite') });
  cite.dataset.i18n = 'comparison.cite';
  heading.append(title, ' ', cite);
  root.append(heading);
  const world = mountWorld(root, host);
  const speed = mountSpeed(root, host);
  watchSize(host, [world.figure.canvas, speed.figure.canvas]);
  speed.figure.stage.classList.add('seekable');
  speed.figure.stage.addEventListener('click', (event) => {
    const p = speed.figure.pointer(event);
    const { duration } = host.model();
    const t = scale(0, duration, 40, p.w - 12).invert(p.x);
    host.seek(Math.min(Math.max(t, 0), duration));
    host.requestDraw();
  });
  let run = { runId: -1, key: null };
  return {
    draw(ctx) {
      // Only a change that reaches the path pipeline re-reads it (a render-delay drag leaves it as it was).
      const key = pathsKey(ctx.model);
      if (run.key !== key) run = { ...readRun(ctx.model), key };
      world.draw(ctx, run);
      speed.draw(ctx, run);
    },
  };
}
