// The plots and the lerp-vs-timed comparison: every canvas is painted, each follows the control it explains,
// the render-delay trade-off sets the Render delay slider (click and keys), and nothing logs an error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, canvasStats, figuresDrawn, paintedPixels, screenshot } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const FIGURES = ['#plot-extrapolation', '#plot-decay', '#plot-sweep', '#plot-clock', '#plot-paths-world', '#plot-paths-speed'];

/**
 * What a figure shows: its static canvas with the overlay canvas (cursor, "now" marks) composited on top,
 * measured like `canvasStats` (painted pixels and a checksum that changes when the picture changes).
 */
async function figureStats(page, figure) {
  await figuresDrawn(page);
  return page.$eval(figure, (fig, paint) => {
    const [base, overlay] = fig.querySelectorAll('canvas');
    const c = document.createElement('canvas');
    c.width = base.width;
    c.height = base.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(base, 0, 0);
    ctx.drawImage(overlay, 0, 0);
    return new Function(`return (${paint})`)()(c);
  }, paintedPixels.toString());
}

/** Opens the playground paused at `t` seconds with the sweep measured, so what is drawn is deterministic. */
async function openAt(t, options = {}) {
  const opened = await openPage(browser, options);
  await waitReady(opened.page);
  await opened.page.evaluate((at) => {
    const app = window.netcodeLab.app;
    app.state.playing = false;
    app.seek(at);
  }, t);
  await figuresDrawn(opened.page); // the sweep asks for its curve as it is first drawn (scheduler.js `deferred`)
  await opened.page.waitForSelector('#plot-sweep[data-sweep="ready"]');
  await redraw(opened.page);
  return opened;
}

/** One synchronous redraw (the figures also redraw themselves on the next animation frame). */
async function redraw(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => { window.netcodeLab.app.draw(); resolve(); })));
}

/** Sets a range control the way a user does: its value, then an `input` event. */
async function setRange(page, id, value) {
  await page.evaluate(([sel, v]) => {
    const input = document.querySelector(sel);
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, [id, value]);
  await redraw(page);
}

test('every plot canvas is painted, with a title, a caption and a legend', async () => {
  const { page, problems } = await openAt(5.55);
  for (const figure of FIGURES) {
    await page.locator(figure).scrollIntoViewIfNeeded();
    await redraw(page);
    const stats = await canvasStats(page, `${figure} canvas.plot-static`);
    assert.ok(stats.painted > stats.total * 0.03, `${figure}: only ${stats.painted} of ${stats.total} pixels painted`);
    const overlay = await canvasStats(page, `${figure} canvas.plot-overlay`);
    assert.ok(overlay.painted > 0, `${figure}: the overlay (cursor or readout) is drawn`);
    assert.ok((await page.textContent(`${figure} figcaption .title`)).length > 5, `${figure} has a title`);
    assert.ok((await page.textContent(`${figure} figcaption .caption`)).length > 20, `${figure} has a caption`);
    assert.ok(await page.locator(`${figure} .plot-legend .k`).count() >= 2, `${figure} has a legend`);
  }
  await page.locator('#plots').scrollIntoViewIfNeeded();
  await screenshot(page, 'plots-overview');
  assert.deepEqual(problems(), []);
});

test('Max extrapolation changes the extrapolation plot', async () => {
  const { page, problems } = await openAt(5.55);
  const before = await figureStats(page, '#plot-extrapolation');
  await setRange(page, '#control-maxExtrapolation', 60);
  const after = await figureStats(page, '#plot-extrapolation');
  assert.notEqual(after.checksum, before.checksum, 'the extrapolation plot did not change');
  await page.locator('#plot-extrapolation').scrollIntoViewIfNeeded();
  await screenshot(page, 'plots-extrapolation-cap60');
  assert.deepEqual(problems(), []);
});

test('Half-life changes the decay plot', async () => {
  const { page, problems } = await openAt(5.55);
  const before = await figureStats(page, '#plot-decay');
  await setRange(page, '#control-halfLife', 200);
  const after = await figureStats(page, '#plot-decay');
  assert.notEqual(after.checksum, before.checksum, 'the decay plot did not change');
  await page.locator('#plot-decay').scrollIntoViewIfNeeded();
  await screenshot(page, 'plots-decay-halflife200');
  assert.deepEqual(problems(), []);
});

test('clicking the trade-off plot sets the Render delay slider and its readout; arrow keys step it', async () => {
  const { page, problems } = await openAt(5.55);
  const canvas = page.locator('#plot-sweep canvas.plot-static');
  const stage = page.locator('#plot-sweep .plot-stage');
  await canvas.scrollIntoViewIfNeeded();
  const before = await figureStats(page, '#plot-sweep');
  assert.equal(await page.inputValue('#control-renderDelay'), '120');
  const box = await canvas.boundingBox();
  // The delay axis runs 0–300 ms between x = 36 px and (width − 12) px of the canvas: aim at 200 ms.
  const x = box.x + 36 + ((box.width - 48) * 200) / 300;
  await page.mouse.click(x, box.y + box.height * 0.4);
  await redraw(page);
  assert.equal(await page.inputValue('#control-renderDelay'), '200');
  assert.equal(await page.textContent('output[for="control-renderDelay"]'), '200 ms');
  assert.equal(await page.evaluate(() => window.netcodeLab.model().params.remote.clock.renderDelay), 0.2);
  const after = await figureStats(page, '#plot-sweep');
  assert.notEqual(after.checksum, before.checksum, 'the trade-off plot did not move its marker');
  await screenshot(page, 'plots-sweep-clicked');

  await stage.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await redraw(page);
  assert.equal(await page.inputValue('#control-renderDelay'), '190');
  assert.equal(await page.textContent('output[for="control-renderDelay"]'), '190 ms');
  // Two keys in quick succession are a drag: the point's numbers come from the simulation worker's metrics
  // (plots/sweep.js `metricsOf`), a frame or more later — until then the text names the delay alone. They must
  // arrive (red if the worker's answer never redraws the plot, or the text keeps the delay alone).
  await page.waitForFunction(
    () => /^190 ms: .* underrun/.test(document.querySelector('#plot-sweep .plot-stage')?.getAttribute('aria-valuetext') ?? ''),
    null, { timeout: 10000 },
  ).catch(() => {});
  assert.match(await stage.getAttribute('aria-valuetext'), /^190 ms: .* underrun/);
  // The arrows stayed on the plot: they did not steer the local player (which would record a key script).
  assert.equal(await page.evaluate(() => window.netcodeLab.model().params.script), null);
  assert.deepEqual(problems(), []);
});

test('Lerp factor changes the comparison and its headline numbers', async () => {
  const { page, problems } = await openAt(5.55);
  await page.locator('#comparison').scrollIntoViewIfNeeded();
  await redraw(page);
  const world = await figureStats(page, '#plot-paths-world');
  const speed = await figureStats(page, '#plot-paths-speed');
  const rms = await page.getAttribute('#plot-paths-speed .headline', 'data-lerp-rms');
  await screenshot(page, 'plots-comparison');
  await setRange(page, '#control-lerpFactor', 0.3);
  assert.notEqual((await figureStats(page, '#plot-paths-world')).checksum, world.checksum, 'the world view did not change');
  assert.notEqual((await figureStats(page, '#plot-paths-speed')).checksum, speed.checksum, 'the speed plot did not change');
  assert.notEqual(await page.getAttribute('#plot-paths-speed .headline', 'data-lerp-rms'), rms, 'the lerp RMS error did not change');
  await screenshot(page, 'plots-comparison-lerp03');
  assert.deepEqual(problems(), []);
});

test('corrections, dark mode and a narrow screen draw without errors', async () => {
  const { page, problems } = await openAt(6.2, { path: '#mismatch=1', viewport: { width: 420, height: 800 },
    before: (p) => p.emulateMedia({ colorScheme: 'dark' }) });
  for (const figure of FIGURES) {
    await page.locator(figure).scrollIntoViewIfNeeded();
    await redraw(page);
    const stats = await figureStats(page, figure);
    assert.ok(stats.painted > stats.total * 0.03, `${figure}: only ${stats.painted} of ${stats.total} pixels painted`);
    const width = await page.$eval(`${figure} canvas`, (c) => c.getBoundingClientRect().width);
    assert.ok(width <= 420, `${figure} fits the narrow screen (${width} px)`);
  }
  await page.locator('#plot-decay').scrollIntoViewIfNeeded();
  await screenshot(page, 'plots-narrow-dark');
  assert.deepEqual(problems(), []);
});
