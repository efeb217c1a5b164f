//! The `playback_ops` fuzz target: its oracle is `oracles::playback_ops` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::playback_ops(data));
