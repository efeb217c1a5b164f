// `cargo xtask bench-page`'s browser half: measures each served side (before = a baseline commit, after = this
// tree) and prints every figure of the performance goals side by side, with the native and Node figures xtask
// measured (figures.json). Usage: node benches/page/run.mjs target/bench/figures.json
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { launch, measureLoad } from './load.mjs';
import { measureDrags, measureFloor, SLIDERS } from './drag.mjs';
import { measureCore } from './core.mjs';
import { measurePlayingFrame } from './frame.mjs';
import { measureShapes, shapeLines } from './shapes.mjs';
import { measureLighthouse } from './lighthouse.mjs';

const figures = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const runs = Number(process.env.BENCH_RUNS ?? 5);
const parts = new Set((process.env.BENCH_PARTS ?? 'load,drag,core,lighthouse').split(',').filter(Boolean));
const outDir = process.env.BENCH_OUT ?? 'artifacts/bench';

const browser = await launch();
let shapes = null;
try {
  for (const [name, side] of Object.entries(figures)) {
    console.log(`[bench] ${name}: ${side.url} (${side.compressed ? 'compressed' : 'uncompressed'})`);
    if (parts.has('load')) side.load = await measureLoad(browser, side.url, { runs });
    if (parts.has('drag')) side.dragFloor = await measureFloor(browser); // the machine's floor, beside each side's drags
    if (parts.has('drag')) side.dragFloorAnimated = await measureFloor(browser, { animated: true }); // and a playing page's
    if (parts.has('drag')) side.drag = await measureDrags(browser, side.url);
    if (parts.has('drag')) side.drag4x = await measureDrags(browser, side.url, { cpu: 4 });
    if (parts.has('drag')) side.playingFrame = await measurePlayingFrame(browser, side.url);
    if (parts.has('core')) side.core = await measureCore(browser, side.url);
    if (parts.has('lighthouse')) side.lighthouse = await measureLighthouse(side.url);
  }
  // What the drag's goal asks of a page's shape on this machine, once (it does not depend on the tree).
  if (parts.has('drag')) shapes = await measureShapes(browser, { rounds: Number(process.env.BENCH_SHAPE_ROUNDS ?? 3) });
} finally {
  await browser.close();
}
mkdirSync(outDir, { recursive: true });
writeFileSync(`${outDir}/page.json`, JSON.stringify(figures, null, 2));
if (shapes) writeFileSync(`${outDir}/shapes.json`, JSON.stringify(shapes, null, 2));

// ---- the table -------------------------------------------------------------------------------------------
const RE_SIM = 'simulate 60 s at 60 fps, everything (new seed)';
const s = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : '—');
const ms = (x, d = 1) => (Number.isFinite(x) ? `${x.toFixed(d)} ms` : '—');
const kb = (b) => (Number.isFinite(b) ? `${(b / 1000).toFixed(0)} KB` : '—');
const num = (x, d = 0, unit = '') => (Number.isFinite(x) ? `${x.toFixed(d)}${unit}` : '—');
const ratio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');
const ns = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ns` : '—');
const peer = (side, key) => side?.peer?.[key];
const perEntitySecond = (side, impl, w = 'steady') => peer(side, `${w}.${impl}.simSecond`);

const ENGINES_ALL = 'engines: all 14 strategies scored on a 60 s run (one league column)';
const ENGINES_DRAWN = "engines: the 4 drawn strategies re-run for their tracks, 60 s (a change of each one's setting)";
const FULL_WASM = 'metrics of a 60 s run';
const ENGINES_SHARE = 'engines: what all 14 scored add to the full re-simulation (ratio)';
/** What the engines add to a full re-simulation (a new run + its metrics) in the browser. A bench page that
 *  samples the three rows in turn gives the ratio sample by sample (ENGINES_SHARE); an older one's medians are
 *  subtracted: its "all scored" row runs a new seed, its metrics and the engines. */
const engineShare = (core, row, includesRun = true) => {
  if (includesRun && row === ENGINES_ALL && core?.[ENGINES_SHARE]) return core[ENGINES_SHARE].median;
  const full = core?.[FULL_WASM]?.median;
  const t = core?.[row]?.median;
  return (includesRun ? t - full : t) / full;
};
/** The full re-simulation natively: a re-run and its metrics, as the page does (older trees: a fresh run). */
const fullNative = (f) => f.native?.rerun_60s_everything_metrics ?? (f.native?.run_60s_60fps ?? NaN) + (f.native?.metrics_60s_60fps ?? NaN);
const freshNative = (f) => (f.native?.run_60s_60fps ?? NaN) + (f.native?.metrics_60s_60fps ?? NaN);
const pct = (x) => (Number.isFinite(x) ? `+${(x * 100).toFixed(0)} %` : '—');

const ROWS = [
  ['First frame, unthrottled (median)', '≤ 0.40 s', (f) => s(f.load?.unthrottled?.ms)],
  ['First frame, Fast 4G 85 ms/9 Mbps + 4× CPU', '≤ 1.50 s', (f) => s(f.load?.['fast-4g']?.ms)],
  ['First frame, Slow 4G 150 ms/1.6 Mbps + 4× CPU', '≤ 3.50 s', (f) => s(f.load?.['slow-4g']?.ms)],
  ['  requests until the first frame', '', (f) => num(f.load?.unthrottled?.requests)],
  ['Bytes on the wire until the first frame', '≤ 150 KB', (f) => kb(f.load?.unthrottled?.bytes)],
  ['wasm after wasm-opt: what the first frame loads', '≤ 300 KB', (f) => kb(f.pageWasmBytes ?? f.wasmBytes)],
  ['  the full build (workers, lessons, engines, traces)', '', (f) => kb(f.wasmBytes)],
  // The browser's own EventLatency (OS event → presentation: drag.mjs `presented`); beside it drag.mjs's older
  // figure, input dispatch → a message posted from the next rAF (it misses the wait for the frame before the
  // dispatch, and counts whatever runs after the commit instead of raster, draw and swap: in drags of main it was
  // 44.9 against 31.5 ms at the median at load 11, 37.6 against 47.4 ms at load 17 — off either way).
  ...SLIDERS.map((id) => [`Drag ${id}: input → pixels p95 (median)`, '≤ 16.7 ms', (f) => (f.drag?.[id]?.presented ? `${ms(f.drag[id].presented.p95)} (${ms(f.drag[id].presented.median)})` : '—')]),
  ['  floor: the same drag of a bare slider on an empty page (drag.mjs FLOOR_PAGE)', '', (f) => (f.dragFloor?.presented ? `${ms(f.dragFloor.presented.p95)} (${ms(f.dragFloor.presented.median)})` : '—')],
  ['  floor of a playing page: the bare slider beside one canvas redrawn every frame (FLOOR_ANIMATED_PAGE)', '', (f) => (f.dragFloorAnimated?.presented ? `${ms(f.dragFloorAnimated.presented.p95)} (${ms(f.dragFloorAnimated.presented.median)})` : '—')],
  ...SLIDERS.map((id) => [`  drag ${id}: input dispatch → after the next frame (old figure)`, '', (f) => (f.drag?.[id] ? `${ms(f.drag[id].p95)} (${ms(f.drag[id].median)})` : '—')]),
  ['  main thread per frame while playing, at the sliders (traced; mean, p95: frame.mjs)', '', (f) => (f.playingFrame ? `${ms(f.playingFrame.mean, 2)}, ${ms(f.playingFrame.p95, 2)}` : '—')],
  ['  canvases handed to the compositor per frame, the same frames', '', (f) => num(f.playingFrame?.canvasesPerFrame, 1)],
  ['Long tasks > 50 ms during the drags (longest)', '0', (f) => (f.drag ? `${SLIDERS.reduce((n, id) => n + f.drag[id].longTasks, 0)} (${ms(Math.max(...SLIDERS.map((id) => f.drag[id].longestTask)), 0)})` : '—')],
  ...SLIDERS.map((id) => [`  at 4× CPU: drag ${id} p95 (median)`, '', (f) => (f.drag4x?.[id]?.presented ? `${ms(f.drag4x[id].presented.p95)} (${ms(f.drag4x[id].presented.median)})` : '—')]),
  ...SLIDERS.map((id) => [`  at 4× CPU: drag ${id}, old figure`, '', (f) => (f.drag4x?.[id] ? `${ms(f.drag4x[id].p95)} (${ms(f.drag4x[id].median)})` : '—')]),
  ['  at 4× CPU: long tasks > 50 ms (longest)', '', (f) => (f.drag4x ? `${SLIDERS.reduce((n, id) => n + f.drag4x[id].longTasks, 0)} (${ms(Math.max(...SLIDERS.map((id) => f.drag4x[id].longestTask)), 0)})` : '—')],
  ['Lighthouse Performance (mobile)', '≥ 95', (f) => num(f.lighthouse?.performance)],
  ['  cumulative layout shift', '', (f) => num(f.lighthouse?.cls, 3)],
  ['  total blocking time', '', (f) => ms(f.lighthouse?.tbt, 0)],
  ['  time to interactive', '', (f) => s(f.lighthouse?.tti)],
  ['  text sent uncompressed', '0', (f) => num(f.lighthouse?.uncompressedKiB, 0, ' KiB')],
  ['Lighthouse Accessibility', '100', (f) => num(f.lighthouse?.accessibility)],
  ['Lighthouse Best Practices', '100', (f) => num(f.lighthouse?.bestPractices)],
  ['Full 60 s re-simulation, wasm in Chromium (median)', '≤ 2 ms', (f) => ms(f.core?.[RE_SIM]?.median, 2)],
  ['Full 60 s re-simulation, native (criterion median)', '', (f) => ms((f.native?.rerun_60s_everything ?? NaN) / 1e6, 2)],
  ['  wasm / native', '≤ 1.5', (f) => ratio(f.core?.[RE_SIM]?.median / ((f.native?.rerun_60s_everything ?? NaN) / 1e6))],
  ['  with its metrics, wasm (median)', '', (f) => ms(f.core?.[FULL_WASM]?.median, 2)],
  ['  with its metrics, native (criterion median)', '', (f) => ms(f.native?.rerun_60s_everything_metrics / 1e6, 2)],
  ['  with its metrics, wasm / native', '', (f) => ratio(f.core?.[FULL_WASM]?.median / (f.native?.rerun_60s_everything_metrics / 1e6))],
  ['Engines: all 14 scored on a 60 s run, added to a full re-simulation, wasm', '≤ 50 %', (f) => pct(engineShare(f.core, ENGINES_ALL))],
  ['  the 4 drawn ghosts re-run, added, wasm', '', (f) => pct(engineShare(f.core, ENGINES_DRAWN, false))],
  ['  all 14 scored, added to a re-run + metrics, criterion', '≤ 50 %', (f) => pct(f.native?.engines_all_60s_scored / fullNative(f))],
  ['  all 14 scored, added to a fresh run + metrics, criterion', '', (f) => pct(f.native?.engines_all_60s_scored / freshNative(f))],
  ['  the 4 drawn ghosts, added, criterion', '', (f) => pct(f.native?.engines_4_drawn_60s / fullNative(f))],
  ['64-delay sweep of a 20 s window, wasm (median)', '', (f) => ms(f.core?.['sweep, 64 delays, 20 s window']?.median, 1)],
  ['Buffer insert+sample, Node: core (wasm) per entity-second', '', (f) => ns(perEntitySecond(f, 'wasm'))],
  ['  plain JS ring buffer + cursor, same process', '', (f) => ns(perEntitySecond(f, 'goodjs'))],
  ['  wasm / JS (steady stream)', '≤ 1.5', (f) => ratio(perEntitySecond(f, 'wasm') / perEntitySecond(f, 'goodjs'))],
  ['  wasm / JS (reordering stream)', '≤ 1.5', (f) => ratio(perEntitySecond(f, 'wasm', 'reorder') / perEntitySecond(f, 'goodjs', 'reorder'))],
  ['  floor: peerbench\'s own algorithm in wasm / JS (steady, reordering)', '', (f) => `${ratio(perEntitySecond(f, 'ringwasm') / perEntitySecond(f, 'ringgoodjs'))}, ${ratio(perEntitySecond(f, 'ringwasm', 'reorder') / perEntitySecond(f, 'ringgoodjs', 'reorder'))}`],
  ['  per sample / per insert, wasm', '', (f) => `${ns(peer(f, 'steady.wasm.sample'))} / ${ns(peer(f, 'steady.wasm.push'))}`],
  ['  per sample / per insert, JS', '', (f) => `${ns(peer(f, 'steady.goodjs.sample'))} / ${ns(peer(f, 'steady.goodjs.push'))}`],
  ['Buffer insert+sample, criterion: core, full Sample (cap 128)', '', (f) => ns(f.native?.['insert_sample/128'])],
  ['  peerbench\'s JS ring buffer in Rust, same calls', '', (f) => ns(f.native?.['ring_insert_sample/128'])],
  ['  core / ring', '', (f) => ratio(f.native?.['insert_sample/128'] / f.native?.['ring_insert_sample/128'])],
  ['Buffer, criterion: 1 insert + 3 samples, core as in wasm', '', (f) => ns(f.native?.['book_tick/128'])],
  ['  the same on the JS ring buffer in Rust', '', (f) => ns(f.native?.['goodjs_tick/128'])],
  ['  core / ring', '≤ 1.5', (f) => ratio(f.native?.['book_tick/128'] / f.native?.['goodjs_tick/128'])],
];

const sides = Object.keys(figures);
const header = ['figure', 'goal', ...sides];
const table = ROWS.map(([label, goal, cell]) => [label, goal, ...sides.map((n) => cell(figures[n]))]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(`\n${line(header)}\n${widths.map((w) => '─'.repeat(w)).join('  ')}`);
for (const row of table) console.log(line(row));
for (const [name, side] of Object.entries(figures)) if (side.peer?.error) console.log(`peerbench (${name}) failed: ${side.peer.error.split('\n')[0]}`);
const afterPeer = figures.after?.peer;
if (afterPeer?.verify) console.log(`\npeerbench check, wasm core vs JS: ${afterPeer.verify.compared} samples compared, ${afterPeer.verify.mismatches} mismatches (max |Δ| ${afterPeer.verify.maxAbsDiff})`);
if (figures.after?.lighthouse?.failed?.length) console.log(`Lighthouse audits not passed (after): ${figures.after.lighthouse.failed.join(', ')}`);
if (shapes) {
  console.log('\nThe same drag of a bare slider on pages of each shape (shapes.mjs), p95 of input → presentation per round:');
  for (const l of shapeLines(shapes)) console.log(l);
}
console.log(`Load runs per condition: ${runs}; all numbers in ${outDir}/page.json. Headless Chromium, software rendering, 2 shared cores.`);
