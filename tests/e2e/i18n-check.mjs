// The language checker for the end-to-end tests: every visible text on the page (and the options of visible
// selects) in zh mode, with English words listed. Units and code names are allowed: a word with `_` or a
// camelCase bump is a code name (RENDER_DELAY_MS, offsetMs, ClockUncertain); `<code>` and `[lang=en]`
// (the “English” button) are skipped; the rest must be in ALLOWED.
export const ALLOWED = [
  // units
  'ms', 'Hz', 'fps', 'px',
  // names the articles use as they are (seed 002's statuses and Tick, seed 001's lerp and seq, seed 004's RTT)
  'Tick', 'Ready', 'Priming', 'Underrun', 'Gap', 'lerp', 'seq', 'RTT',
  // proper names and file names
  'netcode', 'lab', 'trace', 'README', 'Hermite', 'Gilbert', 'Elliott',
  // key names
  'Home', 'End',
];

/** Runs in the page: `[word in “context”]` for every English word left in visible text. */
export function englishWords(allowed) {
  const out = [];
  const visible = (el) => {
    if (!el || el.closest('code, [lang="en"]:not(html), script, style, noscript')) return false;
    if (el.closest('option')) return el.closest('select')?.getClientRects().length > 0;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && el.getClientRects().length > 0;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    if (!text.trim() || !visible(node.parentElement)) continue;
    for (const [word] of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
      if (!/[A-Za-z]{3,}/.test(word) || word.includes('_') || /[a-z][A-Z]/.test(word) || allowed.includes(word)) continue;
      out.push(`${word} in “${text.trim().slice(0, 70)}”`);
    }
  }
  return out;
}
