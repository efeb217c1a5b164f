// The parameters' schema on the page: the rail's sliders take their ranges, steps and units from the core's
// statement of each parameter (pkg/params-schema.js, written by the build from `netcode-lab schema`, for the
// first frame), and the full build hands the same statement over with the docs (`Playground.schema()`).
// Red: params.js giving a slider its own range, a stale or mis-filtered params-schema.js, a schema() that
// disagrees with the native one, the docs not reaching the labels, or English docs shown in zh mode.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, waitReady } from './harness.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function complete(page) {
  await waitReady(page);
  await page.waitForFunction(() => document.documentElement.dataset.complete === 'true', null, { timeout: 60000 });
}

test('every slider of the rail is the core\'s statement of its parameter, and the full build says the same', async () => {
  const { page, problems } = await openPage(browser);
  await complete(page);
  const found = await page.evaluate(async () => {
    const { SCHEMA } = await import(new URL('pkg/params-schema.js', document.baseURI).href);
    const core = await import(new URL('pkg/netcode_lab.js', document.baseURI).href); // already initialised by the page
    const schema = core.Playground.schema();
    const sliders = [...document.querySelectorAll('#controls .control[data-path] input[type=range]')].map((input) => {
      const path = input.closest('.control').dataset.path;
      return { path, min: Number(input.min), max: Number(input.max), step: Number(input.step) };
    });
    const seed = document.querySelector('#control-seed');
    return { generated: SCHEMA, schema, sliders, seed: { min: Number(seed.min), max: Number(seed.max) } };
  });
  const byPath = new Map(found.schema.map((entry) => [entry.path, entry]));
  assert.ok(found.schema.length > 120, `${found.schema.length} parameters`);
  assert.equal(byPath.get('remote.clock.renderDelay').field, 'render_delay');
  assert.deepEqual(byPath.get('remote.clock.renderDelay').range, [0, 1]);
  assert.match(byPath.get('remote.clock.renderDelay').doc, /render time/);
  assert.ok(found.schema.every((entry) => entry.doc.length > 10), 'the full build has every doc');
  // The first frame's module is the full build's statement, entry by entry.
  const generated = Object.entries(found.generated);
  assert.ok(generated.length > 50, `${generated.length} parameters in params-schema.js`);
  for (const [path, shown] of generated) {
    const entry = byPath.get(path);
    assert.ok(entry, `${path}: in params-schema.js, not in Playground.schema()`);
    for (const key of ['kind', 'options', 'unit', 'range', 'control']) assert.deepEqual(shown[key], entry[key], `${path}.${key}`);
  }
  const controlled = found.schema.filter((entry) => entry.control).map((entry) => entry.path);
  assert.deepEqual(controlled.filter((path) => !found.generated[path]), [], 'every controlled parameter reaches the first frame');
  // Each slider is its parameter's control: min, max and step in the unit shown.
  assert.ok(found.sliders.length >= 30, `${found.sliders.length} sliders`);
  for (const slider of found.sliders) {
    const { control } = byPath.get(slider.path);
    assert.deepEqual([slider.min, slider.max, slider.step], [control.min, control.max, control.step], slider.path);
  }
  assert.deepEqual(found.seed, { min: byPath.get('seed').control.min, max: byPath.get('seed').control.max });
  assert.deepEqual(problems(), []);
});

test('a control\'s label tells its parameter from the core\'s docs in English, and stays quiet in Chinese', async () => {
  const { page, problems } = await openPage(browser);
  await complete(page);
  const title = await page.getAttribute('label[for=control-renderDelay]', 'title');
  assert.match(title, /render time runs/);
  assert.match(title, /remote\.clock\.renderDelay \(Rust: render_delay\) · default 0\.12 s · 0–1 s/);
  const engine = await page.getAttribute('label[for=control-mirror-bufferLimit]', 'title');
  assert.match(engine, /engines\.mirror\.bufferLimit/);
  await page.click('#lang-zh');
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
  assert.equal(await page.getAttribute('label[for=control-renderDelay]', 'title'), '');
  assert.deepEqual(problems(), []);
});

test('params.js completes each control from the schema and refuses one the core does not state', async () => {
  const { stated, CONTROLS, SCHEMA_FAULTS } = await import('../../www/js/params.js');
  assert.deepEqual(SCHEMA_FAULTS, [], 'params.js and the core agree');
  const renderDelay = CONTROLS.find((c) => c.id === 'renderDelay');
  assert.deepEqual([renderDelay.min, renderDelay.max, renderDelay.step, renderDelay.unit, renderDelay.scale], [0, 400, 5, 'ms', 1000]);
  assert.equal(CONTROLS.find((c) => c.id === 'mirror-bufferLimit').label, 'bufferLimit', 'an engine\'s setting is labelled with its key');
  assert.throws(() => stated({ group: 'remote', kind: 'range', paths: ['remote.clock.renderDelayMs'] }), /control renderDelayMs: no parameter remote\.clock\.renderDelayMs/);
  assert.throws(() => stated({ group: 'remote', kind: 'select', paths: ['remote.buffer.interpolation'], options: [['linear', 'Linear'], ['cubic', 'Cubic']] }),
    /offers linear, cubic; the core's names are linear, hermite/);
  assert.throws(() => stated({ group: 'remote', kind: 'check', paths: ['remote.clock.renderDelay'] }), /a check for a number/);
});
