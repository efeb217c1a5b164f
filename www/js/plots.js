// The plots under the views, one idea each (modules in ./plots/):
//   extrapolation  seed 000 §4.3.5 — offset past the newest snapshot per underrun policy, the cap, "now"
//   decay          seed 003 — how each smoothing mode shows one correction, and the run's corrections
//   sweep          seed 000 §4.3.10 — render delay against underruns and lag; click/drag/keys set the delay
//   clock          seed 004 §2, §4.2 — RTT samples, outliers, smoothed RTT, render delay, clock error
// Each draws its static layer once per run (or size/theme) and only its cursor per frame.
import { ensureStylesheet, watchSize } from './plots/figure.js';
// Each module's `mount` by name, not `import * as`: a namespace used as a value makes esbuild emit its `__export`
// helper as a chunk of its own that every part of the page imports — one more request for the first frame.
import { mount as mountExtrapolation } from './plots/extrapolation.js';
import { mount as mountDecay } from './plots/decay.js';
import { mount as mountSweep } from './plots/sweep.js';
import { mount as mountClock } from './plots/clock.js';

/** Their stylesheet, fetched as this module loads (after the first frame); boot.js mounts them once it applies. */
export const styled = ensureStylesheet();

/**
 * The four plots in #plots. `host`: what a figure asks of the page (plots/figure.js `createFigure`: `requestDraw`,
 * `inDrag`, `playing`), `model()` and `seek(t)` (a click on a plot's time axis), and for the sweep `worker()`,
 * `afterDrag(fn, waiting)` and `metricsFor(model)`.
 */
export function mount(host) {
  const root = document.getElementById('plots');
  const plots = [mountExtrapolation, mountDecay, mountSweep, mountClock].map((start) => start(root, host));
  window.__plots = plots;
  watchSize(host, plots.map((p) => p.figure.canvas));
  return {
    draw(ctx) {
      for (const plot of plots) {
        // Out of the viewport during a slider drag: not even its data is read (its `paint` would draw nothing
        // then, figure.js) — only what must follow the run without being drawn (the sweep's request: `skip`).
        // It is drawn in full by the first frame after the drag, or as it scrolls in (its observer).
        if (host.inDrag() && !plot.figure.isVisible()) {
          plot.figure.skipped();
          plot.skip?.(ctx);
          continue;
        }
        plot.draw(ctx);
      }
    },
    /** Each figure on its own, so the first drawing of all four can take a task each (scheduler.js `drawOne`). */
    parts: plots,
  };
}
