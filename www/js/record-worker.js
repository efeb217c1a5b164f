// The recording worker: records `netcode-lab serve`'s snapshot stream off the page's main thread, so a busy frame
// never delays when an arrival is stamped. Each message is stamped with `performance.timeOrigin +
// performance.now()` as it arrives (the same clock in every worker and page of the origin) and handed to a
// `Recording` (record-core.js), which checks, counts and finally turns it into a trace.
//
// Messages in:
//   {start: {channel, rate, seconds, url}}  over a WebSocket the worker opens at `url`;
//   {start: {channel: 'webrtc', …}, dataChannel?} a data channel the page opened: transferred here when the
//                                  browser can transfer one, else the page relays it ({relay: …} below);
//   {relay: {open: true}} · {relay: {text, stamp}} · {relay: {closed: true}}   the page's relay of a channel;
//   {cancel: true}                 stop now, keep what arrived.
// Messages out:
//   {progress: {elapsed, seconds, counts, hello}}  about 4 times a second;
//   {send: text}                   for the page to send on a relayed channel;
//   {done: {text, counts, partial, reason, snapshots}} the trace's JSON text, once;
//   {failed: {reason}}             nothing arrived: no trace.
// A reason is `[key, vars]` (record-core.js `REASONS`), null when the stream ended as it should.
import { Recording, reasonText } from './record-core.js';

const PING_EVERY_MS = 250;
const PROGRESS_EVERY_MS = 250;
/** How long the server has to say hello once the channel is open. */
const HELLO_WAIT_MS = 5000;
/** How long the channel may take to open. */
const OPEN_WAIT_MS = 10000;
/** How long past the recording's duration the stream may run before it is cut short. */
const END_GRACE_MS = 5000;

let session = null;

const now = () => performance.timeOrigin + performance.now();

class Session {
  constructor({ channel, rate, seconds }) {
    this.recording = new Recording({ channel, rate, seconds });
    this.seconds = seconds;
    this.started = now();
    this.finished = false;
    this.nextPing = 0;
    this.timers = [];
    this.sendText = null; // set once a channel is there
    this.closeChannel = () => {};
    this.after(OPEN_WAIT_MS, () => { if (!this.opened) this.finish(['openTimeout', { s: OPEN_WAIT_MS / 1000 }]); });
    this.every(PROGRESS_EVERY_MS, () => this.progress());
  }

  /** Local seconds since the recording started, for an absolute stamp in ms. */
  local(stamp) {
    return (stamp - this.started) / 1000;
  }

  after(ms, fn) {
    this.timers.push(setTimeout(fn, ms));
  }

  every(ms, fn) {
    const id = setInterval(fn, ms);
    this.timers.push(id);
  }

  send(message) {
    try {
      this.sendText?.(JSON.stringify(message));
    } catch (error) {
      this.finish(['sendFailed', { message: error.message }]);
    }
  }

  onOpen() {
    if (this.finished || this.opened) return;
    this.opened = true;
    const { rate, seconds } = this.recording.settings;
    this.send({ type: 'start', rate, seconds });
    this.after(HELLO_WAIT_MS, () => { if (!this.recording.hello) this.finish(['noHello', { s: HELLO_WAIT_MS / 1000 }]); });
  }

  /** One message `text` that arrived at absolute time `stamp` (ms). */
  message(text, stamp) {
    if (this.finished) return;
    const message = this.recording.receive(text, this.local(stamp));
    if (message instanceof Error) return this.finish(['badMessage', { message: message.message }], { stop: true });
    if (message.type === 'hello') {
      this.every(PING_EVERY_MS, () => this.ping());
      this.after(this.seconds * 1000 + END_GRACE_MS, () => this.finish(['noEnd', { s: END_GRACE_MS / 1000, of: this.seconds }], { stop: true }));
    } else if (message.type === 'end') {
      this.finish(null);
    } else if (message.type === 'error') {
      this.finish(['serverSaid', { message: message.message }]);
    }
  }

  ping() {
    const id = this.nextPing++;
    const clientTime = this.local(now());
    this.recording.pinged(id, clientTime);
    this.send({ type: 'ping', id, clientTime });
  }

  closed(reason) {
    if (!this.finished) this.finish(reason);
  }

  progress() {
    if (this.finished) return;
    self.postMessage({ progress: { elapsed: this.local(now()), seconds: this.seconds, counts: this.recording.counts(), hello: this.recording.hello } });
  }

  /** Ends the recording: `reason` null when the stream ended as it should, else why it was cut short. */
  finish(reason, { stop = false } = {}) {
    if (this.finished) return;
    this.finished = true;
    for (const id of this.timers) clearTimeout(id);
    if (stop) this.send({ type: 'stop' });
    this.closeChannel();
    const counts = this.recording.counts();
    const snapshots = this.recording.snapshots.length;
    if (snapshots === 0) {
      self.postMessage({ failed: { reason: reason ?? ['noSnapshot', {}], counts } });
      return;
    }
    const partial = reason !== null;
    const text = JSON.stringify(this.recording.trace({ partial, reason: partial ? reasonText(reason) : '' }));
    self.postMessage({ done: { text, counts, partial, reason, snapshots, hello: this.recording.hello } });
  }
}

function openWebSocket(s, url) {
  let socket;
  try {
    socket = new WebSocket(url);
  } catch (error) {
    s.finish(['wsNotOpened', { message: error.message }]);
    return;
  }
  s.sendText = (text) => { if (socket.readyState === WebSocket.OPEN) socket.send(text); };
  s.closeChannel = () => socket.close();
  socket.onopen = () => s.onOpen();
  socket.onmessage = (event) => s.message(event.data, now());
  socket.onerror = () => s.closed(['wsFailed', {}]);
  socket.onclose = (event) => s.closed(['wsClosed', { code: event.code, detail: event.reason ? `: ${event.reason}` : '' }]);
}

function useDataChannel(s, channel) {
  s.sendText = (text) => { if (channel.readyState === 'open') channel.send(text); };
  s.closeChannel = () => channel.close();
  channel.onopen = () => s.onOpen();
  channel.onmessage = (event) => s.message(event.data, now());
  channel.onclose = () => s.closed(['dcClosed', {}]);
  channel.onerror = (event) => s.closed(['dcFailed', { message: event.error?.message ?? 'error' }]);
  if (channel.readyState === 'open') s.onOpen();
}

self.onmessage = ({ data }) => {
  if (data.start) {
    session?.finish(['replaced', {}]);
    const s = new Session(data.start);
    session = s;
    if (data.start.channel === 'websocket') openWebSocket(s, data.start.url);
    else if (data.dataChannel) useDataChannel(s, data.dataChannel);
    else s.sendText = (text) => self.postMessage({ send: text });
  } else if (data.relay && session) {
    const { relay } = data;
    if (relay.open) session.onOpen();
    else if (relay.text !== undefined) session.message(relay.text, relay.stamp);
    else if (relay.closed) session.closed(['dcClosed', {}]);
  } else if (data.cancel && session) {
    session.finish(['cancelled', {}], { stop: true });
  }
};
