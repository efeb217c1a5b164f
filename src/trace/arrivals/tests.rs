//! Hand-written logs, every number worked out by hand in the comment beside it.

use super::*;
use crate::motion::MotionScript;
use crate::trace::limits::MAX_TRACE_BYTES;

fn snapshots(trace: &Trace) -> &[TraceSnapshot] {
    match &trace.data {
        TraceData::Snapshots { snapshots, .. } => snapshots,
        TraceData::Paths { .. } => panic!("a log reads as snapshots"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn error(text: &str) -> String {
    read_text(text).unwrap_err().to_string()
}

/// Server times and positions given: ticks are the ranks of the server times (0, 1, 2); the velocities are the
/// steps over 0.05 s — row 0 takes the step to row 1, (6 − 0) / 0.05 = 120; row 1 the step from row 0, 120;
/// row 2 from row 1, ((12 − 6) / 0.05, (3 − 0) / 0.05) = (120, 60). clockOffset = max(server − arrival) =
/// max(−0.10, −0.11, −0.09) = −0.09. Frames: 0.10 to 0.19 s at 60 fps is 0.09 × 60 = 5.4 → k = 0..=5, six
/// frames 0.10 + k / 60. No motion is stated: the truth is the polyline. The comment line and the header are
/// lines 1 and 2, so the rows are lines 3 to 5.
#[test]
fn a_csv_log_with_positions() {
    let text = "# recorded by hand\nserverTime,arrival,x,y\n0.00,0.10,0,0\n0.05,0.16,6,0\n\n0.10,0.19,12,3\n";
    let trace = read_text(text).unwrap();
    let s = snapshots(&trace);
    assert_eq!(s.iter().map(|s| s.tick).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(s.iter().map(|s| s.arrival).collect::<Vec<_>>(), [0.10, 0.16, 0.19]);
    assert_eq!((s[2].x, s[2].y), (12.0, 3.0));
    let v: Vec<(f64, f64)> = s.iter().map(|s| (s.vx, s.vy)).collect();
    assert!(close(v[0].0, 120.0) && close(v[0].1, 0.0), "{v:?}");
    assert!(close(v[1].0, 120.0) && close(v[1].1, 0.0), "{v:?}");
    assert!(close(v[2].0, 120.0) && close(v[2].1, 60.0), "{v:?}");
    assert!(close(trace.params.clock_offset.unwrap(), -0.09));
    assert_eq!(trace.sample_at.len(), 6);
    assert!(close(trace.sample_at[5], 0.10 + 5.0 / 60.0));
    assert_eq!((trace.params.motion, trace.params.send_interval), (None, None));
    assert!(matches!(trace.truth(), Some(crate::run::TruthTrack::Polyline(_))));
}

/// Sequence numbers and milliseconds only: arrivals 0.100, 0.150, 0.200, 0.260 s; sendInterval inferred as
/// (0.260 − 0.100) / (14 − 10) = 0.04 s, so the server times are 0.40, 0.44, 0.48, 0.56 s and the ticks the seqs.
/// No positions: the standard motion (turns at 120 units/s) starts at (−110, −60) heading +x, so at 0.40 s the
/// entity is at x = −110 + 120 × 0.40 = −62, and at 0.56 s at −110 + 67.2 = −42.8, y = −60, velocity (120, 0).
/// clockOffset = max(0.40 − 0.10, 0.44 − 0.15, 0.48 − 0.20, 0.56 − 0.26) = 0.30.
#[test]
fn a_csv_log_of_sequence_numbers_in_milliseconds() {
    let trace = read_text("arrival_ms,seq\n100,10\n150,11\n200,12\n260,14\n").unwrap();
    let s = snapshots(&trace);
    assert_eq!(s.iter().map(|s| s.tick).collect::<Vec<_>>(), [10, 11, 12, 14]);
    assert!(close(trace.params.send_interval.unwrap(), 0.04));
    let times = [0.40, 0.44, 0.48, 0.56];
    for (s, t) in s.iter().zip(times) {
        assert!(close(s.server_time, t), "{} vs {t}", s.server_time);
    }
    assert!(close(s[0].x, -62.0) && close(s[3].x, -42.8) && close(s[3].y, -60.0), "{s:?}");
    assert!(close(s[1].vx, 120.0) && close(s[1].vy, 0.0));
    assert!(close(trace.params.clock_offset.unwrap(), 0.30));
    let motion = trace.params.motion.unwrap();
    assert_eq!((motion.script, motion.speed), (MotionScript::Turns, 120.0));
}

/// JSON with the send interval and the clock offset given: seq 3 and 4 at 0.05 s are server times 0.15 and 0.20;
/// `arrivalMs` 250 is 0.25 s. Frames from 0.25 to 0.30 s: 0.05 × 60 = 3 → four frames (the last arrival is
/// sampled although 0.3 − 0.25 is 0.04999999999999999 in binary). Equal server times would share a tick; here
/// the seqs are the ticks.
#[test]
fn a_json_log() {
    let text = r#"{"format": "netcode-lab/arrivals@1", "sendInterval": 0.05, "clockOffset": 0.02, "note": "two",
        "arrivals": [{"seq": 3, "arrivalMs": 250}, {"seq": 4, "arrival": 0.3}]}"#;
    let trace = read(text.as_bytes()).unwrap();
    let s = snapshots(&trace);
    assert!(close(s[0].server_time, 0.15) && close(s[1].server_time, 0.20));
    assert_eq!((s[0].tick, s[0].arrival, s[1].arrival), (3, 0.25, 0.3));
    assert_eq!((trace.params.clock_offset, trace.params.send_interval), (Some(0.02), Some(0.05)));
    assert_eq!(trace.sample_at.len(), 4);
    assert_eq!(trace.note.as_deref(), Some("two"));
}

/// Copies of one server time without seq are one snapshot: ranks 0, 1, 1, 2 (server times 1.0, 1.1, 1.1, 1.2).
#[test]
fn equal_server_times_share_a_tick() {
    let trace = read_text("serverTime,arrival\n1.0,1.05\n1.1,1.15\n1.1,1.16\n1.2,1.25\n").unwrap();
    assert_eq!(snapshots(&trace).iter().map(|s| s.tick).collect::<Vec<_>>(), [0, 1, 1, 2]);
}

/// Which reader a text goes to: a trace is a trace, a header naming a column is a log, other text is refused as a
/// trace exactly as before the logs existed.
#[test]
fn the_content_tells_which_file_it_is() {
    let trace = crate::trace::examples::example("seed-002").unwrap().to_json();
    assert_eq!(read_text(&trace), Trace::from_json(&trace));
    assert_eq!(error("replay me, please\n"), "trace: expected a JSON object {…}, found `replay me, p`");
    assert_eq!(error("  \n"), "trace: empty: there is no JSON in it");
    assert_eq!(error("[1, 2]"), "trace: expected a JSON object {…}, found `[1, 2]`");
    assert!(read_text("\u{feff}seq,arrival\n1,0.1\n2,0.15\n").is_ok(), "a byte-order mark is allowed");
    assert_eq!(
        error(r#"{"format": "netcode-lab/arrivals@2", "arrivals": []}"#),
        r#"format: unknown format "netcode-lab/arrivals@2" (this reader knows "netcode-lab/trace@1")"#
    );
}

/// The refusals at the CSV door, each naming its line and column.
#[test]
fn csv_refusals_name_the_line_and_column() {
    let cases = [
        ("serverTime,arrival\n0,0.1\nNaN,0.2\n", "line 3, serverTime: NaN is not a finite number"),
        ("serverTime,arrival\n0,inf\n", "line 2, arrival: Infinity is not a finite number"),
        ("seq,arrival\n1,abc\n", "line 2, arrival: expected a number, found the text \"abc\""),
        ("seq,arrival\n1.5,0.1\n", "line 2, seq: expected a whole number ≥ 0, found the text \"1.5\""),
        ("seq,arrival\n1,1e400\n", "line 2, arrival: number out of range (beyond ±1.8e308)"),
        ("seq,arrival\n1,2e12\n", "line 2, arrival: 2e12 is beyond ±1e12"),
        ("seq,x,y\n1,0,0\n", "line 1: no arrival column (arrival or arrival_ms is required)"),
        ("arrival,x,y\n1,0,0\n", "line 1: no seq or serverTime column (one of them is required)"),
        ("seq,arrival,x\n1,0,0\n", "line 1: x without y (a position needs both)"),
        ("seq,arrival,arrival\n", "line 1: column \"arrival\" named twice"),
        ("arrival,arrival_ms,seq\n", "line 1: columns \"arrival\" and \"arrival_ms\" both give arrival"),
        (
            "seq,arival\n",
            "line 1: unknown column \"arival\" (known: seq, serverTime, arrival, x, y, vx, vy; a time in ms ends \
             in _ms)",
        ),
        ("seq,arrival\n1,0.2\n2\n", "line 3: 1 cells, the header has 2 columns"),
        ("seq,arrival\n1,\n", "line 2, arrival: empty (every row has a number in every column)"),
        (
            "seq,arrival\n1,0.2\n2,0.1\n",
            "line 3, arrival: 0.1 is earlier than the row before's 0.2 (the log is written as snapshots arrive: \
             arrival must not decrease)",
        ),
        ("seq,arrival\n", "trace: the arrival log has no rows"),
        (
            "seq,arrival\n7,0.1\n",
            "sendInterval: needed to place seq on the server's clock, and one sequence number cannot say it; give it",
        ),
        ("serverTime,arrival,x,y\n0,0.1,2e9,0\n", "line 2, x: 2e9 is beyond ±1e9"),
    ];
    for (text, expected) in cases {
        assert_eq!(error(text), expected, "{text:?}");
    }
}

/// The refusals at the JSON door, each naming its row and key.
#[test]
fn json_refusals_name_the_row_and_key() {
    let log = |rows: &str| format!(r#"{{"format":"netcode-lab/arrivals@1","arrivals":[{rows}]}}"#);
    let cases = [
        // NaN at character 67 of the line: `{"format":"netcode-lab/arrivals@1","arrivals":[{"seq":1,"arrival":` is 66.
        (log(r#"{"seq":1,"arrival":NaN}"#), "arrivals[0].arrival: NaN is not a JSON number (at line 1 column 67)"),
        (log(r#"{"seq":1,"arrival":"x"}"#), "arrivals[0].arrival: expected a number, found the string \"x\""),
        (log(r#"{"seq":1}"#), "arrivals[0].arrival: missing (arrival or arrivalMs is required)"),
        (log(r#"{"arrival":1}"#), "arrivals[0]: needs serverTime or seq"),
        (
            log(r#"{"seq":1,"arrival":1,"arrivalMs":1000}"#),
            "arrivals[0]: arrival and arrivalMs both given (one unit, please)",
        ),
        (
            log(r#"{"seq":1,"arrival":1},{"seq":2,"arrival":1.1,"x":0,"y":0}"#),
            "arrivals[1]: has x, unlike arrivals[0] (every row names the same quantities)",
        ),
        (
            log(r#"{"seq":1,"arrival":1,"z":0}"#),
            "arrivals[0].z: unknown key \"z\" (known: seq, serverTime, serverTimeMs, arrival, arrivalMs, x, y, vx, vy)",
        ),
        (
            log(r#"{"seq":1,"arrival":1},{"seq":2,"arrival":0.5}"#),
            "arrivals[1].arrival: 0.5 is earlier than the row before's 1 (the log is written as snapshots arrive: \
             arrival must not decrease)",
        ),
        (
            r#"{"format":"netcode-lab/arrivals@1","sendInterval":0,"arrivals":[]}"#.to_string(),
            "sendInterval: 0 s is outside 0.001..=1 s",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(error(&text), expected, "{text}");
    }
}

/// The trace's limits: 150 000 rows read, the 150 001st refused at its line (line 150 002: the header is line 1);
/// a text over 40 MiB refused before it is read.
#[test]
fn the_trace_limits_hold_for_logs() {
    let rows = |n: usize| {
        let mut text = String::from("seq,arrival\n");
        for i in 0..n {
            text.push_str(&format!("{i},{}\n", i as f64 * 0.01));
        }
        text
    };
    assert_eq!(snapshots(&read_text(&rows(MAX_SNAPSHOTS_FOR_TEST)).unwrap()).len(), MAX_SNAPSHOTS_FOR_TEST);
    assert_eq!(error(&rows(1_000_000)), "line 150002: more than 150000 snapshots, the most a trace may hold");
    let big = format!("seq,arrival\n{}", " ".repeat(MAX_TRACE_BYTES));
    assert_eq!(error(&big), "trace: larger than 40 MiB (41943040 bytes), the most a trace may hold");
    // 150 000 rows at 0.01 s span 1 499.99 s: 89 999 frames at 60 fps, within the 150 000 a trace may ask for; at
    // 0.02 s apart they span 2 999.98 s, 179 998 frames: refused at the last row.
    let slow: String = std::iter::once("seq,arrival\n".to_string())
        .chain((0..MAX_SNAPSHOTS_FOR_TEST).map(|i| format!("{i},{}\n", i as f64 * 0.02)))
        .collect();
    assert!(error(&slow).starts_with("line 150001, arrival: the arrivals span 2999.98 s: more than 150000 frames"));
}

const MAX_SNAPSHOTS_FOR_TEST: usize = 150_000;
