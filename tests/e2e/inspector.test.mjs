// The packet inspector: pointing at, tapping or keying to a snapshot on the lanes lights up its chain
// (send ■ → arrival ○ → its ■ on the render lane, and the same ■ in the Server and Remote views) and says its
// numbers under the lanes; the pin is a tick, so it survives a slider change; a lost packet says so;
// the arrow keys pick packets instead of steering while the lanes have focus; Esc lets go.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function openPaused(path = '', at = 6) {
  const opened = await openPage(browser, { path });
  await waitReady(opened.page);
  await opened.page.evaluate((t) => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    app.seek(t);
  }, at);
  return opened;
}

/** Where snapshot row `which` (a function of the table, returning a row) is drawn on the lanes, in page px. */
async function packetOnLanes(page, which) {
  const spot = await page.evaluate((source) => {
    const app = window.netcodeLab.app;
    const { layout: L, window: [t0, t1] } = app.scheduler.painters[1].last;
    const snaps = app.model.table('snapshots');
    const at = (i, name) => snaps.view[i * snaps.stride + snaps.col[name]];
    const i = new Function('snaps', 'at', 't0', 't1', `return (${source})(snaps, at, t0, t1);`)(snaps, at, t0, t1);
    const X = (t) => L.left + ((t - t0) / (t1 - t0)) * (L.right - L.left);
    return { i, tick: at(i, 'tick'), sent: at(i, 'sent'), arrival: at(i, 'arrival'), x: X(at(i, 'sent')), y: L.y.send };
  }, which.toString());
  const box = await page.locator('#lanes').boundingBox();
  return { ...spot, px: box.x + spot.x, py: box.y + spot.y, box };
}

const sentBefore = (t) => `(snaps, at) => { let i = 0; while (i + 1 < snaps.rows && at(i + 1, 'sent') <= ${t}) i++; return i; }`;
const inspector = (page) => page.textContent('#inspector');
const drawn = (page) => page.evaluate(() => {
  const [views, lanes] = window.netcodeLab.app.scheduler.painters;
  return { lanes: lanes.last.inspected, server: views.last.server.highlight, remote: views.last.remote.highlight };
});

test('pointing at a packet lights up its chain and says its numbers; a tap pins it', async () => {
  const { page, problems } = await openPaused();
  assert.match(await inspector(page), /Point at a packet/);
  const p = await packetOnLanes(page, sentBefore(5.6));
  await page.mouse.move(p.px, p.py);
  await page.waitForFunction((tick) => document.getElementById('inspector').dataset.tick === String(tick), p.tick);
  const text = await inspector(page);
  const oneWay = Math.round((p.arrival - p.sent) * 1000);
  assert.match(text, new RegExp(`tick ${p.tick} · sent ${p.sent.toFixed(3)} s · arrived ${p.arrival.toFixed(3)} s \\(one-way ${oneWay} ms = 50 base [+−]\\d+ jitter\\)`));
  // Render delay 120 ms: the render time reaches its server time ~120 ms after it was sent.
  const played = Number(/played at ([\d.]+) s after (\d+) ms/.exec(text)?.[1]);
  assert.ok(Math.abs(played - (p.sent + 0.12)) < 0.02, `played at ${played}, sent ${p.sent}`);
  const d = await drawn(page);
  assert.equal(d.lanes.tick, p.tick);
  assert.ok(Math.abs(d.lanes.sent - p.x) < 0.5 && d.lanes.render !== null && !d.lanes.lost);
  assert.equal(d.server?.tick, p.tick, 'the Server view marks the same snapshot');
  assert.equal(d.remote?.tick, p.tick, 'the Remote view marks the same snapshot');
  for (const r of d.lanes.tags) assert.ok(r.x >= 0 && r.x + r.w <= p.box.width && r.y >= 0 && r.y + r.h <= p.box.height, `tag inside the lanes: ${JSON.stringify(r)}`);
  await screenshot(page, 'inspector-hover');

  await page.mouse.move(p.box.x + 4, p.box.y + p.box.height - 4);
  await page.waitForFunction(() => document.getElementById('inspector').dataset.tick === '');
  assert.match(await inspector(page), /Point at a packet/, 'hover alone does not pin');
  await page.mouse.click(p.px, p.py);
  await page.mouse.move(p.box.x + 4, p.box.y + p.box.height - 4);
  await page.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal(await page.getAttribute('#inspector', 'data-tick'), String(p.tick), 'a tap pins it');
  assert.deepEqual(problems(), []);
});

test('the arrow keys walk the packets while the lanes have focus, the pin survives a slider, Esc lets go', async () => {
  const { page, problems } = await openPaused();
  const scriptBefore = await page.evaluate(() => JSON.stringify(window.netcodeLab.model().params.script ?? null));
  await page.locator('#lanes').focus();
  await page.keyboard.press('ArrowRight');
  const first = Number(await page.getAttribute('#inspector', 'data-tick'));
  const p = await packetOnLanes(page, sentBefore(6));
  assert.equal(first, p.tick, 'the first key picks the newest packet sent by the playhead');
  const every = await page.evaluate(() => { const s = window.netcodeLab.model().params.scenario; return Math.round(s.tickRate / s.sendRate); });
  await page.keyboard.press('ArrowRight');
  assert.equal(Number(await page.getAttribute('#inspector', 'data-tick')), first + every, 'next packet');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(Number(await page.getAttribute('#inspector', 'data-tick')), first - every, 'previous packet');
  assert.equal(await page.evaluate(() => JSON.stringify(window.netcodeLab.model().params.script ?? null)), scriptBefore, 'the arrows did not steer the player');

  const before = await inspector(page);
  await page.evaluate(() => {
    const input = document.getElementById('control-jitter');
    input.value = '60';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => window.netcodeLab.model().params.network.downlink.jitter === 0.06);
  await page.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal(Number(await page.getAttribute('#inspector', 'data-tick')), first - every, 'the same packet after the change');
  const after = await inspector(page);
  assert.notEqual(after, before, 'its arrival changed with the jitter');
  assert.match(after, /sent /);

  await page.locator('#lanes').focus();
  await page.keyboard.press('Escape');
  assert.equal(await page.getAttribute('#inspector', 'data-tick'), '');
  assert.match(await inspector(page), /Point at a packet/);
  assert.deepEqual(problems(), []);
});

test('a lost packet says the buffer never sees it; the step-through silences the inspector; zh', async () => {
  const { page, problems } = await openPaused('#loss=30', 6);
  await page.waitForFunction(() => window.netcodeLab.model().params.network.downlink.loss === 0.3);
  await page.evaluate(() => window.netcodeLab.app.seek(6));
  const lost = await packetOnLanes(page, `(snaps, at, t0) => { for (let i = snaps.rows - 1; i >= 0; i--) if (Number.isNaN(at(i, 'arrival')) && at(i, 'sent') < 5.9 && at(i, 'sent') > t0 + 0.1) return i; return -1; }`);
  assert.ok(lost.i >= 0, 'a lost packet in the window');
  await page.mouse.click(lost.px, lost.py);
  await page.evaluate(() => new Promise(requestAnimationFrame));
  assert.match(await inspector(page), new RegExp(`tick ${lost.tick} · sent ${lost.sent.toFixed(3)} s · lost on the way`));
  const shown = await drawn(page);
  assert.equal(shown.lanes.lost, true);
  assert.equal(shown.server?.tick, lost.tick, 'the Server view shows where it was sent from');
  assert.equal(shown.remote, null, 'the Remote view has nothing to mark: the client never had it');
  await screenshot(page, 'inspector-lost');

  await page.click('#lang-zh');
  await page.evaluate(() => new Promise(requestAnimationFrame));
  const zh = await inspector(page);
  assert.match(zh, new RegExp(`快照 Tick ${lost.tick} · 发送于 ${lost.sent.toFixed(3)} s · 途中丢失`));
  assert.doesNotMatch(zh.replace(/Tick|ms|\bs\b/g, ''), /[A-Za-z]{2,}/, `no English left: ${zh}`);

  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  await page.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal(await page.getAttribute('#inspector', 'data-tick'), '', 'the step-through owns the highlight');
  assert.equal((await drawn(page)).lanes, null);
  assert.deepEqual(problems(), []);
});
