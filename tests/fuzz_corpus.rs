//! Every fuzz target's saved corpus (`fuzz/corpus/TARGET/`) and every crash it ever found
//! (`fuzz/regressions/TARGET/`, each a regression test) through the same oracles libFuzzer runs
//! (`fuzz/oracles.rs`), natively: `cargo test` checks them without the fuzzer's toolchain.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/oracles.rs"]
mod oracles;

use std::path::Path;

fn inputs(folder: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz").join(folder).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).expect("a readable input")))
        .collect();
    out.sort();
    out
}

fn replay(folder: &str) -> usize {
    let mut count = 0;
    for (target, oracle) in oracles::TARGETS {
        for (name, bytes) in inputs(folder, target) {
            let outcome = std::panic::catch_unwind(|| oracle(&bytes));
            assert!(outcome.is_ok(), "{name}: the {target} oracle failed");
            count += 1;
        }
    }
    count
}

#[test]
fn every_saved_corpus_input_passes_its_oracle() {
    let count = replay("corpus");
    assert!(count >= 6 * 4, "{count} inputs: every target has a saved corpus");
}

#[test]
fn every_crash_the_fuzzers_found_stays_fixed() {
    replay("regressions");
}
