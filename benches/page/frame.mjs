// What one frame of a playing page costs the main thread, as Chromium itself records it: the page is opened at
// 1280×800, scrolled to the render delay slider (the rail's middle, where a reader tunes while it plays), played
// for 2 s under a trace, and each `ProxyMain::BeginMainFrame` (input, rAF callbacks, style, layout, paint, the
// commit to the compositor) is summed, with the canvases handed to the compositor per frame
// (`Canvas2DResourceProvider::ProduceCanvasResource`). Tracing slows every frame alike (about 1 ms here): the
// figure is for comparing trees, not an absolute. How much a frame may cost before Chromium's scheduler shows a
// drag's input a frame late: on `FLOOR_ANIMATED_PAGE` with a busy rAF, 4 ms a frame kept it on time, 6 ms did not;
// the page's drag frames add the change's own work to this figure (`cargo xtask bench-page` measures them).

import { pct, waitComplete } from './drag.mjs';

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** `{frames, mean, p95, canvasesPerFrame}`: main-thread ms per BeginMainFrame while playing, `ms` long. */
export async function measurePlayingFrame(browser, url, { ms = 2000 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await waitComplete(page);
    await page.waitForTimeout(1000);
    await page.locator('#control-renderDelay').scrollIntoViewIfNeeded();
    await page.evaluate(() => { window.netcodeLab.app.state.playing = true; });
    await page.waitForTimeout(500);
    const events = [];
    const tracer = await browser.newBrowserCDPSession();
    tracer.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((resolve) => tracer.once('Tracing.tracingComplete', resolve));
    await tracer.send('Tracing.start', { categories: '-*,cc,blink,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
    await page.waitForTimeout(ms);
    await tracer.send('Tracing.end');
    await done;
    await tracer.detach();
    const frames = events.filter((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X').map((e) => (e.dur ?? 0) / 1000);
    const produced = events.filter((e) => e.name === 'Canvas2DResourceProvider::ProduceCanvasResource').length;
    return { frames: frames.length, mean: mean(frames), p95: pct(frames, 0.95), canvasesPerFrame: produced / frames.length };
  } finally {
    await context.close();
  }
}

// `node benches/page/frame.mjs URL...`: each URL's figure, twice, interleaved.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { launch } = await import('./load.mjs');
  const browser = await launch();
  try {
    for (let round = 0; round < 2; round++) {
      for (const url of process.argv.slice(2)) {
        const r = await measurePlayingFrame(browser, url);
        console.log(`${url}: ${r.mean.toFixed(2)} ms per frame (p95 ${r.p95.toFixed(2)}), ${r.canvasesPerFrame.toFixed(1)} canvases to the compositor per frame, ${r.frames} frames`);
      }
    }
  } finally {
    await browser.close();
  }
}
