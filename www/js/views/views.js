// The three world views side by side — Server truth · Local (you, predicted) · Remote (as rendered) —
// and their inline legends. Each view lives in its own module (views-server/-local/-remote.js); this one
// mounts them, fills the legend spans in the figure captions once (their words follow the language), and
// redraws all three per frame, with the step-through's subject (`scene.highlight`, views-highlight.js) on top.
import { COLORS } from '../canvas.js';
import { fillLegend } from './view-kit.js';
import { drawServer } from './views-server.js';
import { drawLocal } from './views-local.js';
import { drawRemote } from './views-remote.js';

const TRUTH = 'var(--truth)';
const INK = 'var(--ink)';

export const LEGENDS = {
  server: [
    { key: 'dot', color: TRUTH, text: 'truth', i18n: 'legend.truth' },
    { key: 'squareFaded', color: COLORS.snapshot, text: 'snapshot sent', i18n: 'legend.sent' },
    { key: 'cross', color: INK, text: 'lost', i18n: 'legend.lost' },
  ],
  local: [
    { key: 'ring', color: INK, text: 'predicted', i18n: 'legend.predicted' },
    { key: 'diamond', color: COLORS.render, text: 'drawn', i18n: 'legend.drawn' },
    { key: 'ghost', color: TRUTH, text: 'server', i18n: 'legend.server' },
    { key: 'squareOutline', color: COLORS.snapshot, text: 'ack', i18n: 'legend.acked' },
    { key: 'band', color: COLORS.offset, text: 'offset', i18n: 'legend.offset' },
  ],
  remote: [
    { key: 'diamond', color: COLORS.render, text: 'interpolated', i18n: 'legend.interpolated' },
    { key: 'diamondOpen', color: COLORS.extrapolated, text: 'extrapolated', i18n: 'legend.extrapolated' },
    { key: 'ghost', color: TRUTH, text: 'truth', i18n: 'legend.truth' },
    { key: 'square', color: COLORS.snapshot, text: 'buffer', i18n: 'legend.buffer' },
  ],
};

export function mount() {
  const server = document.getElementById('view-server');
  const local = document.getElementById('view-local');
  const remote = document.getElementById('view-remote');
  // An embed (embed.html) holds only the view it shows: the others are simply not drawn.
  for (const name of Object.keys(LEGENDS)) {
    const legend = document.getElementById(`legend-${name}`);
    if (legend) fillLegend(legend, LEGENDS[name]);
  }
  const caches = [{}, {}, {}]; // each view's static layer
  /** The scene's step-through step, else its inspected packet (its ■ in the Server and Remote views). */
  const highlighted = (scene) => {
    const inspected = scene.highlight ? null : scene.inspected;
    return scene.highlight ?? (inspected ? { kind: 'snapshot', step: 'sent', inspect: true, index: inspected.i, tick: inspected.tick } : null);
  };
  return {
    /** What the last draw showed, in numbers (for the end-to-end tests; nothing reads it per frame). */
    last: null,
    draw(scene) {
      if (!scene.frames.rows) return;
      const highlight = highlighted(scene);
      this.last = {
        server: server && drawServer(server, scene, caches[0], highlight),
        local: local && drawLocal(local, scene, caches[1]),
        remote: remote && drawRemote(remote, scene, caches[2], highlight),
      };
    },
    /** The views one at a time, for the first frame (boot.js draws each in a task of its own). */
    names: ['server', 'local', 'remote'],
    /** Draws the view `name` alone (one of `names`), as `draw` would. */
    drawView(name, scene) {
      if (!scene.frames.rows) return;
      const highlight = highlighted(scene);
      const one = {
        server: () => server && drawServer(server, scene, caches[0], highlight),
        local: () => local && drawLocal(local, scene, caches[1]),
        remote: () => remote && drawRemote(remote, scene, caches[2], highlight),
      }[name];
      this.last = { ...this.last, [name]: one() };
    },
  };
}
