// Where a cold load's time goes: one cold load under a condition of load.mjs, traced through the
// DevTools protocol, printed as
//   - the network waterfall: each request's start and end (ms since navigation start), its size on the wire, and
//     whether it finished before the first frame (`data-ready`);
//   - the main thread's tasks over `--min` ms, each with its largest parts (module evaluation, script
//     compilation, wasm compilation, layout, timers, animation frames …) and the boot's own marks (boot:*);
//   - Lighthouse-style blocking time (the part of each task over 50 ms) from the first paint until quiet, and the
//     main thread's CPU time (thread time, which a loaded machine does not inflate) before and after the first frame.
//   - with --profile, the JavaScript functions that took the most time (self and total, sampled by V8's profiler)
//     before the first frame and after it (readable names: profile the development page, www/ as it is), and with
//     --between A,B also between the marks boot:A and boot:B (one phase of the boot, e.g. `widths,hash`).
// A benchmark tool, not a test. Usage:
//   node benches/page/trace.mjs URL [unthrottled|fast-4g|slow-4g] [--min 5] [--json FILE] [--wait 4000] [--profile]
//     [--between A,B]
import { writeFileSync } from 'node:fs';
import { launch, emulatedPage, untilSaid, CONDITIONS } from './load.mjs';

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const minMs = Number(flag('--min', 5));
const jsonOut = flag('--json', null);
const settleMs = Number(flag('--wait', 4000));
const profiling = args.includes('--profile') && args.splice(args.indexOf('--profile'), 1);
// --between A,B: also the JavaScript between the boot marks boot:A and boot:B (e.g. `widths,hash`: one phase).
const between = flag('--between', null)?.split(',');
const [url = 'http://127.0.0.1:8080/', conditionName = 'unthrottled'] = args;
const condition = CONDITIONS[conditionName];

const CATEGORIES = [
  'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink.user_timing', 'loading',
  'toplevel', 'disabled-by-default-devtools.timeline.frame',
].join(',');

const browser = await launch();
const { context, page, cdp } = await emulatedPage(browser, condition);
const wire = new Map();
cdp.on('Network.loadingFinished', (e) => wire.set(e.requestId, e.encodedDataLength));
const events = [];
cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
if (profiling) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}
const until = await untilSaid(page, cdp);
await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
await page.goto(url, { waitUntil: 'commit', timeout: 120000 });
await until('complete');
await page.waitForTimeout(settleMs);
const profile = profiling ? (await cdp.send('Profiler.stop')).profile : null;
await cdp.send('Tracing.end');
await done;
await context.close();
await browser.close();

// ---- reading the trace -------------------------------------------------------------------------------------
const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame) ?? events.find((e) => e.name === 'navigationStart');
const t0 = nav.ts;
const rendererPid = nav.pid;
const mainTid = events.find((e) => e.pid === rendererPid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')?.tid ?? nav.tid;
const at = (ts) => (ts - t0) / 1000;
const marks = events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('boot:') && e.ts >= t0)
  .map((e) => ({ name: e.name, ms: at(e.ts) })).sort((a, b) => a.ms - b.ms);
const firstFrame = marks.find((m) => m.name === 'boot:first-frame')?.ms ?? Infinity;
const firstPaint = at(events.find((e) => e.name === 'firstContentfulPaint' && e.ts >= t0)?.ts ?? t0);

// Network: requests by id (the renderer's resource events).
const requests = new Map();
for (const e of events) {
  const d = e.args?.data;
  if (!d?.requestId) continue;
  const r = requests.get(d.requestId) ?? { id: d.requestId };
  if (e.name === 'ResourceSendRequest') Object.assign(r, { url: d.url, start: at(e.ts), priority: d.priority });
  if (e.name === 'ResourceReceiveResponse') Object.assign(r, { response: at(e.ts) });
  if (e.name === 'ResourceFinish') Object.assign(r, { end: at(e.ts), bytes: d.encodedDataLength });
  requests.set(d.requestId, r);
}
const waterfall = [...requests.values()].filter((r) => /^https?:/.test(r.url ?? '')).sort((a, b) => a.start - b.start)
  .map((r) => ({ ...r, file: r.url.replace(/^https?:\/\/[^/]+\//, '/'), beforeFirstFrame: (r.end ?? Infinity) <= firstFrame }));

// Main-thread tasks and what is inside them (complete events nest by time on one thread).
const main = events.filter((e) => e.pid === rendererPid && e.tid === mainTid && e.ph === 'X' && e.ts >= t0);
const runTasks = main.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts || b.dur - a.dur);
// The outermost task only (Chromium nests a RunTask in a ThreadControllerImpl::RunTask).
const tasks = runTasks.filter((e, i) => !runTasks.slice(0, i).some((o) => o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
const PARTS = new Set(['EvaluateScript', 'v8.evaluateModule', 'v8.compile', 'v8.compileModule', 'FunctionCall', 'TimerFire',
  'FireAnimationFrame', 'Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'v8.wasm.compiledModule', 'v8.wasm.streamFromResponseCallback',
  'wasm.SyncCompile', 'wasm.AsyncCompile', 'v8.wasm.cachedModule', 'MajorGC', 'MinorGC', 'V8.GCScavenger', 'V8.GC_MARK_COMPACTOR',
  'FireIdleCallback', 'EventDispatch', 'ParseAuthorStyleSheet', 'v8.run', 'RunMicrotasks', 'v8.callFunction', 'PrePaint', 'Commit']);
const label = (e) => {
  const d = e.args?.data ?? {};
  const where = d.url ? ` ${String(d.url).replace(/^https?:\/\/[^/]+\//, '/')}${d.functionName ? `:${d.functionName}` : ''}` : d.functionName ? ` ${d.functionName}` : '';
  return `${e.name}${where}`;
};
const longTasks = [];
for (const task of tasks) {
  const ms = task.dur / 1000;
  if (ms < minMs) continue;
  const inside = main.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && PARTS.has(e.name));
  // Top-level parts only (not nested in another listed part), largest first.
  const top = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur));
  const parts = top.sort((a, b) => b.dur - a.dur).slice(0, 4).map((e) => `${label(e)} ${(e.dur / 1000).toFixed(1)}`);
  const within = marks.filter((m) => m.ms >= at(task.ts) && m.ms <= at(task.ts + task.dur)).map((m) => m.name);
  longTasks.push({ start: at(task.ts), ms, parts, marks: within });
}
const blocking = longTasks.filter((t) => t.start >= firstPaint).reduce((sum, t) => sum + Math.max(0, t.ms - 50), 0);

const f = (x) => (Number.isFinite(x) ? x.toFixed(0).padStart(6) : '     —');
console.log(`${url} under ${conditionName}: first paint ${f(firstPaint)} ms, first frame ${f(firstFrame)} ms`);
console.log(`marks: ${marks.map((m) => `${m.name} ${m.ms.toFixed(0)}`).join(', ')}`);
console.log('\nnetwork (ms since navigation start): start  response  end  bytes  file');
for (const r of waterfall) console.log(`${r.beforeFirstFrame ? '*' : ' '} ${f(r.start)} ${f(r.response)} ${f(r.end)} ${String(r.bytes ?? '').padStart(7)}  ${r.file}`);
const before = waterfall.filter((r) => r.beforeFirstFrame);
console.log(`  * before the first frame: ${before.length} requests, ${before.reduce((s, r) => s + (r.bytes ?? 0), 0)} B on the wire`);
console.log(`\nmain-thread tasks ≥ ${minMs} ms (start, duration, largest parts in ms):`);
for (const t of longTasks) console.log(`${f(t.start)} ${t.ms.toFixed(1).padStart(6)}  ${t.parts.join(' | ')}${t.marks.length ? `  [${t.marks.join(', ')}]` : ''}`);
console.log(`\nblocking time (Σ over 50 ms, from first paint, this load's own clock): ${blocking.toFixed(0)} ms; ` +
  `tasks ≥ 50 ms: ${longTasks.filter((t) => t.ms >= 50).length}; main-thread busy before the first frame: ` +
  `${tasks.filter((t) => at(t.ts) < firstFrame).reduce((s, t) => s + t.dur / 1000, 0).toFixed(0)} ms`);
// The main thread's own CPU time (the trace's thread time, `tdur`): what a busy machine's other processes and the
// CPU throttle's pauses do not add to, unlike the wall clock above — the figure to compare two builds with when
// the machine is loaded.
const cpu = (from, to) => tasks.filter((t) => at(t.ts) >= from && at(t.ts) < to).reduce((s, t) => s + (t.tdur ?? t.dur) / 1000, 0);
console.log(`main-thread CPU (thread time): before the first frame ${cpu(0, firstFrame).toFixed(0)} ms, from it to ` +
  `data-complete ${cpu(firstFrame, marks.find((m) => m.name === 'boot:complete')?.ms ?? Infinity).toFixed(0)} ms`);
if (profile) {
  // Sample times are µs on the same clock as the trace; each sample is charged to its leaf (self) and to every
  // distinct function on its stack (total).
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^https?:\/\/[^/]+\//, '/')}:${n.callFrame.lineNumber + 1}`;
  const windows = { 'before the first frame': [new Map(), new Map()], 'after it': [new Map(), new Map()] };
  const markAt = (name) => marks.find((m) => m.name === `boot:${name}`)?.ms;
  const span = between ? [markAt(between[0]), markAt(between[1])] : null;
  const spanName = between ? `between boot:${between[0]} and boot:${between[1]}` : null;
  if (span) windows[spanName] = [new Map(), new Map()];
  let ts = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    ts += profile.timeDeltas[i];
    const leaf = nodes.get(id);
    if (['(idle)', '(program)', '(garbage collector)'].includes(leaf.callFrame.functionName)) return;
    const inSpan = span && at(ts) >= span[0] && at(ts) <= span[1];
    for (const w of [at(ts) < firstFrame ? 'before the first frame' : 'after it', ...(inSpan ? [spanName] : [])]) charge(w, id, leaf, dt);
  });
  function charge(w, id, leaf, dt) {
    const [self, total] = windows[w];
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const k = name(nodes.get(n));
      if (!seen.has(k) && nodes.get(n).callFrame.url) total.set(k, (total.get(k) ?? 0) + dt);
      seen.add(k);
    }
  }
  for (const [w, [self, total]] of Object.entries(windows)) {
    const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `  ${v.toFixed(1).padStart(7)}  ${k}`).join('\n');
    console.log(`\nJavaScript ${w}, total (inclusive) ms:\n${top(total)}\n  self ms:\n${top(self)}`);
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ url, conditionName, firstPaint, firstFrame, marks, waterfall, longTasks, blocking, cpuBeforeFirstFrame: cpu(0, firstFrame) }, null, 1));
