// What the first frame shows, checked as behaviour, never as timings (those are `cargo xtask bench-page --only load`
// and `node benches/page/trace.mjs`):
//   - at `data-ready` the three views and the lanes are drawn, on a phone as on a desktop screen, and what they show
//     is the page's settled drawing of the link's run at the link's moment, pixel for pixel: the boot's split into
//     short tasks (the link's run, then its readouts, then each figure) shows no other run, moment or layout first;
//   - an English load keeps the HTML's own texts (i18n.js `applyI18n` rewrites only what is not in the language).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, figuresDrawn, paintedPixels } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const FIRST = ['view-server', 'view-local', 'view-remote', 'lanes'];
// A link with its own run and moment: a first frame drawn from the defaults, or at t = 0, differs from it.
const LINK = '#renderDelay=250&loss=10&motion=circle&seed=7&t=3.5';

/** Each canvas's painted pixels and a checksum of them (a page function: runs in the page, `paint` = harness's). */
function canvasesNow(ids, paint) {
  return Object.fromEntries(ids.map((id) => {
    const canvas = document.getElementById(id);
    const { painted, checksum } = paint(canvas);
    return [id, { painted, checksum, size: `${canvas.width}×${canvas.height}` }];
  }));
}
const MEASURE = { measure: canvasesNow.toString(), paint: paintedPixels.toString() };

/** Opens the playground at `viewport` with `LINK`; returns the canvases at `data-ready` and once all is drawn. */
async function firstAndSettled(viewport) {
  const { page, problems } = await openPage(browser, {
    path: LINK,
    viewport,
    before: (p) => p.addInitScript(({ ids, measure, paint }) => {
      const canvasesNow = new Function(`return (${measure})`)();
      const paintedPixels = new Function(`return (${paint})`)();
      // In the task that says data-ready (a mutation observer's callback runs before any other task).
      new MutationObserver((_, observer) => {
        if (document.documentElement.dataset.ready !== 'true') return;
        observer.disconnect();
        window.__atReady = { canvases: canvasesNow(ids, paintedPixels), playhead: window.netcodeLab?.app?.state.playhead };
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
    }, { ids: FIRST, ...MEASURE }),
  });
  await waitReady(page);
  await figuresDrawn(page);
  const atReady = await page.evaluate(() => window.__atReady);
  const settled = await page.evaluate(({ ids, measure, paint }) => ({
    canvases: new Function(`return (${measure})`)()(ids, new Function(`return (${paint})`)()),
    playhead: window.netcodeLab.app.state.playhead,
    playing: window.netcodeLab.app.state.playing,
    phases: window.netcodeLab.bootPhases,
  }), { ids: FIRST, ...MEASURE });
  assert.deepEqual(problems(), []);
  await page.close();
  return { atReady, settled };
}

for (const [device, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 800 }]]) {
  test(`the ${device}'s first frame draws all three views and the lanes, the pixels the settled page shows`, async () => {
    const { atReady, settled } = await firstAndSettled(viewport);
    assert.ok(atReady, 'the page said data-ready');
    assert.equal(settled.playing, false, 'nothing played meanwhile (the run plays at the first interaction)');
    assert.equal(atReady.playhead, 3.5, "the first frame is at the link's moment");
    for (const id of FIRST) {
      assert.ok(atReady.canvases[id].painted > 1000, `${id} is drawn in the first frame (${JSON.stringify(atReady.canvases[id])})`);
      // Not an early, wrong picture: the settled page shows the very same pixels (same run, moment and size).
      assert.deepEqual(atReady.canvases[id], settled.canvases[id], `${id}: the first frame is the settled drawing`);
    }
    const at = (phase) => settled.phases.indexOf(phase);
    assert.ok(at('hash') < at('readouts') && at('readouts') < at('view-server') && at('lanes') < at('first-frame'), settled.phases.join(' '));
  });
}

/** The HTML's translated texts (`data-i18n`) that the boot rewrote before its first frame, in `lang`. */
async function textsRewrittenAtBoot(lang) {
  const { page, problems } = await openPage(browser, {
    path: `#lang=${lang}`,
    before: (p) => p.addInitScript(() => {
      window.__rewritten = [];
      let fromHtml = new WeakSet();
      let ready = false;
      document.addEventListener('DOMContentLoaded', () => { fromHtml = new WeakSet(document.querySelectorAll('[data-i18n]')); });
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.type === 'attributes' && r.attributeName === 'data-ready') ready = true;
          else if (!ready && r.type === 'childList' && fromHtml.has(r.target)) window.__rewritten.push(r.target.dataset.i18n);
        }
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-ready'] });
    }),
  });
  await waitReady(page);
  const rewritten = await page.evaluate(() => [...new Set(window.__rewritten)]);
  const tagged = await page.evaluate(() => document.querySelectorAll('[data-i18n]').length);
  assert.deepEqual(problems(), []);
  await page.close();
  return { rewritten, tagged };
}

test("an English load keeps the HTML's own texts; a Chinese one rewrites them before its first frame", async () => {
  const en = await textsRewrittenAtBoot('en');
  assert.deepEqual(en.rewritten, [], 'texts the English boot replaced with the same words (each a style and layout invalidation)');
  const zh = await textsRewrittenAtBoot('zh');
  assert.ok(zh.rewritten.includes('tagline') && zh.rewritten.length >= 5, `the Chinese boot translates the HTML's texts (${zh.rewritten.length} of ${zh.tagged})`);
});

test('the packet inspector, the step-through\'s marks, the league table and the figures\' tools\' actions are fetched after the first frame, and work', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  // By what the fetched scripts hold, not by their names (dist bundles them: later.js is a chunk of its own there).
  // Red: a static import of inspector.js, lanes-highlight.js, league.js or figure-actions.js back in the first
  // frame's graph.
  const scripts = await page.evaluate(async () => {
    const drawn = performance.getEntriesByName('boot:first-frame')[0].startTime;
    const entries = performance.getEntriesByType('resource').filter((r) => r.initiatorType !== 'fetch' && /\.m?js$/.test(new URL(r.name).pathname));
    return Promise.all(entries.map(async (r) => ({
      name: r.name.replace(/.*\//, ''), beforeFrame: r.startTime < drawn, text: await (await fetch(r.name)).text(),
    })));
  });
  // A call's argument, not the strings table's key (`"inspect.oneWaySplit":`), in either quote style.
  const holding = (re) => scripts.filter((s) => re.test(s.text)).map((s) => ({ name: s.name, beforeFrame: s.beforeFrame }));
  for (const [what, re] of [['inspector.js', /["']inspect\.oneWaySplit["'],/], ['lanes-highlight.js', /["']hl\.overtaken["'],/], ['league.js', /["']league-status["']/], ['figure-actions.js', /["']figtools\.copyFailed["']\)/]]) {
    const found = holding(re);
    assert.equal(found.length, 1, `${what} is fetched once: ${JSON.stringify(found)}`);
    assert.equal(found[0].beforeFrame, false, `${what} is fetched after the first frame`);
  }
  // …and once the page is complete they are in: the inspector answers a key on the lanes, the league table is there.
  const after = await page.evaluate(() => ({ inspector: typeof window.netcodeLab.app.inspector?.current, league: Boolean(document.querySelector('#league .league-metrics')) }));
  assert.deepEqual(after, { inspector: 'function', league: true });
  await page.focus('#lanes');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.getElementById('inspector').dataset.tick !== '' && document.getElementById('inspector').dataset.tick !== undefined);
  assert.deepEqual(problems(), []);
});
