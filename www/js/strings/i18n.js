// Two languages for every word on the page: `t(key, vars)` looks a key up in the current language (zh-CN or
// English, falling back to English; a key missing from both is reported once on the console and shown as a
// readable word, never as the raw key), `{name}` in a string is replaced by `vars.name`.
// Static text carries `data-i18n="key"` (and `data-i18n-aria-label`, `data-i18n-title`); `applyI18n(root)`
// rewrites it. Canvas modules call `t()` when they draw and redraw on `onLangChange`. The Chinese strings use
// the articles' own terms (渲染延迟, 半衰期, 丢包率, 插值, 外推, 抖动缓冲, 快照 …).
// English is always loaded (every key falls back to it); the Chinese table (~47 KB) is fetched only when it is
// the starting language — an English reader's first frame does without it — or later by `loadLanguages()`
// (after the first frame) or a switch to it.
// The lessons' and the step-through's strings (`lesson.*`, `step.*`: ~30 KB per language) are a part of their own,
// `strings-lessons-<lang>.js`, which lessons.js, lesson-data.js and stepper.js await as they load
// (`await loadPart('lessons')`), so the first frame does without them too: the part comes in every language
// loaded (English always, as the fallback), and a language loaded later brings its part along. So are the words
// only shown after the first frame (`later`: the plots' and the comparison's, the league table's, the metrics
// table's, the inspector's sentence, the step-through's tags, the trace import row's and the recorder's):
// plots/figure.js, league.js and later.js await `loadPart('later')`.
import EN from './strings-en.js';
import { el } from '../dom.js';

const LOADERS = { zh: () => import('./strings-zh.js') };
const TABLES = { en: { ...EN } };
const PARTS = {
  lessons: { en: () => import('./strings-lessons-en.js'), zh: () => import('./strings-lessons-zh.js') },
  later: { en: () => import('./strings-later-en.js'), zh: () => import('./strings-later-zh.js') },
};
/** The parts asked for, by name: each language's table gets them as it loads. */
const wanted = new Set();
const partsIn = {}; // `${part}|${lang}` → the promise of that part merged into that language's table
const tableLoads = {}; // lang → the promise of its table (with the parts asked for) in TABLES
const HTML_LANG = { en: 'en', zh: 'zh-CN' };
const listeners = new Set();

/** `zh` or `en`: the URL's choice when valid, else the browser's language. */
export function detectLang(fromUrl) {
  if (fromUrl === 'zh' || fromUrl === 'en') return fromUrl;
  const preferred = (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase();
  return preferred.startsWith('zh') ? 'zh' : 'en';
}

// The language is known before anything is drawn (an early load failure is already reported in it);
// `setLang` then makes it official for the document.
let current = typeof location === 'undefined' ? 'en' : detectLang(new URLSearchParams(location.hash.replace(/^#/, '')).get('lang'));
// The starting language's table is in before any module draws a word (a top-level await: importers wait).
if (current !== 'en') await loadTable(current);

/** Fetches the table of `lang` once (a no-op for English and for a table already in), with the parts asked for. */
function loadTable(lang) {
  if (TABLES[lang] || !LOADERS[lang]) return Promise.resolve();
  tableLoads[lang] ??= LOADERS[lang]().then(async (module) => {
    const table = { ...module.default };
    // Every part asked for, also one asked for while this table was on its way, before the table is used.
    for (let count = -1; count !== wanted.size;) {
      count = wanted.size;
      await Promise.all([...wanted].map((part) => mergePart(part, lang, table)));
    }
    TABLES[lang] = table;
  });
  return tableLoads[lang];
}

/** Merges `part` of `lang` into `table` (that language's table) once. */
function mergePart(part, lang, table) {
  partsIn[`${part}|${lang}`] ??= PARTS[part][lang]().then((module) => { Object.assign(table, module.default); });
  return partsIn[`${part}|${lang}`];
}

/**
 * Fetches a part of the strings (`lessons`: `lesson.*`, `step.*`) in English and in every language already in;
 * a language fetched later brings it along. The modules that use the part await it before they draw a word.
 */
export async function loadPart(part) {
  wanted.add(part);
  await Promise.all([
    ...Object.entries(TABLES).map(([lang, table]) => mergePart(part, lang, table)),
    ...Object.values(tableLoads),
  ]);
}

/** Fetches every language's table (the page calls it after its first frame, so a switch is instant). */
export async function loadLanguages() {
  await Promise.all(Object.keys(LOADERS).map(loadTable));
}

export function getLang() {
  return current;
}

/** The string for `key` in the current language, with `{name}` replaced from `vars`. */
export function t(key, vars) {
  const entry = TABLES[current][key] ?? TABLES.en[key];
  if (entry === undefined) return missing(key);
  const text = typeof entry === 'function' ? entry(vars ?? {}) : entry;
  return vars ? text.replace(/\{(\w+)\}/g, (m, name) => (vars[name] ?? m)) : text;
}

const reported = new Set();
/** A key with no string anywhere: its last part in words ("plot.decay.caption" → "caption"), reported once. */
function missing(key) {
  if (!reported.has(key)) {
    reported.add(key);
    console.warn(`i18n: no string for "${key}"`);
  }
  const last = String(key).split('.').pop() ?? '';
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Whether `key` has a string (in English at least). */
export function has(key) {
  return TABLES.en[key] !== undefined;
}

const ATTRS = [['i18nAriaLabel', 'aria-label'], ['i18nTitle', 'title'], ['i18nPlaceholder', 'placeholder']];

/**
 * Rewrites every `[data-i18n]` text and `[data-i18n-aria-label|title|placeholder]` attribute under `root` that is
 * not already in the language: the boot's English page keeps the HTML's own text nodes (replacing ~100 equal texts
 * invalidated the style and layout of the whole page before its first frame).
 */
export function applyI18n(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const vars = el.dataset.i18nVars ? JSON.parse(el.dataset.i18nVars) : undefined;
    const text = t(el.dataset.i18n, vars);
    if (el.textContent !== text) el.textContent = text;
  }
  for (const [data, attr] of ATTRS) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const el of root.querySelectorAll(selector)) {
      const text = t(el.dataset[data]);
      if (el.getAttribute(attr) !== text) el.setAttribute(attr, text);
    }
  }
}

/**
 * Switches the language: `<html lang>`, the document title, every tagged text; then tells the listeners. At
 * once when its table is in (the page loads them all after the first frame); else once it is fetched — the
 * promise resolves after the switch either way.
 */
export function setLang(lang) {
  if (!TABLES[lang] && LOADERS[lang]) return loadTable(lang).then(() => setLang(lang));
  current = TABLES[lang] ? lang : 'en';
  document.documentElement.lang = HTML_LANG[current];
  document.title = t('page.title');
  applyI18n(document);
  for (const fn of listeners) fn(current);
  return Promise.resolve();
}

/** Calls `fn(lang)` after every switch; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * An element with text `t(key)` that follows the language (`data-i18n`). Built with dom.js's `el`, which puts
 * dom.js in the chunk every part of the page shares with this module: on its own it would be a 190-byte chunk, one
 * more request before the first frame (~440 B on the wire with its headers).
 */
export function tagged(tag, key, attrs = {}) {
  return el(tag, { ...attrs, 'data-i18n': key, text: t(key) });
}
