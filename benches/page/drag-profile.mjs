// Where a slider drag spends its time: one drag as drag.mjs does it (real mouse events, while playing), recorded
// by Chromium's sampling profiler and by a browser-wide trace (DevTools timeline, cc, viz, gpu), then summed: the
// main thread's steps, every thread's CPU per displayed frame (the renderer's compositor and raster workers, the
// GPU process's viz compositor, which draws in software here), and the browser's own input → presentation split
// in stages (`EventLatency`), beside drag.mjs's figure. Not part of `cargo xtask bench-page`; a tool for finding
// what to cut.
// Usage: node benches/page/drag-profile.mjs URL [slider=renderDelay] [out.json]
import { writeFileSync } from 'node:fs';
import { launch } from './load.mjs';
import { drag, eventLatencies, instrument } from './drag.mjs';

const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN; };

const [url = 'http://127.0.0.1:8080/', id = 'renderDelay', out] = process.argv.slice(2);

const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
await page.addInitScript(instrument);
await page.goto(url);
await page.waitForFunction(() => document.documentElement.dataset.complete === 'true', null, { timeout: 60000 });
await page.evaluate(() => { window.netcodeLab.app.state.playing = false; });
await page.waitForTimeout(1000);
await page.evaluate(splitPerChange);
const cdp = await context.newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
const events = [];
const tracer = await browser.newBrowserCDPSession(); // browser-wide: the GPU process's threads too
tracer.on('Tracing.dataCollected', (e) => events.push(...e.value));
const traced = new Promise((resolve) => tracer.once('Tracing.tracingComplete', resolve));
await tracer.send('Tracing.start', {
  categories: 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,v8.execute,blink.user_timing,cc,viz,gpu,benchmark,input',
  transferMode: 'ReportEvents',
});
const result = await drag(page, id, 3000, { presented: false }); // the trace above has the EventLatency slices
const split = await page.evaluate(() => window.__split);
await tracer.send('Tracing.end');
await traced;
const { profile } = await cdp.send('Profiler.stop');
await browser.close();

/**
 * In the page: wraps the steps of a change (re-simulation, metrics, the engines' ghosts, each painter, the
 * readouts) to sum their main-thread time per drag (`window.__split`). A step nested in another counts in both.
 */
function splitPerChange() {
  const app = window.netcodeLab.app;
  // `ms`: every call; `change`: the calls of a frame that draws a new run (its input handler's re-simulation, then
  // its draw), `steady`: the frames that only move the playhead — the two kinds of frame a drag is made of.
  const split = { ms: {}, change: {}, steady: {}, changes: 0, frames: 0, changeFrames: 0 };
  window.__split = split;
  let bucket = 'steady';
  const wrap = (obj, key, name) => {
    const f = obj[key];
    if (typeof f !== 'function') return;
    obj[key] = function wrapped(...args) {
      const t0 = performance.now();
      try { return f.apply(this, args); } finally {
        const dt = performance.now() - t0;
        split.ms[name] = (split.ms[name] ?? 0) + dt;
        split[bucket][name] = (split[bucket][name] ?? 0) + dt;
      }
    };
  };
  const Model = Object.getPrototypeOf(app.model);
  wrap(Model, 'setParams', 're-simulation (setParams)');
  // The run may still sit on the first-frame build of the core until its next change (model.js `upgrade`).
  for (const Pg of new Set([Object.getPrototypeOf(app.model.pg), window.netcodeLab.core.Playground.prototype])) {
    wrap(Pg, 'metrics', 'metrics (wasm metrics(), main thread)');
  }
  wrap(Model, 'engine', 'ghosts (engineRows)');
  wrap(app, 'afterRun', 'afterRun (controls, hash, league, teach)');
  wrap(app, 'draw', 'draw (all)');
  wrap(app.teach, 'afterRun', '  afterRun: teach');
  wrap(app.league, 'refresh', '  afterRun: league.refresh');
  wrap(app.figureTools, 'sync', '  afterRun: figureTools.sync');
  wrap(app.controls, 'sync', '  afterRun: controls.sync');
  wrap(app.events, 'sync', '  afterRun: events.sync');
  wrap(app, 'writeHash', '  afterRun: writeHash');
  wrap(app.transport, 'update', 'transport.update');
  wrap(app, 'scene', 'scene (frame row, ghosts)');
  wrap(app, 'metricsForFrame', 'metricsForFrame');
  wrap(app.inspector, 'draw', 'inspector');
  wrap(app.enginesPanel, 'draw', 'engines panel');
  const names = ['views', 'lanes', 'plots', 'comparison'];
  app.painters.forEach((p, i) => {
    wrap(p, 'draw', `painter ${names[i] ?? i}`);
    for (const [k, part] of (p.parts ?? []).entries()) wrap(part, 'draw', `  part ${names[i] ?? i}.${k}`);
  });
  const setParams = Model.setParams;
  Model.setParams = function counted(...args) { split.changes += 1; bucket = 'change'; return setParams.apply(this, args); };
  const draw = app.draw;
  app.draw = function counted(...args) {
    split.frames += 1;
    bucket = app.lastDraw.runId !== app.model.runId ? 'change' : 'steady';
    if (bucket === 'change') split.changeFrames += 1;
    try { return draw.apply(this, args); } finally { bucket = 'steady'; }
  };
}

// Self time per function (ms), from the sampling profile.
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dts = profile.timeDeltas;
profile.samples.forEach((nodeId, i) => {
  const n = byId.get(nodeId);
  const f = n.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dts[i] ?? 0) / 1000);
});
// Inclusive time per function: walk parents.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
profile.samples.forEach((nodeId, i) => {
  const seen = new Set();
  for (let id = nodeId; id !== undefined; id = parent.get(id)) {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    incl.set(key, (incl.get(key) ?? 0) + (dts[i] ?? 0) / 1000);
  }
});
const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`).join('\n');

// Main-thread timeline totals by event name (complete events on the renderer main thread).
const processName = new Map(events.filter((e) => e.name === 'process_name').map((e) => [e.pid, e.args.name]));
const threadName = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
// The page's renderer: the one whose main thread dispatched the drag's `input` events.
const firstInput = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
const main = firstInput ? { pid: firstInput.pid, tid: firstInput.tid } : events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
const totals = new Map();
const frames = [];
for (const e of events) {
  if (!main || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || !e.dur) continue;
  totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
}
console.log('drag', id, JSON.stringify(result));
// The longest main-thread tasks, with what ran inside them (for the long tasks of the result).
const onMain = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur);
const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => b.dur - a.dur).slice(0, 6);
console.log('\n-- the longest main-thread tasks (ms), and what ran inside (> 2 ms) --');
for (const task of tasks) {
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.dur > 2000)
    .map((e) => `${e.name}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''}${e.args?.data?.type ? `[${e.args.data.type}]` : ''} ${(e.dur / 1000).toFixed(1)}`);
  console.log(`${(task.dur / 1000).toFixed(1).padStart(6)}  ${inside.slice(0, 12).join(', ')}`);
}
console.log('\n-- main thread, trace events (total ms over the drag; nested events overlap) --');
console.log(top(totals, 25));
const per = (name) => (totals.get(name) ?? 0) / Math.max(1, split.changes);
console.log(`\n-- one change's main-thread time (ms, mean over ${split.changes} changes; ${split.frames} frames drawn) --`);
for (const [k, v] of Object.entries(split.ms).sort((a, b) => b[1] - a[1])) console.log(`${(v / Math.max(1, split.changes)).toFixed(2).padStart(8)}  ${k}`);
console.log(`${per('UpdateLayoutTree').toFixed(2).padStart(8)}  style (UpdateLayoutTree)`);
console.log(`${per('Layout').toFixed(2).padStart(8)}  layout`);
console.log(`${(per('Paint') + per('PrePaint')).toFixed(2).padStart(8)}  paint + prepaint`);
console.log(`${(per('Commit') + per('Layerize')).toFixed(2).padStart(8)}  commit + layerize (software raster of the canvases)`);
console.log(`\n-- per frame (ms, mean): the ${split.changeFrames} frames that drew a new run vs the ${split.frames - split.changeFrames} that only moved the playhead --`);
const keys = [...new Set([...Object.keys(split.change), ...Object.keys(split.steady)])].sort((a, b) => (split.change[b] ?? 0) - (split.change[a] ?? 0));
for (const k of keys) console.log(`${((split.change[k] ?? 0) / Math.max(1, split.changeFrames)).toFixed(2).padStart(8)} ${((split.steady[k] ?? 0) / Math.max(1, split.frames - split.changeFrames)).toFixed(2).padStart(8)}  ${k}`);
// The same split for the browser's own work: a main-thread task that dispatched an `input` event (its change is
// handled there, then the frame drawn: rAF-aligned input) against the other frame tasks.
const STEPS = ['EventDispatch', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
const frameTasks = onMain.filter((e) => e.name === 'RunTask').map((task) => {
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
  const top = inside.filter((e) => STEPS.includes(e.name) && !inside.some((o) => o !== e && o.name === e.name && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur));
  const sum = Object.fromEntries(STEPS.map((n) => [n, top.filter((e) => e.name === n).reduce((a, e) => a + (e.tdur ?? e.dur) / 1000, 0)]));
  return { ts: task.ts, end: task.ts + task.dur, dur: task.dur / 1000, cpu: (task.tdur ?? task.dur) / 1000, input: inside.some((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input'), sum };
}).filter((t) => t.sum.FireAnimationFrame > 0 || t.sum.Commit > 0);
// Wall time moves with the machine's load; the main thread's CPU time (the trace's thread duration) much less.
console.log('\n-- frame tasks (ms): count, wall p50 / p95, main-thread CPU p50 / p95 / mean, then the mean CPU time of each step --');
for (const [label, ts] of [['with an input', frameTasks.filter((t) => t.input)], ['without', frameTasks.filter((t) => !t.input)]]) {
  const d = ts.map((t) => t.dur);
  const c = ts.map((t) => t.cpu);
  console.log(`${label.padEnd(14)} ${String(ts.length).padStart(4)}  ${pct(d, 0.5).toFixed(1)} / ${pct(d, 0.95).toFixed(1)}  `
    + `cpu ${pct(c, 0.5).toFixed(1)} / ${pct(c, 0.95).toFixed(1)} / ${(c.reduce((a, x) => a + x, 0) / Math.max(1, c.length)).toFixed(2)}  `
    + STEPS.map((n) => `${n} ${(ts.reduce((a, t) => a + t.sum[n], 0) / Math.max(1, ts.length)).toFixed(2)}`).join(', '));
}
// The sampling profile's self time inside the frame tasks that handled an input (same clock as the trace, µs).
const inputTasks = frameTasks.filter((t) => t.input);
const selfInInput = new Map();
let at = profile.startTime;
profile.samples.forEach((nodeId, i) => {
  at += dts[i] ?? 0;
  if (!inputTasks.some((t) => at >= t.ts && at <= t.end)) return;
  const f = byId.get(nodeId).callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  selfInInput.set(key, (selfInInput.get(key) ?? 0) + (dts[i] ?? 0) / 1000 / Math.max(1, inputTasks.length));
});
console.log('\n-- self time per frame task with an input (ms, mean) --');
console.log(top(selfInInput, 30));
// Every thread's CPU over the drag (first to last input), per frame the display drew (viz DrawAndSwap): which
// thread is the long pole. Top-level slices only (a slice inside another of the same thread is not counted twice).
{
  const inputs = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
  const t0 = Math.min(...inputs.map((e) => e.ts));
  const t1 = Math.max(...inputs.map((e) => e.ts));
  const draws = events.filter((e) => e.name === 'Display::DrawAndSwap' && e.ts >= t0 && e.ts <= t1).length;
  const threads = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || e.ts < t0 || e.ts > t1) continue;
    const k = `${e.pid}:${e.tid}`;
    if (!threads.has(k)) threads.set(k, []);
    threads.get(k).push(e);
  }
  const rows = [];
  for (const [k, es] of threads) {
    es.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    let end = -1;
    let wall = 0;
    let cpu = 0;
    for (const e of es) {
      if (e.ts < end) continue;
      wall += e.dur ?? 0;
      cpu += e.tdur ?? e.dur ?? 0;
      end = e.ts + (e.dur ?? 0);
    }
    rows.push([`${processName.get(+k.split(':')[0]) ?? '?'} / ${threadName.get(k) ?? k}`, wall / 1000, cpu / 1000]);
  }
  console.log(`\n-- every thread over the drag (${((t1 - t0) / 1000).toFixed(0)} ms, ${inputs.length} inputs, ${draws} frames drawn by viz): busy wall / CPU, ms per drawn frame --`);
  for (const [name, wall, cpu] of rows.sort((a, b) => b[2] - a[2]).slice(0, 10)) {
    console.log(`${(wall / Math.max(1, draws)).toFixed(2).padStart(8)} ${(cpu / Math.max(1, draws)).toFixed(2).padStart(8)}  ${name}`);
  }
}
// The browser's own input → presentation (EventLatency), in its stages, against drag.mjs's figure for the same drag.
{
  const moves = eventLatencies(events).filter((e) => e.type === 'MOUSE_DRAGGED' && e.presented);
  const stages = [...new Set(moves.flatMap((m) => Object.keys(m.stages)))];
  console.log(`\n-- input → presentation, the browser's EventLatency of ${moves.length} mouse drags: median / p95 (ms) --`);
  console.log(`${pct(moves.map((m) => m.ms), 0.5).toFixed(1).padStart(6)} / ${pct(moves.map((m) => m.ms), 0.95).toFixed(1).padStart(6)}  OS event → presentation`);
  for (const name of stages) {
    const xs = moves.map((m) => m.stages[name]).filter((x) => x !== undefined);
    console.log(`${pct(xs, 0.5).toFixed(1).padStart(6)} / ${pct(xs, 0.95).toFixed(1).padStart(6)}    ${name} (${xs.length})`);
  }
  console.log(`${result.median.toFixed(1).padStart(6)} / ${result.p95.toFixed(1).padStart(6)}  drag.mjs: input dispatch → a message posted from the next rAF runs`);
}
console.log('\n-- self time --');
console.log(top(self, 40));
console.log('\n-- inclusive time --');
console.log(top(incl, 60));
if (out) writeFileSync(out, JSON.stringify({ traceEvents: events }));
