// Measures (does not assert) speed in headless Chromium: the wasm core on bench.html, and the playground's
// frame work (step + full redraw) and slider-drag latency — plain, with four engines drawn, and while the page
// records its network from the server. Numbers go to artifacts/e2e/bench.json.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { launch, openPage, waitReady } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ARTIFACTS = process.env.NETCODE_LAB_ARTIFACTS ?? 'artifacts/e2e';

test('benchmarks run and report finite numbers', async () => {
  const core = await openPage(browser, { path: 'bench.html' });
  await core.page.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, { timeout: 300000 });
  const wasm = await core.page.evaluate(() => window.benchResults);
  assert.deepEqual(core.problems(), []);

  const measure = async (path, { recording = false } = {}) => {
    const { page, problems } = await openPage(browser, { path });
    await waitReady(page);
    // While recording: the worker stamps 60 snapshots a second and the panel counts them, the page plays on.
    if (recording) await page.waitForFunction(() => document.documentElement.dataset.recording === 'running', null, { timeout: 30000 });
    await page.evaluate(() => { window.netcodeLab.app.frameTimes.length = 0; window.netcodeLab.app.state.playing = true; });
    await page.waitForTimeout(3000);
    const frames = await page.evaluate(() => [...window.netcodeLab.app.frameTimes]);
    // A drag: one input event per displayed frame; each applied change = re-simulation + what follows it, its draw
    // being the next frame's (with engines drawn: their tracks re-run too, the render delay moves the remote pipeline's inputs).
    const drag = await page.evaluate(async () => {
      const app = window.netcodeLab.app;
      app.state.playing = false;
      app.updateTimes.length = 0;
      const slider = document.getElementById('control-renderDelay');
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let i = 0; i < 20; i++) {
        slider.value = String(50 + 10 * i);
        slider.dispatchEvent(new Event('input'));
        await frame();
      }
      await frame();
      return [...app.updateTimes];
    });
    return { frames, drag, problems: problems() };
  };
  const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const plain = await measure('');
  const engines = await measure('#engines=mirror,ngo,source,geckos');
  // The same page while it records its network from the server that serves it (WebSocket, 60 Hz): the goal is a
  // frame p95 within 1 ms of `frame`.
  const recording = await measure('#record=websocket&rate=60&seconds=30&autostart=1', { recording: true });
  const { frames, drag } = plain;
  const results = {
    wasm,
    frame: { frames: frames.length, median: pct(frames, 0.5), p95: pct(frames, 0.95) },
    sliderDrag: { changes: drag.length, median: pct(drag, 0.5), p95: pct(drag, 0.95) },
    frameWith4Engines: { frames: engines.frames.length, median: pct(engines.frames, 0.5), p95: pct(engines.frames, 0.95) },
    sliderDragWith4Engines: { changes: engines.drag.length, median: pct(engines.drag, 0.5), p95: pct(engines.drag, 0.95) },
    frameWhileRecording: { frames: recording.frames.length, median: pct(recording.frames, 0.5), p95: pct(recording.frames, 0.95) },
  };
  results.frameWhileRecording.p95OverPlain = results.frameWhileRecording.p95 - results.frame.p95;
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(`${ARTIFACTS}/bench.json`, JSON.stringify(results, null, 2));
  console.log(JSON.stringify(results));
  for (const s of [...Object.values(wasm), results.frame, results.sliderDrag, results.frameWith4Engines, results.sliderDragWith4Engines, results.frameWhileRecording]) {
    assert.ok(Number.isFinite(s.median) && Number.isFinite(s.p95));
  }
  assert.ok(frames.length > 30, `${frames.length} frames drawn in 3 s`);
  assert.deepEqual([...plain.problems, ...engines.problems, ...recording.problems], []);
});
