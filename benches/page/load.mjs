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

/** Records, from the first script the page runs, when `data-ready` appears (ms since navigation start). */
function watchReady() {
  new MutationObserver(() => {
    const d = document.documentElement?.dataset ?? {};
    if ((d.ready === 'true' || d.failed === 'true') && window.__readyAt === undefined) window.__readyAt = performance.now();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-failed'] });
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

/** One cold load of `url` under `condition`: `{ms, bytes, requests}`. */
export async function loadOnce(browser, url, condition) {
  const { context, page, cdp } = await emulatedPage(browser, condition);
  // Every finished request with its finishing moment on the wall clock: the protocol's timestamps are monotonic
  // seconds, mapped to wall time through the (timestamp, wallTime) pair every request starts with. Only what
  // finished before the page said it was ready counts — what the page fetches after its first frame (the full
  // build, below-the-fold modules) arrives while the poll below notices `data-ready` and must not be counted.
  const finished = [];
  let wallMinusMono = null;
  cdp.on('Network.requestWillBeSent', (e) => { wallMinusMono ??= e.wallTime - e.timestamp; });
  cdp.on('Network.loadingFinished', (e) => finished.push({ at: e.timestamp, bytes: e.encodedDataLength }));
  await page.addInitScript(watchReady);
  await page.goto(url, { waitUntil: 'commit', timeout: 120000 });
  await page.waitForFunction(() => ['ready', 'failed'].some((k) => document.documentElement?.dataset[k] === 'true'), null, { timeout: 120000, polling: 50 });
  const { ms, failed, readyWall } = await page.evaluate(() => {
    const ms = window.__readyAt ?? performance.getEntriesByName('boot:first-frame')[0]?.startTime ?? performance.now();
    return { ms, failed: document.documentElement.dataset.failed === 'true', readyWall: (performance.timeOrigin + ms) / 1000 };
  });
  const before = finished.filter((f) => wallMinusMono === null || f.at + wallMinusMono <= readyWall);
  const bytes = before.reduce((sum, f) => sum + f.bytes, 0);
  const requests = before.length;
  await context.close();
  if (failed) throw new Error(`${url} failed to load`);
  return { ms, bytes, requests };
}

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/** Median of `runs` cold loads per condition: `{condition: {ms, bytes, requests, all: [ms…]}}`. */
export async function measureLoad(browser, url, { runs = 5, conditions = Object.keys(CONDITIONS) } = {}) {
  const out = {};
  for (const name of conditions) {
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await loadOnce(browser, url, CONDITIONS[name]));
    out[name] = { ms: median(all.map((r) => r.ms)), bytes: median(all.map((r) => r.bytes)), requests: median(all.map((r) => r.requests)), all: all.map((r) => Math.round(r.ms)) };
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2] ?? 'http://127.0.0.1:8080/';
  const browser = await launch();
  try {
    console.log(JSON.stringify(await measureLoad(browser, url, { runs: Number(process.env.RUNS ?? 5) }), null, 1));
  } finally {
    await browser.close();
  }
}
