// "Your network: recorded vs fitted": a snapshot trace imported on the page shows the network model the core fits
// to it (the import worker's `fitTrace`), its histograms beside a draw of the fitted model, the fitted numbers in
// words, and "Use the fitted model" turns the simulator's downlink into the fit.
// The trace is made here: 600 snapshots at 20 Hz (ticks 0 … 599, server time tick × 50 ms), a one-way delay of
// 80 ms plus 0, 10, 20, 5, 30 ms by tick mod 5, and 29 lost ticks in 11 bursts whose lengths are stated below.
// Red: the worker not sending the fit along, the figure not showing (or showing for a simulated run), the burst
// histogram or the words reading the wrong field, the button applying the wrong keys (or the uplink, or nothing),
// a string missing in either language, any console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady } from './harness.mjs';
import { ALLOWED, englishWords, rawKeys, RAW_KEY, recordCanvasText } from './i18n-check.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const TICKS = 600;
const INTERVAL = 0.05;
const BASE = 0.08;
const PATTERN = [0, 0.01, 0.02, 0.005, 0.03];
// Bursts: 5 of length 1, 3 of length 2, 2 of length 3 and one of 12 — none at the first or the last tick.
const BURSTS = [[10, 1], [50, 1], [90, 1], [130, 1], [170, 1], [210, 2], [250, 2], [290, 2], [330, 3], [370, 3], [420, 12]];
const LOST = new Set(BURSTS.flatMap(([start, length]) => Array.from({ length }, (_, i) => start + i)));

function trace() {
  const snapshots = [];
  for (let tick = 0; tick < TICKS; tick += 1) {
    if (LOST.has(tick)) continue;
    const serverTime = tick * INTERVAL;
    snapshots.push({ tick, serverTime, arrival: serverTime + BASE + PATTERN[tick % 5], x: tick, y: 0, vx: 20, vy: 0 });
  }
  const sampleAt = Array.from({ length: 1780 }, (_, i) => 0.2 + i / 60);
  return { format: 'netcode-lab/trace@1', kind: 'snapshots', params: { sendInterval: INTERVAL }, snapshots, sampleAt };
}

/** The quantile the fit reads (src/fit/mod.rs): sorted values at (n − 1) · p, interpolated linearly. */
function quantile(sorted, p) {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  return i + 1 < sorted.length ? sorted[i] + (h - i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

async function importTrace(page) {
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
  const buffer = Buffer.from(JSON.stringify(trace()));
  await page.setInputFiles('#trace-file', { name: 'my-network.json', mimeType: 'application/json', buffer });
  await page.waitForFunction(() => document.getElementById('fit') && !document.getElementById('fit').hidden
    && window.netcodeLab.fit && document.getElementById('fit-words').textContent.length > 0, null, { timeout: 60000 });
}

test('an imported trace shows its fitted network, and the button makes it the simulator\'s downlink', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.getElementById('fit').hidden), true, 'no figure for a simulated run');
  await importTrace(page);

  // By hand: 571 copies arrived, 29 of 600 send slots lost, in 11 bursts.
  const lost = LOST.size;
  assert.equal(lost, 29);
  const figure = await page.evaluate(() => window.netcodeLab.fit);
  assert.ok(Math.abs(figure.fit.loss.rate - 29 / 600) < 1e-12, `loss ${figure.fit.loss.rate}`);
  assert.ok(Math.abs(figure.fit.loss.meanBurst - 29 / 11) < 1e-12, `mean burst ${figure.fit.loss.meanBurst}`);
  assert.ok(Math.abs(figure.fit.latency.base - BASE) < 1e-9, `base ${figure.fit.latency.base}`);
  assert.ok(Math.abs(figure.fit.sendInterval - INTERVAL) < 1e-12);
  const recordedCopies = figure.recorded.delay.counts.reduce((a, b) => a + b, 0) + figure.recorded.delay.over;
  assert.equal(recordedCopies, TICKS - lost);
  // What the figure drew: the recorded bursts by length 1 … 9, ≥ 10.
  const drawn = await page.evaluate(() => {
    window.netcodeLab.app.drawDeferred();
    return window.netcodeLab.app.scheduler.painters.find((p) => p.figures)?.drawn;
  });
  assert.deepEqual(drawn.bursts.recorded, [5, 3, 2, 0, 0, 0, 0, 0, 0, 1]);
  assert.equal(drawn.bursts.fitted.length, 10);
  assert.ok(Math.abs(drawn.delay.marks.base - BASE) < 1e-9);
  // The delay bars are shares of the copies: they add up to 100 % (nothing past the last bin here).
  assert.ok(Math.abs(drawn.delay.recorded.reduce((a, b) => a + b, 0) - 100) < 1e-9);
  // The excess over the base, by hand: the pattern's values of the ticks that arrived.
  const excess = [];
  for (let tick = 0; tick < TICKS; tick += 1) if (!LOST.has(tick)) excess.push(PATTERN[tick % 5]);
  excess.sort((a, b) => a - b);
  const median = quantile(excess, 0.5);
  const p95 = quantile(excess, 0.95);
  assert.equal(median, 0.01);
  assert.equal(p95, 0.03);
  assert.ok(Math.abs(figure.fit.latency.p95 - (BASE + p95)) < 1e-9, `p95 ${figure.fit.latency.p95}`);
  // The words: base 80 ms, p95 110 ms, median 10 ms, σ = ln(30 / 10) / 1.6449 = 0.67, loss 4.8 %, bursts of 2.6,
  // 20 snapshots a second.
  const words = (await page.textContent('#fit-words')).replace(/\u00a0/g, ' '); // units kept with their numbers
  for (const part of ['base latency 80 ms', 'p95 110 ms', 'median 10 ms', 'σ 0.67', 'loss 4.8 %', 'mean burst 2.6 packets', '20 snapshots/s', 'reorder 0 %', 'duplicates 0 %']) {
    assert.ok(words.includes(part), `“${part}” in “${words}”`);
  }
  assert.equal(await page.isEnabled('#fit-use'), true);
  // Both plots have a drawing.
  for (const id of ['plot-fit-delay', 'plot-fit-bursts']) {
    const painted = await page.$eval(`#${id} canvas.plot-static`, (c) => {
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]) n += 1;
      return n;
    });
    assert.ok(painted > 1000, `${id}: ${painted} pixels`);
  }

  // Its PNG: both plots, captioned with the fitted numbers rather than the simulator's settings.
  await page.click('#fit .fig-png');
  await page.waitForFunction(() => window.netcodeLab.lastPng?.file?.startsWith('netcode-lab-fit-'));
  const png = await page.evaluate(() => window.netcodeLab.lastPng);
  assert.equal(png.caption.replace(/\u00a0/g, ' '), words);
  assert.ok(png.captionTop > 400, `two plots stacked above the caption: ${png.captionTop} px`);

  const uplinkBefore = await page.evaluate(() => window.netcodeLab.model().params.network.uplink);
  await page.click('#fit-use');
  await page.waitForFunction(() => !window.netcodeLab.model().imported && !window.netcodeLab.app.pending);
  const params = await page.evaluate(() => window.netcodeLab.model().params);
  const down = params.network.downlink;
  assert.ok(Math.abs(down.latency - BASE) < 1e-9, `latency ${down.latency}`);
  assert.ok(Math.abs(down.jitter - median) < 1e-9, `jitter ${down.jitter}`);
  assert.equal(down.jitterModel, 'logNormal');
  assert.ok(Math.abs(down.jitterSigma - Math.log(p95 / median) / 1.6448536269514722) < 1e-6, `sigma ${down.jitterSigma}`);
  assert.ok(Math.abs(down.loss - 29 / 600) < 1e-12, `loss ${down.loss}`);
  assert.equal(down.lossModel, 'burst');
  assert.ok(Math.abs(down.burstLength - 29 / 11) < 1e-12, `burst ${down.burstLength}`);
  assert.equal(down.duplicate, 0);
  assert.equal(down.reorder, 0);
  assert.equal(params.scenario.sendRate, 20);
  assert.equal(params.scenario.tickRate, 20);
  assert.deepEqual(params.network.uplink, uplinkBefore, 'the uplink is left as it was');
  // The rail shows the fit: latency 80 ms, jitter 10 ms, the log-normal model with its σ, burst loss, 20 Hz.
  const rail = await page.evaluate(() => Object.fromEntries(['latency', 'jitter', 'jitterModel', 'jitterSigma', 'loss', 'lossModel', 'sendRate']
    .map((id) => [id, document.getElementById(`control-${id}`).value])));
  assert.deepEqual(rail, { latency: '80', jitter: '10', jitterModel: 'logNormal', jitterSigma: '0.65', loss: '5', lossModel: 'burst', sendRate: '20' });
  assert.equal(await page.isVisible('#control-jitterSigma'), true, 'σ is shown for the log-normal model');
  assert.equal(await page.evaluate(() => document.getElementById('fit').hidden), true, 'the trace is no longer the network');
  assert.deepEqual(problems(), []);
});

test('the figure speaks Chinese, and goes when a simulated run is the network again', async () => {
  const { page, problems } = await openPage(browser, { path: '#lang=zh', before: (p) => p.addInitScript(recordCanvasText) });
  await waitReady(page);
  await importTrace(page);
  await page.evaluate(() => window.netcodeLab.app.drawDeferred());
  const words = (await page.textContent('#fit-words')).replace(/\u00a0/g, ' ');
  assert.match(words, /^拟合结果：基础延迟 80 ms/);
  assert.match(words, /丢包 4\.8 %，平均每次连丢 2\.6 个/);
  assert.equal(await page.textContent('#fit-use'), '使用拟合的模型');
  assert.equal(await page.textContent('#plot-fit-delay .title'), '单程延迟');
  assert.deepEqual(await page.evaluate(englishWords, ALLOWED), [], 'no English left in zh mode');
  assert.deepEqual(await page.evaluate(rawKeys, RAW_KEY), [], 'no raw string keys');
  // A new seed simulates again: the trace, and its figure, make way.
  await page.click('#new-seed');
  await page.waitForFunction(() => !window.netcodeLab.model().imported && document.getElementById('fit').hidden, null, { timeout: 60000 });
  assert.deepEqual(problems(), []);
});
