// peerbench's WASM_IMPL slot, crossing into wasm once per sample and never per push (adapter.cjs crosses per
// push too): copy it beside adapter.cjs in target/bench/wasm-buffer-after/ and point WASM_IMPL at it to compare.
// Each push writes its six numbers into a Float64Array view over
// the buffer's queue in wasm memory, and the next sample_into files the queued arrivals (in order) before it
// samples; a full queue is filed at once. The position is read through a view over `out`. Views are rebuilt only
// when a memory growth has detached them (their byteLength drops to 0): nothing is allocated per call.
const core = require('./netcode_lab_buffer_bench.js');

exports.createInterpolator = (capacity, maxExtrapolateMs) => {
  const b = new core.CoreBuffer(capacity, maxExtrapolateMs);
  const memory = core.wasmMemory();
  const outPtr = b.out_ptr(), queuePtr = b.queue_ptr(), room = core.CoreBuffer.queue_len();
  let out = new Float64Array(memory.buffer, outPtr, 2);
  let queue = new Float64Array(memory.buffer, queuePtr, room * 6);
  let queued = 0;
  const attach = () => {
    out = new Float64Array(memory.buffer, outPtr, 2);
    queue = new Float64Array(memory.buffer, queuePtr, room * 6);
  };
  return {
    push(tick, t, x, y, vx, vy) {
      if (queued === room) {
        b.push_queued(queued);
        queued = 0;
      }
      if (queue.byteLength === 0) attach();
      const i = queued * 6;
      queue[i] = tick; queue[i + 1] = t; queue[i + 2] = x; queue[i + 3] = y; queue[i + 4] = vx; queue[i + 5] = vy;
      queued++;
    },
    sample(renderTimeMs) {
      const n = queued;
      queued = 0;
      if (!b.sample_into(renderTimeMs, n)) return null;
      if (out.byteLength === 0) attach();
      return out;
    },
    free: () => b.free(),
  };
};
