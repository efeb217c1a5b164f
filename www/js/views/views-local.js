// The Local view: your own player in its 0..100 arena (screen coordinates, y down), seed 003's story.
// ○ predicted — what your physics says now, moved by your keys at once; ● faint — the server's live
// position of you (the truth, one uplink behind); □ — the last snapshot reconciled (the server's word, a
// round trip old); ◆ — what is drawn. When a correction leaves an offset, the yellow band and cased arrow
// run from predicted to drawn and decay by the half-life. Trails: the drawn path (thick) against the
// predicted path (thin). A readout column: pending inputs (sent, not yet acknowledged), the offset, and
// a loupe that magnifies the few units around you (offsets of 1–5 units are a few pixels in the arena).
import { COLORS, surface, circle, square, diamond } from '../canvas.js';
import { reader, label, measure, recentFrames, trail, casedStroke, fresh, staticLayer, themeKey, fitText } from './view-kit.js';
import { fadeBuckets } from './views-world.js';
import { t } from '../strings/i18n.js';

const TRAIL_SECONDS = 2;
const OFFSET_VISIBLE = 0.05; // world units; below this the band would be a dot
const OFFSET_LABELLED = 0.5; // below this the readout's number says enough

export function drawLocal(canvas, scene, cache = {}) {
  const { model, frames, index, theme } = scene;
  const { ctx, w, h } = surface(canvas);
  fresh(ctx);
  if (model.imported) return explainEmpty(ctx, theme, w, h);
  const params = model.params;
  const size = params.local.arenaSize;
  const pad = 12;
  const side = Math.min(h - 2 * pad, w * 0.64);
  const ox = pad;
  const oy = (h - side) / 2;
  const k = side / size;
  const arena = { left: ox, top: oy, size: side, map: { scale: k, x: (x) => ox + x * k, y: (y) => oy + y * k } };
  const column = { x: ox + side + 12, y: oy + 12, w: w - (ox + side + 12) - 6 };
  // The loupe: the neighbourhood of the predicted player, magnified, under the readout.
  const loupeSize = Math.max(0, Math.min(column.w, oy + side - (oy + 100)));
  const loupe = { left: column.x, top: oy + side - loupeSize, size: loupeSize, radius: LOUPE_RADIUS };

  const key = `${themeKey(theme)}|${size}|${params.local.smoothing}|${params.local.halfLife}`;
  ctx.drawImage(staticLayer(cache, key, w, h, (c) => {
    c.strokeStyle = theme.line;
    c.lineWidth = 1;
    c.strokeRect(ox, oy, side, side);
    label(c, '0,0', ox + 3, oy + 11, { color: theme.muted, size: 10 });
    label(c, String(size), ox + side - 3, oy + side - 4, { color: theme.muted, size: 10, align: 'right' });
    // The steering hint, left of the arena's size in its corner (the shorter wording when both would touch).
    const sizeWidth = measure(c, String(size), 10);
    label(c, fitText(c, [t('view.local.steer'), t('view.local.steerShort')], side - 14 - sizeWidth, 11), ox + 4, oy + side - 5, { color: theme.ink, halo: theme.panel, size: 11 });
    readoutCaptions(c, theme, column, params);
    if (loupe.size > 40) {
      c.fillStyle = theme.paper;
      c.fillRect(loupe.left, loupe.top, loupe.size, loupe.size);
      c.strokeStyle = theme.line;
      c.strokeRect(loupe.left + 0.5, loupe.top + 0.5, loupe.size - 1, loupe.size - 1);
    }
  }), 0, 0, w, h);

  const at = reader(frames);
  const P = [at(index, 'predictedX'), at(index, 'predictedY')];
  paintPlayer(ctx, scene, arena, 1);
  if (loupe.size > 40 && Number.isFinite(P[0])) {
    const s = loupe.size / (2 * loupe.radius);
    const cx = loupe.left + loupe.size / 2;
    const cy = loupe.top + loupe.size / 2;
    loupe.map = { scale: s, x: (x) => cx + (x - P[0]) * s, y: (y) => cy + (y - P[1]) * s };
    paintPlayer(ctx, scene, loupe, 1.3);
    const zoom = Math.round(s / k);
    label(ctx, fitText(ctx, [t('view.local.loupe', { n: zoom }), `×${zoom}`], loupe.size - 6, 10), loupe.left + 3, loupe.top + 11, { color: theme.muted, halo: theme.paper, size: 10 });
  }
  readout(ctx, theme, column, frames, index);
  return { predicted: P, rendered: [at(index, 'renderedX'), at(index, 'renderedY')], offset: at(index, 'offset'), pending: at(index, 'pending') };
}

/** An imported trace has no local player: say so in the middle of the view rather than draw an empty arena. */
function explainEmpty(ctx, theme, w, h) {
  const lines = [t('view.local.noTrace'), t('view.local.noTraceWhy')];
  label(ctx, fitText(ctx, [lines[0]], w - 16, 13, '600'), w / 2, h / 2 - 6, { color: theme.ink, size: 13, weight: '600', align: 'center' });
  label(ctx, fitText(ctx, [lines[1]], w - 16, 11), w / 2, h / 2 + 14, { color: theme.muted, size: 11, align: 'center' });
  const none = [NaN, NaN];
  return { predicted: none, rendered: none, offset: NaN, pending: NaN, empty: true };
}

const LOUPE_RADIUS = 6; // world units either side of the predicted player

/**
 * Your player in one box (`{left, top, size, map}`), clipped to it: both trails, then ● server, □ ack,
 * the offset band + arrow, ○ predicted, ◆ drawn. `grow` enlarges the marks (the loupe).
 */
function paintPlayer(ctx, { model, frames, index, theme }, box, grow) {
  const { map } = box;
  const at = reader(frames);
  const now = at(index, 'local');
  const speed = model.params.local.speed;
  const [first] = recentFrames(model, frames, index, TRAIL_SECONDS);
  const bucket = fadeBuckets(frames, now, TRAIL_SECONDS);
  const maxStep = () => Math.max(speed * 0.5, model.params.local.resetDistance);
  const fade = (b) => 0.2 + 0.2 * b;

  ctx.save();
  ctx.beginPath();
  ctx.rect(box.left, box.top, box.size, box.size);
  ctx.clip();
  trail(ctx, frames, first, index, 'predictedX', 'predictedY', map, {
    maxStep, style: bucket,
    onRun: (b, path) => { ctx.globalAlpha = fade(b) + 0.2; ctx.strokeStyle = theme.ink; ctx.lineWidth = 1; path(); ctx.stroke(); },
  });
  trail(ctx, frames, first, index, 'renderedX', 'renderedY', map, {
    maxStep, style: bucket,
    onRun: (b, path) => { ctx.globalAlpha = fade(b); ctx.strokeStyle = COLORS.render; ctx.lineWidth = 3 * grow; path(); ctx.stroke(); },
  });
  ctx.globalAlpha = 1;
  // In the arena, marks may overhang the wall (the player is clamped to it); the loupe clips them.
  if (grow === 1) ctx.restore();

  const P = [map.x(at(index, 'predictedX')), map.y(at(index, 'predictedY'))];
  const A = [map.x(at(index, 'authX')), map.y(at(index, 'authY'))];
  const K = [map.x(at(index, 'ackX')), map.y(at(index, 'ackY'))];
  const R = [map.x(at(index, 'renderedX')), map.y(at(index, 'renderedY'))];
  const offset = at(index, 'offset');

  if (Number.isFinite(A[0])) {
    ctx.globalAlpha = 0.35;
    circle(ctx, A[0], A[1], 5.5 * grow, theme.truth);
    ctx.globalAlpha = 1;
  }
  if (Number.isFinite(K[0])) square(ctx, K[0], K[1], 10 * grow, COLORS.snapshot, false);
  if (offset > OFFSET_VISIBLE && Number.isFinite(R[0])) offsetArrow(ctx, P, R);
  if (Number.isFinite(P[0])) {
    circle(ctx, P[0], P[1], 10, theme.panel, false);
    circle(ctx, P[0], P[1], 9, theme.ink, false);
  }
  if (Number.isFinite(R[0])) diamond(ctx, R[0], R[1], 6.5 * grow, COLORS.render, { cased: true });
  if (grow !== 1) ctx.restore();
  if (grow === 1 && offset > OFFSET_LABELLED && Number.isFinite(R[0])) {
    // Named beside the drawn player, on whichever side stays inside the arena.
    const text = t('view.local.offset', { v: offset.toFixed(1) });
    const left = R[0] + 9 + measure(ctx, text, 11, '600') > box.left + box.size;
    label(ctx, text, left ? R[0] - 9 : R[0] + 9, R[1] - 8, { color: theme.ink, halo: theme.panel, size: 11, weight: '600', align: left ? 'right' : 'left' });
  }
}

/** The correction offset: a yellow band with a cased arrow from predicted to drawn. */
function offsetArrow(ctx, [x0, y0], [x1, y1]) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  ctx.lineCap = 'round';
  ctx.globalAlpha = 0.75;
  ctx.strokeStyle = COLORS.offset;
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.lineCap = 'butt';
  if (len < 6) return;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const hx = x1 - ux * 7;
  const hy = y1 - uy * 7;
  casedStroke(ctx, () => { ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(hx, hy); }, COLORS.offset, 2);
  const head = () => {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(hx - uy * 4.5, hy + ux * 4.5);
    ctx.lineTo(hx + uy * 4.5, hy - ux * 4.5);
    ctx.closePath();
  };
  head();
  ctx.fillStyle = COLORS.offset;
  ctx.fill();
  ctx.strokeStyle = COLORS.casing;
  ctx.lineWidth = 1;
  ctx.stroke();
}

/** The column to the right of the arena, still parts: captions and the smoothing in use. */
function readoutCaptions(ctx, theme, { x, y, w }, params) {
  const small = w < 100 ? 11 : 12;
  label(ctx, fitText(ctx, [t('view.local.pending'), t('view.local.pendingShort')], w, small), x, y, { color: theme.muted, size: small });
  label(ctx, fitText(ctx, t('view.local.offsetCaption'), w, small), x, y + 46, { color: theme.muted, size: small });
  const mode = params.local.smoothing;
  const smoothing = mode === 'halfLife'
    ? [t('view.local.halfLife', { ms: Math.round(params.local.halfLife * 1000) }), `${Math.round(params.local.halfLife * 1000)} ms`]
    : [t('view.local.smoothing', { mode: t(`plot.smoothing.${mode}`) }), t(`plot.smoothing.${mode}`)];
  label(ctx, fitText(ctx, smoothing, w, small), x, y + 80, { color: theme.muted, size: small });
}

/** The live numbers: pending inputs (and a cell per input, as many as fit), the offset size. */
function readout(ctx, theme, { x, y, w }, frames, index) {
  const at = reader(frames);
  const pending = at(index, 'pending');
  const offset = at(index, 'offset');
  label(ctx, Number.isFinite(pending) ? String(pending) : '—', x, y + 16, { color: theme.ink, size: 14, weight: '600' });
  const cols = Math.max(1, Math.floor((w - 2) / 5));
  const cells = Number.isFinite(pending) ? Math.min(pending, 2 * cols) : 0;
  ctx.fillStyle = theme.muted;
  for (let c = 0; c < cells; c++) ctx.fillRect(x + (c % cols) * 5, y + 21 + Math.floor(c / cols) * 5, 4, 3);
  if (pending > 2 * cols) label(ctx, '+', x + cols * 5, y + 30, { color: theme.muted, size: 10 });
  label(ctx, Number.isFinite(offset) ? `${offset.toFixed(2)} u` : '—', x, y + 62, { color: theme.ink, size: 14, weight: '600' });
}
