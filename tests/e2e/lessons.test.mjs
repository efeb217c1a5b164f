// The teaching layer: every lesson loads with its checks as the card states them (read from the card's data
// attributes and recomputed here): every check holds except the ones the lesson says the article gets wrong
// (`expect: fail`), which show ✗ and their explanation; info rows carry no verdict and are not counted. For every
// lesson one control of its rail, moved as a reader would, turns a named check red. A row whose computation
// throws fails the test (data-error, console.error). A slider inside a lesson recomputes the core number live,
// the step-through walks forward and back with the playhead and `app.highlight` following, the language switch
// leaves no English word in zh mode (except units and code names) and comes back, and lesson, step and language
// survive a reload. Any console error fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, screenshot, canvasStats, urlHash, figuresDrawn } from './harness.mjs';
import { ALLOWED, RAW_KEY, englishWords, rawKeys, recordCanvasText } from './i18n-check.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Every check row of the lesson card: the numbers, the comparison and the verdict as the card states them. */
async function checks(page) {
  await page.waitForFunction(() => document.getElementById('lesson-card').dataset.pending !== 'true');
  return page.$$eval('#lesson-checks tbody tr[data-check]', (rows) => rows.map((r) => ({
    id: r.dataset.check,
    info: r.dataset.info === 'true',
    expect: r.dataset.expect ?? null,
    error: r.dataset.error ?? null,
    verdict: r.querySelector('td.verdict')?.textContent ?? '',
    why: r.nextElementSibling?.dataset.why === r.dataset.check ? r.nextElementSibling.textContent : null,
    article: r.dataset.article ? JSON.parse(r.dataset.article) : null,
    core: JSON.parse(r.dataset.core),
    cmp: r.dataset.cmp,
    tol: Number(r.dataset.tol),
    pass: r.dataset.pass === 'true',
    text: r.textContent,
  })));
}

/** The comparison, recomputed here from the card's numbers (not trusting its ✓). */
function holds({ article, core, cmp, tol }) {
  if (cmp === 'in') return core.length === 1 && core[0] !== null && core[0] >= article[0] - tol - 1e-12 && core[0] <= article[1] + tol + 1e-12;
  if (article.length !== core.length || core.some((v) => v === null)) return false;
  return article.every((a, i) => {
    const c = core[i];
    if (cmp === 'abs') return Math.abs(c - a) <= tol + 1e-12;
    if (cmp === 'ge') return c >= a - tol - 1e-12;
    if (cmp === 'le') return c <= a + tol + 1e-12;
    if (cmp === 'lt') return c < a;
    if (cmp === 'gt') return c > a;
    return false;
  });
}

async function lessonIds(page) {
  return page.$$eval('#lesson-select option', (options) => options.map((o) => o.value).filter(Boolean));
}

/**
 * A lesson as it opens: no row failed to compute; every check holds (recomputed here) and shows ✓, except the ones
 * marked `expect: fail`, which do not hold, show ✗ and explain why under the row; info rows show no verdict; the
 * summary counts only checks.
 */
async function assertOpening(page, id, rows) {
  const real = rows.filter((r) => !r.info);
  assert.ok(real.length >= 1, `${id}: at least one article-vs-core check`);
  for (const r of rows) assert.equal(r.error, null, `${id}/${r.id}: computed without an error`);
  for (const r of real) {
    const detail = `core ${JSON.stringify(r.core)} vs article ${JSON.stringify(r.article)} (${r.cmp} ${r.tol})`;
    if (r.expect === 'fail') {
      assert.ok(!holds(r), `${id}/${r.id}: the article's number is not expected to hold here: ${detail}`);
      assert.equal(r.pass, false);
      assert.equal(r.verdict, '✗');
      assert.ok(r.why && r.why.length > 40, `${id}/${r.id}: the ✗ is explained under the row`);
    } else {
      assert.ok(holds(r), `${id}/${r.id}: ${detail}`);
      assert.ok(r.pass, `${id}/${r.id}: the card shows ✓`);
      assert.equal(r.verdict, '✓');
    }
  }
  for (const r of rows.filter((x) => x.info)) assert.equal(r.verdict, '', `${id}/${r.id}: an info row has no verdict`);
  const summary = await page.$eval('#lesson-summary', (e) => ({ ...e.dataset }));
  assert.equal(Number(summary.checks), real.length, `${id}: the summary counts checks only`);
  assert.equal(Number(summary.passed), real.filter((r) => r.pass).length);
}

/**
 * For every lesson: a control of its rail, the value a reader can set it to, and the check that must turn red —
 * the article's claim no longer holds, or the core stops agreeing with it.
 */
const BREAKS = {
  'render-delay': ['sendRate', 5, 'fromNewest'],
  'extrapolation-cap': ['policy', 'extrapolate-decay', 'peak'],
  jitter: ['jitter', 60, 'maxJump'],
  'timed-path': ['pathSpeed', 150, 'at650'],
  'v2-snap': ['withOffsets', false, 'at120'],
  'out-of-order': ['renderDelay', 120, 'x'],
  statuses: ['loss', 0, 'seen'],
  'correction-offset': ['smoothing', 'snap', 'continuity'],
  mismatch: ['loss', 20, 'fixed'],
  clock: ['clock', 'reanchor', 'regressions'],
  'buffer-depth': ['renderDelay', 150, 'snapshots'],
  'adaptive-delay': ['adaptiveGain', 0.05, 'tau'],
  presets: ['loss', 20, 'preset-sameRegion'],
  'engines-mobile': ['source-cl_extrapolate', false, 'sourceBest'],
  'neteq-bursty': ['mirror-timelineOffset', false, 'mirrorLevels'],
  'your-network': ['jitter', 150, 'sourceDry'],
  'your-settings': ['jitter', 150, 'sourceEnough'],
};

/** Lessons that keep the network they are opened on: the tests open them from the sandbox's default network. */
const KEEPS_NETWORK = new Set(['your-network', 'your-settings']);

/** Chooses lesson `id` in the menu (from the sandbox first when the lesson keeps the network it finds). */
async function choose(page, id) {
  if (KEEPS_NETWORK.has(id)) {
    await page.selectOption('#lesson-select', '');
    await page.waitForFunction(() => !document.getElementById('lesson-card').dataset.lesson);
  }
  await page.selectOption('#lesson-select', id);
  await page.waitForFunction((id) => document.getElementById('lesson-card').dataset.lesson === id, id);
}

/** Moves rail control `id` to `value` as a reader would: drag (fill) a slider, pick an option, tick a box. */
async function setControl(page, id, value) {
  const sel = `#control-${id}`;
  const kind = await page.$eval(sel, (e) => (e.tagName === 'SELECT' ? 'select' : e.type));
  if (kind === 'select') await page.selectOption(sel, String(value));
  else if (kind === 'checkbox') await page.setChecked(sel, Boolean(value));
  else await page.locator(sel).fill(String(value));
}

test('the lessons menu lists at least twelve lessons and the sandbox; each loads and its numbers match', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const ids = await lessonIds(page);
  assert.ok(ids.length >= 12, `${ids.length} lessons`);
  assert.equal(await page.$eval('#lesson-select option', (o) => o.value), '', 'the sandbox comes first');
  for (const id of ids) {
    await choose(page, id);
    assert.equal(await page.isVisible('#lesson-card'), true);
    assert.match(await page.textContent('#lesson-card cite'), /\d{3}/, `${id}: cites its article`);
    await assertOpening(page, id, await checks(page));
    const state = { hash: await urlHash(page), playing: await page.evaluate(() => window.netcodeLab.app.state.playing) };
    assert.match(state.hash, new RegExp(`lesson=${id}(&|$)`), `${id}: kept in the URL`);
    assert.equal(state.playing, false, `${id}: opens paused at its moment`);
    const open = await page.$$eval('#controls details[data-group]', (ds) => ds.filter((d) => d.open).map((d) => d.dataset.group));
    assert.ok(open.length >= 1 && open.length < 6, `${id}: only the lesson's groups open (${open})`);
  }
  await page.selectOption('#lesson-select', '');
  assert.equal(await page.isHidden('#lesson-card'), true, 'the sandbox has no card');
  assert.doesNotMatch(await urlHash(page), /lesson=/);
  assert.deepEqual(problems(), []);
});

test('every lesson survives a reload from its URL, numbers included', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  for (const id of await lessonIds(page)) {
    await page.goto(new URL(`#lesson=${id}`, page.url()).href);
    await page.reload();
    await waitReady(page);
    assert.equal(await page.$eval('#lesson-card', (c) => c.dataset.lesson), id);
    assert.equal(await page.inputValue('#lesson-select'), id);
    await assertOpening(page, id, await checks(page));
  }
  assert.deepEqual(problems(), []);
});

test('in every lesson one control of its rail turns a named check red', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const ids = await lessonIds(page);
  assert.deepEqual(Object.keys(BREAKS).sort(), [...ids].sort(), 'every lesson has a setting that breaks a check');
  for (const id of ids) {
    const [control, value, row] = BREAKS[id];
    await choose(page, id);
    const before = (await checks(page)).find((r) => r.id === row);
    assert.ok(before && !before.info && before.pass, `${id}/${row}: holds as the lesson opens`);
    assert.equal(await page.isVisible(`#control-${control}`), true, `${id}: ${control} is on the lesson's rail`);
    await setControl(page, control, value);
    await page.waitForFunction((row) => document.querySelector(`#lesson-checks tr[data-check="${row}"]`)?.dataset.pass === 'false', row);
    const after = (await checks(page)).find((r) => r.id === row);
    assert.equal(after.error, null, `${id}/${row}: computed`);
    assert.ok(!holds(after), `${id}/${row}: ${control} = ${value} breaks it: core ${JSON.stringify(after.core)} vs ${JSON.stringify(after.article)}`);
    assert.equal(after.verdict, '✗');
    assert.notDeepEqual(after.core, before.core, `${id}/${row}: the core number moved`);
  }
  assert.deepEqual(problems(), []);
});

test('a row that throws is an error on the card and in the console, never a quiet “—”', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=out-of-order' });
  await waitReady(page);
  await page.evaluate(() => {
    const lessons = window.netcodeLab.app.teach.lessons;
    const lesson = lessons.lesson;
    lessons.lesson = { ...lesson, checks: lesson.checks.map((c, i) => (i === 0 ? { ...c, core: () => { throw new Error('boom'); } } : c)) };
    lessons.update();
  });
  const rows = await checks(page);
  assert.equal(rows[0].error, 'boom');
  assert.equal(rows[0].pass, false);
  assert.match(await page.textContent('#lesson-checks tr[data-error] td.core'), /error/);
  assert.ok(problems().some((p) => p.includes('boom')), 'console.error reported it, so the harness fails the test');
});

test('an unknown lesson in a link is ignored with a notice', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=nope&renderDelay=150' });
  await waitReady(page);
  await page.waitForSelector('#notice:not([hidden])');
  assert.match(await page.textContent('#notice'), /lesson “nope”/);
  assert.equal(await page.isHidden('#lesson-card'), true);
  assert.equal(await page.evaluate(() => window.netcodeLab.model().params.remote.clock.renderDelay), 0.15, 'the rest of the link applies');
  assert.deepEqual(problems(), []);
});

test('a slider inside a lesson recomputes the core number live', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=out-of-order' });
  await waitReady(page);
  const x = async () => (await checks(page)).find((r) => r.id === 'x');
  assert.equal((await x()).core[0].toFixed(6), '1.500000');
  await page.locator('#control-renderDelay').fill('120');
  await page.waitForFunction(() => document.querySelector('#lesson-checks tr[data-check=x]')?.dataset.pass === 'false');
  const after = await x();
  assert.equal(after.core[0].toFixed(6), '1.800000', 'render time 10.18: t = 0.8 between 101 and 102');
  assert.equal(after.pass, false, 'the article number no longer holds: ✗');
  assert.match(await urlHash(page), /renderDelay=120/);
  assert.equal(await page.evaluate(() => window.netcodeLab.model().imported), true, 'the views still show seed 002, re-replayed');
  await page.selectOption('#lesson-select', 'extrapolation-cap');
  await page.locator('#control-maxExtrapolation').fill('200');
  await page.waitForFunction(() => JSON.parse(document.querySelector('#lesson-checks tr[data-check=peak]').dataset.core)[0] > 100);
  const peak = (await checks(page)).find((r) => r.id === 'peak');
  assert.ok(Math.abs(peak.core[0] - 150) < 1 && peak.pass, `0.25 · 3000 · 0.2 = 150: ${peak.core}`);
  assert.deepEqual(problems(), []);
});

test('the step-through walks seed 002 forward and back, the playhead and highlight following', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  assert.equal(await page.$eval('#lesson-card', (c) => c.dataset.lesson), 'out-of-order', 'seed 002 is the default walk');
  const n = await page.evaluate(() => window.netcodeLab.app.teach.stepper.steps.length);
  assert.ok(n >= 20, `${n} steps`);
  const seen = new Set();
  const texts = [];
  const state = () => page.evaluate(() => {
    const app = window.netcodeLab.app;
    const s = app.teach.stepper;
    return { i: s.index, step: s.steps[s.index].step, time: s.steps[s.index].time, playhead: app.state.playhead, h: app.highlight,
      text: document.getElementById('stepper-text').textContent, count: document.getElementById('stepper-count').textContent };
  });
  for (let i = 0; i < n; i++) {
    const s = await state();
    assert.equal(s.i, i);
    assert.equal(s.count, `Step ${i + 1} of ${n}`);
    assert.ok(Math.abs(s.playhead - s.time) < 1e-9, `step ${i + 1}: playhead ${s.playhead} at the event ${s.time}`);
    assert.equal(s.h.step, s.step);
    assert.equal(s.h.kind, ['sent', 'arrived', 'inserted'].includes(s.step) ? 'snapshot' : 'frame');
    assert.ok(s.h.index >= 0, `step ${i + 1}: highlight names a row`);
    assert.ok(s.text.length > 20);
    seen.add(s.step);
    texts.push(s.text);
    if (i < n - 1) await page.click('#stepper-next');
  }
  for (const kind of ['sent', 'arrived', 'inserted', 'renderTime', 'bracket', 'factor', 'status']) assert.ok(seen.has(kind), `a ${kind} step`);
  assert.ok(texts.some((x) => /\[100, 101, 102\]\. Tick 101 went to place 2 of 3, between 100 and 102/.test(x)), 'the out-of-order insert says where it went');
  assert.ok(texts.some((x) => /t = \(10\.15 − 10\.10\) \/ \(10\.20 − 10\.10\) = 0\.50 → x = 1 \+ \(2 − 1\) × 0\.50 = 1\.5/.test(x)), 'the article\'s factor');
  assert.ok(texts.some((x) => /10\.30 .* 10\.15 s/.test(x)), 'render time 10.15 at 10.30');
  const last = await state();
  assert.equal(await page.getAttribute('#stepper-next', 'aria-disabled'), 'true');
  await screenshot(page, 'lesson-stepper-last-en');
  for (let i = n - 1; i > 0; i--) {
    await page.click('#stepper-prev');
    const s = await state();
    assert.equal(s.i, i - 1);
    assert.equal(s.text, texts[i - 1], 'back shows the same sentence');
    assert.ok(Math.abs(s.playhead - s.time) < 1e-9);
  }
  assert.notDeepEqual(last.h, (await state()).h);
  // Keys: . and , anywhere; ← → inside the panel (they do not steer the local player).
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('.');
  await page.keyboard.press('.');
  assert.equal((await state()).i, 2);
  await page.keyboard.press(',');
  assert.equal((await state()).i, 1);
  const scriptBefore = await page.evaluate(() => JSON.stringify(window.netcodeLab.model().params.script));
  await page.focus('#stepper-next');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await state()).i, 3);
  await page.keyboard.press('End');
  assert.equal((await state()).i, n - 1);
  await page.keyboard.press('Home');
  assert.equal((await state()).i, 0);
  assert.equal(await page.evaluate(() => JSON.stringify(window.netcodeLab.model().params.script)), scriptBefore, 'arrows stepped, not steered');
  // The step survives a reload.
  await page.click('#stepper-next');
  await page.click('#stepper-next');
  assert.match(await urlHash(page), /step=3/);
  await page.reload();
  await waitReady(page);
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  assert.equal((await state()).i, 2);
  await page.click('#stepper-close');
  assert.equal(await page.evaluate(() => window.netcodeLab.app.highlight), null);
  assert.doesNotMatch(await urlHash(page), /step=/);
  assert.deepEqual(problems(), []);
});

test('the step-through also walks the current run from the playhead', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=render-delay' });
  await waitReady(page);
  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  assert.equal(await page.inputValue('#stepper-source'), 'run');
  assert.equal(await page.evaluate(() => window.netcodeLab.model().imported), false, 'the simulated run, not a trace');
  const n = await page.evaluate(() => window.netcodeLab.app.teach.stepper.steps.length);
  assert.ok(n >= 8, `${n} steps`);
  for (let i = 1; i < n; i++) await page.keyboard.press('.');
  const s = await page.evaluate(() => ({ h: window.netcodeLab.app.highlight, playhead: window.netcodeLab.app.state.playhead, text: document.getElementById('stepper-text').textContent }));
  assert.ok(s.playhead >= 6 && s.playhead <= 6.25, `the walk stays near the playhead: ${s.playhead}`);
  assert.ok(s.h && Number.isInteger(s.h.index));
  await page.selectOption('#stepper-source', 'seed002');
  await page.waitForFunction(() => document.getElementById('lesson-card').dataset.lesson === 'out-of-order');
  assert.deepEqual(problems(), []);
});

/** The canvases a language switch must repaint (every one carries words). */
const WORDED_CANVASES = ['#view-server', '#view-local', '#view-remote', '#lanes', '#plot-extrapolation .plot-static', '#plot-decay .plot-static',
  '#plot-sweep .plot-static', '#plot-clock .plot-static', '#plot-paths-world .plot-static', '#plot-paths-speed .plot-static'];

test('switching to zh leaves no English on the page, and back; the choice survives a reload', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=statuses', before: (p) => p.addInitScript(recordCanvasText) });
  await waitReady(page);
  await figuresDrawn(page); // every canvas's words are checked: the figures below the fold too (scheduler.js `deferred`)
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  const openAll = () => page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const labels = () => page.$$eval('[data-i18n]', (els) => els.filter((e) => e.getClientRects().length && !e.closest('[lang=en]:not(html)')).map((e) => [e.dataset.i18n, e.textContent]));
  const noRawKeys = async (where) => assert.deepEqual(await page.evaluate(rawKeys, RAW_KEY), [], `no raw string keys: ${where}`);
  await openAll();
  await noRawKeys('English');
  const english = await labels();
  assert.ok(english.length > 60, `${english.length} tagged labels`);
  await page.waitForFunction(() => document.getElementById('plot-sweep').dataset.sweep === 'ready');
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const pixels = async () => Object.fromEntries(await Promise.all(WORDED_CANVASES.map(async (c) => [c, (await canvasStats(page, c)).checksum])));
  const before = await pixels();
  await page.click('#lang-zh');
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const after = await pixels();
  for (const c of WORDED_CANVASES) assert.notEqual(after[c], before[c], `${c} is repainted in Chinese`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await urlHash(page), /lang=zh/);
  await openAll();
  const chinese = Object.fromEntries(await labels());
  const unchanged = english.filter(([key, text]) => chinese[key] === text && /[A-Za-z]{3,}/.test(text));
  assert.deepEqual(unchanged, [], 'every English label changed');
  const check = async (where) => assert.deepEqual(await page.evaluate(englishWords, ALLOWED), [], `no English in zh mode: ${where}`);
  await check('lesson 7');
  await noRawKeys('lesson 7, zh');
  assert.match(await page.textContent('#lesson-card h2'), /六种状态/);
  assert.match(await page.textContent('label[for=control-renderDelay]'), /渲染延迟/);
  assert.match(await page.textContent('label[for=control-halfLife]'), /半衰期/);
  assert.match(await page.textContent('label[for=control-loss]'), /丢包率/);
  for (const id of await lessonIds(page)) {
    await page.selectOption('#lesson-select', id);
    await openAll();
    await check(id);
  }
  await page.selectOption('#lesson-select', '');
  await openAll();
  await check('sandbox');
  await noRawKeys('sandbox, zh');
  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  const n = await page.evaluate(() => window.netcodeLab.app.teach.stepper.steps.length);
  for (let i = 0; i < n; i++) {
    await check(`step ${i + 1}`);
    await page.keyboard.press('.');
  }
  assert.match(await page.textContent('#stepper-count'), /第 \d+ 步，共 \d+ 步/);
  await page.reload();
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'zh survives a reload');
  assert.equal(await page.$eval('#lesson-card', (c) => c.dataset.lesson), 'out-of-order');
  await openAll();
  await check('after reload');
  await page.click('#lang-en');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await openAll();
  await noRawKeys('back in English');
  const back = Object.fromEntries(await labels());
  for (const [key, text] of english) if (key in back && !key.startsWith('button.p')) assert.equal(back[key], text, `${key} back in English`);
  assert.match(await urlHash(page), /lang=en/);
  assert.deepEqual(problems(), []);
});

test('the language follows the browser when the URL does not say', async () => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  const page = await zh.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(new URL('#lesson=render-delay', process.env.NETCODE_LAB_URL ?? 'http://127.0.0.1:8080/').href);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await page.textContent('#lesson-card h2'), /渲染延迟/);
  assert.deepEqual(errors, []);
  await zh.close();
});

test('screenshots of lessons in both languages, dark and narrow', async () => {
  const shots = [
    ['out-of-order', 'en', {}], ['out-of-order', 'zh', {}], ['extrapolation-cap', 'en', {}], ['extrapolation-cap', 'zh', {}],
    ['statuses', 'zh', {}], ['v2-snap', 'en', {}], ['presets', 'zh', {}], ['correction-offset', 'en', { dark: true }],
    ['out-of-order', 'zh', { narrow: true }], ['render-delay', 'en', {}], ['buffer-depth', 'zh', {}], ['adaptive-delay', 'en', { narrow: true }],
  ];
  for (const [id, lang, { dark, narrow }] of shots) {
    const { page, problems } = await openPage(browser, { path: `#lesson=${id}&lang=${lang}`, viewport: narrow ? { width: 420, height: 900 } : undefined,
      before: dark ? (p) => p.emulateMedia({ colorScheme: 'dark' }) : undefined });
    await waitReady(page);
    if (id === 'out-of-order') {
      await page.click('#stepper-open');
      await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
      for (let i = 0; i < 21; i++) await page.keyboard.press('.');
    }
    await screenshot(page, `lesson-${id}-${lang}${dark ? '-dark' : ''}${narrow ? '-narrow' : ''}`);
    assert.deepEqual(problems(), []);
    await page.close();
  }
});
