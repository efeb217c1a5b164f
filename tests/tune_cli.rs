//! The real binary's `tune`: every row reproduces under `compare` with its `params` written to a file (on a
//! simulated network with its seed, and on a recorded trace), and on a recording with 400 ms stalls every 2 s
//! geckos.io's buffer is tuned to cover the stall, worked out by hand.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let output = run(args);
    assert!(output.status.success(), "{args:?}: exit {:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("netcode-lab-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The underrun share `compare` prints for `strategy` with the row's params, on `network` (`--scenario NAME
/// --seed N` or `--trace FILE`).
fn compared(row: &Value, network: &[&str], tag: &str) -> f64 {
    let params = temp(&format!("{tag}.json"), &row["params"].to_string());
    let strategy = row["strategy"].as_str().unwrap();
    let mut args = vec!["compare"];
    args.extend_from_slice(network);
    args.extend(["--params", params.to_str().unwrap(), "--strategies", strategy]);
    let table = json(&args);
    table["cells"][0]["metrics"]["underrunShare"].as_f64().unwrap()
}

#[test]
fn every_row_on_a_preset_reproduces_under_compare_with_its_params() {
    let tuned = json(&["tune", "--scenario", "crossRegion", "--seed", "5"]);
    assert_eq!(tuned["target"], 0.01);
    let rows = tuned["rows"].as_array().unwrap();
    assert!(rows.len() >= 6, "{rows:?}");
    for (i, row) in rows.iter().enumerate() {
        let share = compared(row, &["--scenario", "crossRegion", "--seed", "5"], &format!("preset-{i}"));
        assert_eq!(share, row["underrun"].as_f64().unwrap(), "{}", row["settings"]);
        if row["met"] == true {
            assert!(share <= 0.01);
        }
        if let Some(lower) = row["nextLower"].as_object() {
            assert!(
                lower["underrun"].as_f64().unwrap() > 0.01,
                "{}: the step below is over the target",
                row["settings"]
            );
        }
    }
}

/// A recording with TCP's signature: 20 Hz for 30 s, 50 ms one way, and every 2 s the stream stalls for 400 ms
/// (what was sent in the stall arrives at its end, in one burst); frames at 60 Hz.
fn stall_trace() -> String {
    let mut snapshots = Vec::new();
    for tick in 0..=600u32 {
        let server_time = f64::from(tick) * 0.05;
        let start = server_time - server_time % 2.0 + 1.0;
        let arrival = if server_time >= start && server_time < start + 0.4 { start + 0.45 } else { server_time + 0.05 };
        snapshots.push(serde_json::json!({"tick": tick, "serverTime": server_time, "arrival": arrival,
            "x": f64::from(tick) * 0.5, "y": 0, "vx": 10, "vy": 0}));
    }
    let sample_at: Vec<f64> = (0..1750).map(|i| 0.5 + f64::from(i) / 60.0).collect();
    serde_json::json!({"format": "netcode-lab/trace@1", "kind": "snapshots", "params": {"sendInterval": 0.05},
        "snapshots": snapshots, "sampleAt": sample_at})
    .to_string()
}

#[test]
fn on_a_recording_with_stalls_geckos_needs_a_buffer_as_long_as_the_stall() {
    // By hand: the newest snapshot stands still for 400 ms of every 2 s while the clock runs on; geckos.io draws
    // `interpolationBuffer` behind the server time it estimates, so a buffer shorter than the stall runs past the
    // data for (400 − buffer) ms of each 2 s, plus up to a send interval waiting for the next snapshot after the
    // burst. At 1 % (20 ms in 2 s) the buffer must be within a send interval of the stall: 350–450 ms.
    let trace = temp("stalls.json", &stall_trace());
    let path = trace.to_str().unwrap();
    let tuned = json(&["tune", "--trace", path, "--strategies", "geckos,playground"]);
    let rows = tuned["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "playground is skipped on a trace");
    assert_eq!(tuned["skipped"][0]["strategy"], "playground");
    let row = &rows[0];
    assert_eq!(row["met"], true);
    let buffer = row["settings"]["interpolationBuffer"].as_f64().unwrap();
    assert!((350.0..=450.0).contains(&buffer), "{buffer}");
    assert_eq!(compared(row, &["--trace", path], "trace-geckos"), row["underrun"].as_f64().unwrap());
    // A stricter target needs at least as much buffer; a looser one no more.
    let strict = json(&["tune", "--trace", path, "--strategies", "geckos", "--target", "0.006"]);
    let loose = json(&["tune", "--trace", path, "--strategies", "geckos", "--target", "0.1"]);
    let at = |t: &Value| t["rows"][0]["settings"]["interpolationBuffer"].as_f64().unwrap();
    assert!(at(&strict) >= buffer && at(&loose) <= buffer, "{} {} {}", at(&strict), buffer, at(&loose));
    let table = run(&["tune", "--trace", path, "--strategies", "geckos", "--table"]);
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(text.contains("interpolationBuffer="), "{text}");
}
