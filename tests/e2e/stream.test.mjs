// The snapshot stream of `netcode-lab serve` from a real browser, on both channels: the page's origin is the
// product's server (xtask's end-to-end stage runs it), a WebSocket at /stream/ws and an unreliable, unordered
// WebRTC data channel signalled over POST /stream/rtc. On loopback nothing is lost: every snapshot of a 2 s
// stream at 30 Hz arrives, ticks 0..59, each carrying the server time tick / 30, then `end` says 60 were sent.
// Red: a server without the stream (xtask serving the folder alone), an answer the browser cannot take, a
// channel opened ordered or reliable, the server's ticks or times off by one, or a console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Runs a 2 s, 30 Hz stream in the page over `channel` and returns what arrived. */
async function stream(page, channel) {
  return page.evaluate(async (channel) => {
    const got = [];
    let settings = null;
    const finished = (resolve) => (event) => {
      got.push(JSON.parse(event.data));
      if (got.at(-1).type === 'end' || got.at(-1).type === 'error') resolve();
    };
    const start = JSON.stringify({ type: 'start', rate: 30, seconds: 2 });
    const timeout = (resolve) => setTimeout(resolve, 15000);
    if (channel === 'websocket') {
      const ws = new WebSocket(new URL('stream/ws', document.baseURI.replace(/^http/, 'ws')).href);
      await new Promise((resolve) => { ws.onmessage = finished(resolve); ws.onopen = () => ws.send(start); timeout(resolve); });
      ws.close();
    } else {
      const pc = new RTCPeerConnection();
      const ch = pc.createDataChannel('stream', { ordered: false, maxRetransmits: 0 });
      settings = { ordered: ch.ordered, maxRetransmits: ch.maxRetransmits };
      const done = new Promise((resolve) => { ch.onmessage = finished(resolve); ch.onopen = () => ch.send(start); timeout(resolve); });
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') resolve(); };
      });
      const response = await fetch(new URL('stream/rtc', document.baseURI), { method: 'POST', body: JSON.stringify(pc.localDescription) });
      const answer = await response.json();
      if (!response.ok) return { got: [{ type: 'error', message: answer.error }], settings };
      await pc.setRemoteDescription(answer);
      await done;
      pc.close();
    }
    return { got, settings };
  }, channel);
}

for (const channel of ['websocket', 'webrtc']) {
  test(`a 2 s, 30 Hz stream over ${channel} arrives whole on loopback`, async () => {
    const { page, problems } = await openPage(browser);
    const { got, settings } = await stream(page, channel);
    const kinds = got.map((m) => m.type);
    assert.equal(kinds[0], 'hello', JSON.stringify(got.slice(0, 2)));
    assert.equal(got[0].sendInterval, 1 / 30);
    assert.deepEqual(got[0].motion, { script: 'turns', speed: 120 });
    const snapshots = got.filter((m) => m.type === 'snapshot').sort((a, b) => a.tick - b.tick);
    assert.deepEqual(snapshots.map((s) => s.tick), [...Array(60).keys()]);
    for (const s of snapshots) assert.ok(Math.abs(s.serverTime - s.tick / 30) < 1e-12, `tick ${s.tick}: ${s.serverTime}`);
    // The turns loop starts at (−110, −60) heading +x at 120 units/s: tick 3 (0.1 s) is at x = −98.
    assert.ok(Math.abs(snapshots[3].x - -98) < 1e-9 && snapshots[3].y === -60, JSON.stringify(snapshots[3]));
    assert.deepEqual(got.at(-1), { type: 'end', sent: 60 });
    if (channel === 'webrtc') assert.deepEqual(settings, { ordered: false, maxRetransmits: 0 });
    assert.deepEqual(problems(), []);
    await page.close();
  });
}

test('the server refuses a bad offer by name', async () => {
  const { page, problems } = await openPage(browser);
  const answers = await page.evaluate(async () => {
    const post = async (body) => {
      const r = await fetch(new URL('stream/rtc', document.baseURI), { method: 'POST', body });
      return [r.status, (await r.json()).error];
    };
    return [await post('garbage'), await post('{"type":"offer"}'), await post('{"type":"offer","sdp":"v=0"}')];
  });
  assert.equal(answers[0][0], 400);
  assert.match(answers[0][1], /^offer: not JSON/);
  assert.deepEqual(answers[1], [400, 'offer: `sdp` missing (post the RTCSessionDescription)']);
  assert.equal(answers[2][0], 400);
  assert.match(answers[2][1], /^offer: `sdp` does not parse/);
  // fetch logs a failed (4xx) request as a console error: those three are expected here.
  assert.ok(problems().every((p) => /status of 400/.test(p)), problems().join('\n'));
  await page.close();
});
