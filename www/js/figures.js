// The figures a reader can take out of the playground: each one can be embedded alone
// (embed.html#fig=NAME&…), copied as an <iframe> snippet and downloaded as a PNG. One entry per figure: its
// title (a string-table key), what it is drawn from (a world view with the lanes, a plot module, the lerp-chase
// comparison, seed 002's worked example, a lesson card) and the few controls it needs in an embed.
// Everything is drawn by the playground's own painters: an embed mounts the same modules into the same ids.

export const FIGURES = {
  server: { title: 'view.server', view: 'server', controls: ['sendRate', 'loss', 'latency'] },
  local: { title: 'view.local', view: 'local', controls: ['halfLife', 'latency', 'smoothing'] },
  remote: { title: 'view.remote', view: 'remote', controls: ['renderDelay', 'jitter', 'loss'] },
  extrapolation: { title: 'plot.extrapolation.title', plot: 'extrapolation', controls: ['policy', 'maxExtrapolation', 'jitter'] },
  decay: { title: 'plot.decay.title', plot: 'decay', controls: ['halfLife', 'smoothing', 'latency'] },
  sweep: { title: 'plot.sweep.title', plot: 'sweep', controls: ['renderDelay', 'jitter', 'loss'] },
  clock: { title: 'plot.clock.title', plot: 'clock', controls: ['jitter', 'latency', 'adaptive'] },
  comparison: { title: 'comparison.title', comparison: true, controls: ['lerpFactor', 'jitter', 'withOffsets'] },
  worked: { title: 'we.heading', worked: true, controls: [] },
  lesson: { title: 'lessons.label', lesson: true, controls: [] },
};

/**
 * The visual beside each lesson card in an embed: the figure the lesson asks the reader to look at
 * (its "look" text names it).
 */
export const LESSON_VISUAL = {
  'render-delay': 'remote',
  'extrapolation-cap': 'extrapolation',
  jitter: 'remote',
  'timed-path': 'comparison',
  'v2-snap': 'comparison',
  'out-of-order': 'remote',
  statuses: 'remote',
  'correction-offset': 'decay',
  mismatch: 'local',
  clock: 'clock',
  'buffer-depth': 'remote',
  'adaptive-delay': 'clock',
  presets: 'sweep',
  'engines-mobile': 'remote',
  'neteq-bursty': 'remote',
  'your-network': 'remote',
  'your-settings': 'remote',
};

/** A lesson embed shows the controls of its visual, at most four. */
export function lessonControls(lessonId) {
  return FIGURES[LESSON_VISUAL[lessonId] ?? 'remote'].controls;
}

/** The iframe sizes the embed is laid out for (and the snippet proposes), CSS px. */
export const EMBED_SIZE = { width: 640, height: 400 };

/**
 * The `<iframe>` snippet for `fig` with the playground state `hash` (without `#`), served from `base` (the
 * playground's folder URL). `title` names the frame for screen readers.
 */
export function embedSnippet(base, fig, hash, lang, title) {
  const params = new URLSearchParams(hash);
  params.delete('present');
  params.delete('fig');
  params.set('lang', lang);
  const src = new URL(`embed.html#fig=${fig}&${params}`, base).href;
  const safeTitle = title.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  return `<iframe src="${src.replace(/&/g, '&amp;')}" width="${EMBED_SIZE.width}" height="${EMBED_SIZE.height}" title="${safeTitle} — netcode-lab" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}
