//! The real `netcode-lab` binary on the golden traces in `tests/traces/` (the bad inputs are the catalogue's:
//! `tests/bad_inputs.rs`).
//!
//! - `tests/traces/NAME.json` is `netcode-lab export --example NAME`; `NAME.expected.json` is its replay. Both are
//!   compared byte for byte, and each replay runs twice (determinism). After a deliberate change, check the
//!   new numbers and rewrite them with `cargo xtask golden` (it runs this suite with `UPDATE_GOLDEN=1`); a
//!   rewrite is refused when `CI` is set, so CI can only compare.
//! - The golden outputs are not trusted: regenerating them from a wrong core would make the byte comparison pass.
//!   So every golden trace also has a test below (`golden_*`, listed in [`DERIVED`]) that states the numbers that
//!   matter, worked out by hand from the seed's own rule in its doc comment — independently of the code.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

const GOLDEN: [&str; 11] = [
    "seed-002",
    "seed-000-jitter",
    "seed-000-extrapolate-seed",
    "seed-000-extrapolate-decay",
    "seed-001-staircase",
    "seed-001-v2",
    "buffer-arrivals",
    "seed-002-minimal",
    "seed-000-hold",
    "seed-004-half-tick",
    "seed-004-adaptive",
];

/// The golden traces whose numbers a `golden_*` test below derives by hand (each name once, with its test).
const DERIVED: [(&str, &str); 11] = [
    ("seed-002", "golden_seed_002_out_of_order_snapshots_render_one_and_a_half"),
    ("seed-000-jitter", "golden_seed_000_jittered_snapshots_give_continuous_output"),
    ("seed-000-extrapolate-seed", "golden_seed_000_extrapolation_is_bounded_and_freezes"),
    ("seed-000-extrapolate-decay", "golden_seed_000_extrapolation_is_bounded_and_freezes"),
    ("seed-001-staircase", "golden_seed_001_staircase_is_at_60_18_after_650_ms"),
    ("seed-001-v2", "golden_seed_001_v2_plays_the_offsets_and_drops_the_stale_seq"),
    ("buffer-arrivals", "golden_buffer_arrivals_are_counted_and_the_teleport_is_held"),
    ("seed-002-minimal", "golden_seed_002_minimal_example_is_five_at_one_half"),
    ("seed-000-hold", "golden_seed_000_oldest_first_and_hold_on_the_newest_after_a_stall"),
    ("seed-004-half-tick", "golden_seed_004_half_a_tick_caps_the_extrapolation"),
    ("seed-004-adaptive", "golden_seed_004_adaptive_delay_as_the_article_writes_it"),
];

fn traces() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/traces")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("the binary runs")
}

fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(input).expect("input written");
    child.wait_with_output().expect("the binary ends")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "exit {:?}: {}", output.status, String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// Whether a run rewrites the golden files: only when asked (`UPDATE_GOLDEN`), and never under `CI`.
fn rewrite_golden(update: bool, ci: bool) -> Result<bool, &'static str> {
    match (update, ci) {
        (true, true) => Err("UPDATE_GOLDEN is refused when CI is set: golden files are rewritten by hand \
                             (`cargo xtask golden`), after checking the new numbers, never by CI"),
        (update, _) => Ok(update),
    }
}

/// Compares with the golden file, or rewrites it when `UPDATE_GOLDEN` is set — never under `CI`.
fn check_golden(path: &Path, actual: &str) {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    if rewrite_golden(update, std::env::var_os("CI").is_some()).unwrap_or_else(|refused| panic!("{refused}")) {
        fs::write(path, actual).expect("golden file written");
        return;
    }
    let expected = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(expected == actual, "{} differs from the output (rerun with UPDATE_GOLDEN=1 once checked)", path.display());
}

fn replay(name: &str) -> Value {
    let text = fs::read_to_string(traces().join(format!("{name}.expected.json"))).expect("golden output");
    serde_json::from_str(&text).expect("the golden output is JSON")
}

fn samples(replay: &Value) -> &Vec<Value> {
    replay["samples"].as_array().expect("samples is an array")
}

fn at(replay: &Value, local: f64) -> &Value {
    samples(replay).iter().find(|s| (s["local"].as_f64().unwrap() - local).abs() < 1e-9).expect("a sample there")
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn close(v: &Value, expected: f64) {
    assert!((num(v) - expected).abs() < 1e-9, "{v} ≠ {expected}");
}

#[test]
fn every_golden_trace_replays_to_its_expected_output_byte_for_byte_twice() {
    for name in GOLDEN {
        let path = traces().join(format!("{name}.json"));
        let first = stdout(&run(&["replay", path.to_str().unwrap()]));
        let second = stdout(&run(&["replay", path.to_str().unwrap()]));
        assert!(first == second, "{name}: two runs differ");
        check_golden(&traces().join(format!("{name}.expected.json")), &first);
    }
}

#[test]
fn export_writes_the_golden_traces_and_lists_them() {
    for name in GOLDEN {
        check_golden(&traces().join(format!("{name}.json")), &stdout(&run(&["export", "--example", name])));
    }
    let list = stdout(&run(&["export", "--list"]));
    let names: Vec<&str> = list.lines().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(names, GOLDEN);
}

#[test]
fn rewriting_the_golden_files_needs_a_request_and_is_refused_under_ci() {
    assert_eq!(rewrite_golden(false, false), Ok(false));
    assert_eq!(rewrite_golden(false, true), Ok(false));
    assert_eq!(rewrite_golden(true, false), Ok(true));
    assert!(rewrite_golden(true, true).unwrap_err().contains("refused when CI is set"));
}

#[test]
fn every_golden_trace_has_a_hand_derived_test() {
    let mut derived: Vec<&str> = DERIVED.iter().map(|(name, _)| *name).collect();
    derived.sort_unstable();
    let mut golden = GOLDEN.to_vec();
    golden.sort_unstable();
    assert_eq!(derived, golden, "a golden trace without a golden_* test of its numbers (or a stale entry)");
    let source = include_str!("trace_cli.rs");
    for (name, test) in DERIVED {
        assert!(source.contains(&format!("fn {test}()")), "{name}: no test called {test}");
    }
}

#[test]
fn replay_reads_stdin_the_same_as_a_file() {
    let path = traces().join("seed-002.json");
    let from_file = stdout(&run(&["replay", path.to_str().unwrap()]));
    let from_stdin = stdout(&run_with_stdin(&["replay", "-"], &fs::read(&path).unwrap()));
    assert_eq!(from_file, from_stdin);
}

/// The keys of an object, sorted (serde_json's `Value` sorts them; the order is checked on the text below).
fn keys(v: &Value) -> Vec<&str> {
    v.as_object().expect("an object").keys().map(String::as_str).collect()
}

fn sorted<'a>(keys: &[&'a str]) -> Vec<&'a str> {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys
}

/// The keys appear in this order in the first sample's line of the golden output.
fn assert_key_order(name: &str, keys: &[&str]) {
    let text = fs::read_to_string(traces().join(format!("{name}.expected.json"))).unwrap();
    let line = text.lines().nth(2).expect("a first sample line");
    let positions: Vec<usize> = keys.iter().map(|k| line.find(&format!("\"{k}\":")).expect(k)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{name}: {line}");
}

#[test]
fn the_output_has_the_documented_shape() {
    for name in GOLDEN {
        let out = replay(name);
        assert_eq!(keys(&out), ["metrics", "samples"], "{name}");
        let trace: Value = serde_json::from_str(&fs::read_to_string(traces().join(format!("{name}.json"))).unwrap())
            .expect("the trace is JSON");
        let sample_at: Vec<f64> = trace["sampleAt"].as_array().unwrap().iter().map(num).collect();
        let locals: Vec<f64> = samples(&out).iter().map(|s| num(&s["local"])).collect();
        assert_eq!(locals, sample_at, "{name}: one sample per sampleAt, in order");
        let metrics = &out["metrics"];
        if trace["kind"] == "snapshots" {
            let expected = [
                "local",
                "renderTime",
                "status",
                "mode",
                "x",
                "y",
                "left",
                "right",
                "factor",
                "delay",
                "generation",
                "reason",
            ];
            assert_key_order(name, &expected);
            for s in samples(&out) {
                assert_eq!(keys(s), sorted(&expected), "{name}");
                assert_eq!(s["x"].is_null(), s["mode"] == "hidden", "{name}: {s}");
                assert_eq!(s["factor"].is_null(), s["status"] != "ready", "{name}: {s}");
                assert_eq!(s["reason"].is_null(), s["status"] == "ready", "{name}: {s}");
            }
            for key in
                ["received", "duplicates", "lateDuplicates", "conflicts", "invalid", "late", "outOfOrder", "samples"]
            {
                assert!(metrics.get(key).is_some(), "{name}: metrics.{key}");
            }
            assert!(metrics["clock"]["clock"] == "known", "{name}");
            assert!(metrics["display"].is_object() && metrics["clock"]["jumpLog"].is_array(), "{name}");
        } else {
            assert_key_order(name, &["local", "timed", "x", "y", "state", "lerp"]);
            for s in samples(&out) {
                assert_eq!(keys(s), ["lerp", "local", "timed"], "{name}");
                assert_eq!(keys(&s["timed"]), ["state", "x", "y"], "{name}");
                assert_eq!(keys(&s["lerp"]), ["x", "y"], "{name}");
            }
            for key in ["batches", "snaps", "staleDropped", "v1Batches", "v2Batches", "lerp", "lerpFrames"] {
                assert!(metrics.get(key).is_some(), "{name}: metrics.{key}");
            }
        }
    }
}

/// Seed 002 "三个乱序到达的快照": "到本地时间 10.30 时，渲染目标服务器时间约为 10.15，可在 Tick 101 与 102 之间插值得到
/// 位置 1.5". By hand: render = 10.30 − 0.15 = 10.15; sorted by server time the bracket is 101 (10.1, x 1) and
/// 102 (10.2, x 2); t = (10.15 − 10.1) / (10.2 − 10.1) = 0.5; x = 1 + (2 − 1) · 0.5 = 1.5. At 10.24 tick 101 (arrives
/// 10.25) is not there yet: the bracket is 100–102. 102 arrived (10.23) before 101: one out-of-order arrival.
#[test]
fn golden_seed_002_out_of_order_snapshots_render_one_and_a_half() {
    let out = replay("seed-002");
    let s = at(&out, 10.30);
    assert_eq!((&s["status"], &s["left"], &s["right"]), (&Value::from("ready"), &Value::from(101), &Value::from(102)));
    close(&s["renderTime"], 10.15);
    close(&s["x"], 1.5);
    close(&s["factor"], 0.5);
    // Before 101 arrives (10.25) the bracket spans the hole 100–102.
    let s = at(&out, 10.24);
    assert_eq!((&s["left"], &s["right"]), (&Value::from(100), &Value::from(102)));
    assert_eq!(out["metrics"]["outOfOrder"], 1);
}

/// Seed 000 §4.3.7 `expect(maxJump).toBeLessThan(30)`: snapshots at 1000 + 50i + jitter_i ms (jitter 0, 12, −8, 5,
/// −15, 10, 0, −3), x = 20i. By hand: x moves 20 between neighbours, over 50 + (j_{i+1} − j_i) ms = 62, 30, 63, 30,
/// 75, 40, 47 ms; the shortest brackets are 30 ms (12 → −8 and 5 → −15): 20 units in 30 ms, so a 10 ms step moves
/// at most 20 / 3 = 6.67 < 30. Every sample (render 1.0 … 1.3) lies inside the snapshots: all ready.
#[test]
fn golden_seed_000_jittered_snapshots_give_continuous_output() {
    let out = replay("seed-000-jitter");
    let xs: Vec<f64> = samples(&out).iter().map(|s| num(&s["x"])).collect();
    assert!(samples(&out).iter().all(|s| s["status"] == "ready"));
    let max_jump = xs.windows(2).map(|w| (w[1] - w[0]).abs()).fold(0.0, f64::max);
    assert!(max_jump < 30.0);
    assert!((max_jump - 20.0 / 3.0).abs() < 1e-6, "{max_jump}");
}

/// Seed 000 §4.3.5 `外推位移 = 速度 × dt × (1 - ahead / maxExtrapolateMs)` and §4.3.7 "峰值被压在 0.25 × 3000 × 0.1 =
/// 75 附近". By hand, v = 3000, cap = 0.1: x(a) = 3000 · a · (1 − a/0.1); at a = 0.05: 3000 · 0.05 · 0.5 = 75 (the
/// peak, d/da = 0 at cap/2); at a = 0.08: 3000 · 0.08 · 0.2 = 48; at a ≥ cap: "冻结", x = 0 (the snapshot). The
/// decaying velocity instead integrates v · (1 − t/cap): x(a) = 3000 · (a − a²/0.2); at 0.05: 3000 · 0.0375 = 112.5;
/// from the cap on 3000 · 0.05 = 150.
#[test]
fn golden_seed_000_extrapolation_is_bounded_and_freezes() {
    let seed = replay("seed-000-extrapolate-seed");
    let xs: Vec<f64> = samples(&seed).iter().map(|s| num(&s["x"])).collect();
    assert!((xs.iter().cloned().fold(0.0, f64::max) - 75.0).abs() < 1e-6);
    close(&at(&seed, 1.15)["x"], 75.0);
    close(&at(&seed, 1.18)["x"], 48.0);
    let last = samples(&seed).last().unwrap();
    assert_eq!((num(&last["x"]), &last["mode"]), (0.0, &Value::from("held")));

    let decay = replay("seed-000-extrapolate-decay");
    let xs: Vec<f64> = samples(&decay).iter().map(|s| num(&s["x"])).collect();
    assert!(xs.windows(2).all(|w| w[1] >= w[0] - 1e-9), "{xs:?}");
    close(&at(&decay, 1.15)["x"], 112.5);
    assert!((xs.last().unwrap() - 150.0).abs() < 1e-6);
}

/// Seed 001 "一个具体时刻的计算": "progress = (650 - 500) / (833 - 500) ≈ 0.45 → (60, 18)". By hand: S1 = 60 px / 120
/// px/s = 500 ms, S2 = 40 / 120 = 333 ms; played from arrival 0 + interpolationDelay 0.12, local 0.77 is 650 ms in:
/// 150 ms into S2, 150/333.3 = 0.45 of 40 px = 18 → (60, 18). The path ends at 500 + 333 + 500 = 1333 ms: (120, 40).
#[test]
fn golden_seed_001_staircase_is_at_60_18_after_650_ms() {
    let out = replay("seed-001-staircase");
    let s = at(&out, 0.77);
    close(&s["timed"]["x"], 60.0);
    close(&s["timed"]["y"], 18.0);
    assert_eq!(s["timed"]["state"], "playing");
    let nearest_corner = samples(&out)
        .iter()
        .map(|s| (num(&s["lerp"]["x"]) - 60.0).hypot(num(&s["lerp"]["y"])))
        .fold(f64::INFINITY, f64::min);
    assert!(nearest_corner > 15.0, "the chase cuts the corner: {nearest_corner}");
    let last = samples(&out).last().unwrap();
    assert_eq!((num(&last["timed"]["x"]), num(&last["timed"]["y"])), (120.0, 40.0));
    assert_eq!(out["metrics"]["lerpFrames"], 91, "frames at 0, 1/60, …, 1.5");
}

/// Seed 001 "第二阶段": each point carries `offsetMs`. By hand, played from 0 + 0.12: (112, 200) at 0.12 + 0.120 =
/// 0.24, (130, 205) at 0.12 + 0.280 = 0.40, (160, 220) at 0.12 + 1.0 = 1.12; seq 11 arrives after seq 12: stale,
/// dropped (one); seq 13 starts where 12 ends (1.12) and reaches (220, 220) 1 s later, at 2.12.
#[test]
fn golden_seed_001_v2_plays_the_offsets_and_drops_the_stale_seq() {
    let out = replay("seed-001-v2");
    for (local, x, y) in [(0.24, 112.0, 200.0), (0.40, 130.0, 205.0), (1.12, 160.0, 220.0), (2.12, 220.0, 220.0)] {
        let s = at(&out, local);
        close(&s["timed"]["x"], x);
        close(&s["timed"]["y"], y);
    }
    let m = &out["metrics"];
    assert_eq!((&m["staleDropped"], &m["v2Batches"], &m["boundaryJumps"]), (&1.into(), &2.into(), &0.into()));
    assert_eq!(m["lerp"]["retargets"], 3, "the chase has no seq: the stale batch pulls it back");
}

/// Seed 002 "重复快照 … 相同 Tick、相同内容：可识别为重复传输 … 记录重复计数 / 相同 Tick、不同内容：这是协议一致性
/// 错误 … 不任意覆盖" and "传送 … 不能把跨边界线性插值当成正常移动". By hand, the 13 arrivals: ticks 1–8 once each
/// (8 inserted), tick 2 again (duplicate), tick 1 again after the render time passed it (a late duplicate, also
/// a duplicate: 2 duplicates), tick 5 with x 99 (conflict), tick 9 stamped 1.02 after tick 8 at 1.35 (invalid),
/// tick 0 never seen, after the floor (late); tick 3 after 4 (out of order). Tick 7 teleports to 500: while the
/// render time is between 6 (x 25) and 7, hold keeps x 25 — nothing between 25 and 500 is ever shown.
#[test]
fn golden_buffer_arrivals_are_counted_and_the_teleport_is_held() {
    let out = replay("buffer-arrivals");
    let m = &out["metrics"];
    for key in ["lateDuplicates", "conflicts", "outOfOrder", "invalid", "late"] {
        assert_eq!(m[key], 1, "{key}");
    }
    assert_eq!(m["duplicates"], 2);
    assert_eq!((&m["received"], &m["inserted"]), (&13.into(), &8.into()));
    let across: Vec<&Value> = samples(&out).iter().filter(|s| s["status"] == "invalidInterval").collect();
    assert!(!across.is_empty());
    for s in across {
        assert_eq!((&s["left"], &s["right"], &s["mode"]), (&6.into(), &7.into(), &Value::from("held")));
        close(&s["x"], 25.0);
    }
    let xs: Vec<f64> = samples(&out).iter().filter_map(|s| s["x"].as_f64()).collect();
    assert!(xs.iter().all(|&x| x <= 25.0 + 1e-9 || x >= 500.0), "nothing shown between 25 and 500: {xs:?}");
    assert!(xs.iter().all(|&x| x != 99.0), "the conflicting copy is never shown");
}

#[test]
fn help_prints_the_usage() {
    for flag in ["--help", "-h", "help"] {
        let text = stdout(&run(&[flag]));
        assert!(text.starts_with("usage: netcode-lab <command>"), "{text}");
        assert!(text.contains("replay TRACE.json") && text.contains("export --example NAME"), "{text}");
    }
}

#[test]
fn export_scenario_simulates_deterministically_and_replays() {
    let first = run(&["export", "--scenario", "mobile", "--seed", "7"]);
    let second = run(&["export", "--scenario", "mobile", "--seed", "7"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(first.stdout, second.stdout, "same seed, same bytes");
    let trace: Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(trace["kind"], "snapshots");
    assert_eq!(trace["params"]["renderDelay"], 0.15, "the mobile preset's delay (seed 004 §5.3)");
    let other = run(&["export", "--scenario", "mobile", "--seed", "8"]);
    assert_ne!(first.stdout, other.stdout);
    let replayed = run_with_stdin(&["replay", "-"], &first.stdout);
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    let paths = run(&["export", "--scenario", "lan", "--kind", "paths"]);
    let trace: Value = serde_json::from_slice(&paths.stdout).unwrap();
    assert_eq!(trace["kind"], "paths");
    assert!(!trace["paths"].as_array().unwrap().is_empty());
}

#[test]
fn export_scenario_refuses_bad_names_and_options_with_one_line() {
    for (args, line) in [
        (vec!["export", "--scenario", "moon"], "--scenario: unknown `moon`"),
        (vec!["export", "--scenario", "lan", "--kind", "frames"], "--kind: unknown `frames`"),
        (vec!["export", "--scenario", "lan", "--seed", "-3"], "--seed: `-3` is not a whole number"),
        (vec!["export", "--scenario", "lan", "--bogus"], "export: unknown option `--bogus`"),
    ] {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(err.starts_with(line) && err.lines().count() == 1, "{args:?}: {err}");
    }
}

/// Seed 002 "顺着最小代码走一遍": "左快照：时间 10.05s，位置 x = 0 / 右快照：时间 10.15s，位置 x = 10 / 渲染时间：10.10s /
/// t = (10.10 - 10.05) / (10.15 - 10.05) = 0.5 / x = Lerp(0, 10, 0.5) = 5". By hand: estimatedServerNow 10.20 (known
/// clock, offset 0, local 10.20) − interpolationDelay 0.10 = 10.10; t = 0.05 / 0.1 = 0.5; x = 0 + 10 · 0.5 = 5. One
/// frame later (local 10.21, render 10.11): t = 0.6, x = 6.
#[test]
fn golden_seed_002_minimal_example_is_five_at_one_half() {
    let out = replay("seed-002-minimal");
    let s = at(&out, 10.20);
    assert_eq!((&s["status"], &s["left"], &s["right"]), (&Value::from("ready"), &Value::from(1), &Value::from(2)));
    close(&s["renderTime"], 10.10);
    close(&s["factor"], 0.5);
    close(&s["x"], 5.0);
    close(&at(&out, 10.21)["x"], 6.0);
}

/// Seed 000 §4.3.4 "renderTime 早于最旧的快照 → 用最旧的（还没数据，先冻住）" (`beforeOldest: oldest`) and §4.3.5 "直接
/// 冻结在最新快照位置" (hold). By hand: snapshots every 50 ms from server 1.00 with x = 10 · serverTime, the last at
/// 1.80 (x 18); render = local − 0.1. Local 1.05 → render 0.95 < 1.00: x = 10, the oldest's, as a ready sample on
/// it. Local 1.12 → render 1.02: between 1.00 (x 10) and 1.05 (x 10.5), t = 0.4, x = 10.2. Local 1.50 → 1.40, on
/// tick 9: x 14 (the last frame before the stall). Local 2.50 (the next frame, a second later) → 2.40 > 1.80: an
/// underrun, held on the newest, x 18 — not 14. The reason names the interpolation delay, 100 ms.
#[test]
fn golden_seed_000_oldest_first_and_hold_on_the_newest_after_a_stall() {
    let out = replay("seed-000-hold");
    for local in [1.05, 1.07, 1.1] {
        let s = at(&out, local);
        assert_eq!((&s["status"], &s["left"], &s["right"]), (&Value::from("ready"), &Value::from(1), &Value::from(1)));
        close(&s["x"], 10.0);
    }
    close(&at(&out, 1.12)["x"], 10.2);
    close(&at(&out, 1.5)["x"], 14.0);
    let s = at(&out, 2.5);
    assert_eq!((&s["status"], &s["mode"], &s["left"]), (&Value::from("underrun"), &Value::from("held"), &17.into()));
    close(&s["x"], 18.0);
    assert!(s["reason"].as_str().unwrap().ends_with("interpolation delay 100 ms"), "{s}");
}

/// Seed 004 §3.4 "外推时间不能超过一个tick的一半" (`capRule: halfSendInterval`). By hand: the tick is the 30 Hz send
/// interval, 1/30 s; the cap is 1/60 s. extrapolate-decay integrates v · (1 − t/cap): x(a) = 3000 · (a − 30 a²).
/// At a = 5 ms: 3000 · (0.005 − 0.00075) = 12.75; at 10 ms: 3000 · (0.01 − 0.003) = 21; from the cap (16.7 ms) on:
/// 3000 · cap/2 = 3000 / 120 = 25, held. (Seed 000's 120 ms cap would go on to 3000 · 0.06 = 180.)
#[test]
fn golden_seed_004_half_a_tick_caps_the_extrapolation() {
    let out = replay("seed-004-half-tick");
    close(&at(&out, 1.1)["x"], 0.0);
    close(&at(&out, 1.105)["x"], 12.75);
    close(&at(&out, 1.11)["x"], 21.0);
    assert_eq!(at(&out, 1.115)["mode"], "extrapolated");
    for local in [1.12, 1.13, 1.14] {
        let s = at(&out, local);
        assert_eq!(s["mode"], "held");
        close(&s["x"], 25.0);
    }
}

/// Seed 004 §4.2 as written: "每200毫秒采样一次RTT … smoothedRtt = Mathf.Lerp(smoothedRtt, currentRtt, 0.1f); if
/// (smoothedRtt > 100) … Mathf.Lerp(InterpolationDelay, 0.15f, 0.02f) else … Mathf.Lerp(…, 0.05f, 0.02f)". By hand:
/// samples at 0.505 + 0.2 j (the first frame starts the grid), smoothedRtt from 0. Samples j = 0…18 (to 4.105) see
/// the 60 ms RTT: smoothed = 0.06 · (1 − 0.9^19) = 0.051895. From j = 19 (4.305) they see 160 ms: smoothed =
/// 0.16 − 0.108105 · 0.9^n after n of them; > 0.1 first at n = 6 (0.9^6 = 0.531441: 0.102548), j = 24, local 5.305.
/// Until then the delay stays 0.05; at j = 24 it becomes 0.05 + 0.02 · (0.15 − 0.05) = 0.052 (a 2 ms step, the
/// largest there is), then 0.15 − 0.1 · 0.98^m after m high samples: m = 2 (5.505) 0.05396, m = 3 (5.705) 0.0558808;
/// 63 % of the way (0.98^m ≤ 1/e) first at m = 50, j = 73, local 15.105: 0.15 − 0.1 · 0.98^50 = 0.1135830; at
/// 20.005, m = 74: 0.1275751. Known clock: render = local − delay. With 30 ms one way, the newest snapshot at local
/// 0.505 + 0.1k is 0.45 + 0.1k, 5 ms before the render time while the delay is 50 ms: underrun; once the delay
/// passes 55 ms (5.705) the frames are ready.
#[test]
fn golden_seed_004_adaptive_delay_as_the_article_writes_it() {
    let out = replay("seed-004-adaptive");
    let delay = |local: f64| num(&at(&out, local)["delay"]);
    for local in [0.505, 3.005, 5.205] {
        close(&Value::from(delay(local)), 0.05);
    }
    close(&Value::from(delay(5.305)), 0.052);
    close(&Value::from(delay(5.405)), 0.052);
    close(&Value::from(delay(5.605)), 0.05396);
    close(&Value::from(delay(5.705)), 0.0558808);
    close(&Value::from(delay(15.105)), 0.15 - 0.1 * 0.98f64.powi(50));
    assert!(delay(15.005) < 0.05 + 0.1 * (1.0 - (-1f64).exp()), "63 % not yet at 15.005");
    close(&Value::from(delay(20.005)), 0.15 - 0.1 * 0.98f64.powi(74));
    let steps: Vec<f64> = samples(&out).windows(2).map(|w| num(&w[1]["delay"]) - num(&w[0]["delay"])).collect();
    assert!(steps.iter().all(|&d| (-1e-12..=0.002 + 1e-12).contains(&d)), "never more than 2 ms per sample");
    for s in samples(&out) {
        close(&s["renderTime"], num(&s["local"]) - num(&s["delay"]));
    }
    assert_eq!(at(&out, 5.605)["status"], "underrun");
    assert_eq!(at(&out, 5.705)["status"], "ready");
    let clock = &out["metrics"]["clock"];
    close(&clock["adaptiveRtt"], 0.16 - (0.16 - 0.06 * (1.0 - 0.9f64.powi(19))) * 0.9f64.powi(98 - 19));
}
