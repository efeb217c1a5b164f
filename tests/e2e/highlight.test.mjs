// The step-through drawn on the lanes and views (lanes-highlight.js, views-highlight.js): walking seed 002's
// steps, every step changes the lanes, a `sent` step the Server view and a bracket / factor / status step the
// Remote view — each compared with the same moment drawn without the highlight — and leaves the other views as
// they are; what is drawn names the right snapshots (the crossing of tick 101 with 102, the buffer order, the
// factor 0.5 at 10.30); every tag stays inside its canvas and clear of the others; closing the stepper restores
// the normal drawing. Screenshots of a few steps in both languages, light and dark, 1280 and 420 px wide.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, waitReady, canvasStats } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const CANVASES = { lanes: '#lanes', server: '#view-server', remote: '#view-remote' };
const VIEW_STEPS = { server: ['sent'], remote: ['bracket', 'factor', 'status'] };

async function openStepper(page) {
  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  return page.evaluate(() => window.netcodeLab.app.teach.stepper.steps.length);
}

/** The three canvases' checksums, and what the painters say they drew. */
async function look(page) {
  const sums = {};
  for (const [name, sel] of Object.entries(CANVASES)) sums[name] = (await canvasStats(page, sel)).checksum;
  const drawn = await page.evaluate(() => {
    const [views, lanes] = window.netcodeLab.app.scheduler.painters;
    return { lanes: lanes.last.highlight, server: views.last.server.highlight, remote: views.last.remote.highlight, w: document.getElementById('lanes').clientWidth,
      wv: document.getElementById('view-remote').clientWidth };
  });
  return { sums, drawn };
}

/** The same moment drawn without the highlight (then the highlight is put back). */
async function lookWithout(page) {
  await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app._saved = app.highlight;
    app.highlight = null;
    app.draw();
  });
  const plain = await look(page);
  await page.evaluate(() => {
    const app = window.netcodeLab.app;
    app.highlight = app._saved;
    app.draw();
  });
  return plain;
}

function assertTagsFit(tags, width, where) {
  for (const r of tags ?? []) {
    assert.ok(r.x >= 0 && r.x + r.w <= width + 0.5, `${where}: tag ${JSON.stringify(r)} inside 0..${width}`);
  }
  for (let i = 0; i < (tags?.length ?? 0); i++) {
    for (let j = i + 1; j < tags.length; j++) {
      const [a, b] = [tags[i], tags[j]];
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      assert.ok(apart, `${where}: tags overlap ${JSON.stringify(a)} ${JSON.stringify(b)}`);
    }
  }
}

test('walking seed 002 draws each step on the lanes and the relevant view, and clearing it restores the drawing', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=out-of-order' });
  await waitReady(page);
  const n = await openStepper(page);
  const seen = new Set();
  const facts = [];
  let plainLast = null;
  for (let i = 0; i < n; i++) {
    const h = await page.evaluate(() => window.netcodeLab.app.highlight);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.highlight), `${h.kind}:${h.step}`);
    const lit = await look(page);
    const plain = await lookWithout(page);
    assert.equal(lit.drawn.lanes?.step, h.step, `step ${i + 1} (${h.step}): the lanes draw it`);
    assert.notEqual(lit.sums.lanes, plain.sums.lanes, `step ${i + 1} (${h.step}): the lanes change`);
    assert.equal(plain.drawn.lanes, null, 'nothing is highlighted without a highlight');
    for (const view of ['server', 'remote']) {
      if (VIEW_STEPS[view].includes(h.step)) {
        assert.equal(lit.drawn[view]?.step, h.step, `step ${i + 1} (${h.step}): the ${view} view draws it`);
        assert.notEqual(lit.sums[view], plain.sums[view], `step ${i + 1} (${h.step}): the ${view} view changes`);
      } else {
        assert.equal(lit.drawn[view], null, `step ${i + 1} (${h.step}): not the ${view} view's step`);
        assert.equal(lit.sums[view], plain.sums[view], `step ${i + 1} (${h.step}): the ${view} view is as it was`);
      }
    }
    assertTagsFit(lit.drawn.lanes.tags, lit.drawn.w, `step ${i + 1} lanes`);
    for (const view of ['server', 'remote']) assertTagsFit(lit.drawn[view]?.tags, lit.drawn.wv, `step ${i + 1} ${view}`);
    seen.add(h.step);
    facts.push({ h, lanes: lit.drawn.lanes, remote: lit.drawn.remote, server: lit.drawn.server });
    plainLast = plain;
    if (i < n - 1) await page.keyboard.press('.');
  }
  for (const kind of ['sent', 'arrived', 'inserted', 'renderTime', 'bracket', 'factor', 'status']) assert.ok(seen.has(kind), `a ${kind} step`);
  // What is drawn names the article's snapshots.
  const sent100 = facts.find((f) => f.h.step === 'sent' && f.h.tick === 100);
  assert.equal(sent100.server.tick, 100);
  const late101 = facts.find((f) => f.h.step === 'arrived' && f.h.tick === 101);
  assert.equal(late101.h.outOfOrder, true);
  assert.equal(late101.lanes.crossing?.tick, 102, 'tick 101 is drawn overtaken by 102');
  const insert101 = facts.find((f) => f.h.step === 'inserted' && f.h.tick === 101);
  assert.deepEqual(insert101.lanes.order, [100, 101, 102]);
  assert.equal(insert101.lanes.position, 1);
  const at1030 = facts.filter((f) => f.h.kind === 'frame' && Math.abs(f.h.time - 10.3) < 1e-9);
  assert.deepEqual([at1030.find((f) => f.h.step === 'bracket').remote.left, at1030.find((f) => f.h.step === 'bracket').remote.right], [101, 102]);
  assert.ok(Math.abs(at1030.find((f) => f.h.step === 'factor').lanes.factor - 0.5) < 1e-9, 't = 0.5 at 10.30');
  const underrun = facts.find((f) => f.h.step === 'status' && f.h.status === 'underrun');
  assert.equal(underrun.lanes.status, 'underrun');
  // Clearing: the same moment, drawn as if there had never been a highlight.
  await page.click('#stepper-close');
  assert.equal(await page.evaluate(() => window.netcodeLab.app.highlight), null);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.highlight), '');
  const after = await look(page);
  assert.deepEqual(after.sums, plainLast.sums, 'closing the stepper restores the normal drawing');
  assert.equal(after.drawn.lanes, null);
  assert.deepEqual(problems(), []);
});

test('the step-through over a simulated run draws its steps too, tags inside the canvas', async () => {
  const { page, problems } = await openPage(browser, { path: '#lesson=render-delay' });
  await waitReady(page);
  await page.click('#stepper-open');
  await page.waitForSelector('#stepper:not([hidden]) #stepper-text');
  const n = await page.evaluate(() => window.netcodeLab.app.teach.stepper.steps.length);
  for (let i = 0; i < n; i++) {
    const { h, drawn } = await page.evaluate(() => ({ h: window.netcodeLab.app.highlight, drawn: window.netcodeLab.app.scheduler.painters[1].last.highlight }));
    assert.equal(drawn?.step, h.step, `step ${i + 1} (${h.step}) drawn on the lanes`);
    const w = await page.evaluate(() => document.getElementById('lanes').clientWidth);
    assertTagsFit(drawn.tags, w, `run step ${i + 1}`);
    await page.keyboard.press('.');
  }
  assert.deepEqual(problems(), []);
});

const ARTIFACTS = process.env.NETCODE_LAB_ARTIFACTS ?? 'artifacts/e2e';

test('screenshots of steps in both languages, light and dark, 1280 and 420 px wide', async () => {
  // Steps of seed 002: tick 101 arrives out of order (21), is inserted between 100 and 102 (22), the factor
  // at 10.30 (29), the underrun at 10.36 (33).
  const shots = [
    ['en', false, false, [21, 22, 29, 33]], ['zh', false, false, [21, 22, 29, 33]], ['zh', true, false, [22, 33]],
    ['en', true, true, [21, 29]], ['zh', false, true, [22, 29]],
  ];
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const [lang, dark, narrow, steps] of shots) {
    const { page, problems } = await openPage(browser, { path: `#lesson=out-of-order&lang=${lang}`, viewport: narrow ? { width: 420, height: 900 } : undefined,
      before: dark ? (p) => p.emulateMedia({ colorScheme: 'dark' }) : undefined });
    await waitReady(page);
    await openStepper(page);
    let at = 1;
    for (const step of steps) {
      for (; at < step; at++) await page.keyboard.press('.');
      const name = `highlight-${step}-${lang}${dark ? '-dark' : ''}${narrow ? '-narrow' : ''}`;
      // The lanes and views as a reader sees them (on narrow screens the step sheet is lifted off for the picture).
      if (narrow) await page.addStyleTag({ content: '#stepper { visibility: hidden; }' });
      await page.locator('.views').screenshot({ path: join(ARTIFACTS, `${name}-views.png`) });
      await page.locator('#lanes').screenshot({ path: join(ARTIFACTS, `${name}-lanes.png`) });
      if (narrow) await page.addStyleTag({ content: '#stepper { visibility: visible; }' });
    }
    assert.deepEqual(problems(), []);
    await page.close();
  }
});
