// First frame as a new user sees it: a fresh browser context (cache disabled), Chromium's network and CPU
// emulation through the DevTools protocol, and the time from navigation start until the playground says it has
// drawn (`document.documentElement.dataset.ready`). The bytes are what crossed the (emulated) wire until then
// (requests that finished before that moment; later ones are the page's own after-first-frame loading).
import { chromium } from 'playwright-core';

export const CHROME_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
];

/** The issue's conditions: DevTools' mobile presets with the issue's latencies, and a 4× slower CPU. */
export const CONDITIONS = {
  unthrottled: null,
  'fast-4g': { latency: 85, down: 9e6, up: 1.5e6, cpu: 4 },
  'slow-4g': { latency: 150, down: 1.6e6, up: 0.75e6, cpu: 4 },
};

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: CHROME_ARGS });
}

/**
 * Records, from the first script the page runs, when `data-ready` appears (ms since navigation start), and tells
 * the bench through a DevTools binding (see `untilSaid`) when `data-ready`, `data-complete` or `data-failed` is
 * set. The bench never polls the page: Playwright's `waitForFunction` first evaluates its injected script in the
 * page (~30 ms of the main thread unthrottled, amid the module evaluation of the boot) and then a poll every
 * 50 ms — work no user's load has, charged to the first frame.
 */
function watchReady() {
  const said = new Set();
  new MutationObserver(() => {
    const d = document.documentElement?.dataset ?? {};
    if ((d.ready === 'true' || d.failed === 'true') && window.__readyAt === undefined) window.__readyAt = performance.now();
    for (const key of ['ready', 'complete', 'failed']) {
      if (d[key] === 'true' && !said.has(key)) {
        said.add(key);
        window.__netcodeLabBench?.(key);
      }
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-complete', 'data-failed'] });
}

/**
 * Prepares `page` (before its navigation) to say when it is ready: resolves `until(key)` (`'ready'`,
 * `'complete'`) once `data-KEY` or `data-failed` is set, without evaluating anything in the page meanwhile.
 */
export async function untilSaid(page, cdp, timeout = 120000) {
  const said = new Map();
  const waiting = new Map();
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.addBinding', { name: '__netcodeLabBench' });
  cdp.on('Runtime.bindingCalled', (e) => {
    if (e.name !== '__netcodeLabBench') return;
    said.set(e.payload, true);
    for (const [key, resolve] of waiting) if (key === e.payload || e.payload === 'failed') resolve();
  });
  await page.addInitScript(watchReady);
  return (key) => new Promise((resolve, reject) => {
    if (said.has(key) || said.has('failed')) return resolve();
    waiting.set(key, resolve);
    setTimeout(() => reject(new Error(`the page never said data-${key} in ${timeout} ms`)), timeout).unref();
  });
}

/** A phone-sized page with the cache off, under `condition` (network and CPU emulation; none when absent). */
export async function emulatedPage(browser, condition) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (condition) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: condition.latency, downloadThroughput: condition.down / 8, uploadThroughput: condition.up / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
  }
  return { context, page, cdp };
}

/**
 * One cold load of `url` under `condition`: `{ms, bytes, requests, list}`. `list` is every request the page made
 * until it said it was ready, in the order they started: `{url, type, bytes, start, end}` (ms since the document's
 * request). Only requests to a server count — a `data:` URL (an engine's swatch painted into an `<img>`) fires the
 * protocol's events too but crosses no wire: counted, each swatch painted in idle time amid the boot would add to
 * "requests until the first frame" with no request made.
 */
export async function loadOnce(browser, url, condition) {
  const { context, page, cdp } = await emulatedPage(browser, condition);
  // Every request with its start and finish on the wall clock: the protocol's timestamps are monotonic seconds,
  // mapped to wall time through the (timestamp, wallTime) pair every request starts with. Only what finished
  // before the page said it was ready counts — what the page fetches after its first frame (the full build,
  // below-the-fold modules) arrives while the poll below notices `data-ready` and must not be counted.
  const seen = new Map();
  let wallMinusMono = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    wallMinusMono ??= e.wallTime - e.timestamp;
    if (/^https?:/.test(e.request.url)) seen.set(e.requestId, { url: e.request.url, type: e.type, start: e.timestamp });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = seen.get(e.requestId);
    if (r) Object.assign(r, { end: e.timestamp, bytes: e.encodedDataLength });
  });
  const until = await untilSaid(page, cdp);
  await page.goto(url, { waitUntil: 'commit', timeout: 120000 });
  await until('ready');
  const { ms, failed, readyWall } = await page.evaluate(() => {
    const ms = window.__readyAt ?? performance.getEntriesByName('boot:first-frame')[0]?.startTime ?? performance.now();
    return { ms, failed: document.documentElement.dataset.failed === 'true', readyWall: (performance.timeOrigin + ms) / 1000 };
  });
  const all = [...seen.values()].sort((a, b) => a.start - b.start);
  const t0 = all[0]?.start ?? 0;
  const before = all.filter((r) => r.end !== undefined && (wallMinusMono === null || r.end + wallMinusMono <= readyWall));
  const list = before.map((r) => ({
    url: r.url.replace(/^https?:\/\/[^/]+/, ''), type: r.type, bytes: r.bytes,
    start: Math.round((r.start - t0) * 1000), end: Math.round((r.end - t0) * 1000),
  }));
  const bytes = before.reduce((sum, r) => sum + r.bytes, 0);
  await context.close();
  if (failed) throw new Error(`${url} failed to load`);
  return { ms, bytes, requests: before.length, list };
}

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** Median of `runs` cold loads per condition: `{condition: {ms, bytes, requests, all: [ms…]}}`. */
export async function measureLoad(browser, url, { runs = 5, conditions = Object.keys(CONDITIONS) } = {}) {
  const out = {};
  for (const name of conditions) {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await loadOnce(browser, url, CONDITIONS[name]));
    out[name] = { ms: median(all.map((r) => r.ms)), bytes: median(all.map((r) => r.bytes)), requests: median(all.map((r) => r.requests)), all: all.map((r) => Math.round(r.ms)), files: all[0].list.map((r) => r.url) };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
  const browser = await launch();
  try {
    if (process.argv.includes('--list')) {
      // One cold load per condition, its requests until the first frame: start, end (ms), bytes, type, file.
      for (const [name, condition] of Object.entries(CONDITIONS)) {
        const { ms, list } = await loadOnce(browser, url, condition);
        console.log(`${name}: data-ready at ${Math.round(ms)} ms, ${list.length} requests before it`);
        for (const r of list) console.log(`  ${String(r.start).padStart(6)} ${String(r.end).padStart(6)} ${String(r.bytes).padStart(7)}  ${r.type.padEnd(10)} ${r.url}`);
      }
      process.exit(0);
    }
    console.log(JSON.stringify(await measureLoad(browser, url, { runs: Number(process.env.RUNS ?? 5) }), null, 1));
  } finally {
    await browser.close();
  }
}
