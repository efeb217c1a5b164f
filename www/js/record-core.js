// What a recording of the reader's own network is, without any IO: the messages of `netcode-lab serve`'s snapshot
// stream checked one by one, the arrivals and round trips counted, and the whole turned into a trace in the
// format the page already imports (`netcode-lab/trace@1`, src/trace/mod.rs). record-worker.js feeds it messages
// and the local times they arrived at (seconds since the recording started); the page and the node tests read it.
//
// The counts follow seed 002's observability (what a jitter buffer should report), defined as `netcode-lab
// record` counts them (src/live/recorder.rs): `arrived` — every snapshot message, copies too; `lost` — ticks
// missing below the newest tick (once the server said `end`: the ticks it sent that never came); `late` —
// arrivals whose one-way delay (arrival − serverTime, an unknown constant offset included) is more than
// `LATE_MARGIN` above the fastest so far; `outOfOrder` — a tick older than one already arrived; `duplicates` — a
// tick that arrived before.

/** The channels the page can record over. */
export const CHANNELS = ['websocket', 'webrtc'];
/** The send rates the stream offers (Hz, whole numbers) and the page's default. */
export const RATE = { min: 10, max: 128, default: 60 };
/** How long a recording may run (s, whole numbers) and the page's default. */
export const SECONDS = { min: 10, max: 300, default: 30 };
/** An arrival whose one-way delay is more than this above the smallest seen is late (s). */
export const LATE_MARGIN = 0.1;
/** The frames the trace asks for: one every 1/60 s over the arrivals' span. */
export const SAMPLE_RATE = 60;
/** The most snapshots a recording keeps (src/trace/limits.rs `MAX_SNAPSHOTS`): a stream sending more is refused. */
export const MAX_SNAPSHOTS = 150000;
/** The most round-trip samples a recording keeps (`limits::MAX_RTT_SAMPLES`). */
export const MAX_RTT_SAMPLES = 50000;
/** The longest message the stream may send (bytes of text): its messages are a few hundred. */
export const MAX_MESSAGE = 4096;

/**
 * Why a recording ended early, as `[key, vars]`: worded in English here (the trace's note is English, like the
 * rest of the file) and by the page in its language (`record.why.KEY`). `message` is quoted as it came (the
 * browser's, the server's or the message check's own words); `detail` is a close's reason as `: reason`, or empty.
 */
export const REASONS = {
  cancelled: () => 'cancelled',
  openTimeout: ({ s }) => `the channel did not open within ${s} s`,
  noHello: ({ s }) => `no hello from the server within ${s} s`,
  noEnd: ({ s, of }) => `the stream did not end ${s} s after its ${of} s`,
  serverSaid: ({ message }) => `the server said: ${message}`,
  badMessage: ({ message }) => `a message was refused: ${message}`,
  sendFailed: ({ message }) => `could not send: ${message}`,
  wsNotOpened: ({ message }) => `the WebSocket could not be opened: ${message}`,
  wsFailed: () => 'the WebSocket failed',
  wsClosed: ({ code, detail }) => `the WebSocket closed (code ${code}${detail})`,
  dcClosed: () => 'the data channel closed',
  dcFailed: ({ message }) => `the data channel failed: ${message}`,
  replaced: () => 'a new recording started',
  noSnapshot: () => 'the stream ended without a snapshot',
};

/** A reason (`[key, vars]`) in English. */
export const reasonText = ([key, vars = {}]) => REASONS[key](vars);

const FINITE = (v) => typeof v === 'number' && Number.isFinite(v);
const WHOLE = (v) => Number.isInteger(v) && v >= 0;

/** What a message must carry, per type: the field's check and how it is described when it fails. */
const FIELDS = {
  hello: { rate: [FINITE, 'a number'], seconds: [FINITE, 'a number'], sendInterval: [FINITE, 'a number'] },
  snapshot: {
    tick: [WHOLE, 'a whole number ≥ 0'], serverTime: [FINITE, 'a number'], x: [FINITE, 'a number'], y: [FINITE, 'a number'],
    vx: [FINITE, 'a number'], vy: [FINITE, 'a number'], generation: [(v) => v === undefined || WHOLE(v), 'a whole number ≥ 0'],
  },
  pong: { id: [WHOLE, 'a whole number ≥ 0'], clientTime: [FINITE, 'a number'], serverTime: [FINITE, 'a number'] },
  end: { sent: [(v) => v === undefined || WHOLE(v), 'a whole number ≥ 0'] },
  error: { message: [(v) => typeof v === 'string', 'text'] },
};

/**
 * One message of the stream as an object, or an `Error` naming what is wrong with it (`index`: its place in the
 * stream, from 0). Only the stream's own types pass; unknown fields are ignored (the server may say more).
 */
export function readMessage(text, index) {
  const where = `message ${index}`;
  if (typeof text !== 'string') return new Error(`${where}: not text`);
  if (text.length > MAX_MESSAGE) return new Error(`${where}: ${text.length} characters, more than ${MAX_MESSAGE}`);
  let message;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return new Error(`${where}: not JSON (${error.message})`);
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return new Error(`${where}: not a JSON object`);
  const fields = FIELDS[message.type];
  if (!fields) return new Error(`${where}: unknown type ${JSON.stringify(String(message.type)).slice(0, 40)}`);
  for (const [key, [ok, what]] of Object.entries(fields)) {
    if (!ok(message[key])) return new Error(`${where} (${message.type}): \`${key}\` is not ${what}`);
  }
  return message;
}

/**
 * The counts of a list of arrivals (`{tick, serverTime, arrival}` in the order they arrived), each defined in the
 * module's doc; `sent`: how many the server said it sent (`end`), when it has. Linear in the arrivals; the page
 * asks ~4 times a second.
 */
export function countArrivals(arrivals, sent = null) {
  let newest = -1;
  let outOfOrder = 0;
  let duplicates = 0;
  let late = 0;
  let fastest = Infinity;
  const seen = new Set();
  for (const a of arrivals) {
    if (seen.has(a.tick)) duplicates += 1;
    if (a.tick < newest) outOfOrder += 1;
    seen.add(a.tick);
    newest = Math.max(newest, a.tick);
    const delay = a.arrival - a.serverTime;
    fastest = Math.min(fastest, delay);
    if (delay > fastest + LATE_MARGIN) late += 1;
  }
  const lost = sent === null ? newest + 1 - seen.size : Math.max(0, sent - seen.size);
  return { arrived: arrivals.length, lost, late, outOfOrder, duplicates };
}

/** The settings a link asks for (`#record=websocket&rate=30&seconds=10&autostart=1`), and what was wrong with it. */
export function recordSettings(extras) {
  const notices = [];
  if (extras.record === undefined) {
    const alone = ['rate', 'seconds', 'autostart'].filter((key) => extras[key] !== undefined);
    if (alone.length) notices.push({ key: 'record.alone', vars: { keys: alone.join(', ') } });
    return { settings: null, notices };
  }
  const settings = { channel: 'websocket', rate: RATE.default, seconds: SECONDS.default, autostart: false };
  if (CHANNELS.includes(extras.record)) settings.channel = extras.record;
  else notices.push({ key: 'record.badChannel', vars: { value: extras.record, options: CHANNELS.join(', ') } });
  for (const [key, range] of [['rate', RATE], ['seconds', SECONDS]]) {
    const raw = extras[key];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) {
      notices.push({ key: 'record.badNumber', vars: { key, value: raw } });
      continue;
    }
    const used = Math.min(range.max, Math.max(range.min, Math.round(n)));
    if (used !== n) notices.push({ key: 'record.clamped', vars: { key, value: raw, min: range.min, max: range.max, used } });
    settings[key] = used;
  }
  if (extras.autostart !== undefined) {
    if (['0', '1'].includes(extras.autostart)) settings.autostart = extras.autostart === '1';
    else notices.push({ key: 'record.badAutostart', vars: { value: extras.autostart } });
  }
  return { settings, notices };
}

/**
 * A recording in progress: fed the stream's messages as they arrive (`receive`) and the pings as they leave
 * (`pinged`); `counts()` at any moment, `trace()` at the end. Times are local seconds since the recording started.
 */
export class Recording {
  constructor({ channel, rate, seconds }) {
    this.settings = { channel, rate, seconds };
    this.hello = null;
    this.snapshots = [];
    this.rtt = [];
    /** The ping with the smallest round trip so far: `{rtt, offset}`, the clock offset it implies. */
    this.bestPing = null;
    this.pings = new Map(); // id → local send time, for pings not answered yet
    this.ended = null; // the `end` message, once it came
    this.received = 0;
    this.lastRtt = null;
  }

  /** A ping `id` left at local time `at`. */
  pinged(id, at) {
    this.pings.set(id, at);
    // A server that never answers must not grow the map: only the newest few are waited for.
    if (this.pings.size > 64) this.pings.delete(this.pings.keys().next().value);
  }

  /**
   * One message of the stream, arrived at local time `at`: returns the message, or an `Error` naming what is wrong
   * (the recording keeps what came before it).
   */
  receive(text, at) {
    const message = readMessage(text, this.received);
    this.received += 1;
    if (message instanceof Error) return message;
    if (message.type === 'hello') {
      if (this.hello) return new Error(`message ${this.received - 1}: a second hello`);
      this.hello = message;
    } else if (message.type === 'snapshot') {
      if (!this.hello) return new Error(`message ${this.received - 1}: a snapshot before the hello`);
      if (this.snapshots.length >= MAX_SNAPSHOTS) return new Error(`more than ${MAX_SNAPSHOTS} snapshots`);
      const { tick, serverTime, x, y, vx, vy } = message;
      this.snapshots.push({ tick, serverTime, arrival: at, x, y, vx, vy, generation: message.generation ?? 0 });
    } else if (message.type === 'pong') {
      const sent = this.pings.get(message.id);
      // A pong for a ping never sent (or answered already) is not a round trip: it is left out.
      if (sent === undefined || sent !== message.clientTime) return message;
      this.pings.delete(message.id);
      const rtt = at - sent;
      this.lastRtt = rtt;
      if (this.rtt.length < MAX_RTT_SAMPLES && rtt >= 0 && rtt <= 10) this.rtt.push({ at, rtt });
      // The server's clock read half-way through the shortest round trip: the least room for asymmetry.
      if (!this.bestPing || rtt < this.bestPing.rtt) this.bestPing = { rtt, offset: message.serverTime - (sent + at) / 2 };
    } else if (message.type === 'end') {
      this.ended = message;
    }
    return message;
  }

  counts() {
    return { ...countArrivals(this.snapshots, this.ended?.sent ?? null), rtt: this.lastRtt };
  }

  /**
   * The recording as a `netcode-lab/trace@1` document (an object; `JSON.stringify` it). `partial` with the
   * `reason` (English text) when it was cut short. The hello's motion goes into `params.motion`: the snapshots are
   * that motion's truth, so the trace's truth is known at every moment (`motion: false` names it in the note only).
   */
  trace({ partial = false, reason = '', motion = true } = {}) {
    const { channel, rate, seconds } = this.settings;
    const name = channel === 'webrtc' ? 'a WebRTC data channel (unordered, no retransmits)' : 'a WebSocket';
    const m = this.hello?.motion;
    const parts = [`Recorded from netcode-lab serve over ${name} at ${rate} Hz for ${seconds} s`];
    if (m && typeof m === 'object') parts.push(`motion ${m.script ?? '?'} at ${m.speed ?? '?'} px/s`);
    if (partial) parts.push(`partial: ${reason || 'cut short'}`);
    const params = { sendInterval: 1 / rate };
    // The offset of the fastest round trip (the true one is within ±rtt/2 of it); without a pong, the fastest
    // snapshot taken as instant.
    let fastest = Infinity;
    for (const s of this.snapshots) fastest = Math.min(fastest, s.arrival - s.serverTime);
    if (this.bestPing) params.clockOffset = this.bestPing.offset;
    else if (this.snapshots.length) params.clockOffset = -fastest;
    if (motion && m) params.motion = m;
    let first = Infinity;
    let last = -Infinity;
    for (const s of this.snapshots) {
      first = Math.min(first, s.arrival);
      last = Math.max(last, s.arrival);
    }
    const frames = this.snapshots.length ? Math.floor((last - first) * SAMPLE_RATE + 1e-9) + 1 : 0;
    const sampleAt = Array.from({ length: frames }, (_, k) => first + k / SAMPLE_RATE);
    return {
      format: 'netcode-lab/trace@1',
      kind: 'snapshots',
      note: `${parts.join('; ')}.`,
      params,
      snapshots: this.snapshots,
      rtt: this.rtt,
      sampleAt,
    };
  }
}
