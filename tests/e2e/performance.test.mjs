// What keeps the page fast, checked as behaviour (never as timings, which belong to `cargo xtask bench-page`):
// nothing shifts while the page builds itself, and the simulation worker drops results a newer request overtook.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, figuresDrawn } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  test(`no layout shift while the page builds (${viewport.width}×${viewport.height})`, async () => {
    const { page, problems } = await openPage(browser, {
      viewport,
      before: (p) => p.addInitScript(() => {
        window.__shifts = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) {
            const nodes = e.sources.map((s) => s.node?.id || s.node?.className || s.node?.nodeName).join(', ');
            window.__shifts.push(`${e.value.toFixed(4)} at ${Math.round(e.startTime)} ms: ${nodes}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      }),
    });
    await waitReady(page);
    await page.waitForTimeout(500);
    // Lighthouse counts a cumulative shift of 0.87 on the page that built itself in view; hidden until whole, 0.
    assert.deepEqual(await page.evaluate(() => window.__shifts), []);
    assert.deepEqual(problems(), []);
  });
}

test('the boot simulates once: a link with no settings shows the run the model was built with, not a second one', async () => {
  const { page, problems } = await openPage(browser);
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
  // runId counts the runs of this page's model (model.js refresh); the full core's swap keeps the run (same bits).
  assert.equal(await page.evaluate(() => window.netcodeLab.model().runId), 1, 'one run from load to data-complete');
  // A hash with a setting does run again, once.
  await page.evaluate(() => { location.hash = '#renderDelay=150'; });
  await page.waitForFunction(() => window.netcodeLab.model().runId === 2);
  assert.equal(await page.evaluate(() => window.netcodeLab.model().params.remote.clock.renderDelay), 0.15);
  assert.deepEqual(problems(), []);
});

test('figures below the fold wait to be scrolled near, and printing draws them', async () => {
  const { page, problems } = await openPage(browser);
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
  const waiting = () => page.evaluate(() => window.netcodeLab.app.scheduler.painters.filter((p) => p.deferred).length);
  // The plots and the comparison, far below the first screen, are mounted but not drawn at load.
  assert.ok(await waiting() >= 2, 'the figures below the fold are deferred at load');
  // A reader who prints (or saves a PDF) sees every figure: a missing `beforeprint` hook leaves them blank.
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  assert.equal(await waiting(), 0, 'printing draws every deferred figure');
  assert.deepEqual(problems(), []);
});

/** Every script the page fetched (by its text, so it works bundled by `cargo xtask dist` or not), and whether it
 *  was asked for before the first frame. */
async function scriptsFetched(page) {
  return page.evaluate(async () => {
    const drawn = performance.getEntriesByName('boot:first-frame')[0].startTime;
    const entries = performance.getEntriesByType('resource').filter((r) => r.initiatorType !== 'fetch' && /\.m?js$/.test(new URL(r.name).pathname));
    return Promise.all(entries.map(async (r) => ({
      name: r.name.replace(/.*\//, ''), beforeFrame: r.startTime < drawn, text: await (await fetch(r.name)).text(),
    })));
  });
}

test('the first frame does without the lessons: they are fetched after it, and the menu keeps its place and fills in', async () => {
  const { page, problems } = await openPage(browser, {
    // The menu's width as the first frame shows it (the lessons are not in yet).
    before: (p) => p.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.documentElement.dataset.ready !== 'true') return;
        const select = document.getElementById('lesson-select');
        window.__menuAtFirstFrame = { width: select?.getBoundingClientRect().width, options: select?.options.length };
        observer.disconnect();
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
    }),
  });
  await waitReady(page);
  const scripts = await scriptsFetched(page);
  const holding = (pattern) => scripts.filter((s) => pattern.test(s.text)).map(({ name, beforeFrame }) => ({ name, beforeFrame }));
  // lessons.js (the card's rows) and lesson-data.js (the first lesson's settings), however they are bundled.
  for (const [what, pattern] of [['lessons.js', /checkRow\(/], ['lesson-data.js', /id:\s*["']render-delay["'],\s*seed:\s*["']000["']/]]) {
    const found = holding(pattern);
    assert.ok(found.length >= 1, `${what} was fetched: ${JSON.stringify(found)}`);
    assert.ok(found.every((s) => !s.beforeFrame), `${what} is fetched after the first frame: ${JSON.stringify(found)}`);
  }
  const atFirstFrame = await page.evaluate(() => window.__menuAtFirstFrame);
  const now = await page.$eval('#lesson-select', (s) => ({ width: s.getBoundingClientRect().width, options: s.options.length }));
  assert.equal(atFirstFrame.options, 1, 'at the first frame the menu holds the sandbox alone');
  assert.ok(now.options > 10, `${now.options} entries in the menu once the lessons are in`);
  assert.equal(atFirstFrame.width, now.width, 'the menu is as wide before the lessons are in as after (nothing moves)');
  // A lesson chosen from the menu then works (its card and its checks).
  await page.selectOption('#lesson-select', 'render-delay');
  await page.waitForSelector('#lesson-card:not([hidden])');
  await page.waitForSelector('#lesson-checks tr[data-check]');
  assert.deepEqual(problems(), []);
});

test('a link to a lesson has the lessons before its first frame', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=render-delay' });
  await waitReady(page);
  const found = (await scriptsFetched(page)).filter((s) => /checkRow\(/.test(s.text));
  assert.ok(found.length >= 1 && found.every((s) => s.beforeFrame), `lessons.js before the first frame: ${JSON.stringify(found.map((s) => s.name))}`);
  assert.equal(await page.inputValue('#lesson-select'), 'render-delay');
  assert.deepEqual(problems(), []);
});

test('the full core takes over without simulating again: the run moves to it at the next change, or at the first call only it has', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const seen = await page.evaluate(async () => {
    const { app } = window.netcodeLab;
    const model = app.model;
    const full = await import(new URL('pkg/netcode_lab.js', document.baseURI).href);
    const frames = () => Array.from(model.table('frames').view);
    const onFull = () => model.pg instanceof full.Playground;
    const before = { onFull: onFull(), runId: model.runId, frames: frames(), coreIsFull: app.core === full };
    // A call the first-frame build does not have (exporting the run as a trace) moves the run, with the same bits.
    const trace = model.exportTrace('snapshots');
    const after = { onFull: onFull(), runId: model.runId, frames: frames() };
    const same = before.frames.length === after.frames.length && before.frames.every((v, i) => Object.is(v, after.frames[i]));
    return { before: { ...before, frames: before.frames.length }, after: { ...after, frames: after.frames.length }, same, traced: trace.length > 100 };
  });
  assert.equal(seen.before.coreIsFull, true, 'the page has the full core after data-complete');
  assert.equal(seen.before.onFull, false, 'the run on screen was not made again on the full core at the swap');
  assert.equal(seen.after.onFull, true, 'a full-only call moves the run to the full core');
  assert.equal(seen.after.runId, seen.before.runId, 'the moved run is the same run (runId kept)');
  assert.ok(seen.same && seen.before.frames > 1000, 'every frame is bit-identical after the move');
  assert.ok(seen.traced);
  // The next change is made on the full core directly.
  const { page: second } = await openPage(browser);
  await waitReady(second);
  const next = await second.evaluate(async () => {
    const full = await import(new URL('pkg/netcode_lab.js', document.baseURI).href);
    location.hash = '#renderDelay=150';
    await new Promise((resolve) => { const poll = () => (window.netcodeLab.model().runId === 2 ? resolve() : setTimeout(poll, 20)); poll(); });
    return window.netcodeLab.model().pg instanceof full.Playground;
  });
  assert.equal(next, true, 'the next run is made on the full core');
  assert.deepEqual(problems(), []);
});

test('the simulation worker answers, and drops a result that a newer request on its channel overtook', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const result = await page.evaluate(async () => {
    const worker = window.netcodeLab.app.worker;
    const params = window.netcodeLab.model().params;
    const old = worker.request('test', 'sweep', { params, delays: [0, 0.1] });
    const newer = worker.request('test', 'sweep', { params, delays: [0.05] });
    const other = worker.request('other-table', 'sweep', { params, delays: [0.2] }); // another channel: unaffected
    const [a, b, c] = await Promise.all([old, newer, other]);
    let refused = null;
    try { await worker.request('test', 'no-such-kind', {}); } catch (e) { refused = e.message; }
    return { a, b: b.map((p) => p.delay), c: c.map((p) => p.delay), refused };
  });
  assert.equal(result.a, undefined, 'the overtaken request resolves to nothing');
  assert.deepEqual(result.b, [0.05]);
  assert.deepEqual(result.c, [0.2]);
  assert.match(result.refused, /unknown request kind `no-such-kind`/);
  assert.deepEqual(problems(), []);
});

test('the sweep plot is drawn from the worker: the main thread never runs a sweep', async () => {
  const { page, problems } = await openPage(browser, {
    before: (p) => p.addInitScript(() => { window.__mainSweeps = 0; }),
  });
  await waitReady(page);
  await figuresDrawn(page); // the sweep asks for its curve as it is first drawn (scheduler.js `deferred`)
  await page.evaluate(() => {
    const pg = window.netcodeLab.model().pg;
    const sweep = pg.sweep.bind(pg);
    pg.sweep = (...args) => { window.__mainSweeps += 1; return sweep(...args); };
  });
  await page.selectOption('#control-lossModel', { index: 1 });
  await page.waitForSelector('#plot-sweep[data-sweep="ready"]');
  assert.equal(await page.evaluate(() => window.__mainSweeps), 0);
  assert.deepEqual(problems(), []);
});

test('a slider drag re-simulates and draws once per frame however many input events arrive; the worker holds one job per channel', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.waitForFunction(() => document.getElementById('league').dataset.state === 'ready');
  const r = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    await frame();
    // Count the re-simulations and the draws; watch what the worker is given and what it answers.
    let sims = 0;
    const model = app.model;
    const setParams = model.setParams.bind(model);
    model.setParams = (p) => { sims += 1; return setParams(p); };
    const worker = app.worker.worker;
    const channelOf = new Map();
    const inFlight = {};
    const sent = {};
    let mostInFlight = 0;
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m) => {
      channelOf.set(m.id, m.channel);
      inFlight[m.channel] = (inFlight[m.channel] ?? 0) + 1;
      sent[m.channel] = (sent[m.channel] ?? 0) + 1;
      mostInFlight = Math.max(mostInFlight, inFlight[m.channel]);
      return post(m);
    };
    const receive = worker.onmessage;
    worker.onmessage = (e) => { inFlight[channelOf.get(e.data.id)] -= 1; return receive(e); };
    const draws = app.draws;
    const slider = document.getElementById('control-loss');
    const frames = 6;
    let last = null;
    // The thumb is held through the loop (scheduler.js `watchSliderHold`): on a loaded machine a frame may take longer
    // than DRAG_GAP, and a change-gap drag would then "pause" between frames and draw once more for the pause.
    slider.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    for (let f = 0; f < frames; f++) {
      for (let i = 0; i < 10; i++) { // ten input events inside one frame
        last = String((7 * (f * 10 + i)) % 50);
        slider.value = last;
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }
      await frame();
    }
    const simsDuring = sims;
    const drawsDuring = app.draws - draws;
    window.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
    const shownLoss = app.model.params.network.downlink.loss;
    // The drag pauses: the league table of the newest parameters arrives; nothing was ever queued twice.
    const key = JSON.stringify(app.model.params);
    for (let i = 0; i < 3000 && !(app.league.state.key === key && !app.league.state.pending); i++) await frame();
    // Five requests at once on one channel: the worker is given the first and, once it answered, the newest.
    const params = app.model.params;
    const answers = await Promise.all([0.02, 0.04, 0.06, 0.08, 0.1].map((d) => app.worker.request('probe', 'sweep', { params, delays: [d] })));
    return { simsDuring, drawsDuring, frames, last: Number(last), shownLoss, mostInFlight, sent,
      answers: answers.map((a) => a?.map((p) => p.delay) ?? null),
      leagueDone: !app.league.state.pending, leagueKeyIsNewest: app.league.state.key === key };
  });
  // 60 input events in 6 frames: the first runs at once, then the newest of each frame at its start — not 60 runs.
  assert.ok(r.simsDuring <= r.frames + 1, `${r.simsDuring} re-simulations for 60 input events in ${r.frames} frames`);
  assert.ok(r.drawsDuring <= r.frames, `${r.drawsDuring} draws in ${r.frames} frames (a change is drawn by its frame, once)`);
  assert.ok(Math.abs(r.shownLoss - r.last / 100) < 1e-9, `the newest value wins: loss ${r.shownLoss}, last input ${r.last} %`);
  assert.equal(r.mostInFlight, 1, 'the worker is never given a second job on a channel before it answered the first');
  assert.equal(r.sent.probe, 2, 'five requests at once: the worker ran the first and the newest');
  assert.deepEqual(r.answers, [null, null, null, null, [0.1]], 'only the newest request is answered; the others resolve to nothing');
  assert.ok(r.leagueDone && r.leagueKeyIsNewest, 'the table shown is the newest parameters\' one');
  assert.deepEqual(problems(), []);
});

test('during a drag a figure off screen waits, the lanes on screen follow it, and the figure is drawn once the drag pauses', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.autoplay = false;
    app.stopInviting?.();
    app.transport.setPlaying(false);
    app.scheduler.dragGap = 2000; // what counts as a drag, made generous so a slow machine's frames still count as one
    app.seek(6);
    app.drawDeferred(); // the comparison below the fold has a drawing to keep (scheduler.js `deferred`)
    window.scrollTo(0, 0);
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const checksum = (sel) => page.$$eval(sel, (canvases) => canvases.map((c) => {
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let h = 0;
    for (let i = 0; i < data.length; i += 4) h = (h * 31 + data[i] + 3 * data[i + 1] + 5 * data[i + 2] + 7 * data[i + 3]) % 2147483647;
    return h;
  }).join(','));
  const FIGURE = '#comparison canvas'; // lerp chase vs timed path: the packet loss changes its paths
  const before = { figure: await checksum(FIGURE), view: await checksum('#lanes') };
  const r = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    const comparison = app.scheduler.painters[3];
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const slider = document.getElementById('control-loss');
    const stale = [];
    for (let i = 1; i <= 8; i++) { // one input per frame, as a hand drags
      slider.value = String(3 * i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      stale.push(comparison.stale);
    }
    return { onScreen: comparison.onScreen, stale };
  });
  const during = { figure: await checksum(FIGURE), view: await checksum('#lanes') };
  assert.equal(r.onScreen, false, 'the comparison is below the first screen');
  assert.deepEqual(r.stale.slice(1), Array(7).fill(true), `the off-screen figure waited during the drag (${r.stale})`);
  assert.equal(during.figure, before.figure, 'the off-screen figure was not drawn during the drag');
  assert.notEqual(during.view, before.view, 'the lanes on screen show the new loss during the drag');
  await page.waitForFunction(() => !window.netcodeLab.app.scheduler.painters.some((p) => p.stale), null, { timeout: 15000 });
  assert.notEqual(await checksum(FIGURE), before.figure, 'once the drag paused, the figure shows the new run');
  assert.deepEqual(problems(), []);
});

for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
  test(`a canvas out of view is skipped by the rendering and keeps its size (${viewport.width}×${viewport.height})`, async () => {
    // playground.css: `content-visibility: auto` on the figures' canvases (the views', the plots'). Without the rule
    // every canvas is rendered wherever it is (the first assertions go red); the rule on a box around a canvas
    // (`.view`, `.plot-stage`) would collapse the box while skipped (the sizes go red).
    // What the rendering skips is told on each canvas by its `contentvisibilityautostatechange` events.
    const { page, problems } = await openPage(browser, {
      viewport,
      before: (p) => p.addInitScript(() => {
        window.__skipped = new WeakMap();
        document.addEventListener('contentvisibilityautostatechange', (e) => window.__skipped.set(e.target, e.skipped), true);
      }),
    });
    await waitReady(page);
    const frames = () => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const canvases = () => page.$$eval('.view canvas, .plot canvas', (list) => list.map((c) => ({
      name: `${c.id || c.className}${c.closest('figure.plot') ? ` in #${c.closest('figure.plot').id}` : ''}`,
      height: c.getBoundingClientRect().height,
      width: c.getBoundingClientRect().width,
      aspect: Number(c.dataset.aspect ?? c.height / c.width), // the shape it is drawn at (canvas.js `surface`)
      rendered: window.__skipped.has(c) ? !window.__skipped.get(c) : 'untold',
    })));
    await page.evaluate(() => window.scrollTo(0, 0));
    await frames();
    const top = await canvases();
    const rendered = (list, prefix) => list.filter((c) => c.name.startsWith(prefix)).map((c) => c.rendered);
    assert.equal(top.find((c) => c.name === 'view-server').rendered, true, 'the first view, on the first screen, is rendered');
    assert.ok(rendered(top, 'plot-static').every((r) => r === false), `the plots, far below, are skipped: ${JSON.stringify(top)}`);
    await page.locator('#plot-sweep').scrollIntoViewIfNeeded();
    await frames();
    const down = await canvases();
    assert.equal(down.find((c) => c.name.startsWith('plot-static in #plot-sweep')).rendered, true, 'the plot scrolled to is rendered');
    assert.ok(rendered(down, 'view-').every((r) => r === false), `the views, far above now, are skipped: ${JSON.stringify(down)}`);
    // Every canvas has one size, skipped or shown: a plot never shown has its shape before it scrolls in, a view
    // scrolled away keeps the size it was shown at (2 px: a shape is the attributes', a shown canvas its pixels').
    for (const [i, c] of top.entries()) {
      assert.ok(Math.abs(c.height - c.width * c.aspect) <= 2, `${c.name} has its shape at load: ${c.width}×${c.height}, not ×${c.aspect}`);
      assert.ok(Math.abs(down[i].height - c.height) <= 1, `${c.name} keeps its size: ${c.height} → ${down[i].height}`);
    }
    assert.deepEqual(problems(), []);
  });
}
