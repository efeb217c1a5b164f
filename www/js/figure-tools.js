// "Copy embed code" and "Download PNG" under every figure of the playground.
//
// Embed code: the `<iframe>` snippet of embed.html for this figure and the current state (the URL hash the page
// writes, figures.js), copied with the clipboard API; the snippet is also shown, selected, in a text field — the
// visible fallback where the clipboard is refused.
// PNG: the figure drawn once more by its own painters at 2 backing pixels per logical px (canvas.js
// withExportRatio), headed by its title and legend as the page shows them, with a caption line under it that
// states the network, the settings that figure depends on (its controls in figures.js), the seed and the moment
// shown — so a teacher can put the exact picture in slides. The page is redrawn at its own resolution in the same
// task: nothing flickers.
import { t, tagged } from './strings/i18n.js';
import { loadLater } from './marks.js';

/** A row of the two buttons for figure `fig` (embed) named `name` (PNG file), after `host`'s last child. */
function toolsRow(page, host, { fig, name, layers, caption, lesson }) {
  const row = document.createElement('div');
  row.className = 'fig-tools';
  row.dataset.fig = name;
  row.setAttribute('role', 'group');
  row.setAttribute('aria-label', t('aria.figtools'));
  row.dataset.i18nAriaLabel = 'aria.figtools';
  // What the buttons do comes with later.js (figure-actions.js), fetched after the first frame.
  if (fig) { // a figure of the imported trace alone (the fit) has no embed: an embed shows a simulated run
    const embed = tagged('button', 'figtools.embed', { type: 'button', class: 'fig-embed' });
    embed.addEventListener('click', () => loadLater().then((later) => later.showEmbedCode(page, row, typeof fig === 'function' ? fig() : fig)));
    row.append(embed);
  }
  if (layers || lesson) {
    const png = tagged('button', 'figtools.png', { type: 'button', class: 'fig-png' });
    png.addEventListener('click', () => loadLater().then((later) => later.download(page, name, { layers, fig: typeof fig === 'function' ? fig() : fig, host, caption, lesson })));
    row.append(png);
  }
  host.append(row);
  return row;
}

/**
 * Adds the tools to the figures present now (the views and the lanes at boot); `adopt()` adds them to figures
 * mounted later (the plots, the comparison); `sync()` shows the lesson's only while a lesson card is.
 * `page`: what the picture and the snippet are made of (figure-actions.js) — `model()`, `preset()`, `playhead()`,
 * `playing()`, `theme()`, `extras()` (the lesson shown), `redrawAll()`, `drawDeferred()`, `currentHash()`.
 */
export function mountFigureTools(page) {
  const done = new Set();
  const byId_ = (id) => document.getElementById(id);
  const add = (key, host, spec) => {
    if (done.has(key) || !host) return;
    done.add(key);
    toolsRow(page, host, spec);
  };
  const adopt = () => {
    for (const view of ['server', 'local', 'remote']) {
      const canvas = byId_(`view-${view}`);
      add(view, canvas?.closest('figure'), { fig: view, name: view, layers: () => [[canvas]] });
    }
    add('lanes', document.querySelector('.lanes'), { fig: 'remote', name: 'lanes', layers: () => [[byId_('lanes')]] });
    for (const plot of ['extrapolation', 'decay', 'sweep', 'clock']) {
      const figure = byId_(`plot-${plot}`);
      add(plot, figure, { fig: plot, name: plot, layers: () => [[...figure.querySelectorAll('canvas')]] });
    }
    // The fitted network's two plots in one picture, captioned with the fit's numbers (plots/fit.js).
    const fit = byId_('plot-fit-delay')?.parentElement;
    add('fit', fit, {
      name: 'fit',
      layers: () => ['plot-fit-delay', 'plot-fit-bursts'].map((id) => [...byId_(id).querySelectorAll('canvas')]),
      caption: () => byId_('fit-words').textContent,
    });
    for (const part of ['paths-world', 'paths-speed']) {
      const figure = byId_(`plot-${part}`);
      add(part, figure, { fig: 'comparison', name: part, layers: () => [[...figure.querySelectorAll('canvas')]] });
    }
  };
  adopt();
  const card = byId_('lesson-card');
  const lessonTools = toolsRow(page, document.createElement('div'), { fig: 'lesson', name: 'lesson', lesson: true });
  card.after(lessonTools);
  const sync = () => { // every change of a drag: written only when it differs
    const hidden = card.hidden || !page.extras()?.lesson;
    if (lessonTools.hidden !== hidden) lessonTools.hidden = hidden;
  };
  sync();
  return { adopt, sync };
}
