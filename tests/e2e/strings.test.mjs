// The two string tables, checked without a browser: zh-CN has every English key and no other, each Chinese
// string uses only the placeholders its English one offers, and every key the page names literally (in
// `t('…')`, `data-i18n="…"`, a lesson or lane table) exists — so no reader ever meets a raw key. Keys built at
// run time (`plot.policy.${policy}`) are caught by the end-to-end tests: a missing one logs "i18n: no string",
// which openPage counts as a problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import EN_FIRST from '../../www/js/strings/strings-en.js';
import ZH_FIRST from '../../www/js/strings/strings-zh.js';
import EN_LESSONS from '../../www/js/strings/strings-lessons-en.js';
import ZH_LESSONS from '../../www/js/strings/strings-lessons-zh.js';
import EN_LATER from '../../www/js/strings/strings-later-en.js';
import ZH_LATER from '../../www/js/strings/strings-later-zh.js';

// Each language's table is the first frame's strings and the parts (i18n.js `loadPart('lessons')`, `'later'`).
const EN = { ...EN_FIRST, ...EN_LESSONS, ...EN_LATER };
const ZH = { ...ZH_FIRST, ...ZH_LESSONS, ...ZH_LATER };

const WWW = new URL('../../www/', import.meta.url).pathname;

function sources() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) { if (entry.name !== 'pkg') walk(path); } else if (/\.(js|html)$/.test(entry.name) && !/strings-(lessons-|later-)?(en|zh)\.js$/.test(entry.name)) out.push(path);
    }
  };
  walk(WWW);
  return out;
}

const placeholders = (s) => new Set(typeof s === 'string' ? [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]) : []);

test('the lessons\' part holds the lesson.* and step.* strings, and only those, in both languages', () => {
  // Red: a lesson string left in (or moved back to) the first frame's table, or a first-frame key moved out.
  for (const [name, first, part] of [['en', EN_FIRST, EN_LESSONS], ['zh', ZH_FIRST, ZH_LESSONS]]) {
    assert.deepEqual(Object.keys(first).filter((k) => /^(lesson|step)\./.test(k)), [], `${name}: lesson strings in the first frame's table`);
    assert.deepEqual(Object.keys(part).filter((k) => !/^(lesson|step)\./.test(k)), [], `${name}: other strings in the lessons' part`);
    assert.deepEqual(Object.keys(part).filter((k) => k in first), [], `${name}: keys in both tables`);
  }
  assert.ok(Object.keys(EN_LESSONS).length > 200, 'the lessons\' part holds the lessons');
});

/** The trace import and export row's words (trace-io.js, built after the first frame), beside its `import.*`. */
const TRACE_ROW = ['group.trace', 'button.import', 'button.exportSnapshots', 'button.exportPaths', 'hint.trace', 'notice.traceNotImported', 'banner.worker'];

test('the later part holds what only shows after the first frame, in both languages, and the first frame keeps its own', () => {
  // Red: a plot, league, metrics, inspector, step-through-tag, trace-row, recorder, glossary, touch-pad or PNG string back in the first
  // frame's table, or a string the first frame shows (a figure's title, a smoothing mode's name, the inspector's
  // hint) moved out.
  const later = (k) => /^(league|settings|metrics|hl|record|import|glossary|touch|png)\./.test(k) || (/^inspect\./.test(k) && k !== 'inspect.hint') || TRACE_ROW.includes(k)
    || /^reason\.(\w+\.move|moveJoin)$/.test(k) // what to move: the reason's second half, once the later part is in
    || k === 'controls.importedNote' // shown once a trace is imported, after the first frame
    || (/^plot\./.test(k) && !/^plot\.smoothing\./.test(k) && !/^plot\.[^.]+\.title$/.test(k));
  for (const [name, first, part] of [['en', EN_FIRST, EN_LATER], ['zh', ZH_FIRST, ZH_LATER]]) {
    assert.deepEqual(Object.keys(first).filter(later), [], `${name}: later strings in the first frame's table`);
    assert.deepEqual(Object.keys(part).filter((k) => !later(k)), [], `${name}: first-frame strings in the later part`);
  }
  assert.ok(Object.keys(EN_LATER).length > 150, 'the later part holds the plots\' words');
});

test('zh-CN and English have the same keys', () => {
  assert.deepEqual(Object.keys(EN).filter((k) => !(k in ZH)), [], 'English keys without a Chinese string');
  assert.deepEqual(Object.keys(ZH).filter((k) => !(k in EN)), [], 'Chinese keys unknown to the English table');
});

test('every Chinese string uses only the placeholders of its English one', () => {
  const wrong = [];
  for (const [key, zh] of Object.entries(ZH)) {
    const en = placeholders(EN[key]);
    for (const name of placeholders(zh)) if (!en.has(name)) wrong.push(`${key}: {${name}}`);
  }
  assert.deepEqual(wrong, []);
});

test('every key the page names literally has a string', () => {
  const namespaces = new Set(Object.keys(EN).map((k) => k.split('.')[0]));
  const missing = [];
  let seen = 0;
  for (const file of sources()) {
    const text = readFileSync(file, 'utf8');
    for (const [, key] of text.matchAll(/['"]([a-z]+(?:\.[a-zA-Z0-9-]+)+)['"]/g)) {
      if (!namespaces.has(key.split('.')[0]) || /\.(js|css|html|json|png)$/.test(key)) continue;
      seen += 1;
      // A figure names a prefix (`i18n: 'plot.decay'`): its title, caption and description must exist.
      const figure = !(key in EN) && new RegExp(`i18n:\\s*'${key.replace(/\./g, '\\.')}'`).test(text);
      const keys = figure ? ['title', 'caption', 'aria'].map((k) => `${key}.${k}`) : [key];
      for (const k of keys) if (!(k in EN)) missing.push(`${k} (${file.slice(WWW.length)})`);
    }
  }
  assert.ok(seen > 200, `only ${seen} literal keys found: is the scan still reading the page?`);
  assert.deepEqual([...new Set(missing)], []);
});
