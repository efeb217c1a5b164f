//! The `prediction_ops` fuzz target: its oracle is `oracles::prediction_ops` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::prediction_ops(data));
