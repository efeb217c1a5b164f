// Timeline lanes: server send → arrival → render time. (First version.)
import { COLORS, surface, line, square, circle, text } from './canvas.js';

export function mount() {
  const canvas = document.getElementById('lanes');
  return {
    draw({ model, frame, playhead, theme }) {
      const { ctx, w } = surface(canvas);
      const left = 110;
      const t0 = playhead - 1.5;
      const tx = (t) => left + ((t - t0) / 2) * (w - left - 10);
      const ys = [30, 90, 150];
      ['Server send', 'Arrival', 'Render'].forEach((name, i) => text(ctx, theme.ink, name, 8, ys[i] + 4));
      const s = model.table('snapshots');
      for (let i = 0; i < s.rows; i++) {
        const sent = s.view[i * s.stride + s.col.sent];
        if (sent < t0 - 0.5 || sent > t0 + 2) continue;
        const arrival = s.view[i * s.stride + s.col.arrival];
        ctx.strokeStyle = COLORS.arrival;
        if (Number.isFinite(arrival)) line(ctx, tx(sent), ys[0], tx(arrival), ys[1]);
        square(ctx, tx(sent), ys[0], 7, COLORS.snapshot);
        if (Number.isFinite(arrival)) circle(ctx, tx(arrival), ys[1], 4, COLORS.arrival, arrival <= playhead);
      }
      ctx.strokeStyle = theme.ink;
      line(ctx, tx(playhead), 10, tx(playhead), 170);
      ctx.strokeStyle = COLORS.render;
      void frame;
    },
  };
}
