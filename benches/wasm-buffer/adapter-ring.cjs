// peerbench's WASM_IMPL slot over `RingBuffer`: peerbench's own JavaScript ring buffer, its algorithm in Rust
// (good_ring.rs), compiled to wasm and called exactly as adapter.cjs calls the core (the same binding code). What
// it measures is the floor under the core's figure: the same algorithm as goodjs, plus wasm and the boundary.
const core = require('./netcode_lab_buffer_bench.js');

exports.createInterpolator = require('./adapter.cjs').over(core.RingBuffer);
