// Classroom and phone: present mode at 1920×1080 (views and lanes fill the screen, every text
// ≥ 20 px — canvas text included —, the lesson card beside them with the rail groups it opened, the rest out of
// the way, kept in the URL); present mode at projector sizes (1280×720, 1366×768, 1920×1080, en and zh: no text
// box overlaps another, the transport on screen, the views a third of the height, the lesson's controls at hand)
// and narrowed to a phone (its phone layout),
// "Download PNG" (2×, with the settings drawn under the figure), the phone's order at 390×844 and the views'
// share of the first screen at 1280×800.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launch, openPage, waitReady, screenshot, urlHash } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/**
 * Records, for the views and the lanes, the smallest size canvas text is drawn at in CSS px: the font's px times
 * the context's scale, over the device pixel ratio. Installed before the page loads.
 */
const recordCanvasText = () => {
  window.__canvasText = { min: Infinity, count: 0 };
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (...args) {
    const canvas = this.canvas;
    // The views draw their static text into an offscreen layer blitted 1:1 — count those too (no id, no parent).
    const onScreen = canvas.id && /^(view-|lanes$)/.test(canvas.id);
    const layer = !canvas.isConnected && !canvas.id;
    if (window.__measureCanvasText && (onScreen || layer)) {
      const px = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1]);
      const css = (px * this.getTransform().a) / (window.devicePixelRatio || 1);
      if (Number.isFinite(css)) {
        window.__canvasText.min = Math.min(window.__canvasText.min, css);
        window.__canvasText.count += 1;
      }
    }
    return fill.apply(this, args);
  };
};

for (const lang of ['en', 'zh']) {
  test(`present mode at 1920×1080 (${lang}): views and lanes fill the screen, text ≥ 20 px, the lesson beside them`, async () => {
    const { page, problems } = await openPage(browser, {
      path: `#lang=${lang}&lesson=render-delay`,
      viewport: { width: 1920, height: 1080 },
      before: (p) => p.addInitScript(recordCanvasText),
    });
    await waitReady(page);
    // The key P turns it on; the URL keeps it.
    await page.locator('body').press('p');
    await page.waitForFunction(() => document.body.classList.contains('present'));
    assert.match(await urlHash(page), /present=1/);
    await page.evaluate(() => { window.__measureCanvasText = true; window.__canvasText = { min: Infinity, count: 0 }; window.netcodeLab.app.lastDraw = { runId: -1 }; });
    await page.waitForTimeout(300); // the canvases' new widths arrive by ResizeObserver, then a redraw
    await page.evaluate(() => { window.netcodeLab.app.transport.setPlaying(false); window.netcodeLab.app.draw(); });
    const canvasText = await page.evaluate(() => window.__canvasText);
    assert.ok(canvasText.count > 20, `canvas text was drawn (${canvasText.count})`);
    assert.ok(canvasText.min >= 20, `canvas text ≥ 20 px on screen (smallest ${canvasText.min.toFixed(1)} px)`);
    const layout = await page.evaluate(() => {
      const box = (el) => el.getBoundingClientRect();
      const views = [...document.querySelectorAll('.view canvas')].map(box);
      const lanes = box(document.getElementById('lanes'));
      const card = box(document.getElementById('lesson-card'));
      // Every visible text under the shell and the top bar, its font size.
      const small = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el.closest('.shell, .topbar') || !el.checkVisibility()) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 20) small.push(`${el.className || el.tagName}: ${size}px “${n.textContent.trim().slice(0, 30)}”`);
      }
      const shown = (sel) => [...document.querySelectorAll(sel)].some((e) => e.checkVisibility());
      return {
        views, lanes, card, small,
        others: ['#plots', '#comparison', '#metrics', '#league', '#engines', '.readouts'].filter(shown),
        // The rail keeps only the groups the lesson opened, under its card ("Then try" works while presenting).
        groups: [...document.querySelectorAll('#controls details.group')].filter((d) => d.checkVisibility()).map((d) => d.dataset.group),
        lessonGroups: [...document.querySelectorAll('#controls details.group[open]')].map((d) => d.dataset.group),
        scrollH: document.documentElement.scrollHeight,
      };
    });
    assert.deepEqual(layout.small, [], 'no text under 20 px');
    assert.deepEqual(layout.others, [], 'every other panel is out of the way');
    assert.ok(layout.groups.length >= 1, 'the lesson\'s rail groups are shown');
    assert.deepEqual(layout.groups, layout.lessonGroups, 'only the groups the lesson opened');
    const viewsWidth = layout.views[2].right - layout.views[0].left;
    assert.ok(viewsWidth + layout.card.width > 1700, `views and card span the screen (${viewsWidth} + ${layout.card.width})`);
    assert.ok(layout.card.left >= layout.views[2].right, 'the lesson card is beside the views');
    const bottom = layout.lanes.bottom;
    assert.ok(bottom <= 1080 && bottom > 1080 * 0.7, `views and lanes fill the screen height (lanes end at ${bottom})`);
    assert.ok(layout.views[0].height > 300, `views are large (${layout.views[0].height} px tall)`);
    await screenshot(page, `present-${lang}-1920`);
    // Off again with the button; the URL forgets it.
    await page.click('#present-toggle');
    assert.doesNotMatch(await urlHash(page), /present=1/);
    // A link with present=1 opens in present mode.
    const linked = await openPage(browser, { path: `#present=1&lang=${lang}`, viewport: { width: 1920, height: 1080 } });
    await waitReady(linked.page);
    assert.equal(await linked.page.evaluate(() => document.body.classList.contains('present')), true);
    assert.deepEqual(linked.problems(), []);
    // A bad value is refused with a notice naming it, and the page stays as it is.
    const bad = await openPage(browser, { path: '#present=yes&lang=en', viewport: { width: 1920, height: 1080 } });
    await waitReady(bad.page);
    assert.match(await bad.page.textContent('#notice'), /Ignored present “yes”: use 1 or 0\./);
    assert.equal(await bad.page.evaluate(() => document.body.classList.contains('present')), false);
    assert.deepEqual(bad.problems(), []);
    assert.deepEqual(problems(), []);
  });
}

/**
 * Runs in the page: pairs of visible text boxes of different elements in the views, the lanes, the transport and
 * the lesson card that overlap by more than 2 px both ways (each text node's line boxes, so a wrapped paragraph
 * is its lines, not its bounding box).
 */
function overlappingText() {
  const boxes = [];
  for (const root of document.querySelectorAll('.views, .lanes, #transport, #lesson-card')) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!n.textContent.trim() || el.closest('select, option') || !el.checkVisibility({ visibilityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) boxes.push({ el, r, text: n.textContent.trim().slice(0, 24) });
    }
  }
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.el === b.el) continue;
      const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (x > 2 && y > 2) out.push(`“${a.text}” × “${b.text}”`);
    }
  }
  return out.slice(0, 10);
}

for (const [width, height] of [[1280, 720], [1366, 768], [1920, 1080]]) {
  for (const lang of ['en', 'zh']) {
    test(`present mode at ${width}×${height} (${lang}) with a lesson: no text over text, the transport on screen, the views a third of the height, the lesson's controls at hand`, async () => {
      const { page, problems } = await openPage(browser, { path: `#lang=${lang}&present=1&lesson=jitter`, viewport: { width, height } });
      await waitReady(page);
      await page.waitForFunction(() => document.getElementById('lesson-card').dataset.pending !== 'true');
      await page.waitForTimeout(300); // the canvases' widths arrive by ResizeObserver
      const layout = await page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
        return { transport: box('#transport'), views: box('.views'), play: box('#play'), time: box('#transport .time-box'), control: box('#control-jitter'), jitterShown: document.getElementById('control-jitter').checkVisibility() };
      });
      for (const [name, b] of [['Play', layout.play], ['the time', layout.time]]) {
        assert.ok(b.top >= 0 && b.bottom <= height && b.right <= width, `${name} on screen: ${JSON.stringify(b)}`);
      }
      assert.ok(layout.views.height >= height / 3, `the views keep a third of the height (${layout.views.height} of ${height})`);
      assert.ok(layout.jitterShown && layout.control.left >= layout.views.right, 'the lesson\'s Jitter slider is in the rail beside the views');
      assert.deepEqual(await page.evaluate(overlappingText), [], 'no text box overlaps another');
      await screenshot(page, `present-${width}x${height}-${lang}`);
      assert.deepEqual(problems(), []);
    });
  }
}

test('present mode narrowed to a phone falls back to the phone layout', async () => {
  const { page, problems } = await openPage(browser, { path: '#lang=en&present=1&lesson=jitter', viewport: { width: 390, height: 844 } });
  await waitReady(page);
  const layout = await page.evaluate(() => ({
    columns: getComputedStyle(document.querySelector('.shell')).gridTemplateColumns.split(' ').length,
    views: document.querySelector('.views').getBoundingClientRect().width,
    toggle: document.getElementById('present-toggle').checkVisibility(),
    controls: document.getElementById('to-controls').checkVisibility(),
  }));
  assert.equal(layout.columns, 1, 'one column');
  assert.ok(layout.views >= 350, `the views take the phone's width (${layout.views} px)`);
  assert.equal(layout.toggle, false, 'no present toggle on a phone');
  assert.equal(layout.controls, true, 'the phone\'s Controls button is there');
  assert.deepEqual(await page.evaluate(overlappingText), []);
  assert.deepEqual(problems(), []);
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes) {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('"Download PNG" gives the figure at 2× under its title and legend, with a caption stating the settings it depends on', async () => {
  const { page, problems } = await openPage(browser, { viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.fill('#control-renderDelay', '130');
  await page.dispatchEvent('#control-renderDelay', 'input');
  await page.fill('#control-seed', '7');
  await page.dispatchEvent('#control-seed', 'change');
  // Each figure: its title, its legend's first key, and which settings its caption names and leaves out.
  const FIGS = [
    ['figure:has(#view-remote)', '#view-remote', 'Remote (as rendered)', 'interpolated', /Packet loss 0 %/, /Half-life/],
    ['#plot-sweep', '#plot-sweep canvas.plot-static', 'Render delay: smoothness against lag', 'underrun frames', /Packet loss 0 %/, /Half-life/],
    ['.lanes', '#lanes', 'Timeline lanes', null, /Packet loss 0 %/, /Half-life/],
    ['#plot-decay', '#plot-decay canvas.plot-static', 'Correction offset after one correction', 'half-life (current)', /Half-life 80 ms/, /Render delay/],
  ];
  for (const [figure, canvasSel, title, key, names, leavesOut] of FIGS) {
    await page.locator(canvasSel).scrollIntoViewIfNeeded();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${figure} .fig-png`)]);
    const path = await download.path();
    const bytes = readFileSync(path);
    const size = pngSize(bytes);
    // The canvas's content box (fractional CSS px; the PNG rounds 2× of it).
    const css = await page.$eval(canvasSel, (c) => { const s = getComputedStyle(c); return { w: parseFloat(s.width) - parseFloat(s.borderLeftWidth) - parseFloat(s.borderRightWidth), h: parseFloat(s.height) - parseFloat(s.borderTopWidth) - parseFloat(s.borderBottomWidth) }; });
    await page.waitForFunction((name) => window.netcodeLab.lastPng?.file === name, download.suggestedFilename());
    const hook = await page.evaluate(() => window.netcodeLab.lastPng);
    assert.equal(download.suggestedFilename(), hook.file);
    assert.match(hook.file, /seed7\.png$/);
    assert.ok(Math.abs(size.width - css.w * 2) <= 1, `${canvasSel}: 2× its CSS width (${size.width} for ${css.w})`);
    assert.ok(Math.abs(hook.captionTop - hook.figureTop - css.h * 2) <= 2, `${canvasSel}: the figure at 2× its CSS height (${hook.captionTop - hook.figureTop} for ${css.h}), then the caption`);
    assert.ok(size.height > hook.captionTop + 30, 'a caption band under the figure');
    // A header above the figure: its title and legend, as the page shows them (red: composePng without a header).
    assert.equal(hook.title, title);
    assert.ok(hook.figureTop >= (key ? 70 : 40), `${canvasSel}: a title${key ? ' and a legend' : ''} above the figure (${hook.figureTop} px)`);
    if (key) assert.ok(hook.legend.includes(key), `${canvasSel}: legend ${hook.legend}`);
    assert.match(hook.caption, /seed 7/);
    assert.match(hook.caption, /Network: custom \(latency 50 ms ± 10 ms, 20 Hz\)/);
    // Only the settings that figure depends on (red: the old caption's fixed list, which named the half-life
    // under the Remote view).
    if (figure !== '#plot-decay') assert.match(hook.caption, /Render delay \(behind server now\) 130 ms/);
    assert.match(hook.caption, names);
    assert.doesNotMatch(hook.caption, leavesOut);
    // The caption is in the pixels: the band under the figure holds dark text on the paper colour.
    const ink = await page.evaluate(async ({ data, top }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const band = ctx.getImageData(0, top, img.width, img.height - top).data;
      let dark = 0;
      for (let i = 0; i < band.length; i += 4) if (band[i] + band[i + 1] + band[i + 2] < 200) dark += 1;
      return dark;
    }, { data: bytes.toString('base64'), top: hook.captionTop });
    assert.ok(ink > 500, `${canvasSel}: the caption is drawn (${ink} dark px)`);
  }
  // The page went back to its own resolution.
  const dpr = await page.evaluate(() => devicePixelRatio);
  const back = await page.$eval('#view-remote', (c) => [c.width, c.clientWidth]);
  assert.equal(back[0], Math.round(back[1] * dpr));
  assert.deepEqual(problems(), []);
});

test('a lesson card and seed 002\'s worked example download as PNGs too, under their titles', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=render-delay', viewport: { width: 1280, height: 800 } });
  await waitReady(page);
  await page.waitForSelector('#lesson-checks tbody td.verdict b');
  const card = await page.evaluate(() => ({ title: document.querySelector('#lesson-card h2').textContent, rows: document.querySelectorAll('#lesson-checks tbody tr:not(.why)').length }));
  const viewHeight = await page.$eval('#view-remote', (c) => c.getBoundingClientRect().height);
  const [lessonPng] = await Promise.all([page.waitForEvent('download'), page.click('.fig-tools[data-fig=lesson] .fig-png')]);
  await page.waitForFunction((name) => window.netcodeLab.lastPng?.file === name, lessonPng.suggestedFilename());
  const lesson = await page.evaluate(() => window.netcodeLab.lastPng);
  assert.equal(lesson.title, card.title);
  assert.ok(lesson.legend.includes('interpolated'), `the visual's legend: ${lesson.legend}`);
  // The checks are drawn above the lesson's visual: the figure is taller than the view by a band per check row
  // (red: the lesson PNG without its checks).
  assert.ok(lesson.captionTop - lesson.figureTop > 2 * viewHeight + card.rows * 50, `checks over the view: ${lesson.captionTop - lesson.figureTop} px for a ${viewHeight} px view and ${card.rows} rows`);
  assert.match(lesson.caption, /Render delay \(behind server now\) 100 ms/);
  assert.doesNotMatch(lesson.caption, /Half-life/);
  assert.deepEqual(problems(), []);

  const worked = await openPage(browser, { path: 'worked-example.html', viewport: { width: 1280, height: 800 } });
  await worked.page.waitForFunction(() => document.documentElement.dataset.ready === 'true');
  const [workedPng] = await Promise.all([worked.page.waitForEvent('download'), worked.page.click('#we-png')]);
  await worked.page.waitForFunction((name) => window.netcodeLab.lastPng?.file === name, workedPng.suggestedFilename());
  const we = await worked.page.evaluate(() => window.netcodeLab.lastPng);
  assert.match(we.title, /^Three snapshots arrive out of order — seed 002/);
  assert.deepEqual(we.legend, ['■ server snapshot', '○ arrival', '◆ rendered']);
  const size = pngSize(readFileSync(await workedPng.path()));
  const css = await worked.page.$eval('#view', (c) => c.clientWidth);
  assert.ok(Math.abs(size.width - 2 * css) <= 2, `the scene at 2×: ${size.width} px for ${css} CSS px`);
  assert.match(we.caption, /Render delay \(behind server now\) 150 ms · /);
  assert.deepEqual(worked.problems(), []);
});

for (const lang of ['en', 'zh']) {
  test(`phone 390×844 (${lang}): views and lanes first, then the transport, then the folded controls; thumb-sized sliders`, async () => {
    const { page, problems } = await openPage(browser, { path: `#lang=${lang}`, viewport: { width: 390, height: 844 } });
    await waitReady(page);
    const order = await page.evaluate(() => {
      const top = (sel) => document.querySelector(sel).getBoundingClientRect().top + scrollY;
      return { views: top('.views'), lanes: top('.lanes'), transport: top('#transport'), rail: top('.rail'), plots: top('#plots') };
    });
    assert.ok(order.views < order.lanes && order.lanes < order.transport && order.transport < order.rail && order.rail < order.plots,
      `views → lanes → transport → controls → plots (${JSON.stringify(order)})`);
    assert.ok(order.views < 844 / 2, 'the first screen starts with the picture');
    assert.deepEqual(await page.$$eval('.rail details.group', (ds) => ds.filter((d) => d.open).map((d) => d.dataset.group)), [], 'groups start folded');
    // One tap reaches the controls, one at the top of the rail comes back. Both sit in the page's flow, under the
    // transport and at the top of the rail: they cover nothing (red: the old floating button, position fixed over
    // the views' corner).
    const button = page.locator('#to-controls');
    assert.ok(await button.isVisible());
    const placed = await page.evaluate(() => {
      const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right }; };
      const buttons = ['to-controls', 'to-views'].map((id) => document.getElementById(id));
      const covered = [];
      for (const b of buttons) {
        const r = box(b);
        for (const el of document.querySelectorAll('canvas, button, input, select, output, .counters, .status-card, a')) {
          if (buttons.includes(el) || !el.checkVisibility() || b.contains(el)) continue;
          const o = box(el);
          if (o.left < r.right && r.left < o.right && o.top < r.bottom && r.top < o.bottom) covered.push(`${b.id} over ${el.id || el.className || el.tagName}`);
        }
      }
      return { positions: buttons.map((b) => getComputedStyle(b).position), covered, button: box(buttons[0]), transport: box(document.getElementById('transport')), rail: box(document.querySelector('.rail')), back: box(buttons[1]) };
    });
    assert.deepEqual(placed.positions, ['static', 'static']);
    assert.deepEqual(placed.covered, []);
    assert.ok(placed.transport.bottom <= placed.button.top + 1 && placed.button.bottom <= placed.rail.top + 1, `under the transport, above the rail: ${JSON.stringify(placed)}`);
    assert.ok(placed.back.top - placed.rail.top < 20, 'the way back heads the rail');
    await button.click();
    await page.waitForFunction(() => { const r = document.querySelector('.rail').getBoundingClientRect(); return r.top >= -1 && r.top < 100; });
    await page.click('.rail details.group[data-group=network] > summary');
    const small = await page.$$eval('input[type=range]', (inputs) => inputs.filter((i) => i.checkVisibility()).map((i) => [i.id, i.getBoundingClientRect().height]).filter(([, h]) => h < 44));
    assert.deepEqual(small, [], 'every visible slider is at least 44 px tall');
    await page.click('#to-views');
    await page.waitForFunction(() => Math.abs(document.querySelector('.views').getBoundingClientRect().top) < 2);
    await screenshot(page, `phone-${lang}-390`);
    // No text box over another in the views, the lanes, the transport or a lesson's card.
    assert.deepEqual(await page.evaluate(overlappingText), [], 'sandbox');
    await page.evaluate(() => { location.hash = `${location.hash}&lesson=jitter`; });
    await page.waitForFunction(() => document.getElementById('lesson-card').dataset.lesson === 'jitter' && document.getElementById('lesson-card').dataset.pending !== 'true');
    assert.deepEqual(await page.evaluate(overlappingText), [], 'with a lesson');
    assert.deepEqual(problems(), []);
  });

  test(`1280×800 (${lang}): the three world views take at least a third of the first screen`, async () => {
    const { page, problems } = await openPage(browser, { path: `#lang=${lang}`, viewport: { width: 1280, height: 800 } });
    await waitReady(page);
    const heights = await page.$$eval('.view canvas', (cs) => cs.map((c) => { const r = c.getBoundingClientRect(); return { h: r.height, bottom: r.bottom }; }));
    for (const { h, bottom } of heights) {
      assert.ok(h >= 800 / 3, `a view is ${h} px tall`);
      assert.ok(bottom <= 800, 'and wholly on the first screen');
    }
    await screenshot(page, `first-screen-${lang}-1280`);
    assert.deepEqual(problems(), []);
  });
}
