// The three world views: Server truth · Local (predicted) · Remote (as rendered). (First version.)
import { COLORS, surface, worldMapper, circle, diamond, text } from './canvas.js';

export function mount() {
  const canvases = ['view-server', 'view-local', 'view-remote'].map((id) => document.getElementById(id));
  return {
    draw({ model, frames, index, theme }) {
      const { view, stride, col } = frames;
      const at = (i, name) => view[i * stride + col[name]];
      for (const [k, canvas] of canvases.entries()) {
        const { ctx, w, h } = surface(canvas);
        const map = worldMapper({ w, h });
        ctx.strokeStyle = theme.line;
        ctx.strokeRect(map.x(-120), map.y(70), 240 * map.scale, 140 * map.scale);
        if (k === 0) circle(ctx, map.x(at(index, 'truthX')), map.y(at(index, 'truthY')), 5, theme.truth);
        if (k === 1) {
          const s = 1.1;
          circle(ctx, map.x(at(index, 'predictedX') * s), map.y(at(index, 'predictedY') * s), 5, theme.truth, false);
          diamond(ctx, map.x(at(index, 'renderedX') * s), map.y(at(index, 'renderedY') * s), 6, COLORS.render);
        }
        if (k === 2) {
          circle(ctx, map.x(at(index, 'truthX')), map.y(at(index, 'truthY')), 4, theme.muted, false);
          const x = at(index, 'x');
          if (Number.isFinite(x)) diamond(ctx, map.x(x), map.y(at(index, 'y')), 6, COLORS.render);
        }
      }
      void model;
      text;
    },
  };
}
