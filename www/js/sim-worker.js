// The simulation worker: its own instance of the wasm core, for work that re-runs the simulation many times
// (the render-delay sweep; the engines' league table: every strategy on five networks; during a slider drag,
// the run's metrics). The page's main thread
// only draws; this never touches it.
//
// Protocol (worker-client.js is the other side), one request per message:
//   → {id, channel, generation, kind, args}        kind names a handler below; args is plain data
//   ← {id, ok: true, result} | {id, ok: false, error, panic}
// Requests are taken in batches: everything that arrived while the previous job ran is looked at together, and
// of several requests on one channel only the newest generation runs (the others answer `{stale: true}`), so a
// slider dragged across twenty values costs one run, not twenty.
import init, * as core from '../pkg/netcode_lab.js';

/** What the worker can do: `kind → (args) → result`. A new table adds its handler here. */
const HANDLERS = {
  /** The render-delay trade-off of `params` at each of `delays` (seconds): `[{delay, underrunShare, …}]`. */
  sweep({ params, delays }) {
    return playground(params).sweep(delays);
  },
  /**
   * The quality metrics of `params`' run (`Playground.metrics()`, the same bits as the page's own core gives):
   * during a slider drag the page's frame takes them from here rather than spending ~4 ms of it on them.
   */
  metrics({ params }) {
    return playground(params).metrics();
  },
  /** The league table of `params` on `networks` (`lan` … `mobile`, `custom`): see `sim::league`. */
  league({ params, networks }) {
    return core.Playground.league(params, networks);
  },
  /**
   * Per engine, the smallest setting that keeps the underrun share at or under `target` (`Playground.tune`): on the
   * network of `params`, or on the recording `bytes` when given.
   */
  tune({ params, target, bytes }) {
    return core.Playground.tune(params, target, bytes ?? undefined, undefined);
  },
  /** The league table of a recorded or imported trace (`bytes`, as the file came) with `params.engines`. */
  leagueTrace({ bytes, params }) {
    return core.Playground.leagueTrace(bytes, params);
  },
};

let cached = null;
/** One long-lived `Playground` re-run with new parameters (the core re-uses what a change does not touch). */
function playground(params) {
  if (!cached) cached = new core.Playground(params);
  else cached.setParams(params);
  return cached;
}

const ready = init();
let inbox = [];
let scheduled = false;

self.onmessage = (event) => {
  inbox.push(event.data);
  if (scheduled) return;
  scheduled = true;
  setTimeout(drain, 0); // let every message already queued arrive first
};

async function drain() {
  await ready;
  scheduled = false;
  const batch = inbox;
  inbox = [];
  const newest = new Map();
  for (const r of batch) if (!newest.has(r.channel) || newest.get(r.channel).generation < r.generation) newest.set(r.channel, r);
  for (const r of batch) {
    if (newest.get(r.channel) !== r) {
      self.postMessage({ id: r.id, ok: true, stale: true });
      continue;
    }
    try {
      const handler = HANDLERS[r.kind];
      if (!handler) throw new Error(`unknown request kind \`${r.kind}\``);
      self.postMessage({ id: r.id, ok: true, result: handler(r.args) });
    } catch (error) {
      // A panic in the core is a RuntimeError (`unreachable`): the page must show it, not a quiet empty plot.
      const panic = error instanceof WebAssembly.RuntimeError;
      if (panic) cached = null; // its instance may be broken
      self.postMessage({ id: r.id, ok: false, error: error?.message ?? String(error), panic });
    }
  }
}
