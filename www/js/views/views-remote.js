// The Remote view: the other player as this client draws it (seeds 000 and 002).
// ◆ where it is drawn now; its trail of the last 2 s — thick solid while interpolated, dashed in the
// extrapolated colour while extrapolated, broken where hidden, a dotted hop where it snapped. The truth
// as a thin ghost (● now), so the render delay shows as distance behind it. The snapshots in the jitter
// buffer as ■ (arrived, not yet played past) with the two around the render time outlined and joined: the
// ◆ slides along that segment. The sample status is a glyph + word in the corner (never a new hue).
import { COLORS, circle, square, diamond } from '../canvas.js';
import { reader, lowerBound, label, measure, recentFrames, trail, casedStroke, openDiamond, bracketOf, column, fitText } from './view-kit.js';
import { fadeBuckets, worldSurface } from './views-world.js';
import { statusText } from '../readouts.js';
import { capInForce } from '../params.js';
import { t } from '../strings/i18n.js';
import { marks } from '../marks.js';
import { drawGhosts } from '../engines/engines.js';

const TRAIL_SECONDS = 2;

export function drawRemote(canvas, scene, cache = {}, highlight = null) {
  const { model, frames, index, theme } = scene;
  const { ctx, w, h, map } = worldSurface(canvas, scene, cache);
  const at = reader(frames);
  const now = at(index, 'local');
  const speed = model.params.scenario.speed;
  const dt = column(frames, 'dt');
  const modeOf = column(frames, 'mode');
  const modes = model.codes.mode;
  const [first] = recentFrames(model, frames, index, TRAIL_SECONDS);
  const bucket = fadeBuckets(frames, now, TRAIL_SECONDS);

  // Truth ghost: thin and faint.
  trail(ctx, frames, first, index, 'truthX', 'truthY', map, {
    maxStep: (i) => speed * dt(i) * 1.5 + 2,
    onRun: (_, path) => { ctx.globalAlpha = 0.3; ctx.strokeStyle = theme.truth; ctx.lineWidth = 1; path(); ctx.stroke(); },
  });
  ctx.globalAlpha = 1;

  // Displayed trail, split into runs by display mode and age.
  const EXTRAPOLATED = modes.indexOf('extrapolated');
  const jumps = trail(ctx, frames, first, index, 'x', 'y', map, {
    maxStep: (i) => speed * dt(i) * 2 + 3,
    style: (i) => (modeOf(i) === EXTRAPOLATED ? 10 : 0) + bucket(i),
    onRun: (key, path) => {
      ctx.globalAlpha = 0.3 + 0.23 * (key % 10);
      if (key >= 10) casedStroke(ctx, path, COLORS.extrapolated, 2.5, [5, 3]);
      else {
        ctx.strokeStyle = COLORS.render;
        ctx.lineWidth = 3;
        path();
        ctx.stroke();
      }
    },
  });
  ctx.globalAlpha = 0.8;
  ctx.setLineDash([1.5, 3]);
  ctx.strokeStyle = COLORS.render;
  ctx.lineWidth = 1.5;
  for (const j of jumps) {
    ctx.beginPath();
    ctx.moveTo(map.x(j.from[0]), map.y(j.from[1]));
    ctx.lineTo(map.x(j.to[0]), map.y(j.to[1]));
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.globalAlpha = 1;

  const tx = at(index, 'truthX');
  const ty = at(index, 'truthY');
  if (Number.isFinite(tx)) {
    ctx.globalAlpha = 0.4;
    circle(ctx, map.x(tx), map.y(ty), 4.5, theme.truth);
    ctx.globalAlpha = 1;
  }

  const bracket = drawBuffer(ctx, map, theme, model, frames, index);

  // The drawn entity: ◆ interpolated, ◇ extrapolated (cased), hollow ◆ held, nothing when hidden.
  const mode = modes[at(index, 'mode')] ?? 'hidden';
  const x = at(index, 'x');
  const y = at(index, 'y');
  // What the ghosts' names must leave readable: the ◆ and the "truth now" label (boxes in CSS px).
  const taken = [];
  if (Number.isFinite(x)) {
    const px = map.x(x);
    const py = map.y(y);
    taken.push({ x: px - 8, y: py - 8, w: 16, h: 16 });
    if (mode === 'extrapolated') {
      if (bracket.left) {
        casedStroke(ctx, () => { ctx.beginPath(); ctx.moveTo(bracket.left.x, bracket.left.y); ctx.lineTo(px, py); }, COLORS.extrapolated, 1.5, [3, 2]);
      }
      openDiamond(ctx, px, py, 7, COLORS.extrapolated, theme.panel);
    } else if (mode === 'held') {
      openDiamond(ctx, px, py, 7, COLORS.render, theme.panel);
    } else {
      diamond(ctx, px, py, 7, COLORS.render, { cased: true });
    }
    if (Number.isFinite(tx) && Math.hypot(map.x(tx) - px, map.y(ty) - py) > 24) {
      const text = t('view.truthNow');
      label(ctx, text, map.x(tx) + 7, map.y(ty) - 6, { color: theme.muted, halo: theme.panel, size: 10 });
      taken.push({ x: map.x(tx) + 5, y: map.y(ty) - 16, w: measure(ctx, text, 10) + 4, h: 13, truthNow: true });
    }
  }

  // The Engines panel's picks: hollow ghosts, each named (engines.js).
  const engines = drawGhosts(ctx, map, scene, taken);
  const status = corner(ctx, theme, model, frames, index, mode, bracket, w);
  const hl = highlight && marks.remote ? marks.remote(ctx, map, theme, highlight, w, h, model) : null;
  const truthLabel = taken.find((b) => b.truthNow) ?? null;
  return { status, mode, left: bracket.left?.tick ?? null, right: bracket.right?.tick ?? null, highlight: hl, engines, truthLabel };
}

/**
 * The jitter buffer: every snapshot that has arrived by now and is not yet far behind the render time,
 * as ■ at its position (older ones fainter). The bracket — the newest at or before the render time and
 * the first after it — is outlined and joined by a thin render-coloured segment.
 */
function drawBuffer(ctx, map, theme, model, frames, index) {
  const at = reader(frames);
  const now = at(index, 'local');
  const renderTime = at(index, 'renderTime');
  const found = bracketOf(model, frames, index);
  const place = (b) => b && { ...b, ts: b.serverTime, x: map.x(b.x), y: map.y(b.y) };
  const bracket = { left: place(found.left), right: place(found.right), alpha: found.alpha };
  if (!Number.isFinite(renderTime)) return bracket;
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const serverTime = column(snaps, 'serverTime');
  const arrival = column(snaps, 'arrival');
  const outcome = column(snaps, 'outcome');
  const inserted = model.codes.snapshotOutcome.indexOf('inserted');
  for (let i = lowerBound(snaps, 'serverTime', renderTime - 0.4); i < snaps.rows; i++) {
    const ts = serverTime(i);
    if (ts > renderTime + 2) break;
    if (!(arrival(i) <= now) || (outcome(i) !== inserted && !Number.isNaN(outcome(i)))) continue; // NaN: a trace's snapshot
    const behind = renderTime - ts;
    ctx.globalAlpha = behind > 0 ? Math.max(0.2, 0.7 - behind * 1.5) : 0.85;
    square(ctx, map.x(s(i, 'x')), map.y(s(i, 'y')), 6, COLORS.snapshot);
  }
  ctx.globalAlpha = 1;
  const { left, right } = bracket;
  if (left && right) {
    ctx.strokeStyle = COLORS.render;
    ctx.lineWidth = 1.25;
    ctx.beginPath();
    ctx.moveTo(left.x, left.y);
    ctx.lineTo(right.x, right.y);
    ctx.stroke();
  }
  for (const m of [left, right]) {
    if (!m) continue;
    square(ctx, m.x, m.y, 9, COLORS.snapshot);
    square(ctx, m.x, m.y, 13, theme.ink, false);
  }
  return bracket;
}

/** Status glyph + word, what is shown, and which snapshots it uses (top left). */
function corner(ctx, theme, model, frames, index, mode, bracket, w) {
  const at = reader(frames);
  const status = model.codes.status[at(index, 'status')] ?? 'priming';
  const { glyph, name } = statusText(status);
  const ahead = at(index, 'ahead');
  const cap = model.imported ? model.params.remote.underrun.maxExtrapolation : capInForce(model.params, model.sendInterval);
  let doing = t(`view.remote.doing.${mode}`);
  if (mode === 'extrapolated' && Number.isFinite(ahead)) doing += t('view.remote.ahead', { ahead: Math.round(ahead * 1000), cap: Math.round(cap * 1000) });
  // The delay sits top right; the status takes what is left of the line (the glyph alone when even that is short).
  const delay = at(index, 'delay');
  const delayText = t('view.remote.delay', { ms: Math.round(delay * 1000) });
  const room = w - 16 - measure(ctx, delayText, 11) - 10;
  label(ctx, fitText(ctx, [`${glyph} ${name}`, glyph], room, 13, '700'), 8, 16, { color: theme.ink, halo: theme.panel, size: 13, weight: '700' });
  label(ctx, fitText(ctx, doing, w - 16, 11), 8, 31, { color: theme.ink, halo: theme.panel, size: 11 });
  let uses = '';
  if (bracket.left && bracket.right && Number.isFinite(bracket.alpha)) {
    uses = t('view.remote.uses', { left: bracket.left.tick, right: bracket.right.tick, alpha: bracket.alpha.toFixed(2) });
  } else if (bracket.left) {
    uses = t('view.remote.pastNewest', { tick: bracket.left.tick });
  }
  label(ctx, delayText, w - 8, 16, { color: theme.muted, halo: theme.panel, size: 11, align: 'right' });
  if (uses) label(ctx, fitText(ctx, uses, w - 16, 11), 8, 45, { color: theme.muted, halo: theme.panel, size: 11 });
  return status;
}
