// The page's side of the simulation worker (sim-worker.js): `request(channel, kind, args)` sends one job and
// resolves with its result — or with `undefined` when a newer request on the same channel has superseded it,
// so a stale result is never drawn. Channels are independent: the sweep plot uses 'sweep', the league table 'league'.
import { showError } from './banner.js';

export class SimWorker {
  constructor(url = new URL('./sim-worker.js', import.meta.url)) {
    this.url = url;
    this.worker = null; // started on the first request: it loads its own core, after the page's first frame
    this.pending = new Map();
    this.generations = new Map();
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
    const id = this.nextId++;
    if (!this.worker) this.start();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { channel, generation, resolve, reject });
      this.worker.postMessage({ id, channel, generation, kind, args });
    });
  }

  receive({ id, ok, stale, result, error, panic }) {
    const job = this.pending.get(id);
    if (!job) return;
    this.pending.delete(id);
    if (panic) showError(error);
    // A reply for an older generation than the channel's newest request is stale, even if the worker ran it.
    if (stale || job.generation !== this.generations.get(job.channel)) return job.resolve(undefined);
    if (ok) job.resolve(result);
    else job.reject(new Error(error));
  }
}
