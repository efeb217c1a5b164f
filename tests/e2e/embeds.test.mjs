// Embeds: the sample article page embed-demo.html with three figures in iframes, in both languages
// and both frame sizes — each frame draws, reacts to its slider, raises no console error, takes no focus and
// does not scroll the host; a frame out of view stops animating. And the playground's "Copy embed code" gives
// a snippet whose frame shows the same state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, BASE_URL } from './harness.mjs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ARTIFACTS = process.env.NETCODE_LAB_ARTIFACTS ?? 'artifacts/e2e';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Console errors of the host and of every frame (openPage listens on the page; frames report through it too). */
async function frameReady(frame) {
  await frame.waitForFunction(() => document.documentElement.dataset.complete === 'true' || document.documentElement.dataset.failed === 'true');
  const failed = await frame.evaluate(() => document.documentElement.dataset.failed === 'true');
  if (failed) throw new Error(`embed failed: ${await frame.textContent('#banner')}`);
}

/** A checksum of every canvas in the frame (its painted pixels), and how many pixels are painted. */
async function framePixels(frame) {
  return frame.evaluate(() => {
    let painted = 0;
    let checksum = 0;
    for (const canvas of document.querySelectorAll('canvas')) {
      if (!canvas.width || !canvas.height) continue;
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 0) painted += 1;
        checksum = (checksum * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2] + 17 * data[i + 3]) % 2147483647;
      }
    }
    return { painted, checksum };
  });
}

for (const lang of ['en', 'zh']) {
  for (const size of ['wide', 'tall']) {
    test(`embed demo (${lang}, ${size === 'wide' ? '640×400' : '360×600'} frames): each frame fits, draws and follows its slider, politely`, async () => {
      const { page, problems } = await openPage(browser, { path: `embed-demo.html?lang=${lang}${size === 'tall' ? '&size=tall' : ''}`, viewport: { width: 1280, height: 800 } });
      await page.waitForFunction(() => document.querySelectorAll('iframe').length === 3);
      const frames = [];
      for (const handle of await page.$$('iframe')) frames.push(await handle.contentFrame());
      for (const frame of frames) await frameReady(frame);
      const expected = size === 'wide' ? [640, 400] : [360, 600];
      for (const [i, frame] of frames.entries()) {
        const fig = await frame.evaluate(() => document.body.dataset.fig);
        assert.deepEqual(await frame.evaluate(() => [innerWidth, innerHeight]), expected, `frame ${i} has the snippet's size`);
        assert.equal(await frame.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en', `${fig}: language from the hash`);
        // The figure, its controls and its transport fit the frame: nothing scrolls inside it (red: embed.js's
        // fitToFrame off, or the phone page's 44 px sliders in a tall frame).
        const scroll = await frame.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
        assert.ok(scroll[0] <= scroll[1], `${fig}: ${scroll[0]} px of content in a ${scroll[1]} px frame`);
        // Only the figure's own controls (figures.js), and the link back carries the state.
        const controls = await frame.$$eval('#controls .control', (els) => els.map((e) => e.dataset.control));
        assert.ok(controls.length >= 2 && controls.length <= 3, `${fig}: a few controls, not the rail (${controls})`);
        const before = await framePixels(frame);
        assert.ok(before.painted > 1000, `${fig}: the frame draws (${before.painted} px painted)`);
        // Its first slider moves: the figure and the link change.
        await frame.evaluate(() => window.netcodeLab.app.transport.setPlaying(false));
        await frame.evaluate(() => window.netcodeLab.app.draw());
        const still = await framePixels(frame);
        const slider = await frame.$('#controls input[type=range]');
        const id = await slider.evaluate((s) => s.id.replace('control-', ''));
        await slider.evaluate((s) => {
          s.value = String(Number(s.max) * 0.8);
          s.dispatchEvent(new Event('input', { bubbles: true }));
        });
        // The sweep figure redraws when the worker's new sweep lands.
        if (fig === 'sweep') await frame.waitForSelector('#plot-sweep[data-sweep="ready"]');
        await frame.waitForTimeout(150);
        await frame.evaluate(() => window.netcodeLab.app.draw());
        const after = await framePixels(frame);
        assert.notEqual(after.checksum, still.checksum, `${fig}: moving ${id} changes the picture`);
        const link = await frame.$eval('#open-playground', (a) => a.getAttribute('href'));
        assert.match(link, new RegExp(`[#&]${id}=`), `${fig}: "open in the playground" carries ${id}`);
        assert.match(link, new RegExp(`lang=${lang}`));
      }
      // Manners: nothing took the focus, the host did not scroll, no request left the site, no console error.
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'BODY', 'no frame took the focus');
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the host did not scroll');
      // The third frame sits below the first screen: its animation is stopped until it comes into view.
      const third = frames[2];
      const box = await (await page.$$('iframe'))[2].boundingBox();
      if (box.y > 800) {
        assert.equal(await third.evaluate(() => window.netcodeLab.app.running), false, 'a frame out of view does not animate');
        assert.equal(await frames[0].evaluate(() => window.netcodeLab.app.inView), true);
      }
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, `embed-demo-${lang}-${size}.png`), fullPage: true });
      for (const [i, handle] of (await page.$$('iframe')).entries()) await handle.screenshot({ path: join(ARTIFACTS, `embed-${lang}-${size}-${i}.png`) });
      assert.deepEqual(problems(), []);
    });
  }
}

/** The wasm files the page itself fetched (a worker's own core is not counted). */
const wasmFetched = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name.replace(/.*\//, '')).filter((n) => n.endsWith('.wasm')));

test('every figure and lesson embeds alone; a bad figure shows the banner', async () => {
  const figs = ['server', 'local', 'remote', 'extrapolation', 'decay', 'sweep', 'clock', 'comparison', 'worked'];
  const { page, problems } = await openPage(browser, { path: 'embed.html#fig=server&lang=en', viewport: { width: 640, height: 400 } });
  for (const fig of figs) {
    await page.goto(new URL(`embed.html#fig=${fig}&lang=en`, BASE_URL).href);
    await page.reload();
    await waitReady(page);
    const { painted } = await framePixels(page.mainFrame());
    assert.ok(painted > 1000, `${fig} draws`);
    // Every figure but the comparison (its table is text) fits the 640×400 frame the snippet gives.
    const scroll = await page.evaluate(() => [document.documentElement.scrollHeight, innerHeight]);
    if (fig !== 'comparison') assert.ok(scroll[0] <= scroll[1], `${fig}: ${scroll[0]} px of content in a ${scroll[1]} px frame`);
    // The views run on the small first-frame core, seed 002's example on the example build (the first-frame one
    // with `WorkedExample`); the figures drawn from the metrics or the curves (src/web/analysis.rs: the
    // comparison, the extrapolation, decay and sweep plots) on the full one.
    const full = ['extrapolation', 'decay', 'sweep', 'comparison'].includes(fig);
    const example = fig === 'worked';
    const fetched = await wasmFetched(page);
    assert.equal(fetched.includes('netcode_lab_bg.wasm'), full, `${fig} runs on the ${full ? 'full' : 'small'} core`);
    // embed.html preloads the build its figure uses, and only that one. Red: the small core preloaded
    // for every embed (a static import of core.js from embed.js, which the dist build follows), or a kind
    // missing from embed.html's list.
    assert.equal(fetched.includes('netcode_lab_page_bg.wasm'), !full && !example, `${fig} fetches ${full || example ? 'no' : 'the'} first-frame core: ${fetched}`);
    assert.equal(fetched.includes('netcode_lab_example_bg.wasm'), example, `${fig} fetches ${example ? 'the' : 'no'} worked-example core: ${fetched}`);
  }
  for (const lesson of ['render-delay', 'correction-offset', 'timed-path']) {
    await page.goto(new URL(`embed.html#fig=lesson&lesson=${lesson}&lang=zh`, BASE_URL).href);
    await page.reload();
    await waitReady(page);
    await page.waitForSelector('#lesson-card:not([hidden]) h2');
    assert.ok((await framePixels(page.mainFrame())).painted > 1000, `lesson ${lesson}: its visual draws`);
    assert.match(await page.textContent('#lesson-card h2'), /[\u4e00-\u9fff]/, 'the lesson card speaks the hash\'s language');
    // A lesson runs on the full core (its helpers) and fetches no other.
    const fetched = await wasmFetched(page);
    assert.ok(fetched.includes('netcode_lab_bg.wasm'), `lesson ${lesson}: the full core (its helpers)`);
    assert.ok(!fetched.includes('netcode_lab_page_bg.wasm'), `lesson ${lesson}: not the first-frame core: ${fetched}`);
  }
  assert.deepEqual(problems(), []);
  const bad = await openPage(browser, { path: 'embed.html#fig=nonsense', viewport: { width: 640, height: 400 } });
  await bad.page.waitForSelector('#banner:not([hidden])');
  assert.match(await bad.page.textContent('#banner'), /nonsense/);
});

test('"Copy embed code" gives the iframe snippet of the current state, and its frame shows that state', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.fill('#control-renderDelay', '180');
  await page.dispatchEvent('#control-renderDelay', 'input');
  await page.click('figure:has(#view-remote) .fig-embed');
  const box = await page.waitForSelector('.embed-code textarea');
  const snippet = await box.inputValue();
  assert.match(snippet, /^<iframe src="[^"]*embed\.html#fig=remote&amp;[^"]*renderDelay=180[^"]*" width="640" height="400" title="Remote \(as rendered\) — netcode-lab"/);
  assert.ok(await page.isVisible('.embed-code .embed-status'), 'the copy says what happened (copied, or select and copy)');
  const src = snippet.match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
  assert.ok(src.startsWith(BASE_URL), 'the snippet points at this site, no other host');
  const frame = await openPage(browser, { path: src, viewport: { width: 640, height: 400 } });
  await waitReady(frame.page);
  assert.equal(await frame.page.$eval('#control-renderDelay', (s) => s.value), '180');
  assert.deepEqual(frame.problems(), []);
  assert.deepEqual(problems(), []);
});

test('under prefers-reduced-motion an embed starts still (the play button starts it)', async () => {
  const { page, problems } = await openPage(browser, {
    path: 'embed.html#fig=remote&lang=en',
    viewport: { width: 640, height: 400 },
    before: (p) => p.emulateMedia({ reducedMotion: 'reduce' }),
  });
  await waitReady(page);
  const first = await page.evaluate(() => window.netcodeLab.app.state.playhead);
  await page.waitForTimeout(400);
  assert.equal(await page.evaluate(() => window.netcodeLab.app.state.playhead), first, 'nothing moves by itself');
  assert.equal(await page.textContent('#play'), 'Play');
  await page.click('#play');
  await page.waitForFunction((t0) => window.netcodeLab.app.state.playhead !== t0, first);
  assert.deepEqual(problems(), []);
});
