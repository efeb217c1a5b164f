//! The `trace_parser` fuzz target: its oracle is `oracles::trace_parser` (see fuzz/oracles.rs).
#![no_main]

#[path = "../oracles.rs"]
mod oracles;

libfuzzer_sys::fuzz_target!(|data: &[u8]| oracles::trace_parser(data));
