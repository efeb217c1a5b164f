// What the playground fetches right after its first frame, as one chunk (marks.js `loadLater()`, a dynamic
// `import()`: in dist a file of its own beside main.js, and the first-frame modules it shares with main.js one
// chunk beside them): the step-through's and the packet inspector's marks on the lanes and the views, the
// inspector itself (its pointer and key handling on the lanes, its sentence under them), the league table and
// "Your settings" beside it, and
// trace import and export (trace-io.js, at the rail's foot: below the fold, or folded away on a phone) with the
// recorder beside it (record.js: "Record my network") and what a trace shown does to the page (imported.js), and what
// the figures' "Copy embed code" and "Download PNG" buttons do (figure-actions.js; the buttons are the first frame's),
// the readouts' words explained on hover and tap (glossary.js), the phone's touch pad (touch-pad.js) and their
// stylesheet (later.css).
import { drawLaneHighlight } from './lanes/lanes-highlight.js';
import { highlightServer, highlightRemote } from './views/views-highlight.js';
import { drawInspected } from './lanes/lanes-inspect.js';
import { mount as mountInspector } from './inspector.js';

import { loadPart } from './strings/i18n.js';

export { mount as mountLeague } from './engines/league.js';
export { mount as mountSettings } from './engines/settings.js';
export { buildTraceIO } from './trace-io.js';
export { mountRecorder } from './record.js';
export { mountImported } from './imported.js';
export { showEmbedCode, download } from './figure-actions.js';
export { watchGlossary } from './glossary.js';
export { mountTouchPad } from './touch-pad.js';

/** later.css (the explained terms, the touch pad): fetched with this chunk, the page's address, not the chunk's. */
if (typeof document !== 'undefined') {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: new URL('later.css', document.baseURI).href });
  document.head.append(link);
}

// The inspector's sentence, the step-through's tags and the metrics table's words (i18n.js).
await loadPart('later');
export const MARKS = { lane: drawLaneHighlight, server: highlightServer, remote: highlightRemote, inspected: drawInspected, mountInspector };
