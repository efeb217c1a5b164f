// Nothing thrown away: a lesson, the step-through, a preset, present mode and an import are places the reader
// visits. Leaving a lesson for the sandbox (from the menu or by closing the step-through) brings the reader's own
// settings back, not the defaults; each deliberate move is an entry of the browser's history, so Back returns to
// the state before it — and a drag is not an entry. A link's bad values say so once and leave the URL. The first
// minute: the sandbox opens on a warm moment, an underrun's reason names what to move, and the readouts' terms
// are explained on hover and on tap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady, urlHash } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The link's downlink loss and latency now (s and fraction), once no change is pending. */
async function network(page) {
  await page.waitForFunction(() => !window.netcodeLab.app.pending);
  return page.evaluate(() => {
    const d = window.netcodeLab.model().params.network.downlink;
    return { loss: d.loss, latency: d.latency };
  });
}

/** The lesson shown ('' for the sandbox), once the card has followed the URL. */
async function lessonShown(page, id) {
  await page.waitForFunction((id) => (document.getElementById('lesson-card').dataset.lesson ?? '') === id, id);
}

const MINE = { loss: 0.1, latency: 0.18 };

/** Sets the reader's own network: 10 % loss, 180 ms. */
async function setMine(page) {
  await page.locator('#control-loss').fill('10');
  await page.locator('#control-latency').fill('180');
  assert.deepEqual(await network(page), MINE);
}

test('a lesson, the step-through and Back return the reader\'s own settings', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.evaluate(() => window.netcodeLab.app.teach.loadLessons());
  const entries = await page.evaluate(() => history.length);
  await setMine(page);
  assert.equal(await page.evaluate(() => history.length), entries, 'moving sliders adds no history entry');

  // A lesson, then the sandbox from the menu: the sandbox's settings, not the defaults.
  await page.selectOption('#lesson-select', 'jitter');
  await lessonShown(page, 'jitter');
  assert.notDeepEqual(await network(page), MINE, 'the lesson runs its own network');
  await page.selectOption('#lesson-select', '');
  await lessonShown(page, '');
  assert.deepEqual(await network(page), MINE, 'back in the sandbox, its settings are back');

  // A lesson, then Back.
  await page.selectOption('#lesson-select', 'presets');
  await lessonShown(page, 'presets');
  assert.notDeepEqual(await network(page), MINE);
  await page.goBack();
  await lessonShown(page, '');
  assert.deepEqual(await network(page), MINE, 'Back returns to the sandbox as it was');
  assert.doesNotMatch(await urlHash(page), /lesson=/);

  // The step-through switches to seed 002's walk; closing it returns to the sandbox and its settings.
  await page.click('#stepper-open');
  await lessonShown(page, 'out-of-order');
  await page.click('#stepper-close');
  await lessonShown(page, '');
  assert.deepEqual(await network(page), MINE, 'closing the step-through gives the settings back');

  // A preset replaces the network; Back gives it back.
  await page.selectOption('#control-preset', 'lan');
  await page.waitForFunction(() => window.netcodeLab.model().params.scenario.sendRate === 30);
  assert.notDeepEqual(await network(page), MINE);
  await page.goBack();
  await page.waitForFunction(() => window.netcodeLab.model().params.scenario.sendRate === 20);
  assert.deepEqual(await network(page), MINE, 'Back undoes the preset');

  // Present mode on, then Back: off again, the settings untouched.
  await page.click('#present-toggle');
  await page.waitForFunction(() => document.body.classList.contains('present'));
  await page.goBack();
  await page.waitForFunction(() => !document.body.classList.contains('present'));
  assert.deepEqual(await network(page), MINE);
  assert.deepEqual(problems(), []);
});

test('a long bad link makes one short notice; refused values leave the URL; left-out engines are named', async () => {
  const junk = Array.from({ length: 1250 }, (_, i) => `k${i}=1`).join('&');
  assert.ok(junk.length > 5000);
  const { page, problems } = await openPage(browser, { path: `#${junk}&lang=fr&present=2&engines=mirror,unreal,ngo,source,geckos,fishnet` });
  await waitReady(page);
  const notice = await page.textContent('#notice');
  const lines = notice.split('\n');
  assert.ok(lines.length <= 5, `${lines.length} lines: ${notice.slice(0, 300)}`);
  assert.match(lines[0], /^Ignored 1250 unknown settings: “k0”, “k1”, “k2” …\.$/);
  assert.match(notice, /Ignored language “fr”/);
  assert.match(notice, /Ignored present “2”/);
  assert.match(notice, /Ignored engine “unreal”: not one of/);
  assert.match(notice, /Ignored engine “fishnet”: the views draw at most 4 engines at once\./);
  await page.waitForFunction(() => window.netcodeLab.app.scheduler.urlCaughtUp);
  const hash = await urlHash(page);
  assert.doesNotMatch(hash, /lang=|present=|k0=/, hash);
  assert.match(decodeURIComponent(hash), /engines=mirror,ngo,source,geckos/);
  assert.deepEqual(problems(), []);
});

test('the sandbox opens on a warm moment, runs dry on at most 1 % of frames, and an underrun says what to move', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const opened = await page.evaluate(() => {
    const app = window.netcodeLab.app;
    const model = app.model;
    const row = model.frameRow(model.frameAt(app.state.playhead));
    return { playhead: app.state.playhead, status: model.codes.status[row.status], reason: document.getElementById('reason').textContent,
      delay: model.params.remote.clock.renderDelay, loss: model.params.network.downlink.loss, underrun: model.metrics().remote.underrunShare };
  });
  assert.ok(opened.playhead >= 2, `past the warm-up (${opened.playhead} s)`);
  assert.equal(opened.status, 'ready', `not priming, not clock-uncertain: ${opened.reason}`);
  // The default network (50 ± 10 ms, 20 Hz, no loss) at the default delay: 120 ms covers the newest snapshot's
  // 60 + 50 ms of age. Red: the default back at seed 000's 100 ms (8 % of frames on this seed).
  assert.deepEqual([opened.delay, opened.loss], [0.12, 0]);
  assert.ok(opened.underrun <= 0.01, `default underrun ${opened.underrun}`);
  // At the article's 100 ms a frame runs past its data: the reason names the setting to move.
  await page.evaluate(() => { location.hash = '#renderDelay=100'; });
  await page.waitForFunction(() => window.netcodeLab.model().params.remote.clock.renderDelay === 0.1 && window.netcodeLab.model().metrics().remote.underrunShare > 0.01);
  const t = await page.evaluate(() => {
    const model = window.netcodeLab.model();
    const f = model.table('frames');
    const underrun = model.codes.status.indexOf('underrun');
    for (let i = 0; i < f.rows; i++) if (f.view[i * f.stride + f.col.status] === underrun) return f.view[i * f.stride + f.col.local];
    return null;
  });
  assert.ok(t !== null, 'the run at 100 ms has an underrun to look at');
  await page.evaluate((t) => window.netcodeLab.app.seek(t), t);
  await page.waitForFunction(() => /raise Render delay/.test(document.getElementById('reason').textContent));
  // Opened on a link's own moment, the link wins.
  const linked = await openPage(browser, { path: '#t=0.5' });
  await waitReady(linked.page);
  assert.equal(await linked.page.evaluate(() => window.netcodeLab.app.state.playhead), 0.5);
  assert.deepEqual(linked.problems(), []);
  assert.deepEqual(problems(), []);
});

for (const [lang, ahead, jerk] of [['en', /send intervals/, /units\/s³/], ['zh', /发送间隔/, /单位\/s³/]]) {
  test(`the readouts' terms are explained on hover and on tap (${lang})`, async () => {
    const { page, problems } = await openPage(browser, { path: `#lang=${lang}` });
    await waitReady(page);
    await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
    await page.hover('#buffer-depth');
    assert.match(await page.getAttribute('#buffer-depth', 'title'), ahead, 'the tooltip says what "ahead" counts in');
    await page.click('#buffer-depth');
    await page.waitForSelector('#glossary-note:not([hidden])');
    assert.match(await page.textContent('#glossary-note'), ahead);
    await page.click('h1');
    await page.waitForSelector('#glossary-note', { state: 'hidden' });
    // The metrics table's jerk column says its unit.
    await page.locator('#metrics').scrollIntoViewIfNeeded(); // drawn once in view
    await page.evaluate(() => { for (const d of document.querySelectorAll('#metrics details, details:has(#metrics)')) d.open = true; });
    await page.waitForSelector('#metrics-table th[data-glossary="jerk"]');
    await page.click('#metrics-table th[data-glossary="jerk"]');
    assert.match(await page.textContent('#glossary-note'), jerk);
    assert.deepEqual(problems(), []);
  });
}

test('on a phone the Remote view comes first, and a touch pad under the Local view steers', async () => {
  const { page, problems } = await openPage(browser, { path: '#lang=en', viewport: { width: 390, height: 844 } });
  await waitReady(page);
  const tops = await page.evaluate(() => Object.fromEntries(['server', 'local', 'remote'].map((v) => [v, document.getElementById(`view-${v}`).getBoundingClientRect().top])));
  assert.ok(tops.remote < tops.server && tops.server < tops.local, `Remote, then Server, then Local: ${JSON.stringify(tops)}`);
  assert.ok(tops.remote < 844, 'the Remote view starts on the first screen');
  const up = page.locator('.touch-pad [data-key="ArrowUp"]');
  await up.scrollIntoViewIfNeeded();
  assert.equal(await up.isVisible(), true);
  const box = await up.boundingBox();
  assert.ok(box.height >= 44, `thumb-sized (${box.height} px)`);
  await page.evaluate(() => window.netcodeLab.app.transport.setPlaying(false));
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForFunction(() => window.netcodeLab.app.state.keys.up === true && window.netcodeLab.model().params.script?.at(-1)?.keys.up === true);
  await page.mouse.up();
  await page.waitForFunction(() => window.netcodeLab.app.state.keys.up === false && window.netcodeLab.model().params.script?.at(-1)?.keys.up === false);
  assert.deepEqual(problems(), []);
});

test('an import is a place too: the Network group says its sliders do not apply, and Back returns to the simulation', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true');
  await setMine(page);
  await page.setInputFiles('#trace-file', new URL('../traces/seed-002.json', import.meta.url).pathname);
  await page.waitForFunction(() => window.netcodeLab.model().imported);
  await page.waitForSelector('details[data-group="network"] .imported-note:not([hidden])');
  assert.match(await page.textContent('details[data-group="network"] .imported-note'), /Moving one returns to the simulation/);
  await page.goBack();
  await page.waitForFunction(() => !window.netcodeLab.model().imported);
  assert.deepEqual(await network(page), MINE, 'the simulation as it was');
  await page.waitForSelector('details[data-group="network"] .imported-note', { state: 'hidden' });
  assert.deepEqual(problems(), []);
});
