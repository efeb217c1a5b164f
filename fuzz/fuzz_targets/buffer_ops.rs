//! The `buffer_ops` fuzz target: its oracle is `oracles::buffer_ops` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::buffer_ops(data));
