//! The bad-input catalogue at the CLI's door (`tests/bad-inputs/`): every trace through the real binary's
//! `replay -`, every parameter file through `export --params`, every argument list — exit 2 and exactly the
//! expected line on stderr (nothing on stdout), or, for an entry that must be accepted, exit 0 and the counts it
//! names. The binding's door runs in `tests/web.rs`, the page's in `tests/e2e/bad-inputs.test.mjs`.
#![cfg(not(target_arch = "wasm32"))]

#[path = "bad-inputs/catalogue.rs"]
mod catalogue;

use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<Vec<u8>>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().expect("stdin");
        // The CLI stops reading past its size limit: a refused tail is no failure of the test.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let output = child.wait_with_output().expect("the binary ends");
    if let Some(writer) = writer {
        writer.join().expect("the writer ends");
    }
    output
}

/// What differs from the entry, if anything (every entry is run; the test fails with all the differences).
fn differs(output: &Output, expected: Option<&str>) -> Option<String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    match expected {
        Some(_) if output.status.code() != Some(2) => Some(format!("exit {:?}, stderr {stderr}", output.status)),
        Some(_) if !output.stdout.is_empty() => Some("something on stdout".into()),
        Some(line) if stderr != format!("{line}\n") => Some(format!("\n  got      {stderr}  expected {line}")),
        None if !output.status.success() || !output.stderr.is_empty() => Some(format!("refused: {stderr}")),
        _ => None,
    }
}

/// Fails with every difference found, one per line.
fn report(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} entries differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_catalogue_covers_every_door_with_unique_names() {
    let catalogue = catalogue::load();
    let mut total = 0;
    for door in ["traces", "params", "cli", "binding", "hash"] {
        let list = catalogue::list(&catalogue, door);
        assert!(list.len() >= 8, "{door}: {} entries", list.len());
        let ids: BTreeSet<&str> = list.iter().map(catalogue::id).collect();
        assert_eq!(ids.len(), list.len(), "{door}: every id once");
        total += list.len();
    }
    assert!(total >= 40, "{total} bad inputs");
    let refused = catalogue::list(&catalogue, "traces").iter().filter(|c| catalogue::error(c).is_some()).count();
    assert!(refused >= 40, "{refused} refused traces");
}

/// The generators' rule, as the README states it (the page's runner checks the same strings).
#[test]
fn the_generators_build_what_the_readme_says() {
    let spec = |kind: &str, count: u64| serde_json::json!({ "kind": kind, "count": count });
    assert_eq!(
        catalogue::generate(&spec("snapshots", 2)),
        r#"{"format":"netcode-lab/trace@1","kind":"snapshots","snapshots":[{"tick":0,"serverTime":0,"arrival":0,"x":0,"y":0,"vx":0,"vy":0},{"tick":1,"serverTime":1,"arrival":1,"x":1,"y":0,"vx":0,"vy":0}],"sampleAt":[0,1,2]}"#
    );
    assert_eq!(
        catalogue::generate(&spec("sampleAt", 3)),
        r#"{"format":"netcode-lab/trace@1","kind":"snapshots","snapshots":[],"sampleAt":[0,0,0]}"#
    );
    assert_eq!(
        catalogue::generate(&spec("note", 3)),
        r#"{"format":"netcode-lab/trace@1","kind":"snapshots","note":"nnn","snapshots":[],"sampleAt":[]}"#
    );
    assert_eq!(catalogue::generate(&spec("snapshots", 600_000)).len(), 49_955_644, "the 50 MB trace");
    assert_eq!(catalogue::generate(&spec("arrivals", 3)), "seq,arrival\n0,0\n1,1\n2,2\n");
    // 10 rows of one digit, 90 of two, …, 3 000 000 of seven: 2 × digits + 2 bytes a row, and the header's 12.
    let bytes = 12
        + [(10, 1), (90, 2), (900, 3), (9_000, 4), (90_000, 5), (900_000, 6), (3_000_000, 7)]
            .iter()
            .map(|(rows, digits)| rows * (2 * digits + 2))
            .sum::<usize>();
    assert_eq!(catalogue::generate(&spec("arrivals", 4_000_000)).len(), bytes, "the 60 MB log");
}

#[test]
fn every_trace_is_refused_with_its_line_or_replays() {
    let catalogue = catalogue::load();
    let mut failures = Vec::new();
    for case in catalogue::list(&catalogue, "traces").iter().filter(|c| catalogue::at_door(c, "cli")) {
        let id = catalogue::id(case);
        let output = run(&["replay", "-"], Some(catalogue::bytes(case)));
        if let Some(difference) = differs(&output, catalogue::error(case)) {
            failures.push(format!("{id}: {difference}"));
            continue;
        }
        if catalogue::error(case).is_some() {
            continue;
        }
        let replay: Value = serde_json::from_slice(&output.stdout).expect("the replay is JSON");
        let mut expect = |what: String, got: &Value, wanted: &Value| {
            if got != wanted {
                failures.push(format!("{id}: {what} is {got}, expected {wanted}"));
            }
        };
        for (key, value) in case["metrics"].as_object().into_iter().flatten() {
            expect(format!("metrics.{key}"), &replay["metrics"][key], value);
        }
        if let Some(summary) = case["summary"].as_object() {
            let samples = Value::from(replay["samples"].as_array().expect("samples").len());
            expect("the sample count".into(), &samples, &summary["samples"]);
            expect("metrics.received".into(), &replay["metrics"]["received"], &summary["snapshots"]);
        }
    }
    report(failures);
}

/// A parameter file in a folder of its own (removed at the end).
fn params_file(id: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("netcode-lab-bad-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(format!("{id}.json"));
    std::fs::write(&path, bytes).expect("the parameter file is written");
    path
}

#[test]
fn every_parameter_file_is_refused_with_its_line_or_runs() {
    let catalogue = catalogue::load();
    let mut folder = None;
    let mut failures = Vec::new();
    for case in catalogue::list(&catalogue, "params") {
        let id = catalogue::id(case);
        let path = params_file(id, &catalogue::bytes(case));
        let shown = path.to_str().expect("a UTF-8 path").to_string();
        let output = run(&["export", "--scenario", "default", "--params", &shown], None);
        let expected = catalogue::error(case).map(|e| format!("{shown}: {e}"));
        if let Some(difference) = differs(&output, expected.as_deref()) {
            failures.push(format!("{id}: {difference}"));
        }
        folder = path.parent().map(Path::to_path_buf);
    }
    if let Some(folder) = folder {
        let _ = std::fs::remove_dir_all(folder);
    }
    report(failures);
}

#[test]
fn every_bad_argument_list_is_refused_with_its_line() {
    let catalogue = catalogue::load();
    let mut failures = Vec::new();
    for case in catalogue::list(&catalogue, "cli") {
        let args: Vec<&str> =
            case["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("text")).collect();
        if let Some(difference) = differs(&run(&args, None), catalogue::error(case)) {
            failures.push(format!("{}: {difference}", catalogue::id(case)));
        }
    }
    report(failures);
}
