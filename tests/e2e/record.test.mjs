// "Record my network" for real: against a running `netcode-lab serve` (NETCODE_LAB_URL), a link records the
// server's snapshot stream, the recording becomes the network on the page (as an imported trace), and it is
// still listed after a reload. A server without the stream fails these tests: nothing here is skipped.
// Red: the worker not sending `start` or not stamping arrivals (no snapshots), the trace refused by the core
// (nothing imported), the import path not reused (the notice and `imported` missing), IndexedDB not written (the
// list empty after the reload), a console error anywhere, the WebRTC offer never posted or its answer ignored, the
// data channel ordered or retransmitting.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { launch, openPage, waitReady, BASE_URL } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const SHOTS = process.env.NETCODE_LAB_SHOTS; // a folder for the panel's pictures (idle and recording), when set

/** The link that records `seconds` at `rate` over `channel` at once. */
const link = ({ channel, rate, seconds }) => `#lang=en&record=${channel}&rate=${rate}&seconds=${seconds}&autostart=1`;

/** Waits for the recording the page was opened with; returns what the page shows once it is over. */
async function recorded(page, { seconds, shot }) {
  await waitReady(page);
  await page.waitForFunction(() => document.documentElement.dataset.recording !== undefined, null, { timeout: 30000 });
  if (shot) {
    await page.waitForFunction(() => Number(document.documentElement.dataset.recordedSnapshots) > 30, null, { timeout: 30000 });
    await page.locator('#recorder').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/record-${shot}-recording.png` });
  }
  await page.waitForFunction(() => document.documentElement.dataset.recording !== 'running', null, { timeout: (seconds + 30) * 1000 });
  return page.evaluate(() => ({
    state: document.documentElement.dataset.recording,
    snapshots: Number(document.documentElement.dataset.recordedSnapshots),
    notice: document.getElementById('notice').textContent,
    imported: window.netcodeLab.model().imported,
    exported: window.netcodeLab.model().exportTrace('snapshots'),
    listed: [...document.querySelectorAll('#record-list li')].map((li) => li.textContent.replace(/\s+/g, ' ').trim()),
    window: [window.netcodeLab.model().start, window.netcodeLab.model().end],
  }));
}

/**
 * Whether the trace's clock offset agrees with its arrivals on one machine: with `server = local + clockOffset`,
 * no snapshot arrives before it was sent (beyond 10 ms: the offset is known to ±rtt/2, a few ms on loopback) and
 * the fastest takes under 50 ms. A wrong sign, the send time taken for the receive time, or an offset from another
 * clock breaks one or the other.
 */
function oneWay(trace) {
  const delays = trace.snapshots.map((s) => s.arrival + trace.params.clockOffset - s.serverTime);
  const fastest = Math.min(...delays);
  return fastest >= -0.01 && fastest < 0.05 ? { ok: true } : { fastest, clockOffset: trace.params.clockOffset };
}

/** What every recording of `seconds` at `rate` on this machine must show. */
function checkRecording(found, { channel, rate, seconds }) {
  assert.equal(found.state, 'done', found.notice);
  // Sent: rate × seconds. On loopback nearly all arrive; 290 of 300 leaves room for a slow start, not for a
  // recorder that drops or never stamps them.
  assert.ok(found.snapshots >= rate * seconds - 10, `${found.snapshots} snapshots arrived`);
  assert.equal(found.imported, true, 'the recording is the network shown');
  const [, snapshots] = found.notice.match(/Showing an imported trace: (\d+) snapshots/) ?? [];
  assert.equal(Number(snapshots), found.snapshots, found.notice);
  assert.match(found.notice, new RegExp(`over (a WebSocket|a WebRTC data channel).* at ${rate} Hz for ${seconds} s`));
  // The trace as recorded: the send interval, frames every 1/60 s over about `seconds`, the offset measured.
  const trace = JSON.parse(found.exported);
  assert.equal(trace.params.sendInterval, 1 / rate);
  assert.ok(Math.abs(trace.sampleAt.length - seconds * 60) <= 60, `${trace.sampleAt.length} frames`);
  assert.deepEqual(oneWay(trace), { ok: true }, 'the clock offset measured');
  assert.ok(trace.rtt.length >= seconds * 3, `${trace.rtt.length} RTT samples at ~4 per second`);
  assert.ok(trace.snapshots.every((s, i) => i === 0 || s.arrival >= trace.snapshots[i - 1].arrival), 'arrivals in order of arrival');
  assert.equal(found.listed.length, 1, found.listed.join(' | '));
  assert.match(found.listed[0], new RegExp(`${channel === 'webrtc' ? 'WebRTC' : 'WebSocket'} ${rate} Hz`));
}

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`${name}: a link records 10 s over a WebSocket at 30 Hz, shows it and keeps it across a reload`, async () => {
    const size = `${viewport.width}x${viewport.height}`;
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      const { page } = await openPage(browser, { viewport, path: '#lang=en' });
      await waitReady(page);
      await page.evaluate(() => { document.querySelector('#recorder details').open = true; });
      await page.locator('#recorder').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/record-${size}-idle.png` });
      await page.close();
    }
    const settings = { channel: 'websocket', rate: 30, seconds: 10 };
    const { page, problems } = await openPage(browser, { viewport, path: link(settings) });
    const found = await recorded(page, { ...settings, shot: SHOTS && size });
    checkRecording(found, settings);
    if (SHOTS) {
      await page.locator('#recorder').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/record-${size}-done.png` });
    }
    // The lanes draw the recording: the imported trace's window (its frames span the arrivals), not the 20 s run.
    const span = found.window[1] - found.window[0];
    assert.ok(span > 9 && span < 11, `window ${found.window}`);
    await page.goto(new URL('#lang=en', BASE_URL).href);
    await page.reload();
    await waitReady(page);
    await page.waitForFunction(() => document.querySelectorAll('#record-list li').length > 0, null, { timeout: 10000 });
    const kept = await page.$$eval('#record-list li', (items) => items.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
    assert.deepEqual(kept, found.listed, 'the same recording, listed after a reload');
    // Loaded from the list, it is the network shown again.
    await page.evaluate(() => { document.querySelector('#recorder details').open = true; });
    await page.click('#record-list .record-load');
    await page.waitForFunction(() => window.netcodeLab.model().imported, null, { timeout: 10000 });
    assert.match(await page.textContent('#notice'), new RegExp(`Showing an imported trace: ${found.snapshots} snapshots`));
    assert.deepEqual(problems(), []);
    await page.close();
  });
}

test('WebRTC: a link records 10 s over an unordered data channel at 30 Hz', async () => {
  const settings = { channel: 'webrtc', rate: 30, seconds: 10 };
  const { page, problems } = await openPage(browser, { path: link(settings) });
  const found = await recorded(page, settings);
  checkRecording(found, settings);
  assert.deepEqual(problems(), []);
  await page.close();
});

test('Cancel stops the stream early: what arrived is shown and kept, marked partial', async () => {
  const settings = { channel: 'websocket', rate: 30, seconds: 30 };
  const { page, problems } = await openPage(browser, { path: link(settings) });
  await waitReady(page);
  await page.waitForFunction(() => Number(document.documentElement.dataset.recordedSnapshots) >= 60, null, { timeout: 30000 });
  await page.click('#record-cancel');
  await page.waitForFunction(() => document.documentElement.dataset.recording !== 'running', null, { timeout: 30000 });
  const found = await page.evaluate(() => ({
    state: document.documentElement.dataset.recording,
    snapshots: Number(document.documentElement.dataset.recordedSnapshots),
    notice: document.getElementById('notice').textContent,
    exported: window.netcodeLab.model().exportTrace('snapshots'),
    listed: [...document.querySelectorAll('#record-list li')].map((li) => li.textContent.replace(/\s+/g, ' ').trim()),
  }));
  assert.equal(found.state, 'cancelled');
  // Cancelled after about 2 of 30 s: far fewer than the 900 sent by the end, at least the 60 waited for.
  assert.ok(found.snapshots >= 60 && found.snapshots < 300, `${found.snapshots} snapshots`);
  assert.match(found.notice, /^Recording cut short \(cancelled\)/);
  assert.match(found.notice, new RegExp(`Showing an imported trace: ${found.snapshots} snapshots`));
  assert.match(JSON.parse(found.exported).note, /; partial: cancelled\.$/);
  assert.equal(found.listed.length, 1);
  assert.match(found.listed[0], /partial/);
  assert.deepEqual(problems(), []);
  await page.close();
});

test('a link with a wrong channel or rate says so in the panel, sets what it can and records nothing without autostart', async () => {
  const { page, problems } = await openPage(browser, { path: '#lang=en&record=pigeon&rate=500&seconds=20' });
  await waitReady(page);
  await page.waitForFunction(() => /Ignored record/.test(document.getElementById('record-link')?.textContent), null, { timeout: 10000 });
  const found = await page.evaluate(() => ({
    notice: document.getElementById('record-link').textContent,
    channel: document.getElementById('record-channel').value,
    rate: document.getElementById('record-rate').value,
    seconds: document.getElementById('record-seconds').value,
    open: document.querySelector('#recorder details').open,
    recording: document.documentElement.dataset.recording,
  }));
  assert.match(found.notice, /Ignored record “pigeon”: not one of websocket, webrtc\./);
  assert.match(found.notice, /Send rate 500 is outside 10–128; using 128\./);
  assert.deepEqual([found.channel, found.rate, found.seconds, found.open, found.recording], ['websocket', '128', '20', true, undefined]);
  assert.deepEqual(problems(), []);
  await page.close();
});

/**
 * Runs in a second page, in the server's place: answers `offer` and streams `{rate, seconds}` on the data channel it
 * is given — snapshot `k` at `k / rate` s, every 37th from tick 5 withheld (lost) — answering pings. Resolves with
 * the answer's SDP once its ICE gathering is complete.
 */
async function answerInPage(offer) {
  const pc = new RTCPeerConnection({ iceServers: [] });
  window.answerer = pc;
  pc.ondatachannel = ({ channel }) => {
    window.channelSeen = { label: channel.label, ordered: channel.ordered, maxRetransmits: channel.maxRetransmits };
    const start = performance.now();
    const now = () => (performance.now() - start) / 1000;
    channel.onmessage = ({ data }) => {
      const m = JSON.parse(data);
      if (m.type === 'ping') channel.send(JSON.stringify({ type: 'pong', id: m.id, clientTime: m.clientTime, serverTime: now() }));
      if (m.type !== 'start') return;
      channel.send(JSON.stringify({ type: 'hello', rate: m.rate, seconds: m.seconds, sendInterval: 1 / m.rate, motion: { script: 'turns', speed: 120 }, serverTime: 0 }));
      let tick = 0;
      const total = m.rate * m.seconds;
      const timer = setInterval(() => {
        for (; tick < total && tick / m.rate <= now(); tick += 1) {
          if (tick % 37 !== 5) channel.send(JSON.stringify({ type: 'snapshot', tick, serverTime: tick / m.rate, x: tick, y: 0, vx: m.rate, vy: 0, generation: 0 }));
        }
        if (tick < total) return;
        clearInterval(timer);
        channel.send(JSON.stringify({ type: 'end', sent: total }));
      }, 5);
    };
  };
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  await new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') resolve();
    pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
  });
  return pc.localDescription.sdp;
}

test('the page\'s WebRTC client: its offer posted, the answer applied, the unordered channel recorded (a page answers)', async () => {
  // The server's half of WebRTC played by a second page, so the client is held to the protocol on its own.
  const context = await browser.newContext();
  const answerer = await context.newPage();
  await answerer.goto(new URL('embed-demo.html', BASE_URL).href);
  const { page, problems } = await openPage(browser, {
    path: link({ channel: 'webrtc', rate: 30, seconds: 10 }),
    before: (p) => p.route('**/stream/rtc', async (route) => {
      const posted = JSON.parse(route.request().postData());
      assert.match(posted.sdp, /a=candidate:/, 'the offer is sent once its candidates are gathered');
      const sdp = await answerer.evaluate(answerInPage, posted.sdp);
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ sdp }) });
    }),
  });
  const found = await recorded(page, { seconds: 10 });
  assert.equal(found.state, 'done', found.notice);
  assert.deepEqual(await answerer.evaluate(() => window.channelSeen), { label: 'stream', ordered: false, maxRetransmits: 0 });
  // 300 sent (ticks 0–299); 5 + 37k ≤ 299 for k = 0…7: 8 withheld (5, 42, …, 264), 292 arrive, 8 lost once
  // the server said it sent 300.
  assert.equal(found.snapshots, 292);
  assert.match(found.listed[0], /WebRTC 30 Hz.*arrived 292, lost 8/);
  assert.match(found.notice, /over a WebRTC data channel \(unordered, no retransmits\) at 30 Hz for 10 s/);
  const trace = JSON.parse(found.exported);
  assert.deepEqual(trace.snapshots.filter((s) => s.tick % 37 === 5), []);
  assert.deepEqual(oneWay(trace), { ok: true }, 'the clock offset measured');
  assert.deepEqual(problems(), []);
  await page.close();
  await context.close();
});
