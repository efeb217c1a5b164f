// peerbench's WASM_IMPL slot (`createInterpolator(capacity, maxExtrapolateMs)`) over the wasm-bindgen
// `--target nodejs` build of this crate (`cargo xtask bench-page` copies this file beside it as adapter.cjs):
// one boundary crossing per push and per sample. adapter-queued.cjs crosses only per sample (the pushes are
// queued in a typed-array view over wasm memory); measured on this machine it was no faster (the push's own
// crossing is a small part of its cost) and it costs more instructions in V8 (1,959 against 1,680 per tick of
// workload (a), callgrind over Node: crossing.cjs's `count`), so this simpler one is the default.
// The position is read through a Float64Array view over wasm memory, rebuilt only when a memory growth has
// detached it (its byteLength drops to 0): no array is made per sample, and no `memory.buffer` lookup either.
const core = require('./netcode_lab_buffer_bench.js');

/** peerbench's interpolator over any of this crate's buffers with the same binding (`CoreBuffer`, `RingBuffer`). */
exports.over = (Buffer) => (capacity, maxExtrapolateMs) => {
  const b = new Buffer(capacity, maxExtrapolateMs);
  const memory = core.wasmMemory();
  const ptr = b.out_ptr();
  let view = new Float64Array(memory.buffer, ptr, 2);
  return {
    push: (tick, t, x, y, vx, vy) => b.push(tick, t, x, y, vx, vy),
    sample(renderTimeMs) {
      if (!b.sample_into(renderTimeMs, 0)) return null;
      if (view.byteLength === 0) view = new Float64Array(memory.buffer, ptr, 2);
      return view;
    },
    free: () => b.free(),
  };
};

exports.createInterpolator = exports.over(core.CoreBuffer);
