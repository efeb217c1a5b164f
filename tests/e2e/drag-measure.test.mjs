// The drag bench's yardstick (benches/page/drag.mjs `presented`): "input → pixels" is Chromium's own
// `EventLatency` of each mouse drag — from the OS event to the presentation of the frame that showed it — read from
// a trace of the light `benchmark,input` categories. These tests keep that yardstick honest: the parser pairs each
// slice with its own end and stages (never another event's), counts only what reached the screen, and the
// categories the bench traces do give one presented latency per move of a real drag in this Chromium. No timing is
// asserted: only which events exist and how they nest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './harness.mjs';
import { drag, dragPage, eventLatencies, instrument } from '../../benches/page/drag.mjs';
import { SHAPES, dragShape } from '../../benches/page/shapes.mjs';

const slice = (name, ph, ts, id, pid = 1, args) => ({ name, ph, ts, pid, tid: 9, id2: { local: id }, ...(args ? { args } : {}) });
const begin = (type, ts, id, pid) => slice('EventLatency', 'b', ts, id, pid, { event_latency: { event_type: type } });

test('EventLatency slices are paired by process and id, with their own stages; only those that reached the screen are presented', () => {
  const PRESENT = 'SubmitCompositorFrameToPresentationCompositorFrame';
  const trace = [
    // Two moves in flight at once (the second starts before the first ends), interleaved stages.
    begin('MOUSE_DRAGGED', 1000, '0x1'),
    begin('MOUSE_DRAGGED', 5000, '0x2'),
    slice('RendererMainProcessing', 'b', 2000, '0x1'), slice('RendererMainProcessing', 'e', 6000, '0x1'),
    slice('RendererMainProcessing', 'b', 7000, '0x2'), slice('RendererMainProcessing', 'e', 8000, '0x2'),
    slice(PRESENT, 'b', 9000, '0x1'), slice(PRESENT, 'e', 12000, '0x1'),
    slice('EventLatency', 'e', 12000, '0x1'),
    // The second changed nothing: it ends without a presentation.
    slice('EventLatency', 'e', 9000, '0x2'),
    // The same id in another process is another event.
    begin('MOUSE_DRAGGED', 20000, '0x1', 2),
    slice(PRESENT, 'b', 21000, '0x1', 2), slice(PRESENT, 'e', 23000, '0x1', 2),
    slice('EventLatency', 'e', 30000, '0x1', 2),
    // An end with no beginning, and a beginning with no end, are no latency.
    slice('EventLatency', 'e', 31000, '0x7'),
    begin('MOUSE_DRAGGED', 32000, '0x8'),
  ];
  // Shuffled: the trace's chunks do not come in time order.
  const got = eventLatencies([...trace].reverse());
  assert.deepEqual(got.map((e) => [e.type, e.ms, e.presented]), [
    ['MOUSE_DRAGGED', 4, false],
    ['MOUSE_DRAGGED', 11, true],
    ['MOUSE_DRAGGED', 10, true],
  ]);
  assert.deepEqual(got[0].stages, { RendererMainProcessing: 1 });
  assert.deepEqual(got[1].stages, { RendererMainProcessing: 4, [PRESENT]: 3 });
  assert.deepEqual(got[2].stages, { [PRESENT]: 2 });
});

test("the drag bench's trace categories give Chromium's presented latency for the moves of a real slider drag", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 800, height: 300 } });
    const page = await context.newPage();
    // A slider whose every change repaints a box: each move's frame has something new to show.
    await page.setContent(`<input id="control-x" type="range" min="0" max="400" value="0" style="width:600px">
      <div id="box" style="width:50px;height:50px;background:#c60"></div>
      <script>document.getElementById('control-x').addEventListener('input', (e) => {
        document.getElementById('box').style.width = (50 + Number(e.target.value)) + 'px';
      });</script>`);
    await page.evaluate(instrument); // drag.mjs's own recorder (the bench installs it before the page's scripts)
    const result = await drag(page, 'x', 800);
    assert.ok(result.events >= 1, `the page saw ${result.events} input events`);
    // Each move that changed the value had a frame to show: Chromium's latency of it reached the screen. (How many
    // moves a busy machine delivers, and how many share a frame, varies: only that there are some is asserted.)
    assert.ok(result.presented, 'the drag returns the browser-measured latencies');
    assert.ok(result.presented.events >= 1, `${result.presented.events} presented EventLatency slices for ${result.events} input events`);
    assert.ok(Number.isFinite(result.presented.median) && result.presented.max >= result.presented.median);
    await context.close();
  } finally {
    await browser.close();
  }
});

// What the yardstick cannot see (benches/page/shapes.mjs): EventLatency follows an input to the presentation of the
// main thread's compositor frame. A canvas drawn by a worker, or by the main thread through
// `transferControlToOffscreen()`, reaches the screen in frames of its own — a move whose only effect is there ends
// unpresented, so moving the picture there would take it out of the drag's figure, not make it faster. Red if the
// parser counted unpresented moves, or if Chromium began to follow those frames (then the bench's caveat is wrong).
test('moves whose only effect is a canvas drawn by a worker or through transferControlToOffscreen are not presented; on the main thread they are', async () => {
  const W = 400;
  const page = (draw) => `<!doctype html><meta charset="utf-8"><body style="margin:0">
    <div id="control-pad" style="position:absolute;left:40px;top:200px;width:300px;height:20px;background:#ddd"></div>
    <canvas id="c" width="${W}" height="100" style="position:absolute;left:0;top:0"></canvas><script>${draw}
    document.addEventListener('mousemove', (e) => paint(e.clientX)); document.documentElement.dataset.drawn = 'true';</script></body>`;
  const onMain = `const c = document.getElementById('c').getContext('2d');
    const paint = (x) => { c.clearRect(0, 0, ${W}, 100); c.fillRect(x % ${W}, 40, 20, 20); };`;
  const onOffscreen = onMain.replace(".getContext('2d')", ".transferControlToOffscreen().getContext('2d')");
  const inWorker = `const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(
    "let c; onmessage = (e) => { if (typeof e.data === 'number') { c.clearRect(0, 0, 400, 100); c.fillRect(e.data % 400, 40, 20, 20); } else c = e.data.getContext('2d'); };",
  )}], { type: 'text/javascript' })));
    const off = document.getElementById('c').transferControlToOffscreen(); w.postMessage(off, [off]);
    const paint = (x) => w.postMessage(x);`;
  const browser = await launch();
  try {
    const seen = {};
    for (const [name, draw] of Object.entries({ onMain, onOffscreen, inWorker })) {
      seen[name] = (await dragPage(browser, page(draw), { id: 'pad', ms: 800, waitDrawn: true, viewport: { width: 800, height: 300 } })).presented;
    }
    assert.ok(seen.onMain.events >= 5, `drawn on the main thread: ${seen.onMain.events} moves presented`);
    for (const name of ['onOffscreen', 'inWorker']) {
      assert.equal(seen[name].events, 0, `${name}: ${seen[name].events} moves presented`);
      assert.ok(seen[name].unpresented >= 5, `${name}: ${seen[name].unpresented} moves tracked, unpresented`);
    }
  } finally {
    await browser.close();
  }
});

// The bench's page shapes (shapes.mjs) run: each draws what it says (a worker's or the main thread's canvas says so
// once drawn; dragShape waits for it) and its slider's moves reach the screen. Red when a shape's script fails.
test("every page shape of the drag's bench draws and presents its slider's moves", async () => {
  const browser = await launch();
  try {
    for (const [name, html] of Object.entries(SHAPES)) {
      const { presented } = await dragShape(browser, html, 500);
      assert.ok(presented.events >= 3, `${name}: ${presented.events} moves presented`);
    }
  } finally {
    await browser.close();
  }
});
