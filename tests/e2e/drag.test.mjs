// A slider dragged by a hand (the goal: every drag at 60 fps), checked as behaviour, never as timings (those are
// `cargo xtask bench-page --only drag`): while the thumb is held, every frame re-simulates at most once with the
// newest value and draws each painter at most once; a painter out of the viewport — even one just above it — is
// not drawn, nor is the league table asked for, even when the hand rests longer than DRAG_GAP; after the release
// every painter, the league table, the sweep and the URL show the final value. The league table's answer rewrites
// its cells in place (a rebuilt table was a layout and paint of the whole table after every change).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, figuresDrawn } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Counts, from inside the page: re-simulations, each painter's draws (per frame, with the run drawn), worker jobs. */
function installCounters() {
  const app = window.netcodeLab.app;
  const c = { sims: [], draws: app.scheduler.painters.map(() => []), sent: {} };
  const setParams = app.model.setParams.bind(app.model);
  app.model.setParams = (p) => { c.sims.push(app.scheduler.framesDrawn); return setParams(p); }; // the frame it ran in
  app.scheduler.painters.forEach((painter, i) => {
    const draw = painter.draw.bind(painter);
    painter.draw = (scene) => { c.draws[i].push({ frame: app.scheduler.framesDrawn, runId: app.model.runId }); return draw(scene); };
  });
  const worker = app.worker.worker;
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (m) => { c.sent[m.channel] = (c.sent[m.channel] ?? 0) + 1; return post(m); };
  window.__counts = c;
}

test('a held slider drag: one run per frame, each painter drawn at most once a frame, nothing out of the viewport drawn or asked for until the release, then everything shows the final value', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.waitForFunction(() => document.getElementById('league').dataset.state === 'ready');
  await figuresDrawn(page); // every painter shows a run before the drag (the figures below the fold: scheduler.js `deferred`)
  await page.waitForSelector('#plot-sweep[data-sweep="ready"]');
  const slider = page.locator('#control-renderDelay');
  await slider.scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.autoplay = false; // the press below must not be what starts the playback: it is started here
    app.stopInviting?.();
    app.transport.setPlaying(true); // as in the bench: the drag happens while the run plays
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const where = await page.evaluate(() => window.netcodeLab.app.scheduler.painters.map((p) => ({ visible: p.visible, onScreen: p.onScreen })));
  // The views sit just above the viewport here: within offscreen.js's 200 px margin (drawn ahead when scrolling)
  // but not seen. The lanes are seen. (Should the layout move them, this precondition says so first.)
  assert.equal(where[0].visible, false, `the views are out of the viewport (${JSON.stringify(where)})`);
  assert.equal(where[1].visible, true, 'the lanes are in the viewport');
  await page.evaluate(installCounters);

  // The hand presses the thumb and holds it.
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  const during = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const input = document.getElementById('control-renderDelay');
    const c = window.__counts;
    await frame();
    const sims0 = c.sims.length;
    const frame0 = app.scheduler.framesDrawn;
    let last = null;
    const move = async (frames, offset) => {
      for (let f = 0; f < frames; f++) {
        for (let i = 0; i < 10; i++) { // ten input events inside one frame
          last = String(5 * ((offset + 7 * (f * 10 + i)) % 60));
          input.value = last;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
        await frame();
      }
    };
    await move(6, 0);
    // The hand rests, still holding, for longer than DRAG_GAP (frames keep playing), then moves on.
    await new Promise((resolve) => setTimeout(resolve, 3 * app.scheduler.dragGap));
    await move(4, 3);
    await frame();
    return { sims: c.sims.slice(sims0), frames: app.scheduler.framesDrawn - frame0, last: Number(last) / 1000,
      shown: app.model.params.remote.clock.renderDelay, draws: c.draws.map((d) => d.filter((x) => x.frame > frame0)),
      sent: { ...c.sent }, leaguePending: app.league.state.pending };
  });
  // 100 input events over 10 frames of moves: at most one run per frame (the first of a burst runs at once, the
  // newest of each frame at the frame's start), never one per event.
  assert.ok(during.sims.length <= 12, `${during.sims.length} re-simulations for 100 input events in 10 frames of moves`);
  assert.equal(new Set(during.sims).size, during.sims.length, `two re-simulations in one frame: ${during.sims}`);
  assert.ok(Math.abs(during.shown - during.last) < 1e-9, `the newest value wins: ${during.shown} s, last input ${during.last} s`);
  during.draws.forEach((draws, i) => {
    const frames = draws.map((d) => d.frame);
    assert.equal(new Set(frames).size, frames.length, `painter ${i} drawn more than once in a frame: ${frames}`);
  });
  assert.equal(during.draws[0].length, 0, `the views (out of the viewport) were drawn ${during.draws[0].length} times during the drag`);
  assert.ok(during.draws[1].length >= during.frames - 2, `the lanes (in view) follow every frame: ${during.draws[1].length} of ${during.frames}`);
  assert.equal(during.sent.league ?? 0, 0, 'the league table is not asked for while the thumb is held');
  assert.ok(during.leaguePending, 'the league table says it is updating');

  // The release: what waited runs once, and every part of the page shows the final run.
  await page.mouse.up();
  await page.waitForFunction(() => {
    const app = window.netcodeLab.app;
    return !app.scheduler.painters.some((p) => p.stale) && !app.league.state.pending && app.scheduler.urlCaughtUp
      && document.querySelector('#plot-sweep').dataset.sweep === 'ready';
  }, null, { timeout: 20000 });
  const settled = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    const c = window.__counts;
    return { runId: app.model.runId, lastDrawn: c.draws.map((d) => d.at(-1)?.runId), sent: c.sent,
      leagueKey: app.league.state.key === JSON.stringify(app.model.params),
      hash: location.hash, delay: app.model.params.remote.clock.renderDelay };
  });
  assert.deepEqual(settled.lastDrawn, settled.lastDrawn.map(() => settled.runId), 'every painter drew the final run');
  assert.equal(settled.sent.league, 1, 'one league request, after the release');
  assert.ok(settled.leagueKey, "the league table is the final parameters'");
  assert.match(settled.hash, new RegExp(`renderDelay=${Math.round(settled.delay * 1000)}(&|$)`), `the URL has the final delay: ${settled.hash}`);
  assert.deepEqual(problems(), []);
});

test('outside a drag a lone slider change asks for the league table at once; its answer rewrites the cells in place', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.waitForFunction(() => document.getElementById('league').dataset.state === 'ready');
  await page.evaluate(installCounters);
  const customCells = () => page.evaluate(() => [...document.querySelectorAll('#league-table td[data-network="custom"]')].map((td) => td.textContent));
  const before = await customCells();
  await page.evaluate(() => {
    window.__row = document.querySelector('#league-table tbody tr[data-strategy="mirror"]');
    const input = document.getElementById('control-loss');
    input.value = '12';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.equal(await page.evaluate(() => window.__counts.sent.league ?? 0), 1, 'asked for in the change itself');
  await page.waitForFunction(() => !window.netcodeLab.app.league.state.pending);
  const after = await customCells();
  assert.notDeepEqual(after, before, `the current network's column shows the new loss (${before} → ${after})`);
  assert.ok(await page.evaluate(() => window.__row.isConnected), 'the rows were kept, only their cells rewritten');
  assert.deepEqual(problems(), []);
});

/** A value made comparable: Maps as plain objects, keys sorted (the metrics are serde-wasm-bindgen's output). */
function canonical() {
  window.__canonical = (v) => JSON.stringify(v, (_, x) => {
    if (x instanceof Map) x = Object.fromEntries(x);
    if (x && typeof x === 'object' && !Array.isArray(x)) return Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)));
    return x;
  });
}

test('during a held drag the metrics are not computed on the main thread: the worker sends them, the readouts show them, and after the release they equal the main thread\'s own', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.evaluate(canonical);
  const slider = page.locator('#control-loss');
  // The slider at the top of the viewport, the readouts below it in view: they are drawn during the drag (out of
  // view they would wait for the release: the next test).
  await page.evaluate(() => scrollBy(0, document.getElementById('control-loss').getBoundingClientRect().top - 20));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  assert.equal(await page.evaluate(() => window.netcodeLab.app.scheduler.textParts.readouts.visible), true, 'the readouts are in view');
  await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.autoplay = false;
    app.stopInviting?.();
    app.transport.setPlaying(true);
    // Every call of the core's `metrics()` on the main thread, on either build of the core (the run may still sit
    // on the first-frame build until its next change: model.js `upgrade`).
    window.__metricsCalls = 0;
    for (const proto of new Set([Object.getPrototypeOf(app.model.pg), window.netcodeLab.core.Playground.prototype])) {
      const metrics = proto.metrics;
      proto.metrics = function counted(...args) { window.__metricsCalls += 1; return metrics.apply(this, args); };
    }
    window.__before = window.__canonical(app.model.metrics());
    window.__metricsCalls = 0;
    // The worker's answers come late (a busy worker): while they are on their way, nothing on the page — the
    // readouts, the metrics table's timer — computes them on the main thread instead.
    const request = app.worker.request.bind(app.worker);
    app.worker.request = (channel, kind, body) => {
      const answer = request(channel, kind, body);
      return kind === 'metrics' ? answer.then((v) => new Promise((resolve) => setTimeout(() => resolve(v), 4 * app.scheduler.dragGap))) : answer;
    };
  });
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  const during = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const input = document.getElementById('control-loss');
    const requests0 = app.metricsRequests ?? 0;
    for (let f = 0; f < 8; f++) { // a new loss every frame, 2 … 23 %
      input.value = String(2 + 3 * f);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
    }
    // Still held: the worker's answer for the run on screen arrives and the clock line is drawn with it.
    const line = document.getElementById('clock-line');
    const t0 = performance.now();
    while (line.dataset.metricsRun !== String(app.model.runId) && performance.now() - t0 < 10000) await frame();
    return { calls: window.__metricsCalls, requests: (app.metricsRequests ?? 0) - requests0, held: app.scheduler.inDrag,
      shownRun: line.dataset.metricsRun, runId: app.model.runId, loss: app.model.params.network.downlink.loss };
  });
  assert.equal(during.calls, 0, `metrics() ran ${during.calls} times on the main thread while the thumb was held`);
  assert.ok(during.requests >= 1, 'the worker was asked for the metrics');
  assert.ok(during.held, 'the thumb was still held');
  assert.equal(during.shownRun, String(during.runId), "the clock line shows the run's own jump log (the worker's answer) during the drag");
  await page.mouse.up();
  await page.waitForFunction(() => !window.netcodeLab.app.scheduler.inDrag && document.querySelector('#metrics-table'));
  await page.waitForFunction(() => !window.netcodeLab.app.metricsTimer);
  const after = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.transport.setPlaying(false);
    const fromWorker = app.workerMetrics?.runId === app.model.runId ? window.__canonical(app.workerMetrics.metrics) : null;
    const shown = { line: document.getElementById('clock-line').textContent, table: document.getElementById('metrics').textContent };
    const calls = window.__metricsCalls;
    // The main thread's own computation of the same run, drawn the same way.
    app.workerMetrics = null;
    const own = window.__canonical(app.model.metrics());
    app.draw();
    app.drawMetricsSoon();
    return { fromWorker, own, calls, shown, redrawn: { line: document.getElementById('clock-line').textContent, table: document.getElementById('metrics').textContent } };
  });
  assert.equal(after.calls, 0, `the readouts and the metrics table after the release used the metrics the worker sent`);
  assert.ok(after.fromWorker, "the worker's metrics are the final run's");
  assert.notEqual(after.own, await page.evaluate(() => window.__before), 'the drag changed the metrics');
  assert.equal(after.fromWorker, after.own, "the worker's metrics are the main thread's, value for value");
  assert.equal(after.shown.line, after.redrawn.line, 'the clock line reads the same from either');
  assert.equal(after.shown.table, after.redrawn.table, 'the metrics table reads the same from either');
  assert.deepEqual(problems(), []);
});

test("the lanes' ○ marks, stamped from a sprite, sit where the packets arrived at the backing store's own scale", async () => {
  // At 2 device pixels per CSS pixel: a sprite made at another ratio, or stamped by its corner, misses the checks.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(new URL('#t=7.3', process.env.NETCODE_LAB_URL ?? 'http://127.0.0.1:8080/').href);
  await waitReady(page);
  const marks = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.autoplay = false;
    app.stopInviting?.();
    app.transport.setPlaying(false);
    app.draw();
    const { arrivedX, arrivalY, layout } = app.scheduler.painters[1].last;
    const canvas = document.getElementById('lanes');
    const scale = canvas.width / canvas.clientWidth;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const rgb = (x, y) => { const i = (Math.round(y * scale) * canvas.width + Math.round(x * scale)) * 4; return [data[i], data[i + 1], data[i + 2]]; };
    const near = (c, hex, tol = 40) => [1, 3, 5].every((k, j) => Math.abs(c[j] - parseInt(hex.slice(k, k + 2), 16)) <= tol);
    const inside = arrivedX.filter((x) => x > layout.left + 8 && x < layout.right - 8);
    return {
      scale,
      n: inside.length,
      // The fill at the centre is the arrival colour; the casing (r 5.5 px) is dark, left and right; 9 px out is not.
      centre: inside.filter((x) => near(rgb(x, arrivalY), '#56B4E9')).length,
      casing: inside.filter((x) => !near(rgb(x - 5.5, arrivalY), '#56B4E9') && !near(rgb(x + 5.5, arrivalY), '#56B4E9')
        && rgb(x + 5.5, arrivalY).every((v) => v < 140)).length,
    };
  });
  assert.equal(marks.scale, 2, 'the canvas is backed at 2×');
  assert.ok(marks.n >= 10, `arrivals in the window: ${marks.n}`);
  assert.ok(marks.centre >= marks.n - 1, `${marks.centre} of ${marks.n} ○ have the arrival colour at their centre`);
  assert.ok(marks.casing >= marks.n - 2, `${marks.casing} of ${marks.n} ○ have their dark casing at 5.5 px`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a held drag leaves the readouts and the transport out of view unwritten (a layout and a raster a frame each); the release brings them to the final run', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  // The half-life slider in view, the transport and the readouts above the viewport.
  const where = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    app.autoplay = false;
    app.stopInviting?.();
    app.transport.setPlaying(true);
    scrollBy(0, document.querySelector('.readouts').getBoundingClientRect().bottom + 10);
    const t0 = performance.now(); // the observers report in a frame or two
    while ((app.scheduler.textParts.readouts.visible || app.scheduler.textParts.transport.visible) && performance.now() - t0 < 5000) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    const slider = document.getElementById('control-halfLife').getBoundingClientRect();
    return { slider: slider.top > 0 && slider.bottom < innerHeight, readouts: app.scheduler.textParts.readouts.visible, transport: app.scheduler.textParts.transport.visible };
  });
  assert.deepEqual(where, { slider: true, readouts: false, transport: false }, 'the slider in view, the readouts and the transport not');
  const box = await page.locator('#control-halfLife').boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.mouse.down();
  const during = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let writes = 0;
    const observer = new MutationObserver((list) => { writes += list.length; });
    for (const root of [document.querySelector('.readouts'), document.getElementById('transport')]) {
      observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
    }
    const input = document.getElementById('control-halfLife');
    const frame0 = app.scheduler.framesDrawn;
    for (let f = 0; f < 8; f++) { // a new half-life every frame while the run plays
      input.value = String(50 + 10 * f); // ms: 50 … 120
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
    }
    // What writes the readouts outside a frame — the boot's idle callback, the worker's metrics arriving — waits
    // for the drag's end too (red if it does not: writes in an idle moment between the drag's frames).
    app.drawReadouts();
    await frame();
    observer.disconnect();
    app.transport.setPlaying(false); // paused before the release: only the release's own redraw can catch them up
    return { writes, frames: app.scheduler.framesDrawn - frame0, stale: app.scheduler.textParts.readouts.stale && app.scheduler.textParts.transport.stale, held: app.scheduler.inDrag };
  });
  assert.ok(during.held, 'the thumb was held');
  assert.ok(during.frames >= 8, `frames drawn while held: ${during.frames}`);
  assert.equal(during.writes, 0, `${during.writes} writes to the readouts or the transport out of view during the drag`);
  assert.ok(during.stale, 'they are marked stale');
  await page.mouse.up();
  await page.waitForFunction(() => !Object.values(window.netcodeLab.app.scheduler.textParts).some((p) => p.stale) && !window.netcodeLab.app.pending);
  const settled = await page.evaluate(async () => {
    const app = window.netcodeLab.app;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const read = () => ({ status: document.getElementById('status-card').textContent, counters: document.getElementById('counters').textContent,
      time: document.querySelector('#transport').textContent, scrub: document.querySelector('#transport input[type=range]').value });
    const shown = read();
    app.draw(); // what a draw of this very moment writes
    return { shown, fresh: read(), halfLife: app.model.params.local.halfLife, playhead: app.state.playhead };
  });
  assert.deepEqual(settled.shown, settled.fresh, 'after the release the readouts and the transport show the final run at the playhead');
  assert.ok(Math.abs(settled.halfLife - 0.12) < 1e-9, `the final half-life is the last input's: ${settled.halfLife}`);
  assert.deepEqual(problems(), []);
});

test('a pointer over a slider moves the run to the full core before the press (same run, same bits): the first change of a first drag does not', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  const before = await page.evaluate(async () => {
    const model = window.netcodeLab.model();
    window.__full = await import(new URL('pkg/netcode_lab.js', document.baseURI).href);
    window.__frames = Array.from(model.table('frames').view);
    return { onFull: model.pg instanceof window.__full.Playground, runId: model.runId };
  });
  assert.equal(before.onFull, false, 'after the load the run is still on the first-frame build (performance.test.mjs)');
  const box = await page.locator('#control-loss').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2); // over the slider, not pressed
  await page.waitForFunction(() => window.netcodeLab.model().pg instanceof window.__full.Playground, null, { timeout: 10000 });
  const moved = await page.evaluate(() => {
    const model = window.netcodeLab.model();
    const frames = Array.from(model.table('frames').view);
    return { runId: model.runId, same: frames.length === window.__frames.length && frames.every((v, i) => Object.is(v, window.__frames[i])) };
  });
  assert.equal(moved.runId, before.runId, 'the same run, not a new one');
  assert.ok(moved.same, 'every frame bit-identical after the move');
  assert.deepEqual(problems(), []);
});
