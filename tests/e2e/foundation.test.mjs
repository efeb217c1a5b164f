// The first page: loads the wasm core, draws what Rust computes, the slider changes it, failures are visible.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, figuresDrawn, canvasStats, screenshot, BASE_URL } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Pauses the animation and puts the cursor at `local` seconds, so what is drawn is deterministic. */
async function freezeAt(page, local) {
  await page.click('#play');
  await page.evaluate((t) => { window.netcodeLab.playground.seek(t); window.netcodeLab.redraw(); }, local);
}

test('the page loads the core and draws the worked example without console errors', async () => {
  const { page, problems } = await openPage(browser, { path: 'worked-example.html' });
  await waitReady(page);
  // Its own build (core.js 'example'), not the playground's first-frame one nor the full one.
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name.replace(/.*\//, '')).filter((n) => n.endsWith('.wasm')));
  assert.deepEqual(wasm, ['netcode_lab_example_bg.wasm'], 'the worked example loads the example build alone');
  await freezeAt(page, 10.30);
  const stats = await canvasStats(page, '#view');
  assert.ok(stats.painted > stats.total * 0.02, `only ${stats.painted} of ${stats.total} pixels painted`);
  const readout = await page.textContent('#readout');
  assert.match(readout, /render 10\.150 s/);
  assert.match(readout, /x = 1\.500 between ticks 101 and 102/);
  assert.equal(await page.getAttribute('#status', 'data-status'), 'ready');
  assert.equal(await page.textContent('#status'), '✓ Ready');
  assert.match(await page.textContent('#version'), /^\d+\.\d+\.\d+$/);
  await screenshot(page, 'foundation');
  assert.deepEqual(problems(), []);
});

test('moving the render-delay slider changes the value in Rust, the readout and the drawing', async () => {
  const { page, problems } = await openPage(browser, { path: 'worked-example.html' });
  await waitReady(page);
  await freezeAt(page, 10.30);
  const beforeStats = await canvasStats(page, '#view');
  await page.locator('#render-delay').fill('50');
  assert.equal(await page.textContent('#render-delay-value'), '50 ms');
  assert.equal(await page.evaluate(() => window.netcodeLab.playground.renderDelayMs), 50);
  assert.equal(await page.getAttribute('#status', 'data-status'), 'underrun');
  assert.match(await page.textContent('#reason'), /past the newest snapshot/);
  const afterStats = await canvasStats(page, '#view');
  assert.notEqual(afterStats.checksum, beforeStats.checksum, 'the canvas did not change');
  await page.focus('#render-delay');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#render-delay-value'), '55 ms');
  await screenshot(page, 'foundation-underrun');
  assert.deepEqual(problems(), []);
});

test('bad input from JS is refused with the field named and the old value kept', async () => {
  const { page, problems } = await openPage(browser, { path: 'worked-example.html' });
  await waitReady(page);
  const result = await page.evaluate(() => {
    const pg = window.netcodeLab.playground;
    const messages = [];
    for (const bad of [NaN, Infinity, -5, 1e9]) {
      try { pg.setRenderDelayMs(bad); } catch (e) { messages.push(e.message); }
    }
    return { messages, delay: pg.renderDelayMs };
  });
  assert.equal(result.messages.length, 4);
  for (const m of result.messages) assert.match(m, /renderDelay/);
  assert.equal(result.delay, 150);
  assert.deepEqual(problems(), []);
});

test('a wasm module that fails to load shows a banner, not a blank canvas', async () => {
  const { page } = await openPage(browser, { path: 'worked-example.html',
    before: (p) => p.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' })),
  });
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /WebAssembly module failed to load/);
  await screenshot(page, 'foundation-load-error');
});

test('a panic in Rust shows its message in the banner', async () => {
  const { page, errors } = await openPage(browser, { path: 'worked-example.html' });
  await waitReady(page);
  await page.evaluate(() => { try { window.netcodeLab.core.panicForTest('deliberate test panic'); } catch { /* the trap */ } });
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /panic in the Rust core: .*deliberate test panic/s);
  assert.ok(errors.some((e) => e.includes('deliberate test panic')), 'console_error_panic_hook logged the panic');
});

test('the server sends wasm as application/wasm, brotli-compressed, revalidated on every load', async () => {
  const res = await fetch(new URL('pkg/netcode_lab_page_bg.wasm', BASE_URL), { headers: { 'accept-encoding': 'br' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/wasm');
  assert.equal(res.headers.get('content-encoding'), 'br');
  assert.equal(res.headers.get('cache-control'), 'no-cache', 'a rebuild is never hidden behind a cached copy');
  const bytes = new Uint8Array(await res.arrayBuffer()); // fetch undoes the brotli
  assert.deepEqual([...bytes.slice(0, 4)], [0x00, 0x61, 0x73, 0x6d], 'wasm magic');
  const js = await fetch(new URL('js/main.js', BASE_URL), { headers: { 'accept-encoding': 'gzip' } });
  assert.match(js.headers.get('content-type'), /^text\/javascript/);
  assert.equal(js.headers.get('content-encoding'), 'gzip');
});

test('the first frame needs no request the page did not announce: its few bundled modules and the wasm are preloaded', { skip: process.env.NETCODE_LAB_SITE !== 'dist' && 'www/ is served as it is (the preloads are written by `cargo xtask dist`)' }, async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const firstFrame = await page.evaluate(() => {
    const drawn = performance.getEntriesByName('boot:first-frame')[0].startTime;
    return performance.getEntriesByType('resource').filter((r) => r.startTime < drawn && /\.(js|wasm)$/.test(r.name)).map((r) => r.name);
  });
  const preloaded = await page.$$eval('link[rel=modulepreload], link[rel=preload]', (links) => links.map((l) => l.href));
  // The first frame's wasm is fetched (and compiled) by index.html's head script itself, at once like a preload.
  const fetchedByHead = await page.$$eval('head script:not([src])', (scripts) => scripts.flatMap((s) => [...s.textContent.matchAll(/fetch\('([^']+)'\)/g)].map((m) => new URL(m[1], document.baseURI).href)));
  const missing = firstFrame.filter((u) => !preloaded.includes(u) && !fetchedByHead.includes(u));
  assert.deepEqual(missing, [], 'fetched before the first frame without a preload or the head\'s fetch (a round trip each)');
  assert.ok([...preloaded, ...fetchedByHead].some((u) => u.endsWith('pkg/netcode_lab_page_bg.wasm')), 'the first-frame wasm is preloaded or fetched by the head');
  assert.ok(!preloaded.some((u) => u.endsWith('pkg/netcode_lab_bg.wasm')), 'the full wasm is not preloaded');
  assert.ok(!firstFrame.some((u) => u.endsWith('pkg/netcode_lab_bg.wasm')), 'the full wasm waits for the first frame');
  // Bundled by `cargo xtask dist` (esbuild): the entry, a few shared chunks, the glue and its wasm — not the ~45
  // source modules one request each (unbundled, this count is over 40).
  assert.ok(firstFrame.some((u) => u.endsWith('/js/main.js')), 'the entry module is fetched');
  assert.ok(firstFrame.some((u) => u.endsWith('pkg/netcode_lab_page.js')), 'the first-frame glue is fetched');
  assert.ok(firstFrame.length <= 8, `${firstFrame.length} scripts and wasm before the first frame: ${firstFrame.join(' ')}`);
  // …and minified: main.js's opening comment and its doc comments are gone.
  const main = await page.evaluate(async () => (await fetch('js/main.js')).text());
  assert.ok(!main.includes('The playground: load the core') && !main.includes('Resolves in a new task'), 'js/main.js is minified');
  assert.deepEqual(problems(), []);
});

test('the first frame runs on the small core; the full core takes over after it with the very same run', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const seen = await page.evaluate(async () => {
    const { app, core } = window.netcodeLab;
    const page = await import(new URL('pkg/netcode_lab_page.js', document.baseURI).href);
    const full = await import(new URL('pkg/netcode_lab.js', document.baseURI).href);
    // Both builds on their own instances (the modules are the page's own, already initialised).
    const params = { ...app.model.params, seed: 7, duration: 30, network: { ...app.model.params.network, downlink: { ...app.model.params.network.downlink, loss: 0.2 } } };
    // The re-anchoring clock jumps (the smooth one, the default, does not): the jump logs have something to compare.
    params.remote = { ...params.remote, clock: { ...params.remote.clock, clock: 'reanchor' } };
    const rows = (build) => {
      const pg = new build.Playground(params);
      const out = {};
      for (const kind of ['frames', 'snapshots', 'batches', 'corrections', 'rtt']) out[kind] = Array.from(pg.timeline(kind));
      // The first-frame build has no metrics() nor the clock's jump log alone (src/web/analysis.rs).
      const metrics = pg.metrics ? JSON.stringify(pg.metrics().clock.jumpLog) : null;
      const jumps = pg.clockJumps ? JSON.stringify(pg.clockJumps()) : null;
      pg.free();
      return { out, metrics, jumps };
    };
    const a = rows(page);
    const b = rows(full);
    const same = Object.keys(a.out).every((k) => a.out[k].length === b.out[k].length
      && a.out[k].every((v, i) => Object.is(v, b.out[k][i])));
    return {
      same, sameJumps: b.jumps === b.metrics, jumps: JSON.parse(b.jumps).length,
      frames: a.out.frames.length,
      pageHasMetrics: ['metrics', 'clockJumps', 'sweep', 'decayCurves', 'showImported'].filter((m) => m in page.Playground.prototype)
        .concat(['extrapolationCurves', 'checkTraceSize', 'applyPreset'].filter((m) => m in page.Playground)),
      shownByFull: core === full, pageHasTraces: 'importTrace' in page.Playground.prototype,
      fullHasTraces: 'importTrace' in full.Playground.prototype, pageHasLessons: 'Lessons' in page,
      pageHasExample: 'WorkedExample' in page, fullHasExample: 'WorkedExample' in full,
      marks: performance.getEntriesByName('boot:full-core').length,
    };
  });
  assert.ok(seen.frames > 1000, `${seen.frames} numbers in the frames timeline`);
  assert.ok(seen.same, 'every timeline is bit-identical on both builds');
  assert.ok(seen.jumps > 0, 'the run has clock jumps to compare');
  assert.ok(seen.sameJumps, "the full build's clockJumps() is its metrics().clock.jumpLog");
  // Red: `clockJumps` or `applyPreset` or any of the analysis back in the first-frame build.
  assert.deepEqual(seen.pageHasMetrics, [], 'what the page shows after its first frame is in the full build only');
  assert.ok(seen.shownByFull, 'after data-complete the page runs on the full core');
  assert.equal(seen.marks, 1, 'the page swapped cores once');
  assert.deepEqual([seen.pageHasTraces, seen.pageHasLessons, seen.fullHasTraces], [false, false, true], 'the split is real');
  // Seed 002's worked example has a build of its own (the first-frame one + `WorkedExample`, ~14 KB the playground
  // never calls). Red: `mod worked_example` compiled into the first-frame build again.
  assert.deepEqual([seen.pageHasExample, seen.fullHasExample], [false, true], 'the worked example is not in the first-frame build');
  assert.deepEqual(problems(), []);
});

test('until the full core is in, the first frame shows what the small core has; the plots and the metrics join after it', async () => {
  // The full build's wasm is held back until the first frame has been looked at (a slow network, exaggerated).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, problems } = await openPage(browser, {
    path: '#clock=reanchor&t=19', // the re-anchoring clock jumps (from ~17 s on, in the default run)
    // The page's and the simulation worker's fetch of it alike (the worker's core would answer the jump log too).
    before: (p) => p.context().route(/\/netcode_lab_bg\.wasm$/, async (route) => { await held; await route.continue(); }),
  });
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  await page.waitForTimeout(300);
  const state = () => page.evaluate(() => {
    const model = window.netcodeLab.model();
    const t = model.frameRow(model.frameAt(window.netcodeLab.app.state.playhead)).local; // the frame shown
    return {
      complete: document.documentElement.dataset.complete ?? null,
      fullReady: model.fullReady,
      // The status card's last clock jump (readouts.js), and the one the full metrics say (when they can).
      jumpAt: document.getElementById('clock-line').dataset.jumpAt ?? null,
      jumpText: document.getElementById('clock-line').textContent,
      jumpsPending: document.getElementById('clock-line').dataset.jumpsPending ?? null,
      fromMetrics: model.fullReady ? String(model.metrics().clock.jumpLog.filter((j) => j.at <= t + 1e-9).at(-1)?.at ?? null) : null,
      painters: window.netcodeLab.app.scheduler.painters.length,
      metricsRows: document.querySelectorAll('#metrics tr').length,
    };
  });
  const early = await state();
  assert.equal(early.complete, null, 'the page is not complete without the full core');
  assert.equal(early.fullReady, false, 'the full core is held back');
  // The jump log is the full core's (src/web/analysis.rs): until it is in (here or in the worker), the status card
  // says so. Red: `clockJumps` back in the first-frame build and read by the card, or no "computing…" state.
  assert.equal(early.jumpAt, null, 'no last clock jump is named before the full core is in');
  assert.equal(early.jumpsPending, 'true');
  assert.match(early.jumpText, /last clock jump: computing…/);
  assert.equal(early.painters, 2, 'only the views and the lanes draw before the full core (no plot calls a missing export)');
  assert.equal(early.metricsRows, 0, 'the metrics table waits for the full core');
  release();
  await waitReady(page);
  assert.equal(await page.evaluate(() => window.netcodeLab.model().pg instanceof window.netcodeLab.core.Playground), false,
    'the run on screen was not made again on the full core at data-complete (the metrics table waits to be seen)');
  await figuresDrawn(page); // the figures and the metrics table below the fold, drawn as for a PNG
  // Red: nothing asks for the jump log once the full core is in (the line says "computing…" for ever).
  await page.waitForFunction(() => document.getElementById('clock-line').dataset.jumpsPending === undefined);
  const late = await state();
  assert.equal(late.fullReady, true);
  assert.notEqual(late.jumpAt, null, 'the status card names the last clock jump once the full core is in');
  assert.match(late.jumpText, /last clock jump at/);
  assert.equal(late.fromMetrics, late.jumpAt, "it is the full metrics' last jump before the playhead");
  assert.equal(late.painters, 4, 'the plots and the comparison joined');
  assert.ok(late.metricsRows > 5, `the metrics table is filled (${late.metricsRows} rows)`);
  assert.deepEqual(problems(), []);
});

test('a network preset picked before the full core is in is applied once it is', async () => {
  // The presets are the full core's (`applyPreset`, src/web/analysis.rs: out of the first-frame build).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const { page, problems } = await openPage(browser, {
    before: (p) => p.context().route(/\/netcode_lab_bg\.wasm$/, async (route) => { await held; await route.continue(); }),
  });
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  const early = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    window.__before = structuredClone(app.model.params);
    const runId = app.model.runId;
    const select = document.getElementById('control-preset');
    select.value = 'mobile';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return { held: app.presetHeld ?? null, pending: app.pending, rerun: app.model.runId !== runId,
      same: JSON.stringify(app.model.params) === JSON.stringify(window.__before), hasPreset: 'applyPreset' in window.netcodeLab.core.Playground };
  });
  // Red: `change` calling the first-frame build's missing `applyPreset` (a TypeError, a console error), or the
  // preset dropped.
  assert.deepEqual(early, { held: 'mobile', pending: true, rerun: false, same: true, hasPreset: false }, 'the preset waits for the full core');
  release();
  await waitReady(page);
  await page.waitForFunction(() => !window.netcodeLab.app.presetHeld);
  const late = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    const expected = window.netcodeLab.core.Playground.applyPreset(window.__before, 'mobile');
    return { same: JSON.stringify(app.model.params) === JSON.stringify(expected), sendRate: app.model.params.scenario.sendRate,
      select: document.getElementById('control-preset').value };
  });
  assert.deepEqual(late, { same: true, sendRate: 15, select: 'mobile' }, "the run is the mobile preset's, as the full core applies it");
  assert.deepEqual(problems(), []);
});
