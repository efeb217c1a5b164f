// The three world views (Server · Local · Remote) and the timeline lanes of the playground page:
// painted, legends filled, answering the controls that change them (packet loss, render delay, the
// keyboard), legible at 1280×800, on a 420 px phone and in dark mode, without console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, canvasStats, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const CANVASES = ['#view-server', '#view-local', '#view-remote', '#lanes'];

/** Pauses the page and puts the playhead at `t` seconds, so what is drawn is deterministic. */
async function freezeAt(page, t) {
  await page.evaluate((at) => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    app.seek(at);
  }, t);
}

/** What the views and lanes painters report they drew last (counts, statuses). */
async function drawn(page) {
  return page.evaluate(() => {
    const [views, lanes] = window.netcodeLab.app.scheduler.painters;
    return { views: views.last, lanes: lanes.last };
  });
}

async function statsOf(page) {
  const out = {};
  for (const sel of CANVASES) out[sel] = await canvasStats(page, sel);
  return out;
}

test('the three views and the lanes are painted, with their legends', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freezeAt(page, 6);
  const stats = await statsOf(page);
  for (const sel of CANVASES) {
    const s = stats[sel];
    assert.ok(s.painted > s.total * 0.04, `${sel}: only ${s.painted} of ${s.total} pixels painted`);
  }
  for (const name of ['server', 'local', 'remote']) {
    const keys = await page.locator(`#legend-${name} .k`).count();
    assert.ok(keys >= 3, `#legend-${name} has ${keys} keys`);
  }
  const { views, lanes } = await drawn(page);
  assert.ok(views.server.sent >= 15, `server view shows ${views.server.sent} recent sends`);
  assert.equal(views.server.lost, 0, 'no loss by default');
  assert.ok(['ready', 'underrun'].includes(views.remote.status), `remote status ${views.remote.status}`);
  assert.ok(lanes.sent >= 30 && lanes.arrived >= 25, `lanes: ${lanes.sent} sent, ${lanes.arrived} arrived`);
  assert.equal(lanes.lost, 0);
  assert.ok(Math.abs(lanes.delay - 0.12) < 1e-9, `render delay ${lanes.delay}`);
  assert.ok(Math.abs(lanes.cursor - (6 - 0.12)) < 0.02, `render cursor at ${lanes.cursor} on the local axis`);
  assert.equal(lanes.wide, true);
  assert.deepEqual(lanes.bracket, [views.remote.left, views.remote.right], 'lanes and Remote view ring the same two snapshots');
  assert.ok(lanes.bracket[0] !== null, 'a snapshot at or before the render time is ringed');
  await screenshot(page, 'views-default');
  assert.deepEqual(problems(), []);
});

test('high packet loss changes the server view and the lanes: lost ✕ appear', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freezeAt(page, 6);
  const before = await statsOf(page);
  await page.locator('#control-loss').fill('40');
  await freezeAt(page, 6);
  const after = await statsOf(page);
  assert.notEqual(after['#view-server'].checksum, before['#view-server'].checksum, 'the server view did not change');
  assert.notEqual(after['#lanes'].checksum, before['#lanes'].checksum, 'the lanes did not change');
  const { views, lanes } = await drawn(page);
  assert.ok(views.server.lost >= 3, `server view marks ${views.server.lost} lost snapshots`);
  assert.ok(lanes.lost >= 5, `lanes mark ${lanes.lost} lost packets`);
  await screenshot(page, 'views-loss');
  assert.deepEqual(problems(), []);
});

test('moving the render delay moves the render cursor and its bracket on the lanes', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freezeAt(page, 6);
  const before = await canvasStats(page, '#lanes');
  await page.locator('#control-renderDelay').fill('250');
  await freezeAt(page, 6);
  const after = await canvasStats(page, '#lanes');
  assert.notEqual(after.checksum, before.checksum, 'the lanes did not change');
  const { lanes } = await drawn(page);
  assert.ok(Math.abs(lanes.delay - 0.25) < 1e-9, `render delay ${lanes.delay}`);
  assert.ok(Math.abs(lanes.cursor - (6 - 0.25)) < 0.02, `render cursor at ${lanes.cursor}`);
  assert.ok(lanes.depth > 0.05, `a long delay leaves runway (${lanes.depth} s)`);
  await screenshot(page, 'views-delay-250');
  assert.deepEqual(problems(), []);
});

test('pressing D steers the local player: the local view changes', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await freezeAt(page, 6.6);
  const before = await canvasStats(page, '#view-local');
  const beforeX = (await drawn(page)).views.local.predicted;
  await freezeAt(page, 6);
  await page.locator('#view-local').click();
  await page.keyboard.down('KeyD');
  await freezeAt(page, 6.6);
  await page.keyboard.up('KeyD');
  await freezeAt(page, 6.6);
  const after = await canvasStats(page, '#view-local');
  const afterX = (await drawn(page)).views.local.predicted;
  assert.notEqual(after.checksum, before.checksum, 'the local view did not change');
  assert.notDeepEqual(afterX, beforeX, 'the predicted position did not move');
  await screenshot(page, 'views-keyboard');
  assert.deepEqual(problems(), []);
});

test('legible on a 420 px phone and in dark mode', async () => {
  const narrow = await openPage(browser, { viewport: { width: 420, height: 900 } });
  await waitReady(narrow.page);
  await freezeAt(narrow.page, 6);
  for (const sel of CANVASES) {
    const box = await narrow.page.locator(sel).boundingBox();
    assert.ok(box.width <= 420 && box.width > 300, `${sel} is ${box.width} px wide`);
    const s = await canvasStats(narrow.page, sel);
    assert.ok(s.painted > s.total * 0.03, `${sel} narrow: ${s.painted} of ${s.total} painted`);
  }
  const lanesBox = await narrow.page.locator('#lanes').boundingBox();
  assert.ok(lanesBox.height >= 180, `narrow lanes are ${lanesBox.height} px tall`);
  assert.equal((await drawn(narrow.page)).lanes.wide, false);
  await screenshot(narrow.page, 'views-narrow');
  assert.deepEqual(narrow.problems(), []);

  const dark = await openPage(browser, { before: (p) => p.emulateMedia({ colorScheme: 'dark' }) });
  await waitReady(dark.page);
  await freezeAt(dark.page, 6);
  for (const sel of CANVASES) {
    const s = await canvasStats(dark.page, sel);
    assert.ok(s.painted > s.total * 0.04, `${sel} dark: ${s.painted} of ${s.total} painted`);
  }
  await screenshot(dark.page, 'views-dark');
  assert.deepEqual(dark.problems(), []);
});

test('drawing the views and lanes stays cheap (median well under 4 ms per frame)', async () => {
  const { page, problems } = await openPage(browser, { path: '#loss=20&jitter=40' });
  await waitReady(page);
  const times = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    const [views, lanes] = app.scheduler.painters;
    const model = app.model;
    const theme = { ink: '#1b1d21', muted: '#5d636e', line: '#d9dce1', panel: '#f4f5f7', paper: '#ffffff', truth: '#000000', dark: false };
    const out = [];
    for (let k = 0; k < 300; k++) {
      const t = 2 + k * 0.05;
      const frames = model.table('frames');
      const index = model.frameAt(t, frames);
      const scene = { model, frames, index, frame: null, playhead: t, theme, runChanged: false, state: app.state };
      const started = performance.now();
      views.draw(scene);
      lanes.draw(scene);
      out.push(performance.now() - started);
    }
    return out.sort((a, b) => a - b);
  });
  const median = times[Math.floor(times.length / 2)];
  assert.ok(median < 4, `median draw ${median.toFixed(2)} ms`);
  assert.deepEqual(problems(), []);
});
