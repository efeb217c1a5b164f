// peerbench's WASM_IMPL slot (`createInterpolator(capacity, maxExtrapolateMs)`) over the wasm-bindgen
// `--target nodejs` build of this crate (`cargo xtask bench-page` copies this file beside it as adapter.cjs).
const core = require('./netcode_lab_buffer_bench.js');

exports.createInterpolator = (capacity, maxExtrapolateMs) => {
  const b = new core.CoreBuffer(capacity, maxExtrapolateMs);
  const memory = core.wasmMemory();
  let buffer = null;
  let view = null;
  return {
    push: (tick, t, x, y, vx, vy) => b.push(tick, t, x, y, vx, vy),
    sample(renderTimeMs) {
      if (!b.sample_into(renderTimeMs)) return null;
      if (buffer !== memory.buffer) { buffer = memory.buffer; view = new Float64Array(buffer, b.out_ptr(), 2); }
      return view;
    },
    free: () => b.free(),
  };
};
