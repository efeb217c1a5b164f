// The language checker for the end-to-end tests. Two questions, asked of everything a reader can see — visible
// text, the options of visible selects, the aria-label / title / placeholder / aria-valuetext of visible
// elements, and every string drawn on a canvas (recorded by `recordCanvasText`, with the language it was drawn
// in):
//   `englishWords`  in zh mode, the English words left. Units and code names are allowed: a word with `_` or
//                   a camelCase bump is a code name (RENDER_DELAY_MS, offsetMs, ClockUncertain); `<code>` and
//                   `[lang=en]` (the “English” button) are skipped; the rest must be in ALLOWED.
//   `rawKeys`       in either language, a string table key shown as it is ("legend.sent",
//                   "plot.extrapolation.caption"): a key with no string behind it.
export const ALLOWED = [
  // units
  'ms', 'Hz', 'fps', 'px', 'ppm',
  // names the articles use as they are (seed 002's statuses and Tick, seed 001's lerp and seq, seed 004's RTT)
  'Tick', 'Ready', 'Priming', 'Underrun', 'Gap', 'lerp', 'seq', 'RTT',
  // seed 004 writes "tick" and "NGO" inside its Chinese sentences ("外推时间不能超过一个tick的一半", "NGO默认是外推")
  'tick', 'NGO',
  // proper names, file names and formats (netcode-lab/trace@1, netcode-lab/arrivals@1, CSV)
  'netcode', 'lab', 'trace', 'arrivals', 'CSV', 'README', 'PNG', 'Hermite', 'Gilbert', 'Elliott', 'Rust',
  // the recorder's channels and the protocol under one (record.js)
  'WebSocket', 'WebRTC', 'TCP',
  // the engines, by their names (their settings are code names: cl_interp, bufferLimit, …)
  'Mirror', 'Unity', 'NGO', 'Source', 'geckos', 'Gambetta', 'NetEQ', 'TickRate', 'Lerp', 'Mathf', 'LerpUnclamped',
  'lightyear', 'min_delay', 'Fish', 'Networking', 'NetworkTransform', 'interpolation', 'enableTeleport', 'teleportThreshold',
  'quantile',
  // a strategy's name as the CLI spells it (mirror beside mirror-core), a formula's max()
  'mirror', 'max',
  // key names
  'Home', 'End', 'Escape',
];

/** A string table key: lower-case words joined by dots ("legend.sent", "plot.decay.caption") — but not the
 * one proper name that is spelt like one, the library geckos.io. */
export const RAW_KEY = '^(?!geckos\\.io$)[a-z]+(\\.[a-zA-Z0-9]+)+$';

/**
 * An init script (`page.addInitScript(recordCanvasText)`): every `fillText` / `strokeText` on any canvas is
 * remembered with the document's language at that moment, in `window.__canvasTexts` (a Set of
 * `lang + '\u0000' + text`; bounded, so a long playing test cannot grow it without end).
 */
export function recordCanvasText() {
  const seen = new Set();
  window.__canvasTexts = seen;
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['fillText', 'strokeText']) {
    const original = proto[name];
    proto[name] = function record(text, ...rest) {
      if (seen.size < 50000) seen.add(`${document.documentElement.lang}\u0000${text}`);
      return original.call(this, text, ...rest);
    };
  }
}

/**
 * Runs in the page (self-contained: `page.evaluate` sends this one function). With an array of allowed words:
 * `[word in “context” (where)]` for every English word left in zh mode (see the header). With a pattern: every
 * visible string that is a raw string-table key, in either language.
 */
function inspectStrings(arg) {
  const canvasLang = Array.isArray(arg) ? 'zh-CN' : null;
  const strings = [];
  const shown = (el) => {
    if (!el || el.closest('code, [lang="en"]:not(html), script, style, noscript, template')) return false;
    if (el.closest('option')) return el.closest('select')?.getClientRects().length > 0;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}`;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    if (text && shown(node.parentElement)) strings.push([text, name(node.parentElement)]);
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [aria-valuetext]')) {
    if (!shown(el)) continue;
    for (const attr of ['aria-label', 'title', 'placeholder', 'aria-valuetext']) {
      const v = el.getAttribute(attr)?.trim();
      if (v) strings.push([v, `${name(el)}[${attr}]`]);
    }
  }
  // Canvas strings (recordCanvasText): only those drawn in Chinese for the English check, all for raw keys.
  for (const entry of window.__canvasTexts ?? []) {
    const [lang, text] = entry.split('\u0000');
    if ((canvasLang === null || lang === canvasLang) && text.trim()) strings.push([text.trim(), 'canvas']);
  }
  const out = [];
  if (Array.isArray(arg)) {
    for (const [text, where] of strings) {
      for (const [word] of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
        if (!/[A-Za-z]{3,}/.test(word) || word.includes('_') || /[a-z][A-Z]/.test(word) || arg.includes(word)) continue;
        out.push(`${word} in “${text.slice(0, 70)}” (${where})`);
      }
    }
  } else {
    const re = new RegExp(arg);
    for (const [text, where] of strings) if (re.test(text)) out.push(`${text} (${where})`);
  }
  return [...new Set(out)];
}

/** `page.evaluate(englishWords, ALLOWED)`: English words left in zh mode. */
export const englishWords = inspectStrings;
/** `page.evaluate(rawKeys, RAW_KEY)`: raw string-table keys shown, in either language. */
export const rawKeys = inspectStrings;

/** Forgets the canvas strings recorded so far (e.g. before switching language). */
export function forgetCanvasText() {
  window.__canvasTexts?.clear();
}
