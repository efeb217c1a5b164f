// The Server view: the authoritative truth of the remote entity, and what the server did with it.
// Thin solid trail of the last 2 s and ● where it is now (the truth colour); a ■ at the position of every
// snapshot sent in the last second, fading with age (the samples the client will ever get of that path);
// ✕ where a snapshot was lost on the way (the client will never see that sample); a dotted hop and the
// word "respawn" where the entity teleported (the snapshot carrying the teleport flag is ringed). Same world scale as the Remote view, so the two compare
// mark for mark.
import { COLORS, circle, cross } from '../canvas.js';
import { reader, lowerBound, label, recentFrames, trail, column, fitText } from './view-kit.js';
import { fadeBuckets, worldSurface } from './views-world.js';
import { t } from '../strings/i18n.js';
import { marks } from '../marks.js';

const TRAIL_SECONDS = 2;
const SENT_SECONDS = 1;
const LOST_SECONDS = 2;

export function drawServer(canvas, scene, cache = {}, highlight = null) {
  const { model, frames, index, theme } = scene;
  const { ctx, w, h, map } = worldSurface(canvas, scene, cache);
  const at = reader(frames);
  const now = at(index, 'local');
  const serverNow = at(index, 'serverNow');
  const speed = model.params.scenario.speed;
  const dt = column(frames, 'dt');

  // Truth trail: older is fainter (four steps of alpha, so the stroke count stays small).
  const [first] = recentFrames(model, frames, index, TRAIL_SECONDS);
  const bucket = fadeBuckets(frames, now, TRAIL_SECONDS);
  const jumps = trail(ctx, frames, first, index, 'truthX', 'truthY', map, {
    maxStep: (i) => speed * dt(i) * 1.5 + 2,
    style: bucket,
    onRun: (b, path) => {
      ctx.globalAlpha = 0.25 + 0.25 * b;
      ctx.strokeStyle = theme.truth;
      ctx.lineWidth = 1.25;
      path();
      ctx.stroke();
    },
  });
  ctx.globalAlpha = 1;
  for (const jump of jumps) respawnHop(ctx, map, theme, jump);

  // Snapshots sent recently (■, fading) and lost ones (✕ where the sample was taken).
  const snaps = model.table('snapshots');
  const s = reader(snaps);
  const sentOf = column(snaps, 'sent');
  const arrivalOf = column(snaps, 'arrival');
  let sent = 0;
  let lost = 0;
  let newestLost = null;
  for (let i = lowerBound(snaps, 'sent', now - LOST_SECONDS); i < snaps.rows; i++) {
    const t = sentOf(i);
    if (t > now) break;
    const age = now - t;
    const x = map.x(s(i, 'x'));
    const y = map.y(s(i, 'y'));
    if (Number.isNaN(arrivalOf(i))) {
      lost += 1;
      newestLost = { x, y, age };
      ctx.globalAlpha = 1 - 0.6 * (age / LOST_SECONDS);
      cross(ctx, x, y, 4.5, theme.ink);
    } else if (age <= SENT_SECONDS) {
      sent += 1;
      // Small, with a panel-coloured rim: at 20 Hz neighbours are ~6 px apart and must stay separate.
      ctx.globalAlpha = 1 - 0.75 * (age / SENT_SECONDS);
      ctx.fillStyle = theme.panel;
      ctx.fillRect(x - 3.5, y - 3.5, 7, 7);
      ctx.fillStyle = COLORS.snapshot;
      ctx.fillRect(x - 2.5, y - 2.5, 5, 5);
    }
    if (s(i, 'teleport') === 1 && age <= SENT_SECONDS) {
      // The snapshot that carries the teleport flag: ringed (the client must not interpolate across it).
      ctx.globalAlpha = 1;
      ctx.strokeStyle = theme.ink;
      ctx.lineWidth = 1.25;
      ctx.strokeRect(x - 5.5, y - 5.5, 11, 11);
    }
  }
  ctx.globalAlpha = 1;
  if (newestLost && newestLost.age < 1) {
    label(ctx, t('legend.lost'), newestLost.x + 7, newestLost.y - 6, { color: theme.ink, halo: theme.panel, size: 11, weight: '600' });
  }

  // The truth now.
  const tx = at(index, 'truthX');
  const ty = at(index, 'truthY');
  if (Number.isFinite(tx)) {
    circle(ctx, map.x(tx), map.y(ty), 6.5, theme.panel);
    circle(ctx, map.x(tx), map.y(ty), 5, theme.truth);
  }

  const rate = Number(model.sendRate.toFixed(1));
  label(ctx, t('view.server.time', { t: serverNow.toFixed(2) }), 8, 16, { color: theme.ink, halo: theme.panel, size: 12, weight: '600' });
  const footer = fitText(ctx, [t('view.server.footer', { rate, sent, lost }), t('view.server.footerShort', { rate, sent, lost })], w - 16, 11);
  label(ctx, footer, 8, h - 8, { color: theme.muted, halo: theme.panel, size: 11 });
  const hl = highlight && marks.server ? marks.server(ctx, map, theme, model, highlight, w, h) : null;
  return { rate, sent, lost, respawns: jumps.length, highlight: hl };
}

/** A respawn: dotted hop from where the entity died to where it reappeared, named in words. */
function respawnHop(ctx, map, theme, jump) {
  const [x0, y0] = jump.from;
  const [x1, y1] = jump.to;
  ctx.setLineDash([2, 3]);
  ctx.strokeStyle = theme.muted;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(map.x(x0), map.y(y0));
  ctx.lineTo(map.x(x1), map.y(y1));
  ctx.stroke();
  ctx.setLineDash([]);
  circle(ctx, map.x(x0), map.y(y0), 3, theme.muted, false);
  // Named beside the middle of the hop, on the side away from the arena centre.
  const mx = map.x((x0 + x1) / 2);
  const my = map.y((y0 + y1) / 2);
  const right = (x0 + x1) / 2 < 60;
  label(ctx, t('view.server.respawn'), mx + (right ? 6 : -6), my + 4, { color: theme.ink, halo: theme.panel, size: 11, align: right ? 'left' : 'right' });
}
