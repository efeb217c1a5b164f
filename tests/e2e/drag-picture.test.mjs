// What a drag leaves on screen, and what each of its frames lays out (the goal: every drag at 60 fps). A drag skips
// and coalesces a great deal — one run per frame with the newest value, painters out of view left stale until the
// release, the words that change every frame written into boxes of their own size (playground.css `.text-box`,
// `.time`, `.value-text`, the sliders) — and none of it may show: after a real mouse drag of the render delay, the
// half-life and the packet loss, the views, the lanes and every readout equal those of the same configuration
// loaded fresh. And the boxes do what they are for: while a slider is dragged and the run plays, Chromium lays out
// those boxes alone (a partial layout), not the whole document, in every frame — counted in the browser's trace,
// never timed — and no box is too small for its words, in either language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, figuresDrawn, paintedPixels, BASE_URL } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const MOMENT = 7.3; // s: the playhead both pages are compared at

/** Starts the run playing (as a reader's drag does), with the reader's first interaction no longer deciding it. */
const play = (page) => page.evaluate(() => {
  const app = window.netcodeLab.app;
  app.autoplay = false;
  app.stopInviting?.();
  app.transport.setPlaying(true);
});

/** A hand's drag of `#control-ID`: pressed mid-way, moved to the right end, the left end, then `to` (0…1), released. */
async function dragSlider(page, id, to) {
  const slider = page.locator(`#control-${id}`);
  await slider.scrollIntoViewIfNeeded();
  // The value of the last input event the slider fired: the one the page must end on.
  await slider.evaluate((input) => input.addEventListener('input', () => { window.__lastInput = input.value; }));
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const x = (f) => box.x + 4 + (box.width - 8) * f;
  await page.mouse.move(x(0.5), y);
  await page.mouse.down();
  for (let i = 0; i <= 30; i++) {
    const f = i / 30;
    await page.mouse.move(x(f < 0.5 ? 1 - 2 * f : (2 * f - 1) * to), y);
    await page.waitForTimeout(16);
  }
  await page.mouse.move(x(to), y);
  await page.waitForTimeout(50);
  await page.mouse.up();
}

/** What the page shows now — no draw asked for: every canvas as it was left, the readouts, the slider's value. */
async function shown(page, id) {
  return page.evaluate(({ id, pixels }) => {
    const app = window.netcodeLab.app;
    const painted = new Function(`return (${pixels})`)();
    const canvases = ['view-server', 'view-local', 'view-remote', 'lanes'].map((c) => [c, painted(document.getElementById(c)).checksum]);
    const text = (s) => document.querySelector(s)?.textContent ?? null;
    return {
      canvases: Object.fromEntries(canvases),
      status: text('#status-card'),
      counters: text('#counters'),
      time: text('#time'),
      value: text(`[data-control=${id}] output`),
      playhead: app.state.playhead,
      params: JSON.stringify(app.model.params),
    };
  }, { id, pixels: paintedPixels.toString() });
}

/** Paused at `MOMENT` (a reader's seek), with every figure drawn. */
async function pauseAt(page) {
  await figuresDrawn(page);
  await page.evaluate(async (moment) => {
    const app = window.netcodeLab.app;
    app.stopInviting?.();
    app.transport.setPlaying(false);
    app.seek(moment);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, MOMENT);
  // The status card's jump log is the full core's (the worker's answer on a run still on the first frame's core):
  // "computing…" until it is in (readouts.js `clockLine`). A fresh page read before it is in differs from the
  // dragged one by those words alone.
  await page.waitForFunction(() => document.getElementById('clock-line').dataset.jumpsPending === undefined);
}

// Paused, a drag draws what is in view each change and leaves the rest (the views above the rail's slider, the
// readouts out of view) stale until the release: the page must then bring them to the final run by itself —
// nothing here scrolls, seeks or draws the dragged page again before reading it.
for (const [id, to] of [['renderDelay', 0.7], ['halfLife', 0.35], ['loss', 0.2]]) {
  test(`after a drag of ${id} the views, the lanes and the readouts equal the same configuration loaded fresh`, async () => {
    const dragged = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    await waitReady(dragged.page);
    await pauseAt(dragged.page);
    const defaults = await dragged.page.evaluate(() => JSON.stringify(window.netcodeLab.app.model.params));
    await dragSlider(dragged.page, id, to);
    await dragged.page.waitForFunction(() => {
      const app = window.netcodeLab.app;
      return !app.scheduler.inDrag && !app.pending && app.scheduler.urlCaughtUp && !app.metricsOnTheWay(app.model);
    }, null, { timeout: 20000 });
    await dragged.page.waitForTimeout(1000); // what the release sets off, one painter per task
    const after = await shown(dragged.page, id);
    assert.notEqual(after.params, defaults, 'the drag changed the configuration');
    const last = await dragged.page.evaluate(() => window.__lastInput);
    assert.ok(after.value.startsWith(`${last} `), `the page ends on the last input's value: ${last}, shows ${after.value}`);
    const hash = await dragged.page.evaluate(() => location.hash);
    assert.match(hash, new RegExp(`${id}=`), `the URL holds the dragged value: ${hash}`);

    const fresh = await openPage(browser, { viewport: { width: 1280, height: 800 }, path: hash });
    await waitReady(fresh.page);
    await pauseAt(fresh.page);
    const loaded = await shown(fresh.page, id);
    assert.equal(loaded.params, after.params, 'the fresh page runs the configuration the drag left');
    assert.deepEqual(after.canvases, loaded.canvases, 'every canvas shows what a fresh load of that configuration shows');
    assert.deepEqual({ ...after, canvases: null }, { ...loaded, canvases: null }, 'every readout too');
    assert.deepEqual(dragged.problems(), []);
    assert.deepEqual(fresh.problems(), []);
    await dragged.page.close();
    await fresh.page.close();
  });
}

test('while a slider is dragged and the run plays, each frame lays out only the boxes whose words or thumb changed, not the document', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  // The render delay's slider in view, and with it the lanes, the transport and the readouts (drawn every frame).
  const slider = page.locator('#control-renderDelay');
  await slider.scrollIntoViewIfNeeded();
  await play(page);
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => Object.fromEntries(Object.entries(window.netcodeLab.app.scheduler.textParts).map(([k, p]) => [k, p.visible])));
  assert.deepEqual(seen, { readouts: true, transport: true }, 'the readouts and the transport are in view (written every frame)');
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: '-*,devtools.timeline', transferMode: 'ReportEvents' });
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 0; i < 40; i++) {
    await page.mouse.move(box.x + 4 + (box.width - 8) * ((i % 20) / 20), box.y + box.height / 2);
    await page.waitForTimeout(16);
  }
  await cdp.send('Tracing.end');
  await done;
  await page.mouse.up();
  const inputs = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
  assert.ok(inputs.length >= 10, `input events traced: ${inputs.length}`);
  const { pid, tid } = inputs[0];
  const layouts = events.filter((e) => e.name === 'Layout' && e.pid === pid && e.tid === tid && e.ts >= inputs[0].ts);
  const whole = layouts.filter((e) => !e.args?.beginData?.partialLayout);
  assert.ok(layouts.length >= 20, `layouts traced during the drag: ${layouts.length}`);
  // A frame's new words, time, value or thumb each lay out their own box. (A rare whole layout is allowed: a box
  // that grows to a taller text, the league table's state line.)
  assert.ok(whole.length <= 3, `${whole.length} of ${layouts.length} layouts during the drag were of the whole document`);
  assert.deepEqual(problems(), []);
});

test('no box of a fixed size is too small for its words: every slider\'s widest value, the time, the counters, the status card, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const { page, problems } = await openPage(browser, { viewport, path: `#lang=${lang}&t=19.999` });
      await waitReady(page);
      const clipped = await page.evaluate(async () => {
        const app = window.netcodeLab.app;
        app.autoplay = false;
        app.stopInviting?.();
        const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const out = [];
        const check = (el, what) => {
          if (el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5) {
            out.push(`${what}: "${el.textContent}" needs ${el.scrollWidth}×${el.scrollHeight}, has ${el.clientWidth}×${el.clientHeight}`);
          }
        };
        // Every range control at its bounds and a step inside them (the widest values), shown one at a time.
        for (const input of document.querySelectorAll('.control input[type=range]')) {
          const near = (x) => String(Number(x.toFixed(6))); // as the control rounds it to its step
          const values = [input.min, input.max, near(Number(input.min) + Number(input.step)), near(Number(input.max) - Number(input.step))];
          const box = input.closest('.control').querySelector('.value-text');
          for (const v of values) {
            box.textContent = `${v}${box.textContent.replace(/^[-\d.]+/, '')}`; // the number as the control writes it, its unit kept
            check(box, input.id);
          }
        }
        app.controls.sync(app.model.params); // the values back as they were
        app.draw();
        await frame();
        check(document.getElementById('time'), 'time');
        for (const n of document.querySelectorAll('#counters .n')) check(n, `counter ${n.closest('[data-counter]').dataset.counter}`);
        const flow = document.querySelector('#status-card .text-flow');
        const box = flow.parentElement;
        if (flow.offsetHeight > box.clientHeight + 0.5) out.push(`status card: ${flow.offsetHeight} px of words in ${box.clientHeight} px`);
        return out;
      });
      assert.deepEqual(clipped, [], `${lang} at ${viewport.width}×${viewport.height}`);
      assert.deepEqual(problems(), []);
      await page.close();
    }
  }
});
