// The inspected packet's chain on the timeline lanes (inspector.js picks it): in the emphasis style of
// highlight-kit.js —
//   server lane   its ■ haloed, "tick N";
//   arrival lane  the send → arrival hairline thick and its ○ haloed (a lost packet: the line to where it
//                 would have arrived, "lost");
//   render lane   its ■ at its server time (the render lane's axis), haloed, joined to the ○ by a dotted
//                 line: the wait in the buffer until the render cursor reaches it, "waited 88 ms" — or, when
//                 the render time passed it before it arrived, "too late by 12 ms".
import { COLORS, square } from '../canvas.js';
import { halo, thickSegment, tagAt } from '../highlight-kit.js';
import { serverToLocal } from '../views/view-kit.js';
import { packetFacts } from '../inspector.js';
import { t } from '../strings/i18n.js';

/** Draws packet `inspect` (`{tick, i}`) over the lanes; returns what it drew (for the tests). */
export function drawInspected(g, model, frames, index, inspect) {
  const { ctx, L, X, theme } = g;
  const f = packetFacts(model, frames, index, inspect.i);
  const bounds = { left: g.L.left, right: g.L.right, top: L.y.axis + 3, bottom: L.y.clockBottom + 6 };
  const taken = [...(g.reserved ?? [])];
  const latency = model.imported ? 0 : model.params.network.downlink.latency;
  const xs = X(f.sent);
  const xa = X(f.lost ? f.sent + latency : f.arrival);
  const xr = X(serverToLocal(model.params)(f.serverTime));
  const { send: yS, arrival: yA, render: yR } = L.y;

  ctx.save();
  ctx.beginPath();
  ctx.rect(L.left - 8, 0, L.right - L.left + 16, L.h);
  ctx.clip();
  thickSegment(ctx, xs, yS, xa, yA, COLORS.snapshot, theme, f.lost ? 1.5 : 3);
  halo(ctx, xs, yS, 7, COLORS.snapshot, theme, 'square');
  halo(ctx, xa, yA, 8, f.lost ? theme.ink : COLORS.arrival, theme);
  const played = !f.lost && Number.isFinite(f.playedAt);
  if (played) {
    // The wait in the buffer: from the arrival down to where the render cursor plays it.
    ctx.strokeStyle = theme.ink;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([2, 3]);
    ctx.beginPath();
    ctx.moveTo(xa, yA);
    ctx.lineTo(xr, yR);
    ctx.stroke();
    ctx.setLineDash([]);
    halo(ctx, xr, yR, 7, COLORS.snapshot, theme, 'square');
    square(ctx, xr, yR, 10, theme.panel);
    square(ctx, xr, yR, 8, COLORS.snapshot);
  }
  ctx.restore();

  const inside = (x) => x >= L.left - 4 && x <= L.right + 4;
  const tags = [];
  const tagIf = (text, x, y, r, color, prefer) => {
    if (inside(x)) tags.push(tagAt(ctx, text, x, y, r, color, theme, { bounds, taken, prefer }));
  };
  tagIf(t('hl.tick', { tick: f.tick }), xs, yS, 9, COLORS.snapshot, ['aboveLeft', 'left', 'aboveRight', 'right']);
  if (f.lost) tagIf(t('inspect.tag.lost'), xa, yA, 9, null, ['right', 'belowRight', 'left']);
  else if (played) {
    const text = f.wait >= 0 ? t('inspect.tag.waited', { ms: Math.round(f.wait * 1000) }) : t('inspect.tag.tooLate', { ms: Math.round(-f.wait * 1000) });
    tagIf(text, xr, yR, 9, COLORS.snapshot, ['belowLeft', 'left', 'belowRight', 'right']);
  }
  return { tick: f.tick, sent: xs, arrival: xa, render: played ? xr : null, lost: f.lost, tags };
}
