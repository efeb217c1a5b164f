// The bad-input catalogue (tests/bad-inputs/) at the page's two doors: every trace imported through the file
// input (read by the import worker) and every URL hash. A refused trace shows exactly
// "Trace not imported (NAME): <the line>" and keeps the previous run; an accepted one is shown, with what the
// buffer counted; a bad link setting is ignored or clamped with its exact notice. No console error, ever, and
// the page still draws at the end. The CLI's door is tests/bad_inputs.rs, the binding's tests/web.rs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, waitReady, canvasStats, screenshot } from './harness.mjs';
import { catalogue, bytes, generate, atDoor, errorInTheViews } from './bad-inputs.mjs';

let browser;
let folder;
before(async () => {
  browser = await launch();
  folder = mkdtempSync(join(tmpdir(), 'netcode-lab-bad-inputs-'));
});
after(async () => {
  await browser?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('the generators build what the README says (as the Rust runners do)', () => {
  assert.equal(generate({ kind: 'snapshots', count: 2 }),
    '{"format":"netcode-lab/trace@1","kind":"snapshots","snapshots":[{"tick":0,"serverTime":0,"arrival":0,"x":0,"y":0,"vx":0,"vy":0},{"tick":1,"serverTime":1,"arrival":1,"x":1,"y":0,"vx":0,"vy":0}],"sampleAt":[0,1,2]}');
  assert.equal(generate({ kind: 'sampleAt', count: 3 }), '{"format":"netcode-lab/trace@1","kind":"snapshots","snapshots":[],"sampleAt":[0,0,0]}');
  assert.equal(generate({ kind: 'note', count: 3 }), '{"format":"netcode-lab/trace@1","kind":"snapshots","note":"nnn","snapshots":[],"sampleAt":[]}');
  assert.equal(generate({ kind: 'snapshots', count: 600000 }).length, 49955644, 'the 50 MB trace');
  assert.equal(generate({ kind: 'arrivals', count: 3 }), 'seq,arrival\n0,0\n1,1\n2,2\n');
});

/** Clears the notice, then waits until it says something again. */
async function noticeAfter(page, action) {
  await page.evaluate(() => { const n = document.getElementById('notice'); n.textContent = ''; n.hidden = true; });
  await action();
  await page.waitForFunction(() => document.getElementById('notice').textContent !== '', null, { timeout: 60000 });
  return page.textContent('#notice');
}

test('every trace is refused with its line and the previous run kept, or shown with its counts', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  await page.evaluate(() => { window.netcodeLab.app.state.playing = false; });
  const failures = [];
  for (const entry of catalogue.traces.filter((e) => atDoor(e, 'page'))) {
    const name = `${entry.id}.json`;
    const path = join(folder, name);
    writeFileSync(path, bytes(entry));
    const before = await page.evaluate(() => ({ runId: window.netcodeLab.model().runId, imported: window.netcodeLab.model().imported }));
    const notice = await noticeAfter(page, () => page.setInputFiles('#trace-file', path));
    rmSync(path);
    const after = await page.evaluate(() => ({ runId: window.netcodeLab.model().runId, imported: window.netcodeLab.model().imported, summary: window.netcodeLab.model().trace }));
    const error = errorInTheViews(entry);
    if (error !== null) {
      const expected = `Trace not imported (${name}): ${error}`;
      if (notice !== expected) failures.push(`${entry.id}:\n  got      ${notice}\n  expected ${expected}`);
      if (after.runId !== before.runId || after.imported !== before.imported) failures.push(`${entry.id}: the previous run was not kept`);
      continue;
    }
    if (!notice.startsWith('Showing an imported trace') || !after.imported) {
      failures.push(`${entry.id}: not shown: ${notice}`);
      continue;
    }
    if (entry.notice && !notice.includes(entry.notice)) failures.push(`${entry.id}: the notice lacks “${entry.notice}”: ${notice}`);
    for (const [key, value] of Object.entries(entry.summary ?? {})) {
      if (after.summary[key] !== value) failures.push(`${entry.id}: summary.${key} is ${after.summary[key]}, expected ${value}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok((await canvasStats(page, '#view-remote')).painted > 0, 'the page still draws');
  await screenshot(page, 'bad-inputs-traces');
  assert.deepEqual(problems(), []);
});

/** `a.b.c` of `obj`. */
const at = (obj, path) => path.split('.').reduce((o, k) => o?.[k], obj);

test('every bad link setting is ignored or clamped with its notice, the rest of the link applied', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  const failures = [];
  for (const entry of catalogue.hash) {
    const hash = `#${entry.hash.replace('@LONG@', '9'.repeat(entry.long ?? 0))}`;
    await page.waitForFunction(() => window.netcodeLab.app.scheduler.urlCaughtUp); // no throttled URL write still pending
    const applied = await page.evaluate(() => {
      const n = document.getElementById('notice');
      n.textContent = '';
      n.hidden = true;
      history.replaceState(null, '', location.pathname);
      return window.netcodeLab.app.hashesApplied;
    });
    await page.evaluate((h) => { location.hash = h; }, hash);
    await page.waitForFunction((n) => window.netcodeLab.app.hashesApplied > n, applied, { timeout: 10000 })
      .catch(() => { throw new Error(`${entry.id}: the link was not applied`); });
    const notice = await page.textContent('#notice');
    const expected = entry.notice ?? '';
    if (notice !== expected) failures.push(`${entry.id}:\n  got      ${notice}\n  expected ${expected}`);
    // The recorder's settings (record.js) are refused in its panel, under its fields.
    const recorder = await page.$eval('#record-link', (p) => (p.hidden ? '' : p.textContent));
    if (recorder !== (entry.recorder ?? '')) failures.push(`${entry.id} (recorder):\n  got      ${recorder}\n  expected ${entry.recorder ?? ''}`);
    const params = await page.evaluate(() => window.netcodeLab.model().params);
    for (const [path, value] of Object.entries(entry.params ?? {})) {
      const got = at(params, path);
      if (!Object.is(got ?? null, value) && got !== value) failures.push(`${entry.id}: ${path} is ${got}, expected ${value}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok((await canvasStats(page, '#view-remote')).painted > 0, 'the page still draws');
  assert.deepEqual(problems(), []);
});

test('a large trace is read off the main thread with progress: the page keeps drawing', async () => {
  const { page, problems } = await openPage(browser);
  await waitReady(page);
  // 150 000 snapshots and 150 000 frames (the limits), 20 Hz, with all 17 digits: about 26 MB.
  const snapshots = [];
  for (let i = 0; i < 150000; i += 1) {
    const t = i * 0.05 + 1e-9 * (i % 7);
    snapshots.push(`{"tick":${i},"serverTime":${t},"arrival":${t + 0.08 + 0.02 * Math.sin(i)},"x":${100 * Math.cos(i / 100)},"y":${100 * Math.sin(i / 100)},"vx":${-Math.sin(i / 100)},"vy":${Math.cos(i / 100)}}`);
  }
  const sampleAt = Array.from({ length: 150000 }, (_, i) => 0.2 + i / 60);
  const path = join(folder, 'large.json');
  writeFileSync(path, `{"format":"netcode-lab/trace@1","kind":"snapshots","note":"150 000 snapshots","snapshots":[${snapshots.join(',')}],"sampleAt":[${sampleAt.join(',')}]}`);
  await page.setInputFiles('#trace-file', path);
  await page.waitForSelector('#trace-progress:not([hidden])');
  assert.match(await page.textContent('#trace-progress'), /Reading large\.json… \d+ %|Checking and replaying large\.json…/);
  await page.waitForFunction(() => window.netcodeLab.model().imported, null, { timeout: 120000 });
  const shown = await page.evaluate(() => ({ ...window.netcodeLab.lastImport, summary: window.netcodeLab.model().trace, hidden: document.getElementById('trace-progress').hidden }));
  assert.equal(shown.summary.snapshots, 150000);
  assert.equal(shown.summary.samples, 150000);
  assert.equal(shown.hidden, true, 'the progress line goes away');
  assert.ok(shown.framesWhileChecking > 0, `the page drew ${shown.framesWhileChecking} frames while the worker parsed and replayed`);
  await screenshot(page, 'bad-inputs-large-trace');
  // Export gives the file back as it came.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-snapshots')]);
  assert.equal(readFileSync(await download.path()).length, readFileSync(path).length);
  rmSync(path);
  assert.deepEqual(problems(), []);
});
