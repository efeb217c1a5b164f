// peerbench's WASM_IMPL slot over `RingBuffer`: peerbench's own JavaScript ring buffer, its algorithm in Rust
// (good_ring.rs), compiled to wasm and called exactly as adapter.cjs calls the core. What it measures is the
// floor under the core's figure: the same algorithm as goodjs, plus wasm and the boundary.
const core = require('./netcode_lab_buffer_bench.js');

exports.createInterpolator = (capacity, maxExtrapolateMs) => {
  const b = new core.RingBuffer(capacity, maxExtrapolateMs);
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
