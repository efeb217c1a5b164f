// What the first frame waits for, checked as behaviour (never as timings: those are `cargo xtask bench-page` and
// `node benches/page/load.mjs URL --list`):
//   - its requests: the first frame's core fetched once, from the page's head, before main.js has even arrived
//     (index.html starts it; core.js takes the compiled module), one stylesheet in dist (plots.css comes with
//     the plots, after it), seven requests in dist besides the page, ≤ 150 KB on the wire with them,
//     and nothing the first frame does not draw
//     (the full core, the plots, the comparison, the lessons, the step-through, the worker);
//   - its boot: the rail and the main column stay out of layout until their DOM is built (playground.css
//     `data-built`), and the engines' swatches are painted only after `data-ready`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Each request with when it started and when its response ended, on the page's clock (ms). */
const requestTimes = () => performance.getEntriesByType('resource').map((r) => ({
  file: new URL(r.name).pathname, initiator: r.initiatorType, start: r.startTime, end: r.responseEnd,
}));

test("the first frame's requests: the core fetched once from the head, one stylesheet, nothing below the fold", async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.evaluate(() => window.netcodeLab.app.drawDeferred()); // the plots mount their styles: none fetched again
  await page.waitForTimeout(300);
  const dist = process.env.NETCODE_LAB_SITE === 'dist';
  const { requests, drawn, early, mainStart } = await page.evaluate((times) => ({
    requests: eval(times)(),
    drawn: performance.getEntriesByName('boot:first-frame')[0].startTime,
    early: window.netcodeLabEarlyCore instanceof Promise,
    mainStart: performance.getEntriesByName('main-start')[0].startTime,
  }), `(${requestTimes})`);
  const beforeFrame = requests.filter((r) => r.start < drawn).map((r) => r.file);
  assert.ok(early, 'index.html started the core (window.netcodeLabEarlyCore)');
  // Once: a preload beside the head's fetch, or core.js not taking the compiled module, would fetch it twice.
  const wasm = requests.filter((r) => r.file.endsWith('/pkg/netcode_lab_page_bg.wasm'));
  assert.equal(wasm.length, 1, `the first frame's core is fetched once (${JSON.stringify(wasm)})`);
  assert.equal(wasm[0].initiator, 'fetch', 'by the head\'s fetch()');
  // Started from the head, in parallel with the JavaScript: before main.js runs (its mark `main-start`, before it
  // calls loadCore). Left to the wasm-bindgen glue, it would start only once main.js and its chunks have loaded and
  // run. (Not compared with main.js's arrival: on a local server the preload scanner can have main.js whole before
  // the head's script runs.)
  assert.ok(wasm[0].start < mainStart, `the core's request (${wasm[0].start} ms) starts before main.js runs (${mainStart} ms)`);
  for (const later of [/\/pkg\/netcode_lab(_bg\.wasm|\.js)$/, /\/plots(-\w+)?\.js$/, /\/comparison(-\w+)?\.js$/, /\/lessons(-\w+)?\.js$/,
    /\/stepper(-\w+)?\.js$/, /\/sim-worker\.js$/, /\/strings-zh(-\w+)?\.js$/]) {
    assert.deepEqual(beforeFrame.filter((f) => later.test(f)), [], `${later} is not fetched before the first frame`);
  }
  // The plots' sheet (plots.css) comes with the plots, after the first frame (plots/figure.js `ensureStylesheet`),
  // and applies before they are laid out; the recorder's (record.css) with the recorder (record.js `styled`).
  // Red: either linked from index.html again (fetched before the frame), or not added (the plots' grid unstyled).
  const sheets = requests.filter((r) => r.file.endsWith('.css'));
  assert.deepEqual(sheets.filter((r) => r.start < drawn).map((r) => r.file), [dist ? '/index.bundle.css' : '/style.css', ...(dist ? [] : ['/playground.css'])],
    'the first frame fetches the page\'s own sheets only');
  assert.deepEqual(sheets.filter((r) => r.start >= drawn).map((r) => r.file).sort(), ['/later.css', '/plots.css', '/record.css'], 'the later chunk\'s, the plots\' and the recorder\'s sheets, once each, after the first frame');
  assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('plots')).display), 'grid', 'the plots are styled');
  if (dist) {
    // What the first frame fetches in dist (≤ 150 KB): the sheet, main.js and its three static chunks,
    // the first-frame core's glue and its wasm — no tiny chunk of its own (each ~310 B of headers). Red: dom.js
    // imported without i18n.js (its own 190 B chunk), an `import * as` used as a value (esbuild's `__export`
    // helper as a chunk every part imports), or a new static import of a module only later code shares.
    const scripts = beforeFrame.filter((f) => /\.js$/.test(f));
    assert.equal(scripts.length, 5, `main.js, its chunks and the core's glue: ${scripts.join(' ')}`);
    assert.equal(beforeFrame.length, 7, `the first frame's requests besides the page itself: ${beforeFrame.join(' ')}`);
    // Its bytes on the wire, headers included (the goal is 150 KB; the gate 156 KB while a trace's truth (the
    // polyline through its snapshots, in the run contract) sits in the first frame and its core reads and checks the
    // settings of fourteen strategies' engines, NGO 2.x, lightyear, FishNet and NetEQ among them, a link may hold,
    // and a link's door words every refusal — one notice for many, engines named — and present mode fits a projector;
    // `cargo xtask bench-page` counts the same with CDP's encodedDataLength), served compressed as the e2e server
    // serves dist. Red: core's float parser back in the page wasm (it passes 156 KB), or the glue unminified and
    // ~2 KB more of anything. At least 100 KB, or
    // something came from a cache (transferSize 0) and nothing was counted.
    const wire = await page.evaluate((frame) => performance.getEntriesByType('navigation')[0].transferSize
      + performance.getEntriesByType('resource').filter((r) => r.startTime < frame).reduce((sum, r) => sum + r.transferSize, 0), drawn);
    console.log(`first-frame wire: ${wire}`);
    assert.ok(wire > 100_000 && wire <= 156_000, `the first frame's bytes on the wire: ${wire} B (≤ 156,000)`);
  }
  assert.deepEqual(problems(), []);
  await page.close();
});

test('the boot: each column out of layout until its DOM is built; swatches painted after the first frame', async () => {
  const { page, problems } = await openPage(browser, {
    before: (p) => p.addInitScript(() => {
      // Idle callbacks run at once: a swatch painted "when idle" before data-ready is then painted before it for
      // sure, not only when the boot happens to leave an idle moment.
      window.requestIdleCallback = (fn) => setTimeout(() => fn({ didTimeout: false, timeRemaining: () => 50 }), 0);
      // At each step of the boot: whether the rail and the main column are laid out, and what they hold.
      window.__builtSteps = [];
      const note = (step) => {
        const display = (sel) => { const e = document.querySelector(sel); return e && getComputedStyle(e).display; };
        window.__builtSteps.push({
          step, rail: display('.rail'), main: display('.main-column'),
          controls: document.querySelectorAll('#controls input').length, engines: document.querySelectorAll('#engines .engine-swatch').length,
          painted: [...document.querySelectorAll('.engine-swatch')].filter((img) => img.src.startsWith('data:image/png')).length,
        });
      };
      document.addEventListener('DOMContentLoaded', () => note('parsed'));
      new MutationObserver(() => note(document.documentElement.dataset.ready ? 'ready' : `built=${document.documentElement.dataset.built}`))
        .observe(document, { attributes: true, subtree: true, attributeFilter: ['data-built', 'data-ready'] }); // <html> is not there yet
    }),
  });
  await waitReady(page);
  const steps = await page.evaluate(() => window.__builtSteps);
  const at = (step) => steps.find((s) => s.step === step);
  assert.deepEqual(steps.map((s) => s.step), ['parsed', 'built=rail', 'built=all', 'ready'], JSON.stringify(steps));
  // Parsed: neither column is laid out (a layout after each phase of the boot was as costly as the boot).
  assert.deepEqual([at('parsed').rail, at('parsed').main], ['none', 'none'], 'both columns out of layout while the boot builds them');
  // The rail is laid out once its controls are all there, the main column once its panels are.
  assert.equal(at('built=rail').main, 'none', 'the main column waits for its own step');
  assert.notEqual(at('built=rail').rail, 'none', 'the rail is laid out at built=rail');
  assert.ok(at('built=rail').controls >= 20, `the rail's controls are built before it is laid out (${at('built=rail').controls})`);
  assert.notEqual(at('built=all').main, 'none', 'the main column is laid out at built=all');
  assert.ok(at('built=all').engines >= 5, `the engines panel is built before it is laid out (${at('built=all').engines} swatches)`);
  // Swatches: two dozen PNG encodings, not part of the first frame (painted when idle after it).
  assert.equal(at('ready').painted, 0, 'no swatch painted before the first frame');
  await page.waitForFunction(() => [...document.querySelectorAll('#engines .engine-swatch')].every((img) => img.src.startsWith('data:image/png')));
  assert.deepEqual(problems(), []);
  await page.close();
});

test("a phone's rail is folded before its first layout (laid out open, it was the boot's longest task at 4× CPU)", async () => {
  const { page, problems } = await openPage(browser, {
    viewport: { width: 390, height: 844 },
    before: (p) => p.addInitScript(() => {
      window.__openAtRailLayout = null;
      new MutationObserver(() => {
        if (document.documentElement.dataset.built === 'rail' && window.__openAtRailLayout === null) {
          window.__openAtRailLayout = { open: document.querySelectorAll('.rail details.group[open]').length, groups: document.querySelectorAll('.rail details.group').length };
        }
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-built'] });
    }),
  });
  await waitReady(page);
  const seen = await page.evaluate(() => window.__openAtRailLayout);
  assert.ok(seen?.groups >= 5, `the rail's groups are built when it is laid out (${JSON.stringify(seen)})`);
  assert.equal(seen.open, 0, 'no group is open when the phone lays the rail out');
  assert.deepEqual(problems(), []);
  await page.close();
});
