// What the Server and Remote views share: one world scale (the remote world is about ±120 × ±70 units,
// centred on 0), the faint arena outline with a scale bar, and the age buckets that fade trails.
import { column, label } from './view-kit.js';

/** Half-extent mapped into each view; the same for Server and Remote, so they compare mark for mark. */
export const WORLD_EXTENT = { x: 128, y: 76 };
const ARENA = { x: 120, y: 70 };

/** The arena outline and a 50-unit scale bar (bottom right). */
export function worldFrame(ctx, map, theme) {
  ctx.strokeStyle = theme.line;
  ctx.lineWidth = 1;
  ctx.strokeRect(map.x(-ARENA.x), map.y(ARENA.y), 2 * ARENA.x * map.scale, 2 * ARENA.y * map.scale);
  const len = 50 * map.scale;
  const x1 = map.x(ARENA.x) - 4;
  const y = map.y(-ARENA.y) - 6;
  ctx.strokeStyle = theme.muted;
  ctx.beginPath();
  ctx.moveTo(x1 - len, y - 3);
  ctx.lineTo(x1 - len, y);
  ctx.lineTo(x1, y);
  ctx.lineTo(x1, y - 3);
  ctx.stroke();
  label(ctx, '50 u', x1 - len / 2, y - 4, { color: theme.muted, size: 10, align: 'center' });
}

/** `i → 0..3`: how recent frame `i` is within the last `seconds` (3 = newest quarter). */
export function fadeBuckets(frames, now, seconds) {
  const local = column(frames, 'local');
  return (i) => Math.max(0, Math.min(3, Math.floor(4 * (1 - (now - local(i)) / seconds))));
}
