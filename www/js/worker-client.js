// The page's side of the simulation worker (sim-worker.js): `request(channel, kind, args)` sends one job and
// resolves with its result — or with `undefined` when a newer request on the same channel has superseded it,
// so a stale result is never drawn. Channels are independent: the sweep plot uses 'sweep', the league table 'league'.
//
// Per channel at most one job is with the worker at a time; a request made meanwhile waits here, and a newer one
// replaces it (the replaced one resolves `undefined` at once). A slider dragged across sixty values while the
// league table is computed sends the worker two jobs — the one it was running and the newest — never sixty.
import { showError } from './banner.js';

export class SimWorker {
  constructor(url = new URL('./sim-worker.js', import.meta.url)) {
    this.url = url;
    this.worker = null; // started on the first request: it loads its own core, after the page's first frame
    this.pending = new Map();
    this.generations = new Map();
    /** Per channel: `{busy, waiting}` — whether a job is with the worker, and the newest request held meanwhile. */
    this.channels = new Map();
    this.nextId = 1;
  }

  start() {
    this.worker = new Worker(this.url, { type: 'module' });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => showError(event.message || 'the simulation worker failed');
  }

  /** Sends `kind(args)` on `channel`; resolves with the result, or `undefined` if superseded before it arrived. */
  request(channel, kind, args) {
    const generation = (this.generations.get(channel) ?? 0) + 1;
    this.generations.set(channel, generation);
    if (!this.channels.has(channel)) this.channels.set(channel, { busy: false, waiting: null });
    const lane = this.channels.get(channel);
    return new Promise((resolve, reject) => {
      const job = { channel, generation, kind, args, resolve, reject };
      if (!lane.busy) return this.send(job);
      lane.waiting?.resolve(undefined); // overtaken before it was sent
      lane.waiting = job;
    });
  }

  send(job) {
    if (!this.worker) this.start();
    const id = this.nextId++;
    this.pending.set(id, job);
    this.channels.get(job.channel).busy = true;
    this.worker.postMessage({ id, channel: job.channel, generation: job.generation, kind: job.kind, args: job.args });
  }

  receive({ id, ok, stale, result, error, panic }) {
    const job = this.pending.get(id);
    if (!job) return;
    this.pending.delete(id);
    const lane = this.channels.get(job.channel);
    lane.busy = false;
    if (lane.waiting) {
      const next = lane.waiting;
      lane.waiting = null;
      this.send(next);
    }
    if (panic) showError(error);
    // A reply for an older generation than the channel's newest request is stale, even if the worker ran it.
    if (stale || job.generation !== this.generations.get(job.channel)) return job.resolve(undefined);
    if (ok) job.resolve(result);
    else job.reject(new Error(error));
  }
}
