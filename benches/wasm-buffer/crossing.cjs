// What a tick of peerbench's workload (a) costs in Node — one in-order arrival and three frames rendering
// ~100 ms behind it, times in ms around 1.7e12 — on four buffers behind the same closures, so the gap between
// them can be split: the boundary alone (`push_nothing` / `sample_nothing`: empty wasm methods with the real
// signatures), peerbench's algorithm in wasm (`RingBuffer`, adapter-ring.cjs), the core in wasm (adapter.cjs)
// and peerbench's own JavaScript `GoodSnapshotBuffer` (its source read from bench.mjs, not a copy).
// Runs are short and interleaved; the fastest run of each is printed (a preempted run is slower, never faster):
// a quick A/B for a busy machine, not peerbench's method (`cargo xtask bench-page --only peer` is the benchmark).
//
//   node crossing.cjs BUILD_DIR PEERBENCH/bench.mjs [runs] [ticks]
//   node crossing.cjs BUILD_DIR PEERBENCH/bench.mjs count NAME TICKS
// The second form runs TICKS ticks on the one buffer NAME ('boundary', 'ring', 'core' or 'goodjs'), untimed, for
// an instruction count that does not move with the machine's load: run it under
// `valgrind --tool=callgrind --callgrind-out-file=/dev/null` with two TICKS (20000 and 220000) and divide the
// difference of the two totals by 200000 — instructions per tick in V8, start-up and compilation cancelled out.
// BUILD_DIR holds the `--target nodejs` build of this crate and the adapters (as `cargo xtask bench-page` or
// a manual wasm-bindgen run leaves them).
const fs = require('fs');
const path = require('path');

const [dir, benchFile, runsArg, ticksArg, countTicks] = process.argv.slice(2);
if (!dir || !benchFile) throw new Error('usage: node crossing.cjs BUILD_DIR PEERBENCH/bench.mjs [runs] [ticks]');
const counting = runsArg === 'count';
const runs = Number(runsArg || 300), ticks = Number(ticksArg || 2000), capacity = 120, maxE = 250;

const source = fs.readFileSync(benchFile, 'utf8');
const start = source.indexOf('class GoodSnapshotBuffer {');
const end = source.indexOf('\n}\n', start);
if (start < 0 || end < 0) throw new Error(`${benchFile}: class GoodSnapshotBuffer not found`);
const GoodSnapshotBuffer = new Function(`${source.slice(start, end + 2)}; return GoodSnapshotBuffer;`)();

const core = require(path.resolve(dir, 'netcode_lab_buffer_bench.js'));
const nothing = () => {
  const b = new core.CoreBuffer(capacity, maxE);
  const out = new Float64Array(2);
  return {
    push: (tick, t, x, y, vx, vy) => b.push_nothing(tick, t, x, y, vx, vy),
    sample(r) { return b.sample_nothing(r, 0) ? out : null; },
  };
};
const makers = {
  'boundary only': nothing,
  'ring in wasm': () => require(path.resolve(dir, 'adapter-ring.cjs')).createInterpolator(capacity, maxE),
  'core in wasm': () => require(path.resolve(dir, 'adapter.cjs')).createInterpolator(capacity, maxE),
  'goodjs (JS)': () => new GoodSnapshotBuffer(capacity, maxE),
};

// One driver per buffer (compiled separately, so V8's feedback is not shared), as peerbench does.
const DRIVER = `
  let cs = 0;
  for (let k = from; k < to; k++) {
    const t = 1.7e12 + 50 * k;
    buf.push(k, t, k, 0.5 * k, 20, 10);
    for (let f = 0; f < 3; f++) {
      const p = buf.sample(t - 97 + (50 / 3) * f);
      cs += p === null ? 1 : p[0] + p[1];
    }
  }
  return cs;`;
if (counting) {
  const short = { boundary: 'boundary only', ring: 'ring in wasm', core: 'core in wasm', goodjs: 'goodjs (JS)' };
  const make = makers[short[ticksArg]];
  if (!make || !(Number(countTicks) > 0)) throw new Error('usage: … count boundary|ring|core|goodjs TICKS');
  const cs = new Function('buf', 'from', 'to', DRIVER)(make(), 0, Number(countTicks));
  console.log(`${ticksArg}: ${countTicks} ticks, checksum ${cs}`);
  process.exit(0);
}
const entries = Object.entries(makers).map(([name, make]) => ({
  name, buf: make(), run: new Function('buf', 'from', 'to', DRIVER), best: Infinity, cs: 0,
}));
for (const e of entries) e.run(e.buf, 0, capacity + 20); // fill past capacity (evictions from now on)
let k = capacity + 20;
for (let r = 0; r < runs; r++) {
  for (const e of entries) {
    const t0 = process.hrtime.bigint();
    e.cs += e.run(e.buf, k, k + ticks);
    e.best = Math.min(e.best, Number(process.hrtime.bigint() - t0) / ticks);
  }
  k += ticks;
}
const good = entries.find((e) => e.name === 'goodjs (JS)');
console.log(`fastest of ${runs} runs of ${ticks} ticks (1 push + 3 samples), ns per tick; capacity ${capacity}`);
for (const e of entries) {
  console.log(`  ${e.name.padEnd(14)} ${e.best.toFixed(1).padStart(7)}  ×${(e.best / good.best).toFixed(2)} goodjs` +
    `  (checksum ${e.cs})`);
}
