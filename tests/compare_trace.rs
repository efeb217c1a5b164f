//! The real binary ranks every strategy on a trace: `compare --trace FILE` on a game's arrival log (CSV) and on a
//! trace, with numbers worked out by hand from the log, and `replay` reading the same log.
//!
//! The logs are built here: 400 snapshots at 20 Hz (server time 0.05 k), each arriving 80 ms after it was sent,
//! but the first 4 ms later than that (so that no frame falls exactly on a snapshot: see below). Without
//! positions, the truth is the standard motion.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "exit {:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// A 20 Hz log; with `stall`, snapshots 100 to 105 are held back and arrive with 106 (a 300 ms stall).
fn log(stall: bool) -> String {
    let mut text = String::from("seq,serverTime,arrival\n");
    for k in 0..400u32 {
        let sent = f64::from(k) * 0.05;
        let arrival = match k {
            0 => 0.084,
            100..=105 if stall => 106.0 * 0.05 + 0.08,
            _ => sent + 0.08,
        };
        text.push_str(&format!("{k},{sent:.2},{arrival:.3}\n"));
    }
    text
}

/// `text` in a file `name` of a folder of the test's own (`test`: the tests run in parallel).
fn write(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("netcode-lab-compare-trace-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("written");
    path
}

fn league(path: &Path) -> Value {
    serde_json::from_str(&stdout(&run(&["compare", "--trace", path.to_str().unwrap()]))).expect("JSON")
}

fn cell<'a>(league: &'a Value, strategy: &str) -> &'a Value {
    let cells = league["cells"].as_array().expect("cells");
    &cells.iter().find(|c| c["strategy"] == strategy).expect("a cell per strategy")["metrics"]
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("a number: {v}"))
}

/// The 300 ms stall, by hand. The clock offset is the fastest snapshot's, max(server − arrival) = −0.08, so the
/// known clock reads server now = local − 0.08 and `playground` (the trace's defaults: a fixed 100 ms delay, hold
/// on an underrun) renders local − 0.18. Frames are 0.084 + k/60, so the render time is k/60 − 0.096. Snapshot 99
/// (4.95 s) is the newest before the stall: frame k runs past it when k/60 > 5.046, k ≥ 303, and the stalled
/// snapshots arrive at 5.38 = 0.084 + k/60 at k = 317.76, so frames 303 to 317 hold: 15 underrun frames of
/// 1197 (0.084 + 1196/60 ≤ 20.03, the last arrival, < 0.084 + 1197/60). The held frames 304 to 317 do not move
/// while the truth does: 14 stalls more than on the steady log, and frame 318 pops ahead (a snap).
/// Red: a wrong clock offset (0 instead of −0.08 renders 80 ms later: 20 underrun frames), frames that do not
/// start at the first arrival, or an underrun policy other than the trace default.
#[test]
fn a_300_ms_stall_is_15_held_frames_for_the_plain_client() {
    let steady = league(&write("stall", "steady.csv", &log(false)));
    let stalled = league(&write("stall", "stall.csv", &log(true)));
    let (before, after) = (cell(&steady, "playground"), cell(&stalled, "playground"));
    assert_eq!(number(&after["underrunShare"]), 15.0 / 1197.0);
    assert_eq!(number(&before["underrunShare"]), 0.0);
    assert_eq!(after["stalls"].as_u64().unwrap() - before["stalls"].as_u64().unwrap(), 14);
    assert!(after["snaps"].as_u64().unwrap() > before["snaps"].as_u64().unwrap());
    // `latest` shows each snapshot until the next: it stands still in two of every three frames, and more in the
    // stall; mirror's buffer rides over it.
    assert!(number(&cell(&stalled, "latest")["stalls"]) > number(&cell(&stalled, "mirror")["stalls"]));
    assert_eq!(stalled["networks"], serde_json::json!(["stall.csv"]));
    assert!(stalled["seed"].is_null());
    // From the first frame to the last: 1196 / 60 s.
    assert!((number(&stalled["duration"]) - 1196.0 / 60.0).abs() < 1e-9, "{}", stalled["duration"]);
}

/// On the steady log nothing is late or lost: every buffered strategy that shows anything runs no underrun after
/// its start. The seeds' references (seed000, seed004) run the smooth clock, which needs RTT samples a log does
/// not have: they show nothing, and are never marked best. Red: a trace's frames scored without their server time
/// (every metric NaN), or references that show nothing marked best.
#[test]
fn on_a_steady_log_the_buffered_strategies_never_run_dry() {
    let steady = league(&write("steady", "steady.csv", &log(false)));
    for strategy in ["mirror", "ngo", "source", "geckos", "gambetta", "playground"] {
        let m = cell(&steady, strategy);
        assert!(number(&m["shown"]) > 0.9, "{strategy}: {m}");
        assert!(number(&m["addedLatency"]).is_finite() && number(&m["rmsError"]).is_finite(), "{strategy}: {m}");
        assert_eq!(number(&m["underrunShare"]), 0.0, "{strategy}: {m}");
    }
    for strategy in ["seed000", "seed004"] {
        assert_eq!(number(&cell(&steady, strategy)["shown"]), 0.0);
        let cells = steady["cells"].as_array().unwrap();
        let best = &cells.iter().find(|c| c["strategy"] == strategy).unwrap()["best"];
        assert_eq!(best, &serde_json::json!([]), "{strategy}");
    }
}

/// The same table twice (determinism), the text form, the strategies asked for, stdin named `trace`, a trace file
/// as well as a log, and the refusals.
#[test]
fn compare_trace_prints_the_table_and_refuses_what_does_not_apply() {
    let path = write("table", "steady.csv", &log(false));
    let file = path.to_str().unwrap();
    let args = ["compare", "--trace", file, "--strategies", "mirror,latest"];
    let text = stdout(&run(&args));
    assert_eq!(text, stdout(&run(&args)));
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["strategies"], serde_json::json!(["mirror", "latest"]));
    let table = stdout(&run(&["compare", "--trace", file, "--table"]));
    assert!(table.starts_with("a trace, 19.933 s; lower is better"), "{table}");
    assert!(table.contains("\nsteady.csv\n"), "{table}");
    let mut child = Command::new(BIN)
        .args(["compare", "--trace", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), log(false).as_bytes()).unwrap();
    let piped: Value = serde_json::from_slice(&child.wait_with_output().unwrap().stdout).unwrap();
    assert_eq!(piped["networks"], serde_json::json!(["trace"]));
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces/seed-002.json");
    let of_trace: Value =
        serde_json::from_str(&stdout(&run(&["compare", "--trace", golden.to_str().unwrap()]))).unwrap();
    assert_eq!(of_trace["cells"].as_array().unwrap().len(), 11);
    let refusals = [
        (vec!["compare", "--trace", file, "--seed", "1"], "compare: --seed is for --scenario; a trace is what it is"),
        (vec!["compare", "--trace", file, "--scenario", "lan"], "compare: --scenario and --trace exclude each other"),
        (vec!["compare", "--trace", file, "--strategies", "bogus"], "--strategies[0]: unknown `bogus`"),
    ];
    for (args, expected) in refusals {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with(expected),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let paths = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/traces/seed-001-staircase.json");
    let out = run(&["compare", "--trace", paths.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "kind: compare --trace replays snapshot traces only; this trace is of kind \"paths\"\n"
    );
}

/// `replay` reads the log too, and `replay --strategy` (the same deliveries): the plain replay's frames are the
/// log's 1197, and its buffer received all 400 snapshots.
#[test]
fn replay_reads_an_arrival_log() {
    let path = write("replay", "steady.csv", &log(false));
    let replay: Value = serde_json::from_str(&stdout(&run(&["replay", path.to_str().unwrap()]))).unwrap();
    assert_eq!(replay["samples"].as_array().unwrap().len(), 1197);
    assert_eq!(replay["metrics"]["received"], 400);
    let mirror = stdout(&run(&["replay", path.to_str().unwrap(), "--strategy", "mirror"]));
    assert!(mirror.contains("\"strategy\": \"mirror\""), "{}", &mirror[..200]);
}
