//! The `sim_params` fuzz target: its oracle is `oracles::sim_params` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::sim_params(data));
