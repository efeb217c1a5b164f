//! The `path_ops` fuzz target: its oracle is `oracles::path_ops` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::path_ops(data));
