// The step-through in the world views (seed 002 "可单步观察的过程"): while the scene has a `highlight`
// (stepper.js), the step's subject is drawn over the Server and Remote views in the emphasis style of
// highlight-kit.js —
//   Server view   sent     the snapshot's ■ where the entity was when it was sent, haloed, "tick N";
//   Remote view   bracket  the left and right snapshots' ■ haloed and joined by a thick segment, "left N" / "right M";
//                 factor   the ◆ at (x, y) on that segment, haloed, "t = f";
//                 status   the ◆ in its display mode's style (◆ interpolated, ◇ extrapolated, hollow ◆ held,
//                          nothing when hidden), with the status as glyph + word and what is shown.
// The other steps (arrived, inserted, render time) happen on the clocks, not in the world: the lanes show them.
// The packet inspector (inspector.js) reuses the Server view's `sent` mark, and rings the snapshot's ■ in the
// Remote view too.
import { COLORS, square, diamond } from '../canvas.js';
import { reader, openDiamond } from './view-kit.js';
import { halo, thickSegment, tagAt } from '../highlight-kit.js';
import { statusText } from '../readouts.js';
import { t } from '../strings/i18n.js';

const BOUNDS_PAD = 4;

/** Server view: the snapshot of a `sent` step. Returns what was drawn, or null. */
export function highlightServer(ctx, map, theme, model, h, w, hgt) {
  if (h.kind !== 'snapshot' || h.step !== 'sent') return null;
  const snaps = model.table('snapshots');
  if (!(h.index >= 0 && h.index < snaps.rows)) return null;
  const s = reader(snaps);
  if (s(h.index, 'tick') !== h.tick) return null;
  const x = map.x(s(h.index, 'x'));
  const y = map.y(s(h.index, 'y'));
  if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
  const bounds = { left: BOUNDS_PAD, top: 22, right: w - BOUNDS_PAD, bottom: hgt - 18 };
  halo(ctx, x, y, 7, COLORS.snapshot, theme, 'square');
  square(ctx, x, y, 10, theme.panel);
  square(ctx, x, y, 8, COLORS.snapshot);
  const rect = tagAt(ctx, t('hl.tick', { tick: h.tick }), x, y, 9, COLORS.snapshot, theme, { bounds, taken: [], prefer: ['above', 'below', 'right', 'left'] });
  return { step: 'sent', tick: h.tick, x, y, tags: [rect] };
}

/**
 * Remote view, packet inspector (inspector.js): the inspected snapshot's ■ where it says the entity was —
 * the point the buffer interpolates from — haloed and named. Returns what was drawn, or null when it is
 * outside the view or was lost (the client never had it).
 */
function inspectRemote(ctx, map, theme, model, h, w, hgt) {
  const snaps = model.table('snapshots');
  if (!(h.index >= 0 && h.index < snaps.rows)) return null;
  const s = reader(snaps);
  if (Number.isNaN(s(h.index, 'arrival'))) return null; // lost: the client never had it
  const x = map.x(s(h.index, 'x'));
  const y = map.y(s(h.index, 'y'));
  if (!(x >= 0 && x <= w && y >= 0 && y <= hgt)) return null;
  const bounds = { left: BOUNDS_PAD, top: 52, right: w - BOUNDS_PAD, bottom: hgt - 20 };
  halo(ctx, x, y, 7, COLORS.snapshot, theme, 'square');
  square(ctx, x, y, 10, theme.panel);
  square(ctx, x, y, 8, COLORS.snapshot);
  const rect = tagAt(ctx, t('hl.tick', { tick: h.tick }), x, y, 9, COLORS.snapshot, theme, { bounds, taken: [], prefer: ['above', 'below', 'right', 'left'] });
  return { step: 'inspect', tick: h.tick, x, y, tags: [rect] };
}

/** Remote view: bracket, factor and status steps. Returns what was drawn, or null. */
export function highlightRemote(ctx, map, theme, h, w, hgt, model) {
  if (h.inspect) return inspectRemote(ctx, map, theme, model, h, w, hgt);
  if (h.kind !== 'frame' || !['bracket', 'factor', 'status'].includes(h.step)) return null;
  // Clear of the status lines in the top left (three lines, to y ≈ 50) and the scale bar at the bottom.
  const bounds = { left: BOUNDS_PAD, top: 52, right: w - BOUNDS_PAD, bottom: hgt - 20 };
  const taken = [];
  const at = (p) => (p && Number.isFinite(p.x) && Number.isFinite(p.y) ? { ...p, px: map.x(p.x), py: map.y(p.y) } : null);
  const left = at(h.left);
  const right = at(h.right);
  const drawn = { x: h.x, y: h.y };
  const point = Number.isFinite(drawn.x) && Number.isFinite(drawn.y) ? { px: map.x(drawn.x), py: map.y(drawn.y ?? 0) } : null;

  if (h.step === 'bracket' || h.step === 'factor') {
    if (left && right && left.tick !== right.tick) thickSegment(ctx, left.px, left.py, right.px, right.py, COLORS.render, theme, h.step === 'bracket' ? 4 : 1.5);
    const ends = [[left, 'hl.left', ['above', 'left', 'below']], [right, 'hl.right', ['above', 'right', 'below']]];
    for (const [b, key, prefer] of ends) {
      if (!b) continue;
      if (h.step === 'bracket') halo(ctx, b.px, b.py, 7, COLORS.snapshot, theme, 'square');
      square(ctx, b.px, b.py, 10, theme.panel);
      square(ctx, b.px, b.py, 8, COLORS.snapshot);
      if (h.step === 'bracket' && !(left && right && left.tick === right.tick && b === right)) {
        tagAt(ctx, t(key, { tick: b.tick }), b.px, b.py, 9, COLORS.snapshot, theme, { bounds, taken, prefer });
      }
    }
    if (h.step === 'bracket') {
      // No snapshot around the render time (an empty or priming buffer): said in words where the segment would be.
      if (!left && !right) tagAt(ctx, t('hl.noBracket'), w / 2, (bounds.top + bounds.bottom) / 2, 0, null, theme, { bounds, taken, prefer: ['above'] });
      return { step: 'bracket', left: left?.tick ?? null, right: right?.tick ?? null, tags: taken };
    }
    if (!point) return { step: 'factor', x: null, tags: taken };
    if (left && right && left.tick !== right.tick) thickSegment(ctx, left.px, left.py, point.px, point.py, COLORS.render, theme, 4);
    halo(ctx, point.px, point.py, 10, COLORS.render, theme);
    diamond(ctx, point.px, point.py, 7, COLORS.render, { cased: true });
    const f = Number.isFinite(h.factor) ? Number(h.factor).toFixed(2) : '0';
    tagAt(ctx, t('hl.factor', { factor: f }), point.px, point.py, 11, COLORS.render, theme, { bounds, taken, prefer: ['below', 'above', 'right', 'left'] });
    return { step: 'factor', factor: h.factor, x: point.px, y: point.py, tags: taken };
  }

  // Status: the ◆ in its mode's style, and the status in words (statuses add no hue: an ink tag).
  const { glyph, name } = statusText(h.status);
  const words = `${glyph} ${name} · ${t(`view.remote.doing.${h.mode}`)}`;
  if (point && h.mode !== 'hidden') {
    const color = h.mode === 'extrapolated' ? COLORS.extrapolated : COLORS.render;
    halo(ctx, point.px, point.py, 10, color, theme);
    if (h.mode === 'extrapolated') openDiamond(ctx, point.px, point.py, 7, COLORS.extrapolated, theme.panel);
    else if (h.mode === 'held') openDiamond(ctx, point.px, point.py, 7, COLORS.render, theme.panel);
    else diamond(ctx, point.px, point.py, 7, COLORS.render, { cased: true });
    tagAt(ctx, words, point.px, point.py, 11, null, theme, { bounds, taken, prefer: ['below', 'above', 'right', 'left'] });
    return { step: 'status', status: h.status, mode: h.mode, x: point.px, y: point.py, tags: taken };
  }
  tagAt(ctx, words, w / 2, (bounds.top + bounds.bottom) / 2, 0, null, theme, { bounds, taken, prefer: ['above'] });
  return { step: 'status', status: h.status, mode: h.mode, x: null, tags: taken };
}
