// How the page builds itself on a phone, checked as behaviour (never as timings, which belong to
// `cargo xtask bench-page` and `node benches/page/trace.mjs`):
//   - a phone's load (Lighthouse's mobile device: 412×823 CSS px, pixel ratio 1.75, a touch screen, a mobile
//     layout viewport; 4× CPU slowdown) shifts nothing from the first byte to the figures drawn, in either
//     language, and nothing is wider than the screen (on a mobile viewport a wider page widens the layout viewport,
//     which moves every fixed element: the "Controls ↓" button);
//   - the boot is a chain of short tasks: each of its phases (main.js `bootPhase`) ends in a task of its own, as
//     the browser's own trace shows, so none of them adds up to one long task on a slow phone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, BASE_URL } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** A phone as Lighthouse's mobile preset emulates it, the CPU 4× slower; records console errors and shifts. */
async function openPhone(hash = '') {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const nodes = e.sources.map((s) => `${s.node?.id || s.node?.className || s.node?.nodeName} ${JSON.stringify(s.previousRect)} → ${JSON.stringify(s.currentRect)}`);
        window.__shifts.push(`${e.value.toFixed(5)} at ${Math.round(e.startTime)} ms: ${nodes.join('; ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return { context, page, cdp, errors, url: new URL(hash, BASE_URL).href };
}

async function waitComplete(page) {
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true' || document.documentElement.dataset.failed === 'true', null, { timeout: 120000 });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.failed), undefined, 'the page loaded');
}

for (const lang of ['en', 'zh']) {
  test(`a phone's load shifts nothing, and nothing is wider than the screen (${lang})`, async () => {
    const { context, page, errors, url } = await openPhone(`#lang=${lang}`);
    try {
      await page.goto(url);
      await waitComplete(page);
      // What fills in after data-complete: the league table from the worker, the swatches, and what waits to come
      // near the viewport (the figures and the metrics table, on the full core), drawn here as printing draws them.
      await page.waitForFunction(() => document.getElementById('league').dataset.state === 'ready', null, { timeout: 120000 });
      await page.evaluate(() => window.netcodeLab.app.drawDeferred());
      await page.waitForFunction(() => document.querySelector('#metrics table'), null, { timeout: 120000 });
      await page.waitForTimeout(500);
      const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
        const root = document.documentElement;
        // The widest element that is not inside a scroller of its own (those are clipped, the page is not).
        const clipped = (e) => { for (let p = e.parentElement; p; p = p.parentElement) if (/auto|scroll|hidden|clip/.test(getComputedStyle(p).overflowX) && p !== root && p !== document.body) return true; return false; };
        const wide = [...document.body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5 && !clipped(e))
          .slice(0, 5).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
        return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
      });
      assert.deepEqual(wide, [], 'elements wider than the phone, outside a scroller of their own');
      assert.ok(scrollWidth <= clientWidth, `the page is ${scrollWidth} px wide on a ${clientWidth} px phone`);
      assert.deepEqual(await page.evaluate(() => window.__shifts), [], 'layout shifts during the load');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}

test('the boot is a chain of short tasks: each phase ends in a task of its own', async () => {
  const { context, page, cdp, errors, url } = await openPhone();
  try {
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: 'toplevel,disabled-by-default-devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
    await page.goto(url);
    await waitComplete(page);
    const phases = await page.evaluate(() => window.netcodeLab.bootPhases);
    await cdp.send('Tracing.end');
    await done;
    // The order boot.js builds in: the core, its first run, the rail's groups in two, the rest of the rail, the engines
    // panel, the views' mount, the lanes' (mounts),
    // the teaching tools, present mode and the figures' tools, the canvases' widths, the link's run, its readouts,
    // the three views one by one, the lanes (the first frame), what follows it;
    // then each figure below the fold: its mount, then the layout that reads its canvases' widths.
    const expected = ['core', 'model', 'controls', 'controls-2', 'rail', 'engines', 'mount-views', 'mounts', 'teach', 'classroom', 'widths', 'hash',
      'readouts', 'view-server', 'view-local', 'view-remote', 'lanes', 'first-frame', 'after-first-frame',
      'mount-plots', 'widths-plots', 'mount-comparison', 'widths-comparison'];
    assert.deepEqual(phases.filter((p) => expected.includes(p)), expected, 'the boot phases, in order');
    // Each mark's task: the outermost main-thread task that holds it (the page's renderer, its main thread).
    const marks = new Map(events.filter((e) => e.name.startsWith('boot:') && e.cat.includes('user_timing')).map((e) => [e.name.slice(5), e]));
    const { pid, tid } = marks.get('model');
    const tasks = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && ['RunTask', 'ThreadControllerImpl::RunTask'].includes(e.name));
    const taskOf = (name) => {
      const mark = marks.get(name);
      assert.ok(mark, `the trace holds the mark boot:${name}`);
      const holding = tasks.filter((t) => t.ts <= mark.ts && mark.ts <= t.ts + t.dur).sort((a, b) => b.dur - a.dur);
      assert.ok(holding.length, `boot:${name} falls in a task`);
      return holding[0].ts;
    };
    // The first frame is marked in the lanes' task (it only says so); every other phase is a task of its own.
    const alone = expected.filter((p) => p !== 'first-frame');
    const byTask = new Map();
    for (const phase of alone) {
      const task = taskOf(phase);
      byTask.set(task, [...(byTask.get(task) ?? []), phase]);
    }
    const shared = [...byTask.values()].filter((names) => names.length > 1);
    assert.deepEqual(shared, [], 'boot phases that share one task (a missing `await nextTask()` between them)');
    assert.equal(taskOf('first-frame'), taskOf('lanes'), 'data-ready is said in the task that drew the lanes');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the league table's first request waits for the first frame: the simulation worker starts after it", async () => {
  const { context, page, errors, url } = await openPhone();
  try {
    await page.goto(url);
    await waitComplete(page);
    // The table's numbers are in (its rows stand from the mount, each cell `…` until then).
    await page.waitForFunction(() => document.getElementById('league').dataset.state === 'ready', null, { timeout: 120000 });
    const { drawn, worker } = await page.evaluate(() => ({
      drawn: performance.getEntriesByName('boot:after-first-frame')[0].startTime,
      worker: performance.getEntriesByType('resource').filter((r) => /sim-worker/.test(r.name)).map((r) => r.startTime),
    }));
    assert.ok(worker.length >= 1, 'the simulation worker was fetched (the league table filled)');
    assert.ok(worker.every((t) => t > drawn), `the worker is fetched after the boot's last task (${worker} vs ${drawn} ms)`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
