// The recorder's pure half (www/js/record-core.js) without a browser: the stream's messages checked, the counts,
// the clock offset from the shortest round trip, the trace it builds (read back by the real core: the wasm build's
// `prepareImport`, the page's own import), a link's settings, and the URL keys it adds to params.js.
// Red: a count off by one or counting a duplicate as out of order, a late margin taken inclusive, the offset taken
// from the latest ping instead of the shortest, the sample grid one frame short, a message with a missing or
// non-finite field accepted, a link's rate not clamped, `rate` read as a setting without `record`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { countArrivals, readMessage, recordSettings, reasonText, Recording, REASONS, RATE, SECONDS } from '../../www/js/record-core.js';
import EN_LATER from '../../www/js/strings/strings-later-en.js';
import ZH_LATER from '../../www/js/strings/strings-later-zh.js';
import { parseHash } from '../../www/js/params.js';

const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} vs ${b}`);

test('counts: lost below the newest tick, late past 100 ms over the fastest so far, out of order, duplicates', () => {
  // Ticks every 0.1 s of server time; each arrives `delay` after it (the smallest, 0.05 s, is the reference).
  const rows = [[0, 0.05], [1, 0.05], [3, 0.05], [2, 0.2], [6, 0.05], [6, 0.3], [4, 0.16]];
  const arrivals = rows.map(([tick, delay]) => ({ tick, serverTime: tick / 10, arrival: tick / 10 + delay }));
  // Tick 5 never came (6 is the newest); 2 came after 3 and 4 after 6; the second 6 is a duplicate, not out of
  // order; delays 0.2, 0.3 and 0.16 are more than 0.1 above 0.05 — 0.15 exactly would not be.
  assert.deepEqual(countArrivals(arrivals), { arrived: 7, lost: 1, late: 3, outOfOrder: 2, duplicates: 1 });
  // Once the server said it sent 9 (ticks 0–8), 7 and 8 are lost too: 9 − 6 distinct ticks.
  assert.equal(countArrivals(arrivals, 9).lost, 3);
  // Late is judged against the fastest so far: a slow first arrival is not late (nothing faster yet), a copy of
  // an older tick is a duplicate and out of order.
  const slowFirst = [[0, 0.3], [1, 0.05], [2, 0.3], [1, 0.05]].map(([tick, delay]) => ({ tick, serverTime: tick, arrival: tick + delay }));
  assert.deepEqual(countArrivals(slowFirst), { arrived: 4, lost: 0, late: 1, outOfOrder: 1, duplicates: 1 });
  const atMargin = [{ tick: 0, serverTime: 0, arrival: 0.5 }, { tick: 1, serverTime: 1, arrival: 1.5 + 0.0625 }];
  assert.equal(countArrivals(atMargin).late, 0, '62.5 ms above the smallest is not late');
  assert.deepEqual(countArrivals([]), { arrived: 0, lost: 0, late: 0, outOfOrder: 0, duplicates: 0 });
});

test('a message is checked field by field, naming its index and the field', () => {
  const ok = readMessage('{"type":"snapshot","tick":3,"serverTime":0.1,"x":1,"y":2,"vx":0,"vy":0,"generation":0}', 4);
  assert.equal(ok.tick, 3);
  const cases = [
    ['nope', /^message 7: not JSON/],
    ['[1]', /^message 7: not a JSON object/],
    ['{"type":"teleport"}', /^message 7: unknown type "teleport"/],
    ['{"type":"snapshot","tick":-1,"serverTime":0,"x":1,"y":2,"vx":0,"vy":0}', /^message 7 \(snapshot\): `tick` is not a whole number/],
    ['{"type":"snapshot","tick":1.5,"serverTime":0,"x":1,"y":2,"vx":0,"vy":0}', /`tick` is not a whole number/],
    ['{"type":"snapshot","tick":1,"serverTime":0,"x":"1","y":2,"vx":0,"vy":0}', /`x` is not a number/],
    ['{"type":"snapshot","tick":1,"serverTime":0,"x":1,"y":2,"vx":0}', /`vy` is not a number/],
    ['{"type":"snapshot","tick":1,"serverTime":0,"x":1e999,"y":2,"vx":0,"vy":0}', /`x` is not a number/],
    ['{"type":"pong","id":1,"clientTime":null,"serverTime":0}', /\(pong\): `clientTime` is not a number/],
    [`{"type":"end","pad":"${'x'.repeat(5000)}"}`, /^message 7: 50\d\d characters, more than 4096/],
  ];
  for (const [text, message] of cases) {
    const error = readMessage(text, 7);
    assert.ok(error instanceof Error, text.slice(0, 60));
    assert.match(error.message, message);
  }
});

/** A recording fed a stream: hello, snapshots at 30 Hz arriving 20 ms after their server time plus `skew`. */
function recorded({ skew = 5, ticks = 31 } = {}) {
  const r = new Recording({ channel: 'websocket', rate: 30, seconds: 10 });
  assert.equal(r.receive('{"type":"hello","rate":30,"seconds":10,"sendInterval":0.0333,"tickRate":30,"motion":{"script":"turns","speed":120},"serverTime":0}', 0.01).type, 'hello');
  for (let tick = 0; tick < ticks; tick++) {
    const serverTime = tick / 30;
    const text = JSON.stringify({ type: 'snapshot', tick, serverTime, x: tick, y: -tick, vx: 30, vy: -30, generation: 0 });
    assert.equal(r.receive(text, serverTime - skew + 0.02).type, 'snapshot');
  }
  return r;
}

test('the clock offset comes from the ping with the smallest round trip', () => {
  const r = recorded();
  r.pinged(0, 1.0);
  r.pinged(1, 2.0);
  r.pinged(2, 3.0);
  // 300 ms round trip, server read 11.0: offset 11.0 − 1.15 = 9.85; 100 ms, 12.1: 12.1 − 2.05 = 10.05 (the one
  // kept); 200 ms later, 13.2: 13.2 − 3.1 = 10.1 — newer, but a longer trip.
  r.receive('{"type":"pong","id":0,"clientTime":1.0,"serverTime":11.0}', 1.3);
  r.receive('{"type":"pong","id":1,"clientTime":2.0,"serverTime":12.1}', 2.1);
  r.receive('{"type":"pong","id":2,"clientTime":3.0,"serverTime":13.2}', 3.2);
  // A pong for no ping sent, or with another client time, is no round trip.
  r.receive('{"type":"pong","id":9,"clientTime":4.0,"serverTime":1.0}', 4.01);
  r.pinged(3, 5.0);
  r.receive('{"type":"pong","id":3,"clientTime":4.5,"serverTime":1.0}', 5.01);
  const trace = r.trace();
  near(trace.params.clockOffset, 10.05, 'clockOffset');
  assert.equal(trace.rtt.length, 3);
  near(trace.rtt[1].at, 2.1, 'rtt[1].at');
  near(trace.rtt[1].rtt, 0.1, 'rtt[1].rtt');
  near(r.counts().rtt, 0.2, 'the live RTT is the latest');
});

test('the trace: snapshots as they arrived, the send interval, a frame every 1/60 s over the arrivals, the note', () => {
  const r = recorded({ skew: 5 });
  const trace = r.trace();
  assert.equal(trace.format, 'netcode-lab/trace@1');
  assert.equal(trace.kind, 'snapshots');
  assert.equal(trace.params.sendInterval, 1 / 30);
  // No pong: the fastest snapshot taken as instant, server = local + 4.98 (every one arrived 0.02 − 5 after).
  near(trace.params.clockOffset, 4.98, 'clockOffset without a pong');
  assert.deepEqual(trace.params.motion, { script: 'turns', speed: 120 }, 'the stream\'s motion: the trace\'s truth');
  assert.equal(trace.snapshots.length, 31);
  assert.deepEqual(Object.keys(trace.snapshots[4]), ['tick', 'serverTime', 'arrival', 'x', 'y', 'vx', 'vy', 'generation']);
  near(trace.snapshots[30].arrival, 1 - 5 + 0.02, 'arrival of tick 30');
  // Arrivals span 1 s (−4.98 … −3.98): 61 frames, the last on the last arrival.
  assert.equal(trace.sampleAt.length, 61);
  near(trace.sampleAt[0], -4.98, 'first frame');
  near(trace.sampleAt[60], -3.98, 'last frame');
  assert.equal(trace.note, 'Recorded from netcode-lab serve over a WebSocket at 30 Hz for 10 s; motion turns at 120 px/s.');
  const cut = r.trace({ partial: true, reason: 'the WebSocket closed (code 1006)' });
  assert.match(cut.note, /; partial: the WebSocket closed \(code 1006\)\.$/);
  assert.equal(r.trace({ motion: false }).params.motion, undefined);
});

test('out-of-place messages are refused and the recording keeps what came before', () => {
  const r = new Recording({ channel: 'webrtc', rate: 10, seconds: 10 });
  assert.match(r.receive('{"type":"snapshot","tick":0,"serverTime":0,"x":0,"y":0,"vx":0,"vy":0}', 0).message, /^message 0: a snapshot before the hello/);
  r.receive('{"type":"hello","rate":10,"seconds":10,"sendInterval":0.1}', 0.1);
  r.receive('{"type":"snapshot","tick":0,"serverTime":0,"x":0,"y":0,"vx":0,"vy":0}', 0.2);
  assert.match(r.receive('{"type":"hello","rate":10,"seconds":10,"sendInterval":0.1}', 0.3).message, /^message 3: a second hello/);
  assert.equal(r.snapshots.length, 1);
  assert.equal(r.snapshots[0].generation, 0, 'generation defaults to 0');
  assert.match(r.trace().note, /over a WebRTC data channel \(unordered, no retransmits\) at 10 Hz/);
});

test('every reason a recording ends early is worded in English for the note and in both page languages', () => {
  assert.equal(reasonText(['wsClosed', { code: 1006, detail: '' }]), 'the WebSocket closed (code 1006)');
  assert.equal(reasonText(['wsClosed', { code: 1011, detail: ': overloaded' }]), 'the WebSocket closed (code 1011: overloaded)');
  assert.equal(reasonText(['noEnd', { s: 5, of: 30 }]), 'the stream did not end 5 s after its 30 s');
  const keys = Object.keys(REASONS);
  assert.ok(keys.length >= 10);
  for (const key of keys) {
    assert.equal(typeof EN_LATER[`record.why.${key}`], 'string', `record.why.${key} in English`);
    assert.equal(typeof ZH_LATER[`record.why.${key}`], 'string', `record.why.${key} in Chinese`);
  }
});

test('a link\'s settings: channel, rate and duration clamped to whole numbers in range, autostart 0 or 1', () => {
  assert.deepEqual(recordSettings({}), { settings: null, notices: [] });
  assert.deepEqual(recordSettings({ rate: '30', autostart: '1' }), { settings: null, notices: [{ key: 'record.alone', vars: { keys: 'rate, autostart' } }] });
  assert.deepEqual(recordSettings({ record: 'websocket', rate: '30', seconds: '10', autostart: '1' }).settings,
    { channel: 'websocket', rate: 30, seconds: 10, autostart: true });
  const bad = recordSettings({ record: 'pigeon', rate: '500', seconds: 'soon', autostart: 'yes' });
  assert.deepEqual(bad.settings, { channel: 'websocket', rate: RATE.max, seconds: SECONDS.default, autostart: false });
  assert.deepEqual(bad.notices.map((n) => n.key), ['record.badChannel', 'record.clamped', 'record.badNumber', 'record.badAutostart']);
  assert.equal(bad.notices[1].vars.used, 128);
  assert.equal(recordSettings({ record: 'webrtc', rate: '59.6' }).settings.rate, 60);
  assert.equal(recordSettings({ record: 'webrtc', seconds: '3' }).settings.seconds, 10);
});

test('params.js hands the recorder its keys; any other unknown key is still an unknown setting', () => {
  const linked = parseHash('#record=webrtc&rate=30&seconds=10&autostart=1');
  assert.deepEqual(linked.extras, { record: 'webrtc', rate: '30', seconds: '10', autostart: '1' });
  assert.deepEqual(linked.notices, []);
  const near = parseHash('#rates=30&recording=1');
  assert.deepEqual(near.extras, {});
  assert.deepEqual(near.notices, ['Ignored 2 unknown settings: “rates”, “recording”.'], 'one notice for both');
  assert.deepEqual(parseHash('#rates=30').notices, ['Ignored unknown setting “rates”.']);
});

// The trace as the page's import reads it: the full wasm build (www/pkg, made by `cargo xtask build`).
const PKG = new URL('../../www/pkg/', import.meta.url);
test('the real core imports the recording: every snapshot, one frame per sampleAt', { skip: !existsSync(new URL('netcode_lab_bg.wasm', PKG)) && 'www/pkg not built' }, async () => {
  const { default: init, Playground } = await import(new URL('netcode_lab.js', PKG).href);
  await init({ module_or_path: readFileSync(new URL('netcode_lab_bg.wasm', PKG)) });
  const r = recorded({ skew: 0, ticks: 301 });
  r.pinged(0, 1.0);
  r.receive('{"type":"pong","id":0,"clientTime":1.0,"serverTime":1.0}', 1.04);
  const prepared = Playground.prepareImport(new TextEncoder().encode(JSON.stringify(r.trace({ partial: true, reason: 'cancelled' }))));
  assert.equal(prepared.summary.snapshots, 301);
  assert.equal(prepared.summary.samples, 601, '10 s of arrivals at 60 frames a second, both ends');
  assert.match(prepared.summary.note, /30 Hz for 10 s; motion turns at 120 px\/s; partial: cancelled\.$/);
});
