// Dragging a slider as a hand does: real mouse events through Chromium's input pipeline, one move per ~16 ms
// for 3 s, back and forth over the slider. For every `input` event the page handles, "input → pixels" is the
// time from the event's timestamp to the end of the next frame that painted (a rAF callback, then a message
// posted from it runs after that frame's paint). Long tasks (> 50 ms) are counted by a PerformanceObserver.
// That "end of the next frame" is when the main thread is done with it, not when its pixels are presented: the
// browser's own record of the same drag (`EventLatency` in a trace, from the OS mouse event to the presentation
// of the frame that shows it) is taken beside it as `presented`. The two differ at both ends: the `input` event's
// timestamp comes after the mouse move waited for the main thread's next frame (rAF-aligned input, a median
// ~7 ms here), and the message runs after the frame's commit and whatever tasks were queued before it (often the
// next frame); raster, the compositor's draw (software here) and the swap come after the commit.
// The drag starts once the page says it is complete (`data-complete`: the full core, the plots) and has been
// quiet for a second, so what is measured is the drag, not the end of the page's own loading. Pointer moves start
// the playback (main.js `playOnFirstInteraction`), as they would for a reader: the drag is measured while playing.

/** Installed before the page's own scripts: collects input → next-frame latencies and long tasks. */
export function instrument() {
  window.__drag = { latencies: [], longTasks: [], active: false };
  const d = window.__drag;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (d.active) d.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: false });
  const channel = new MessageChannel();
  let waiting = [];
  channel.port1.onmessage = () => {
    const now = performance.now();
    for (const stamp of waiting) d.latencies.push(now - stamp);
    waiting = [];
  };
  let armed = false;
  document.addEventListener('input', (event) => {
    if (!d.active) return;
    waiting.push(event.timeStamp);
    if (armed) return;
    armed = true;
    requestAnimationFrame(() => { armed = false; channel.port2.postMessage(0); });
  }, true);
}

export const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN; };

/** Drags `#control-ID` for `ms`: `{events, median, p95, max, longTasks, longestTask}` in ms. */
export async function drag(page, id, ms = 3000, { presented = true } = {}) {
  // The browser's own input → presentation latency: one `EventLatency` async slice per input event (Chromium's
  // cc, category group "cc,benchmark,input"), traced browser-wide with only the light `benchmark,input` groups.
  const tracer = presented ? await page.context().browser().newBrowserCDPSession() : null;
  const traceEvents = [];
  if (tracer) {
    tracer.on('Tracing.dataCollected', (e) => traceEvents.push(...e.value));
    await tracer.send('Tracing.start', { categories: '-*,benchmark,input', transferMode: 'ReportEvents' });
  }
  const slider = page.locator(`#control-${id}`);
  await slider.scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const x0 = box.x + 4;
  const x1 = box.x + box.width - 4;
  await page.mouse.move(x0, y);
  await page.evaluate(() => { window.__drag.latencies = []; window.__drag.longTasks = []; window.__drag.active = true; });
  await page.mouse.down();
  const start = Date.now();
  let i = 0;
  while (Date.now() - start < ms) {
    const phase = (i++ % 60) / 60; // one sweep across and back per second
    const f = phase < 0.5 ? phase * 2 : 2 - phase * 2;
    await page.mouse.move(x0 + (x1 - x0) * f, y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
  await page.waitForTimeout(1000); // what a change sets off after the hand stops (the delay sweep) counts too
  const { latencies, longTasks } = await page.evaluate(() => { window.__drag.active = false; return window.__drag; });
  let shown;
  if (tracer) {
    const done = new Promise((resolve) => tracer.once('Tracing.tracingComplete', resolve));
    await tracer.send('Tracing.end');
    await done;
    await tracer.detach();
    const drags = eventLatencies(traceEvents).filter((e) => e.type === 'MOUSE_DRAGGED');
    // Only the moves whose effect reached the screen (a move that changed nothing ends without a presentation).
    const moves = drags.filter((e) => e.presented).map((e) => e.ms);
    // Where the time went: each stage's median over the presented moves (a stage a move skipped counts 0).
    const presented = drags.filter((e) => e.presented);
    const stageNames = [...new Set(presented.flatMap((e) => Object.keys(e.stages)))];
    const stageMedians = Object.fromEntries(stageNames.map((n) => [n, Number(pct(presented.map((e) => e.stages[n] ?? 0), 0.5).toFixed(1))]));
    shown = { events: moves.length, unpresented: drags.length - moves.length, median: pct(moves, 0.5), p95: pct(moves, 0.95), max: moves.length ? Math.max(...moves) : NaN, stageMedians };
  }
  return {
    presented: shown,
    events: latencies.length,
    median: pct(latencies, 0.5),
    p95: pct(latencies, 0.95),
    max: Math.max(...latencies),
    longTasks: longTasks.filter((d) => d > 50).length,
    longestTask: longTasks.length ? Math.max(...longTasks) : 0,
  };
}

/**
 * The browser's input → presentation latencies in a trace: `[{type, ms, stages: {name: ms}}]`, one per input event
 * Chromium tracked (`EventLatency`: from the OS event to the presentation of the frame that showed its effect;
 * its nested slices — RendererCompositorToMain, RendererMainProcessing, RendererMainFinishedToCommit,
 * EndCommitToActivation, SubmitCompositorFrameToPresentationCompositorFrame, … — are the stages on the way);
 * `presented`: it reached the screen (an event that changed nothing ends early, without the last stages).
 */
const PRESENTED = 'SubmitCompositorFrameToPresentationCompositorFrame';
export function eventLatencies(traceEvents) {
  const key = (e) => `${e.pid}:${e.id2?.local ?? e.id2?.global ?? e.id}`;
  const roots = new Map();
  const open = new Map();
  const out = [];
  // In time order; at one instant an EventLatency begins before its stages and ends after them.
  const rank = (e) => (e.name !== 'EventLatency' ? 1 : e.ph === 'b' ? 0 : 2);
  for (const e of [...traceEvents].sort((a, b) => a.ts - b.ts || rank(a) - rank(b))) {
    if (e.ph !== 'b' && e.ph !== 'e') continue;
    const k = key(e);
    if (e.name === 'EventLatency') {
      if (e.ph === 'b') roots.set(k, { type: e.args?.event_latency?.event_type ?? '?', start: e.ts, stages: {} });
      else if (roots.has(k)) {
        const r = roots.get(k);
        roots.delete(k);
        out.push({ type: r.type, ms: (e.ts - r.start) / 1000, stages: r.stages, presented: PRESENTED in r.stages });
      }
      continue;
    }
    if (!roots.has(k)) continue;
    if (e.ph === 'b') open.set(k + e.name, e.ts);
    else if (open.has(k + e.name)) {
      const stages = roots.get(k).stages;
      stages[e.name] = (stages[e.name] ?? 0) + (e.ts - open.get(k + e.name)) / 1000;
      open.delete(k + e.name);
    }
  }
  return out;
}

export const SLIDERS = ['renderDelay', 'halfLife', 'loss'];

/**
 * The floor under the page's figure: the same drag, measured the same way, of a bare slider on a page that does
 * nothing per input (only the thumb moves). What it takes is the browser's own share on this machine — the wait
 * for the rAF-aligned frame, the commit, the software raster and viz's draw — whatever the page does; a page's
 * figure below it is not possible here. Sized and placed like the rail's sliders at 1280×800.
 */
export const FLOOR_PAGE = `<!doctype html><meta charset="utf-8"><title>floor</title>
<body style="margin:0"><div style="position:absolute;left:956px;top:120px;width:276px">
<input id="control-floor" type="range" min="0" max="500" step="5" value="100" style="width:100%;margin:0"></div></body>`;

/**
 * The floor of a page that animates: the same bare slider beside one canvas the size of the lanes, redrawn every
 * frame with next to nothing (a clear, a dot, a time) — what any playing page pays here before its own work. On
 * this machine (headless Chromium, software compositing) a canvas that changes in every frame costs the input a
 * frame: the compositor draws a frame after the one the input's commit could have made (EventLatency's
 * EndActivateToSubmitCompositorFrame ~0 → ~7–10 ms), however little is drawn.
 */
export const FLOOR_ANIMATED_PAGE = FLOOR_PAGE.replace('</body>', `<canvas id="c" width="930" height="196" style="position:absolute;left:16px;top:96px"></canvas>
<script>const c = document.getElementById('c').getContext('2d');
const f = (t) => { c.clearRect(0, 0, 930, 196); c.fillStyle = '#D55E00'; c.fillRect(8 + (t / 4) % 900, 90, 8, 8); c.fillStyle = '#000'; c.fillText(t.toFixed(1), 8, 20); requestAnimationFrame(f); };
requestAnimationFrame(f);</script></body>`);

/**
 * A drag of the slider `#control-ID` on the page `html` (set as the content of a fresh desktop context): drag()'s
 * result. `waitDrawn`: first wait for the page to say it has drawn (`data-drawn`); `cpu` > 1 slows the CPU that
 * much for the drag. Fails on any error the page reports (a script, a console error).
 */
export async function dragPage(browser, html, { id = 'floor', ms = 3000, cpu = 1, waitDrawn = false, viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.setContent(html);
    await page.evaluate(instrument);
    if (waitDrawn) await page.waitForFunction(() => document.documentElement.dataset.drawn === 'true', null, { timeout: 10000 });
    await page.waitForTimeout(500);
    if (cpu > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
    const result = await drag(page, id, ms);
    if (errors.length) throw new Error(`the dragged page failed: ${errors.join('; ')}`);
    return result;
  } finally {
    await context.close();
  }
}

/** The floor's drag (see FLOOR_PAGE, or FLOOR_ANIMATED_PAGE with `animated`): drag()'s result. */
export function measureFloor(browser, { cpu = 1, ms = 3000, animated = false } = {}) {
  return dragPage(browser, animated ? FLOOR_ANIMATED_PAGE : FLOOR_PAGE, { cpu, ms });
}

/** Waits for the page to say it is complete (older trees have no `data-complete`: their `data-ready` is the end of their loading). */
export async function waitComplete(page) {
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true'
    || (document.documentElement.dataset.ready === 'true' && !('complete' in document.documentElement.dataset) && performance.now() > 4000), null, { timeout: 60000 });
}

/**
 * Each slider (of `sliders`) dragged for 3 s on a fresh desktop page: `{renderDelay: {...}, halfLife: {...}, loss: {...}}`;
 * `cpu` > 1 slows the CPU that much (DevTools emulation, as the load bench does) for the drag.
 */
export async function measureDrags(browser, url, { cpu = 1, sliders = SLIDERS } = {}) {
  const out = {};
  for (const id of sliders) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(instrument);
    await page.goto(url);
    await waitComplete(page);
    await page.evaluate(() => { window.netcodeLab.app.state.playing = false; });
    await page.waitForTimeout(1000); // whatever the page does after it is complete (idle work, the sweep) settles
    if (cpu > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
    out[id] = await drag(page, id);
    await context.close();
  }
  return out;
}

// A quick A/B without building a baseline: `node benches/page/drag.mjs [--rounds N] [--sliders a,b] URL...` drags
// each slider on each URL in turn (interleaved, so the machine's load falls on every side alike), and the floor
// (FLOOR_PAGE) between them, then prints the presented p95 / median per side (median over the rounds).
if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => { const i = args.indexOf(name); return i < 0 ? fallback : args.splice(i, 2)[1]; };
  const rounds = Number(opt('--rounds', 1));
  const sliders = opt('--sliders', SLIDERS.join(',')).split(',');
  const urls = args;
  const { launch } = await import('./load.mjs');
  const browser = await launch();
  const got = {};
  const keep = (side, id, r) => { ((got[side] ??= {})[id] ??= []).push(r); console.log(`${side} ${id}: presented p95 ${r.presented?.p95?.toFixed(1)} median ${r.presented?.median?.toFixed(1)} (${r.presented?.events} moves), old ${r.p95.toFixed(1)} / ${r.median.toFixed(1)}, long tasks ${r.longTasks} (longest ${r.longestTask.toFixed(0)} ms)`); };
  try {
    for (let round = 0; round < rounds; round++) {
      keep('floor', 'floor', await measureFloor(browser));
      for (const id of sliders) {
        for (const url of urls) {
          const one = await measureDrags(browser, url, { sliders: [id] });
          keep(url, id, one[id]);
        }
      }
    }
  } finally {
    await browser.close();
  }
  const mid = (xs) => pct(xs, 0.5);
  console.log('\nmedian over rounds of each drag\'s presented p95 / median (ms):');
  for (const [side, ids] of Object.entries(got)) {
    for (const [id, rs] of Object.entries(ids)) {
      console.log(`  ${side} ${id}: ${mid(rs.map((r) => r.presented.p95)).toFixed(1)} / ${mid(rs.map((r) => r.presented.median)).toFixed(1)}  (long tasks ${rs.reduce((n, r) => n + r.longTasks, 0)})`);
    }
  }
}
