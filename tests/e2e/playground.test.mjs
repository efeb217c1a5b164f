// The playground page: every control re-simulates and redraws, the URL holds the configuration (and garbage in
// it is survivable), traces import and export, time controls and the keyboard work. Any console error fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, waitReady, canvasStats, figuresDrawn, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Pauses at `t` so every drawing is deterministic. */
async function freeze(page, t = 5) {
  await page.waitForFunction(() => !window.netcodeLab.app.pending);
  await page.evaluate((t) => { const app = window.netcodeLab.app; app.state.playing = false; app.seek(t); }, t);
}

/** A fingerprint of what the run computed and what is drawn (after the URL has caught up). */
async function fingerprint(page) {
  // The delay sweep arrives from the simulation worker a moment after the run: wait for it too.
  await figuresDrawn(page); // the figures below the fold too (drawn as they scroll in: scheduler.js `deferred`)
  await page.waitForFunction(() => !window.netcodeLab.app.pending && window.netcodeLab.app.scheduler.urlCaughtUp
    && document.getElementById('plot-sweep')?.dataset.sweep !== 'pending');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => {
    const model = window.netcodeLab.model();
    const frames = model.table('frames');
    let sum = 0;
    for (let i = 0; i < frames.view.length; i += 7) { const v = frames.view[i]; if (Number.isFinite(v)) sum = (sum * 31 + v * 1000) % 1e12; }
    const canvases = [...document.querySelectorAll('canvas')].map((c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let h = 0;
      for (let i = 0; i < data.length; i += 4) h = (h * 31 + data[i] + 3 * data[i + 1] + 5 * data[i + 2] + 7 * data[i + 3]) % 2147483647;
      return h;
    });
    return { runId: model.runId, metrics: JSON.stringify(model.metrics()), timeline: sum, canvases, hash: location.hash };
  });
}

/** A value different from the control's current one. */
async function otherValue(page, id) {
  return page.evaluate((id) => {
    const el = document.getElementById(`control-${id}`);
    if (el.type === 'checkbox') return !el.checked;
    if (el.tagName === 'SELECT') {
      const values = [...el.options].map((o) => o.value);
      return values[(values.indexOf(el.value) + 1) % values.length] === 'custom' ? values[2] : values[(values.indexOf(el.value) + 1) % values.length];
    }
    if (el.type === 'number') return String(Number(el.value) + 1);
    const [min, max, v] = [Number(el.min), Number(el.max), Number(el.value)];
    return String(Math.abs(max - v) > Math.abs(v - min) ? max : min);
  }, id);
}

/** What a reader sets first so that a control that depends on another is shown and enabled. */
function enablers(id) {
  if (id === 'maxExtrapolation') return [['capRule', 'maxExtrapolation']];
  if (id === 'pathSpeed') return [['withOffsets', false]];
  // Before the oldest snapshot happens in the first frames, while the smooth clock is still uncertain; the known
  // clock renders from the first frame, before the first snapshot has arrived.
  if (id === 'beforeOldest') return [['clock', 'known']];
  // Seed 001's hard snap needs both conditions: each threshold matters once the other one always holds.
  if (id === 'staleGap') return [['hardSnapDistance', 0]];
  if (id === 'hardSnapDistance') return [['staleGap', 0]];
  if (id === 'adaptiveMode') return [['adaptive', true]];
  // The log-normal tail's spread is read (and shown) only with that jitter model.
  if (id === 'jitterSigma') return [['jitterModel', 'logNormal']];
  if (id.startsWith('adaptive') && id !== 'adaptive') return [['adaptive', true], ['adaptiveMode', 'seed004']];
  return [];
}

/** Makes control `id` usable, through the controls it depends on (moved as a reader would). */
async function enable(page, id) {
  for (const [other, value] of enablers(id)) {
    const el = page.locator(`#control-${other}`);
    const type = await el.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : e.type));
    if (type === 'checkbox') await el.setChecked(value);
    else if (type === 'select') await el.selectOption(String(value));
    else { await el.fill(String(value)); await el.dispatchEvent('change'); }
    await freeze(page, 6);
  }
  const usable = await page.evaluate((id) => {
    const el = document.getElementById(`control-${id}`);
    return !el.disabled && !el.closest('.control').hidden;
  }, id);
  assert.ok(usable, `${id}: usable once ${JSON.stringify(enablers(id))}`);
}

test('the playground loads, draws every view and shows a status without console errors', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freeze(page, 5);
  for (const id of ['view-server', 'view-local', 'view-remote', 'lanes']) {
    const stats = await canvasStats(page, `#${id}`);
    assert.ok(stats.painted > stats.total * 0.01, `#${id}: ${stats.painted} of ${stats.total} pixels painted`);
  }
  assert.match(await page.textContent('#status'), /Ready|Underrun|Priming|Gap|Clock|Invalid/);
  await figuresDrawn(page); // the metrics table below the fold is filled as it comes near (or for a PNG, a print)
  assert.ok((await page.locator('#metrics-table tbody tr').count()) >= 8);
  await screenshot(page, 'playground');
  assert.deepEqual(problems(), []);
});

/** Controls whose effect this test's run never meets on screen (see the drawing check below). */
const INVISIBLE_HERE = ['beforeOldest'];

test('every control changes its readout, the re-simulated run and the drawing', async () => {
  // A slow send rate on a circle: linear and Hermite interpolation differ by pixels, not fractions of one.
  const { page, problems } = await openPage(browser, { path: '#loss=5&jitter=20&sendRate=8&motion=circle' });
  await waitReady(page);
  await freeze(page, 6);
  // The engines' settings change no pipeline of the run, only their engine's track: engines.test.mjs moves them.
  const ids = await page.$$eval('[data-control]', (els) => els.filter((e) => !e.closest('[data-group=engines]')).map((e) => e.dataset.control));
  assert.ok(ids.length >= 20, `${ids.length} controls`);
  for (const required of ['renderDelay', 'halfLife', 'loss', 'latency', 'jitter', 'sendRate', 'maxExtrapolation', 'lerpFactor', 'pathSpeed', 'fps']) {
    assert.ok(ids.includes(required), `a ${required} slider`);
    const label = await page.textContent(`label[for=control-${required}]`);
    assert.ok(label.trim().length > 0, `${required} has a label`);
  }
  for (const id of ids) {
    await enable(page, id);
    const beforeState = await fingerprint(page);
    const readoutBefore = await page.evaluate((id) => {
      const out = document.querySelector(`[data-control=${id}] output`);
      const el = document.getElementById(`control-${id}`);
      return `${out?.textContent ?? ''}|${el.type === 'checkbox' ? el.checked : el.value}`;
    }, id);
    const value = await otherValue(page, id);
    const el = page.locator(`#control-${id}`);
    const type = await el.evaluate((e) => (e.tagName === 'SELECT' ? 'select' : e.type));
    if (type === 'checkbox') await el.setChecked(value);
    else if (type === 'select') await el.selectOption(value);
    else { await el.fill(String(value)); await el.dispatchEvent('change'); }
    await freeze(page, 6);
    const afterState = await fingerprint(page);
    const readoutAfter = await page.evaluate((id) => {
      const out = document.querySelector(`[data-control=${id}] output`);
      const el = document.getElementById(`control-${id}`);
      return `${out?.textContent ?? ''}|${el.type === 'checkbox' ? el.checked : el.value}`;
    }, id);
    assert.notEqual(readoutAfter, readoutBefore, `${id}: the control shows the new value`);
    assert.ok(afterState.runId > beforeState.runId, `${id}: re-simulated`);
    assert.ok(afterState.metrics !== beforeState.metrics || afterState.timeline !== beforeState.timeline, `${id}: the run's numbers changed`);
    // Seed 000's before-the-oldest rule changes no frame of this run that the page draws (not one frame renders
    // before the oldest snapshot, and its delay sweep is identical): its numbers change, its pixels cannot (a
    // difference there would only be the previous control's delay sweep landing late between the two looks).
    if (!INVISIBLE_HERE.includes(id)) assert.notDeepEqual(afterState.canvases, beforeState.canvases, `${id}: the drawing changed`);
    if (id !== 'preset') assert.notEqual(afterState.hash, beforeState.hash, `${id}: the URL holds the change`);
    // The widest log-normal tail (σ 2) delays most snapshots past the render delay: every frame extrapolates and
    // the interpolation would change nothing. A reader tries it, then goes back to the uniform model.
    if (id === 'jitterSigma') {
      await page.locator('#control-jitterModel').selectOption('uniform');
      await freeze(page, 6);
    }
  }
  await screenshot(page, 'playground-all-controls-moved');
  assert.deepEqual(problems(), []);
});

test('a link with a configuration applies it', async () => {
  const { page, problems } = await openPage(browser, { path: '#renderDelay=250&loss=10&motion=circle&seed=7&t=3.5' });
  await waitReady(page);
  const params = await page.evaluate(() => window.netcodeLab.model().params);
  assert.equal(params.remote.clock.renderDelay, 0.25);
  assert.equal(params.network.downlink.loss, 0.1);
  assert.equal(params.network.uplink.loss, 0.1);
  assert.equal(params.scenario.motion, 'circle');
  assert.equal(params.seed, 7);
  assert.equal(await page.textContent('[data-control=renderDelay] output'), '250 ms');
  assert.equal(await page.inputValue('#control-motion'), 'circle');
  assert.deepEqual(problems(), []);
});

test('a link with garbage shows a notice and a working page', async () => {
  const { page, problems } = await openPage(browser, { path: '#renderDelay=banana&loss=999&foo=bar&motion=moon&seed=-4&stall=x' });
  await waitReady(page);
  await page.waitForSelector('#notice:not([hidden])');
  const notice = await page.textContent('#notice');
  for (const part of ['Render delay (behind server now) “banana”', 'Packet loss 999', 'unknown setting “foo”', 'Motion script “moon”', 'Seed -4', 'stall']) {
    assert.ok(notice.includes(part), `notice mentions ${part}: ${notice}`);
  }
  const params = await page.evaluate(() => window.netcodeLab.model().params);
  assert.equal(params.network.downlink.loss, 0.5, 'loss clamped to 50 %');
  assert.equal(params.remote.clock.renderDelay, 0.12, 'bad delay ignored: the default stays');
  const stats = await canvasStats(page, '#view-remote');
  assert.ok(stats.painted > 0);
  await screenshot(page, 'playground-garbage-url');
  assert.deepEqual(problems(), []);
});

test('a golden trace imports and replays in the views; the run exports as a trace', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.setInputFiles('#trace-file', 'tests/traces/seed-002.json');
  await page.waitForFunction(() => window.netcodeLab.model().imported);
  assert.match(await page.textContent('#notice'), /imported trace: 3 snapshots/);
  const at = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    app.seek(10.30);
    const model = app.model;
    return model.frameRow(model.frameAt(10.30));
  });
  assert.ok(Math.abs(at.x - 1.5) < 1e-9, `seed 002: x = 1.5 at local 10.30 (${at.x})`);
  assert.match(await page.textContent('#status'), /Ready/);
  const shown = await page.evaluate(() => window.netcodeLab.app.scheduler.painters[0].last);
  assert.equal(shown.server.rate, 10, 'the server view names the trace\'s rate (snapshots 0.1 s apart), not the simulation\'s 20 Hz');
  assert.equal(shown.local.empty, true, 'the local view says a trace has no local player');
  assert.doesNotMatch(await page.textContent('#notice'), /\.\./, 'one full stop after the trace\'s note');
  await screenshot(page, 'playground-imported-seed-002');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-snapshots')]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(exported.format, 'netcode-lab/trace@1');
  assert.equal(exported.snapshots.length, 3, 'the imported trace exports as itself');
  await page.locator('#control-renderDelay').fill('120');
  await page.waitForFunction(() => !window.netcodeLab.model().imported);
  const [sim] = await Promise.all([page.waitForEvent('download'), page.click('#export-snapshots')]);
  const simTrace = JSON.parse(readFileSync(await sim.path(), 'utf8'));
  assert.ok(simTrace.snapshots.length > 300, `${simTrace.snapshots.length} snapshots from a 20 s run`);
  assert.equal(simTrace.params.renderDelay, 0.12);
  assert.deepEqual(problems(), []);
});

test('a game\'s arrival log (CSV) imports like a trace, and the picked engines replay it', async () => {
  // 20 Hz for 4 s, each snapshot 80 ms late: 80 snapshots; frames every 1/60 s from 0.08 to 4.03 s (237 steps).
  const rows = Array.from({ length: 80 }, (_, k) => `${k},${(k * 0.05 + 0.08).toFixed(2)}`);
  const path = join(mkdtempSync(join(tmpdir(), 'netcode-lab-')), 'arrivals.csv');
  writeFileSync(path, `seq,arrival\n${rows.join('\n')}\n`);
  const { page, problems } = await openPage(browser, { path: '#engines=mirror' });
  await waitReady(page);
  await page.setInputFiles('#trace-file', path);
  await page.waitForFunction(() => window.netcodeLab.model().imported);
  assert.match(await page.textContent('#notice'), /imported trace: 80 snapshots, 238 frames/);
  const drawn = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    app.seek(3);
    app.draw();
    const index = app.model.frameAt(3);
    const mirror = app.model.engine('mirror');
    return {
      ghosts: app.scheduler.painters[0].last.remote.engines,
      x: mirror.rows[index * mirror.stride + mirror.col.x],
      rows: mirror.rows.length / mirror.stride,
      note: document.getElementById('engines-note').textContent,
    };
  });
  assert.equal(drawn.rows, 238, 'one row of the engine per frame of the log');
  assert.deepEqual(drawn.ghosts.map((g) => g.name), ['mirror']);
  assert.ok(Number.isFinite(drawn.x) && drawn.ghosts[0].x === drawn.x, `the ghost sits where the core put Mirror (${drawn.x})`);
  assert.match(drawn.note, /^Mirror/);
  assert.deepEqual(problems(), []);
});

test('time controls step, scrub and the keyboard steers the local player', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freeze(page, 2);
  await page.click('#step-frame');
  const t1 = await page.evaluate(() => window.netcodeLab.app.state.playhead);
  assert.ok(Math.abs(t1 - (2 + 1 / 60)) < 0.02, `one frame on: ${t1}`);
  await page.click('#step-back');
  await page.click('#step-tick');
  const t2 = await page.evaluate(() => window.netcodeLab.app.state.playhead);
  assert.ok(t2 > 2 && t2 <= 2.06, `next snapshot send at 20 Hz: ${t2}`);
  await page.evaluate(() => window.netcodeLab.app.seek(8.2));
  const localBefore = await canvasStats(page, '#view-local');
  await page.locator('#scrub').fill('7.5');
  assert.equal(await page.evaluate(() => window.netcodeLab.app.state.playhead), 7.5);
  assert.match(await page.textContent('#time'), /7\.500/);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.down('KeyD');
  await page.keyboard.up('KeyD');
  const script = await page.evaluate(() => window.netcodeLab.model().params.script);
  assert.ok(Array.isArray(script) && script.some((e) => e.keys.right), 'the key press is in the input script');
  await page.evaluate(() => window.netcodeLab.app.seek(8.2));
  const localAfter = await canvasStats(page, '#view-local');
  assert.notEqual(localAfter.checksum, localBefore.checksum);
  assert.deepEqual(problems(), []);
});

test('the status card says the buffer depth in snapshots and the clock\'s jumps (seeds 002 and 004)', async () => {
  // Known clock, a +100 ms jump of the client clock at 6 s: the render time leaps with no sample to blame.
  const { page, problems } = await openPage(browser, { path: '#clock=known&kick=6:0.1' });
  await waitReady(page);
  await freeze(page, 5);
  const depth = await page.$eval('#buffer-depth', (e) => ({ text: e.textContent, n: Number(e.dataset.buffered) }));
  assert.ok(depth.n >= 2 && depth.n <= 6, `snapshots held: ${depth.n}`);
  assert.match(depth.text, new RegExp(`^${depth.n} snapshots held · newest \\d+ ms ahead = [\\d.]+ send intervals = [\\d.]+ × delay · generation 0$`));
  // The jump log is the full core's (the simulation worker's answer on a run still on the first frame's core):
  // "computing…" until it is in (readouts.js `clockLine`).
  await page.waitForFunction(() => document.getElementById('clock-line').dataset.jumpsPending === undefined);
  assert.doesNotMatch(await page.textContent('#clock-line'), /last clock jump/, 'no jump before 6 s');
  await freeze(page, 7);
  const line = await page.textContent('#clock-line');
  assert.match(line, /offset ± 0\.0 ms · render-delay error 0\.0 ms/);
  // The client clock reads 6.1 s at the first frame after 6 s: the render time steps 100 ms + one frame.
  assert.match(line, /last clock jump at 6\.1\d s: offset 0\.0 ms → 0\.0 ms \(render 116\.7 ms\), no sample caused it, the client's own clock stepped/);
  // An underrun names the interpolation delay in force (seed 002).
  await page.locator('#control-renderDelay').fill('0');
  await freeze(page, 7);
  assert.equal(await page.getAttribute('#status', 'data-status'), 'underrun');
  assert.match(await page.textContent('#reason'), /past the newest snapshot \([\d.]+ s\); interpolation delay 0 ms( — .*Render delay.*)?$/);
  assert.deepEqual(problems(), []);
});

test('the clock plot draws the adaptive controller that is on; the network steps are disturbances', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await figuresDrawn(page); // the clock plot says which controller it drew once it has drawn (scheduler.js `deferred`)
  const controller = () => page.$eval('#plot-clock', (e) => e.dataset.controller);
  const checksum = async () => (await canvasStats(page, '#plot-clock .plot-static')).checksum;
  assert.equal(await controller(), 'fixed');
  await page.setChecked('#control-adaptive', true);
  await page.waitForFunction(() => document.getElementById('plot-clock').dataset.controller === 'jitter');
  assert.equal(await page.inputValue('#control-adaptiveMode'), 'jitter', 'the project\'s controller by default');
  assert.equal(await page.isVisible('#control-adaptiveThreshold'), false, 'seed 004\'s knobs only with its controller');
  const jitterDrawing = await checksum();
  await page.selectOption('#control-adaptiveMode', 'seed004');
  await page.waitForFunction(() => document.getElementById('plot-clock').dataset.controller === 'seed004');
  assert.equal(await page.isVisible('#control-adaptiveThreshold'), true);
  assert.match(await page.textContent('#plot-clock .plot-legend'), /seed 004 smoothed RTT/);
  assert.notEqual(await checksum(), jitterDrawing, 'another controller, another drawing');
  await freeze(page, 3);
  await page.click('#event-rtt-step');
  await page.waitForFunction(() => /net=3:0.05:0/.test(decodeURIComponent(location.hash)));
  assert.match(await page.textContent('#events-status'), /network at 3\.00 s: RTT \+100 ms, jitter \+0 ms/);
  const p = await page.evaluate(() => window.netcodeLab.model().params);
  assert.deepEqual([p.events.linkStepAt, p.events.linkStepLatency, p.events.linkStepJitter], [3, 0.05, 0]);
  const rtt = await page.evaluate(() => window.netcodeLab.model().metrics().clock.rtt);
  assert.ok(rtt > 0.15 && rtt < 0.25, `the RTT measured by the pings rose: ${rtt}`);
  assert.deepEqual(problems(), []);
});
