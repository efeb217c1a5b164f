// What the page does when a recorded or imported trace becomes its network (trace-io.js and the recorder hand it
// here): it says what was read, moves the playhead to the trace's start, and shows the figure "Your network:
// recorded vs fitted" (plots/fit.js, fetched with the first trace that fits) while that trace is on screen. A
// trace the fit refuses gets no figure. Fetched after the first frame, with later.js.
import { showError, showNotice } from './banner.js';
import { t } from './strings/i18n.js';

/**
 * `ports`: `model()`, `setPlayhead(t)`, `afterRun()`, `redraw()`, `addPainter(painter, element)` and what the fit
 * figure's panel asks for (`apply`, `setPreset`, `requestDraw`, `inDrag`, `playing`). Returns `onImported(summary,
 * figure)`: `figure` is the trace's fitted network (`fitTrace`, from the import worker) or `{error}`.
 */
export function mountImported(ports) {
  let shown = null;
  let panel = null;

  function showFit(figure) {
    const fits = figure && !figure.error;
    shown = fits ? { figure, trace: ports.model().trace, id: (shown?.id ?? 0) + 1 } : null;
    window.netcodeLab.fit = fits ? figure : null;
    if (!fits) return;
    const { apply, setPreset, requestDraw, inDrag, playing, model } = ports;
    panel ??= import('./plots/fit.js')
      .then((module) => module.mount({ model, apply, setPreset, requestDraw, inDrag, playing, fit: () => shown }))
      .then((painter) => {
        ports.addPainter(painter, document.getElementById('fit'));
        return painter;
      });
    panel.then(() => ports.redraw(), (error) => showError(error?.message ?? String(error)));
  }

  function onImported(summary, figure) {
    showFit(figure);
    ports.setPlayhead(ports.model().start);
    const note = summary.note ? ` — ${summary.note.replace(/[.。]\s*$/, '')}` : '';
    const counted = Object.entries(summary.counts ?? {}).filter(([, n]) => n > 0).map(([key, n]) => `${t(`trace.${key}`)} ${n}`);
    const counts = counted.length ? t('notice.importCounts', { counts: counted.join(t('list.separator')) }) : '';
    showNotice(t('notice.imported', { snapshots: summary.snapshots, samples: summary.samples, note }) + counts, { sticky: true });
    ports.afterRun();
  }

  return { onImported };
}
