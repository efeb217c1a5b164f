// The seed-002 worked example in two languages, like the playground: `lang=` in the hash or the browser's
// language, a 中文 / English switch that keeps the choice in the URL; in zh mode no English word is left — not
// in the page, not on the canvas, not in the core's reasons (re-worded from their numbers) — and no raw
// string key in either language. The error banner speaks the page's language from the first moment.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, screenshot, BASE_URL } from './harness.mjs';
import { ALLOWED, RAW_KEY, englishWords, rawKeys, recordCanvasText } from './i18n-check.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function freezeAt(page, local) {
  if (await page.getAttribute('#play', 'aria-pressed') === 'true') await page.click('#play');
  await page.evaluate((t) => { window.netcodeLab.playground.seek(t); window.netcodeLab.redraw(); }, local);
}

test('the worked example in zh: no English on the page or the canvas, the reasons in Chinese', async () => {
  const { page, problems } = await openPage(browser, { path: 'worked-example.html#lang=zh', before: (p) => p.addInitScript(recordCanvasText) });
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await page.title(), 'netcode-lab — 快照插值算例');
  await freezeAt(page, 10.30);
  const check = async (where) => {
    assert.deepEqual(await page.evaluate(englishWords, ALLOWED), [], `no English: ${where}`);
    assert.deepEqual(await page.evaluate(rawKeys, RAW_KEY), [], `no raw keys: ${where}`);
  };
  assert.match(await page.textContent('#status'), /就绪/);
  assert.equal(await page.getAttribute('#status', 'data-status'), 'ready');
  assert.match(await page.textContent('#readout'), /渲染 10\.150 s .* x = 1\.500，在 Tick 101 与 102 之间/);
  await check('ready at 10.30');
  await page.locator('#render-delay').fill('50');
  assert.equal(await page.getAttribute('#status', 'data-status'), 'underrun');
  assert.match(await page.textContent('#reason'), /已超过最新快照（Tick 102，10\.200 s）\d+ ms/);
  await check('underrun');
  await page.locator('#render-delay').fill('150');
  await freezeAt(page, 10.1);
  assert.equal(await page.getAttribute('#status', 'data-status'), 'priming');
  assert.match(await page.textContent('#reason'), /快照才能开始/);
  await check('priming');
  await screenshot(page, 'worked-example-zh');
  assert.deepEqual(problems(), []);
});

test('the worked example switches language, keeps it in the URL and in the link back', async () => {
  const { page, problems } = await openPage(browser, { path: 'worked-example.html' });
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.getAttribute('#lang-en', 'aria-pressed'), 'true');
  await page.click('#lang-zh');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await page.evaluate(() => location.hash), /lang=zh/);
  assert.equal(await page.getAttribute('#back', 'href'), './#lang=zh');
  assert.match(await page.textContent('label[for=render-delay]'), /渲染延迟/);
  await page.reload();
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN', 'zh survives a reload');
  await page.click('#lang-en');
  await freezeAt(page, 10.30);
  assert.match(await page.textContent('#readout'), /x = 1\.500 between ticks 101 and 102/);
  assert.deepEqual(await page.evaluate(rawKeys, RAW_KEY), []);
  assert.deepEqual(problems(), []);
});

test('the worked example follows the browser language when the URL does not say', async () => {
  const zh = await browser.newContext({ locale: 'zh-CN' });
  const page = await zh.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(new URL('worked-example.html', BASE_URL).href);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await page.textContent('#example-title'), /三个乱序到达的快照/);
  assert.deepEqual(errors, []);
  await zh.close();
});

test('a load failure is reported in the page\'s language', async () => {
  const { page } = await openPage(browser, { path: 'worked-example.html#lang=zh',
    before: (p) => p.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' })),
  });
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /^出错了：WebAssembly 模块加载失败/);
  const playground = await openPage(browser, { path: '#lang=zh',
    before: (p) => p.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' })),
  });
  await playground.page.waitForSelector('#banner:not([hidden])');
  assert.match(await playground.page.textContent('#banner'), /WebAssembly 模块加载失败/);
});

test('an English reader\'s first frame does without the Chinese strings and the step-through; they arrive after it, and a switch is instant', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
  // The step-through keeps its own name, with esbuild's hash in dist (`stepper-HASH.js`).
  const lazy = await page.evaluate(() => {
    const drawn = performance.getEntriesByName('boot:first-frame')[0].startTime;
    return performance.getEntriesByType('resource').filter((r) => /\/stepper(-[A-Z0-9]+)?\.js$/.test(r.name)).map((r) => r.startTime < drawn);
  });
  assert.deepEqual(lazy, [false], 'the step-through is fetched once, after the first frame');
  // The strings by what the scripts hold, not by their names: in dist the modules are bundled into chunks
  // (`cargo xtask dist`, esbuild), so each language is wherever esbuild put it. Every script the page fetched is
  // read again: the English strings are in what came before the first frame, the Chinese ones in one script
  // fetched after it (bundled statically into main.js or a chunk of it, they would be before).
  const scripts = await page.evaluate(async () => {
    const drawn = performance.getEntriesByName('boot:first-frame')[0].startTime;
    const entries = performance.getEntriesByType('resource').filter((r) => r.initiatorType !== 'fetch' && /\.m?js$/.test(new URL(r.name).pathname));
    return Promise.all(entries.map(async (r) => ({
      name: r.name.replace(/.*\//, ''), beforeFrame: r.startTime < drawn, text: await (await fetch(r.name)).text(),
    })));
  });
  const holding = (needle) => scripts.filter((s) => s.text.includes(needle)).map((s) => ({ name: s.name, beforeFrame: s.beforeFrame }));
  const zh = holding('WebAssembly 模块加载失败'); // the load banner: only strings-zh.js has it
  const en = holding('failed to load ({message})'); // the load banner: only strings-en.js has it
  assert.ok(en.length >= 1 && en.every((s) => s.beforeFrame), `the English strings come with the first frame: ${JSON.stringify(en)}`);
  assert.equal(zh.length, 1, `the Chinese strings are fetched once: ${JSON.stringify(zh)}`);
  assert.equal(zh[0].beforeFrame, false, 'the Chinese strings are fetched after the first frame');
  // The lessons' and the step-through's words (strings-lessons-*.js, i18n.js `loadPart`) come with them, after the
  // first frame, in both languages once both are in. Red: lesson.* strings back in strings-en.js, or a static
  // import of the part.
  const lessonEn = holding('Render delay: show the remote player a little in the past');
  const lessonZh = holding('渲染延迟：故意把远端玩家回放晚一点');
  assert.equal(lessonEn.length, 1, `the lessons' English strings are fetched once: ${JSON.stringify(lessonEn)}`);
  assert.equal(lessonEn[0].beforeFrame, false, 'the lessons\' English strings are fetched after the first frame');
  assert.equal(lessonZh.length, 1, `the lessons' Chinese strings are fetched once: ${JSON.stringify(lessonZh)}`);
  assert.equal(lessonZh[0].beforeFrame, false, 'the lessons\' Chinese strings are fetched after the first frame');
  await page.click('#lang-zh'); // loaded already: the switch happens in the click itself
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await page.textContent('label[for=control-renderDelay]'), /渲染延迟/);
  // The lesson menu follows the switch (its titles are in the part).
  assert.match(await page.textContent('#lesson-select'), /渲染延迟：故意把远端玩家回放晚一点/);
  assert.deepEqual(problems(), []);
});
