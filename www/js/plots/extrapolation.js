// Plot 1 — extrapolation past the newest snapshot (seed 000 §4.3.5).
//
// The seed multiplies the *displacement* by (1 − ahead/cap): offset = v·a·(1 − a/cap). That peaks at v·cap/4
// when a = cap/2 and then walks the entity *back* to the snapshot it left, freezing there at the cap. Decaying
// the *velocity* instead gives v·(a − a²/2cap): monotone, frozen at its furthest point v·cap/2. Hold (and snap)
// never move. The curves come from Rust (`Playground.extrapolationCurves`), for the run's remote speed and the
// current Max extrapolation; the axes stay put while the cap slider moves, so the curves visibly stretch.
// The ◆ is this frame of the remote view when it is extrapolating: where on its policy's curve it sits.

import { COLORS, diamond } from '../canvas.js';
import { createFigure } from './figure.js';
import { axes, scale, ticks, niceCeil, polyline, label, textWidth, fitText, DASH, needsCasing } from './axes.js';
import { t, getLang } from '../strings/i18n.js';
import { capInForce } from '../params.js';

const POINTS = 161;
const RANGES = [0.1, 0.2, 0.4, 0.8];

/** A policy's short name (`plot.policy.*`: hold, seed formula, velocity decay, snap, hide). */
const policyText = (policy) => t(`plot.policy.${policy}`);

/** The x range (s) for a cap: the smallest of RANGES that shows the cap and the freeze after it. */
function rangeFor(cap) {
  return RANGES.find((r) => r >= cap * 1.6) ?? Math.max(cap * 1.6, 0.1);
}

/** Linear interpolation of a curve `[{ahead, offset}]` (evenly spaced) at `a`; null where nothing is shown. */
function valueAt(curve, a) {
  if (!curve?.length) return null;
  const until = curve[curve.length - 1].ahead;
  const t = Math.min(Math.max(a / (until || 1), 0), 1) * (curve.length - 1);
  const i = Math.min(Math.floor(t), curve.length - 2);
  const p = curve[i];
  const q = curve[i + 1];
  if (p.offset === null || q.offset === null) return null;
  return p.offset + (q.offset - p.offset) * (t - i);
}

export function mount(root, host) {
  const fig = createFigure(root, {
    host,
    id: 'plot-extrapolation',
    width: 360,
    height: 270,
    i18n: 'plot.extrapolation',
  });
  let cache = { key: '' };

  function data(model) {
    const v = Math.abs(model.params.scenario.speed);
    const cap = capInForce(model.params, model.sendInterval);
    const until = rangeFor(cap);
    const key = `${v}|${cap}|${until}`;
    if (cache.key !== key) {
      const curves = model.core.Playground.extrapolationCurves(v, cap, until, POINTS);
      const yMax = niceCeil(v * (until / 1.6) / 2 * 1.12, 4);
      cache = { key, v, cap, until, curves, yMax };
    }
    return cache;
  }

  function layout(w, h) {
    return { left: 36, top: 36, right: w - 12, bottom: h - 30 };
  }

  function paintStatic(ctx, w, h, d, policy, theme) {
    const box = layout(w, h);
    const x = scale(0, d.until, box.left, box.right);
    const y = scale(0, d.yMax, box.bottom, box.top);
    // The speed shares the y label's line, right-aligned: it gets the room it needs (short form when tight).
    const speed = fitText(ctx, [t('plot.extrapolation.speed', { v: +d.v.toFixed(1) }), `v = ${+d.v.toFixed(1)} u/s`], (box.right - box.left) * 0.45, 10);
    const speedWidth = textWidth(ctx, speed, 10);
    axes(ctx, box, {
      x, y, theme,
      xTicks: ticks(0, d.until * 1000, 5).map((v) => v / 1000),
      yTicks: ticks(0, d.yMax, 4),
      xFormat: (v) => `${Math.round(v * 1000)}`,
      yFormat: (v) => `${+v.toFixed(2)}`,
      xLabel: t('plot.extrapolation.x'),
      yLabel: t('plot.extrapolation.y'),
      yLabelWidth: box.right - box.left - speedWidth - 10,
    });
    label(ctx, speed, box.right, box.top - 6, { color: theme.muted, size: 10, align: 'right' });

    const { cap, v } = d;
    const ink = theme.ink;
    if (cap > 0) {
      // The cap and cap/2 guides.
      ctx.save();
      ctx.strokeStyle = theme.muted;
      ctx.setLineDash(DASH.guide);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(Math.round(x(cap)) + 0.5, box.top + 10);
      ctx.lineTo(Math.round(x(cap)) + 0.5, box.bottom);
      ctx.stroke();
      ctx.restore();
      const capText = t('plot.extrapolation.cap', { ms: Math.round(cap * 1000) });
      const right = x(cap) + 4 + textWidth(ctx, capText, 10.5) < box.right;
      label(ctx, capText, x(cap) + (right ? 4 : -4), box.top + 16, { color: ink, size: 10.5, align: right ? 'left' : 'right', halo: theme.panel, weight: '600' });
    } else {
      label(ctx, fitText(ctx, t('plot.extrapolation.capZero'), box.right - box.left - 8, 11), (box.left + box.right) / 2, (box.top + box.bottom) / 2, { color: ink, size: 11, align: 'center', halo: theme.panel });
    }

    const pts = (curve) => curve.map((p) => (p.offset === null ? null : [x(p.ahead), y(Math.min(p.offset, d.yMax * 1.05))]));
    const emph = (name) => (name === policy ? 2.6 : 1.6);
    const oc = COLORS.extrapolated;
    // Hold / snap: no motion at all — drawn on the axis.
    polyline(ctx, pts(d.curves.hold), { color: ink, width: emph('hold') + (policy === 'snap' ? 1 : 0) });
    polyline(ctx, pts(d.curves['extrapolate-decay']), { color: oc, width: emph('extrapolate-decay'), dash: DASH.extrapolatedAlt, cased: needsCasing(oc, theme) });
    polyline(ctx, pts(d.curves['extrapolate-seed']), { color: oc, width: emph('extrapolate-seed'), dash: DASH.extrapolated, cased: needsCasing(oc, theme) });

    if (cap > 0 && v > 0) {
      // Velocity decay: its plateau.
      const plateau = (v * cap) / 2;
      label(ctx, fitText(ctx, [t('plot.extrapolation.plateau', { value: +plateau.toFixed(2) }), t('plot.extrapolation.plateauShort', { value: +plateau.toFixed(2) })], box.right - box.left - 4, 10.5), box.right, y(plateau) - 6, { color: ink, size: 10.5, align: 'right', halo: theme.panel });
      // Seed formula: the peak (labelled inside its arch), then the walk back.
      const peak = (v * cap) / 4;
      diamond(ctx, x(cap / 2), y(peak), 5, oc, { cased: true });
      const px = Math.max(box.left + 40, x(cap / 2));
      label(ctx, t('plot.extrapolation.peak'), px, y(peak) + 17, { color: ink, size: 10.5, align: 'center', halo: theme.panel });
      label(ctx, t('plot.extrapolation.peakAt', { value: +peak.toFixed(2) }), px, y(peak) + 30, { color: ink, size: 10.5, align: 'center', halo: theme.panel });
      const a = cap * 0.8;
      const back = valueAt(d.curves['extrapolate-seed'], a);
      if (back !== null) {
        const tx = x(a) + 6;
        const ty = y(back) + 4;
        label(ctx, t('plot.extrapolation.walksBack'), Math.min(tx, box.right - textWidth(ctx, t('plot.extrapolation.walksBack'), 10.5)), ty, { color: ink, size: 10.5, halo: theme.panel });
      }
    }
    label(ctx, fitText(ctx, t('plot.extrapolation.holdZero'), box.right - box.left - 4, 10.5), box.right, box.bottom - 5, { color: ink, size: 10.5, align: 'right', halo: theme.panel });
  }

  function paintOverlay(ctx, w, h, d, policy, frame, theme) {
    const box = layout(w, h);
    const x = scale(0, d.until, box.left, box.right);
    const y = scale(0, d.yMax, box.bottom, box.top);
    const ahead = frame.ahead;
    if (!Number.isFinite(ahead)) {
      label(ctx, fitText(ctx, [t('plot.extrapolation.nowInterpolating'), t('plot.extrapolation.nowInterpolatingShort')], w - 12, 10.5), box.left - 30, 13, { color: theme.muted, size: 10.5, halo: theme.panel });
      return;
    }
    const a = Math.max(0, ahead);
    const clipped = a > d.until;
    const px = x(Math.min(a, d.until));
    const value = valueAt(d.curves[policy], Math.min(a, d.until));
    ctx.save();
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(Math.round(px) + 0.5, box.top);
    ctx.lineTo(Math.round(px) + 0.5, box.bottom);
    ctx.stroke();
    ctx.restore();
    if (value === null) {
      diamond(ctx, px, box.bottom, 6, COLORS.render, { filled: false });
    } else {
      diamond(ctx, px, y(value), 6, COLORS.render, { cased: true });
    }
    let where = t('plot.extrapolation.hidden');
    if (value !== null) {
      const slope = valueAt(d.curves[policy], Math.min(a, d.until) + d.until / 200) - value;
      const motion = t(Math.abs(slope) < 1e-9 ? 'plot.motion.still' : slope < 0 ? 'plot.motion.back' : 'plot.motion.on');
      where = t('plot.extrapolation.drawn', { v: value.toFixed(1), motion });
    }
    const now = t('plot.extrapolation.now', { ahead: Math.round(a * 1000), arrow: clipped ? ' →' : '', policy: policyText(policy) });
    const text = fitText(ctx, [`${now}${where}`, now], w - 12, 10.5, '600');
    label(ctx, text, box.left - 30, 13, { color: COLORS.render, size: 10.5, halo: theme.panel, weight: '600' });
  }

  return {
    draw({ model, frame, theme }) {
      const d = data(model);
      const policy = model.params.remote.underrun.underrunPolicy;
      const current = (on) => (on ? t('plot.current') : '');
      fig.setLegend([
        { text: `${policyText('extrapolate-seed')}${current(policy === 'extrapolate-seed')}`, swatch: { color: COLORS.extrapolated, dash: '6 4', mark: 'diamond', cased: !theme.dark } },
        { text: `${policyText('extrapolate-decay')}${current(policy === 'extrapolate-decay')}`, swatch: { color: COLORS.extrapolated, dash: '2 3 8 3', cased: !theme.dark } },
        { text: `${t('plot.extrapolation.legendHold')}${current(policy === 'hold' || policy === 'snap')}`, swatch: { color: theme.ink } },
        { text: `${t('plot.extrapolation.legendHide')}${current(policy === 'hide')}` },
        { text: t('plot.extrapolation.legendNow'), swatch: { color: COLORS.render, mark: 'diamond', line: false } },
      ]);
      fig.paint(
        [d.key, policy, theme.dark, theme.ink, getLang()],
        (ctx, w, h) => paintStatic(ctx, w, h, d, policy, theme),
        (ctx, w, h) => paintOverlay(ctx, w, h, d, policy, frame, theme),
        Number.isFinite(frame.ahead) ? Math.round(frame.ahead * 2000) : 'interpolating',
      );
    },
    figure: fig,
  };
}
