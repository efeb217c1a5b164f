// The page soak (`cargo xtask soak --page`; not part of `cargo xtask test`): the playground playing at its fastest
// speed for SOAK_MINUTES real minutes (default 10) while a scripted hand drags a slider every second — latency,
// jitter, loss, render delay, send rate in turn, each drag a burst of input events as a real drag gives.
// Every 30 s: the JS heap after a garbage collection (CDP HeapProfiler.collectGarbage, then
// performance.memory with precise numbers) and the wasm memory's size. At the end: the first and the last minute's
// frame p95 (the page's own draw times), console errors, and the verdict: heap and wasm memory flat after the
// warm-up minute (growth below 10 % and 4 MiB), no console error, frame p95 of the last minute within 1.5× of the
// first. On a machine busy with other work the last minute can be slower for reasons of its own, so for the last
// minute a fresh page (the control) is opened beside the soaked one and dragged by the same hand: the soaked page
// passes when its last minute is within 1.5× of the first minute OR of the control's p95 over that same minute (a
// page that degrades is slower than a fresh one at the same moment; a busy machine slows both).
// Writes artifacts/soak/page.json and prints a table. Exit code 1 when a check fails.
import { chromium } from 'playwright-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const URL_ = process.env.NETCODE_LAB_URL ?? 'http://127.0.0.1:8080/';
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const ARTIFACTS = process.env.NETCODE_LAB_ARTIFACTS ?? 'artifacts/soak';
const SAMPLE_EVERY = 30_000;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--enable-precise-memory-info'],
});
const errors = [];
/** A playground page playing at its fastest speed, and the draw times collected from it. */
async function openPlaying(name) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${name}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
  await page.goto(URL_);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' || document.documentElement.dataset.failed === 'true');
  await page.selectOption('#speed', { index: (await page.$$eval('#speed option', (o) => o.length)) - 1 }); // the fastest
  await page.evaluate(() => { window.netcodeLab.app.state.playing = true; });
  return { page, drawsRead: 0, collected: [] };
}
const soaked = await openPlaying('page');
const page = soaked.page;
let control = null; // the fresh page of the last minute
const cdp = await page.context().newCDPSession(page);

const SLIDERS = [['latency', 20, 300], ['jitter', 0, 80], ['loss', 0, 30], ['renderDelay', 40, 250], ['sendRate', 10, 60]];
// The page keeps its last 600 draw times; every 5 s the ones drawn since the last read are collected.
async function collectDraws(hand, minute) {
  const { times, draws } = await hand.page.evaluate(() => ({ times: window.netcodeLab.app.frameTimes, draws: window.netcodeLab.app.draws }));
  const fresh = Math.min(draws - hand.drawsRead, times.length);
  hand.drawsRead = draws;
  for (const t of times.slice(times.length - fresh)) hand.collected.push({ minute, t });
}
const p95 = (hand, from, to) => {
  const times = hand.collected.filter((c) => c.minute >= from && c.minute < to).map((c) => c.t).sort((a, b) => a - b);
  return { p95: times.length ? times[Math.floor(0.95 * (times.length - 1))] : NaN, draws: times.length };
};
async function sample(minute) {
  await cdp.send('HeapProfiler.collectGarbage');
  const m = await page.evaluate(() => ({ heap: performance.memory.usedJSHeapSize, wasm: window.netcodeLab.wasmMemoryBytes(), frames: window.netcodeLab.app.framesDrawn }));
  return { minute: Math.round(minute * 100) / 100, heapMiB: m.heap / 1048576, wasmMiB: m.wasm / 1048576, frames: m.frames };
}

const started = Date.now();
const samples = [await sample(0)];
let drags = 0;
for (let second = 1; Date.now() - started < MINUTES * 60_000; second += 1) {
  const [id, lo, hi] = SLIDERS[second % SLIDERS.length];
  const target = lo + ((second * 37) % 100) / 100 * (hi - lo);
  if (!control && Date.now() - started >= (MINUTES - 1) * 60_000) {
    control = await openPlaying('control');
    await collectDraws(control, 0); // what it drew while loading is not the last minute's
  }
  // A drag: a burst of input events walking the slider to its new value, then change.
  for (const hand of control ? [soaked, control] : [soaked]) {
    await hand.page.evaluate(({ id, target }) => {
      const input = document.getElementById(`control-${id}`);
      const from = Number(input.value);
      for (let i = 1; i <= 12; i += 1) {
        input.value = String(from + ((target - from) * i) / 12);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, { id, target });
  }
  drags += 1;
  await page.waitForTimeout(Math.max(0, started + second * 1000 - Date.now()));
  const elapsed = Date.now() - started;
  if (second % 5 === 0) for (const hand of control ? [soaked, control] : [soaked]) await collectDraws(hand, elapsed / 60_000);
  if (elapsed >= samples.length * SAMPLE_EVERY) samples.push(await sample(elapsed / 60_000));
}
const end = (Date.now() - started) / 60_000;
await collectDraws(soaked, end);
if (control) await collectDraws(control, end);
samples.push(await sample(end));
const first = p95(soaked, 0, 1);
const last = p95(soaked, end - 1, end + 1);
const fresh = control ? p95(control, end - 1, end + 1) : { p95: NaN, draws: 0 };
const [firstMinute, lastMinute, controlMinute] = [first.p95, last.p95, fresh.p95];
await browser.close();

const warm = samples.filter((s) => s.minute >= 1);
const growth = (key) => {
  const values = warm.map((s) => s[key]);
  const base = Math.min(...values);
  return { base, max: Math.max(...values), grew: Math.max(...values) - base };
};
const heap = growth('heapMiB');
const wasm = growth('wasmMiB');
const problems = [];
if (heap.grew > Math.max(4, 0.1 * heap.base)) problems.push(`the JS heap grew by ${heap.grew.toFixed(2)} MiB after the first minute`);
if (wasm.grew > Math.max(4, 0.1 * wasm.base)) problems.push(`the wasm memory grew by ${wasm.grew.toFixed(2)} MiB after the first minute`);
if (errors.length) problems.push(`${errors.length} console error(s): ${errors.slice(0, 3).join(' | ')}`);
const within = (reference) => lastMinute <= 1.5 * reference + 0.5;
if (!(within(firstMinute) || within(controlMinute))) {
  problems.push(`frame p95 ${firstMinute.toFixed(2)} ms → ${lastMinute.toFixed(2)} ms (a fresh page over the last minute: ${controlMinute.toFixed(2)} ms)`);
}
const report = { minutes: MINUTES, drags, samples, frameP95: { firstMinute, lastMinute, controlMinute, firstDraws: first.draws, lastDraws: last.draws, controlDraws: fresh.draws }, heap, wasm, errors, problems };
mkdirSync(ARTIFACTS, { recursive: true });
writeFileSync(join(ARTIFACTS, 'page.json'), JSON.stringify(report, null, 1));
console.log('page soak: minute  JS heap MiB  wasm MiB  frames drawn');
for (const s of samples) console.log(`page soak: ${s.minute.toFixed(2).padStart(6)}  ${s.heapMiB.toFixed(2).padStart(11)}  ${s.wasmMiB.toFixed(2).padStart(8)}  ${String(s.frames).padStart(12)}`);
console.log(`page soak: ${drags} drags; frame p95 first minute ${firstMinute.toFixed(2)} ms (${first.draws} draws), last minute ${lastMinute.toFixed(2)} ms (${last.draws} draws), a fresh page over the last minute ${controlMinute.toFixed(2)} ms (${fresh.draws} draws); console errors ${errors.length}`);
console.log(problems.length ? `page soak: FAILED — ${problems.join('; ')}` : 'page soak: passed — heap and wasm memory flat, no console error, frame p95 unchanged');
process.exit(problems.length ? 1 : 0);
