//! The real binary: `compare` (the league table as JSON or text) and `replay --strategy`; bad input is one line
//! on stderr naming what is wrong, exit code 2, nothing on stdout.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "exit {:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

fn trace(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces").join(name).display().to_string()
}

#[test]
fn compare_prints_the_league_of_the_four_presets_deterministically() {
    let args = ["compare", "--scenario", "presets", "--seed", "1", "--duration", "6"];
    let text = stdout(&run(&args));
    assert_eq!(text, stdout(&run(&args)), "same seed, same bytes");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["seed"], 1);
    assert_eq!(json["networks"], serde_json::json!(["lan", "sameRegion", "crossRegion", "mobile"]));
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 4 * 11);
    let mirror_mobile = cells.iter().find(|c| c["network"] == "mobile" && c["strategy"] == "mirror").unwrap();
    for key in ["rmsError", "addedLatency", "stalls", "snaps", "jerk", "underrunShare"] {
        assert!(mirror_mobile["metrics"][key].is_number(), "{key}: {}", mirror_mobile["metrics"]);
    }
    let latest = cells.iter().find(|c| c["strategy"] == "latest").unwrap();
    assert!(latest["metrics"]["underrunShare"].is_null());
    let other_seed = stdout(&run(&["compare", "--scenario", "presets", "--seed", "2", "--duration", "6"]));
    assert_ne!(text, other_seed, "the seed matters");
}

#[test]
fn compare_table_and_a_strategy_subset() {
    let table = stdout(&run(&[
        "compare",
        "--scenario",
        "mobile,default",
        "--strategies",
        "source,mirror",
        "--table",
        "--duration",
        "5",
    ]));
    assert!(table.contains("\nmobile\n") && table.contains("\ndefault\n"), "{table}");
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("source") || l.starts_with("mirror")).collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(table.contains('*'), "the best of each column is marked");
    assert!(!table.contains("geckos"));
}

#[test]
fn replay_through_a_strategy() {
    let out = stdout(&run(&["replay", &trace("seed-000-jitter.json"), "--strategy", "source"]));
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["strategy"], "source");
    let plain: Value = serde_json::from_str(&stdout(&run(&["replay", &trace("seed-000-jitter.json")]))).unwrap();
    let samples = json["samples"].as_array().unwrap();
    assert_eq!(samples.len(), plain["samples"].as_array().unwrap().len(), "one sample per sampleAt");
    assert_eq!(json["metrics"]["frames"].as_u64().unwrap() as usize, samples.len());
    // `playground` is the trace's own settings: the same positions as the plain replay.
    let own: Value =
        serde_json::from_str(&stdout(&run(&["replay", "--strategy", "playground", &trace("seed-000-jitter.json")])))
            .unwrap();
    for (a, b) in own["samples"].as_array().unwrap().iter().zip(plain["samples"].as_array().unwrap()) {
        assert_eq!((&a["x"], &a["y"]), (&b["x"], &b["y"]));
    }
}

#[test]
fn bad_input_is_one_line_naming_what_is_wrong() {
    let cases: [(&[&str], &str); 9] = [
        (&["compare"], "compare: --scenario NAME or --trace FILE is required"),
        (&["compare", "--scenario", "wifi"], "--scenario: unknown `wifi`"),
        (&["compare", "--scenario", "lan,lan"], "--scenario: `lan,lan` names a network twice"),
        (&["compare", "--scenario", "lan", "--strategies", "mirror,unity"], "--strategies[1]: unknown `unity`"),
        (&["compare", "--scenario", "lan", "--seed", "-3"], "--seed: `-3` is not a whole number"),
        (&["compare", "--scenario", "lan", "--duration", "0.1"], "params: `duration`"),
        (&["compare", "--scenario", "lan", "--fast"], "compare: unknown option `--fast`"),
        (&["replay", "x.json", "--strategy", "unity"], "--strategy: unknown `unity`"),
        (&["replay", "--strategy", "mirror"], "replay: expected one trace file"),
    ];
    for (args, expected) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(expected), "{args:?}: {err}");
    }
    let paths = run(&["replay", &trace("seed-001-v2.json"), "--strategy", "mirror"]);
    assert_eq!(paths.status.code(), Some(2));
    assert!(String::from_utf8(paths.stderr).unwrap().starts_with("kind: --strategy replays snapshot traces only"));
}
