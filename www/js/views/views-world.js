// What the Server and Remote views share: one world scale (the remote world is about ±120 × ±70 units,
// centred on 0), the faint arena outline with a scale bar, and the age buckets that fade trails.
import { surface, worldMapper } from '../canvas.js';
import { column, label, fresh, staticLayer, themeKey } from './view-kit.js';

/** Half-extent mapped into each view; the same for Server and Remote, so they compare mark for mark. */
export const WORLD_EXTENT = { x: 128, y: 76 };
const ARENA = { x: 120, y: 70 };

/**
 * The world a view shows: the simulator's arena, or — for an imported trace, whose units can be anything — the
 * box around its snapshots. `{extent, center, arena, bar}` (bar: the scale bar's length in world units).
 */
export function worldOf(model) {
  if (model._world?.runId === model.runId) return model._world;
  let world = { extent: WORLD_EXTENT, center: { x: 0, y: 0 }, arena: true, bar: 50 };
  if (model.imported) {
    // The snapshots and everything the replay displayed (an extrapolation can leave the snapshots' box).
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    const take = (x, y) => {
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      [x0, x1, y0, y1] = [Math.min(x0, x), Math.max(x1, x), Math.min(y0, y), Math.max(y1, y)];
    };
    const s = model.table('snapshots');
    for (let i = 0; i < s.rows; i++) take(s.view[i * s.stride + s.col.x], s.view[i * s.stride + s.col.y]);
    const f = model.table('frames');
    for (let i = 0; i < f.rows; i++) take(f.view[i * f.stride + f.col.x], f.view[i * f.stride + f.col.y]);
    if (Number.isFinite(x0)) {
      const span = Math.max(x1 - x0, y1 - y0);
      // A single point has no size: show one unit around it (or a tenth of its distance from the origin).
      const half = (span > 1e-9 ? span / 2 : Math.max(1, 0.1 * Math.hypot(x0, y0))) * 1.35;
      const bar = 10 ** Math.floor(Math.log10(half));
      world = { extent: { x: half * 1.68, y: half }, center: { x: (x0 + x1) / 2, y: (y0 + y1) / 2 }, arena: false, bar };
    }
  }
  model._world = { ...world, runId: model.runId };
  return model._world;
}

/** The arena outline (simulated runs) and a scale bar (bottom right). */
export function worldFrame(ctx, map, theme, world = { arena: true, bar: 50, center: { x: 0, y: 0 } }) {
  ctx.strokeStyle = theme.line;
  ctx.lineWidth = 1;
  if (world.arena) ctx.strokeRect(map.x(-ARENA.x), map.y(ARENA.y), 2 * ARENA.x * map.scale, 2 * ARENA.y * map.scale);
  const len = world.bar * map.scale;
  const corner = world.arena ? ARENA : { x: world.center.x + world.extent.x * 0.9, y: world.center.y + world.extent.y * 0.9 };
  const x1 = map.x(world.arena ? corner.x : corner.x) - 4;
  const y = map.y(world.arena ? -corner.y : 2 * world.center.y - corner.y) - 6;
  ctx.strokeStyle = theme.muted;
  ctx.beginPath();
  ctx.moveTo(x1 - len, y - 3);
  ctx.lineTo(x1 - len, y);
  ctx.lineTo(x1, y);
  ctx.lineTo(x1, y - 3);
  ctx.stroke();
  label(ctx, `${world.bar} u`, x1 - len / 2, y - 4, { color: theme.muted, size: 10, align: 'center' });
}

/** `i → 0..3`: how recent frame `i` is within the last `seconds` (3 = newest quarter). */
export function fadeBuckets(frames, now, seconds) {
  const local = column(frames, 'local');
  return (i) => Math.max(0, Math.min(3, Math.floor(4 * (1 - (now - local(i)) / seconds))));
}

/**
 * A world view's canvas, ready to draw on: sized, reset, the static arena (or trace frame) painted from its
 * cached layer, and the world → pixel mapping. `{ctx, w, h, map}`.
 */
export function worldSurface(canvas, scene, cache) {
  const { ctx, w, h } = surface(canvas);
  fresh(ctx);
  const world = worldOf(scene.model);
  const map = worldMapper({ w, h, extent: world.extent, center: world.center });
  const layerKey = `${themeKey(scene.theme)}|${world.arena ? 'arena' : world.runId}`;
  ctx.drawImage(staticLayer(cache, layerKey, w, h, (c) => worldFrame(c, map, scene.theme, world)), 0, 0, w, h);
  return { ctx, w, h, map };
}
