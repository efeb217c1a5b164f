//! Any text given as an arrival log is read or refused in one line; nothing panics. The texts are built from the
//! log's own pieces (every column name, `_ms`, numbers of every kind, NaN, text, quotes, blank and comment lines,
//! rows too short and too long) so that most reach the rows, and from any bytes at all.
#![cfg(not(target_arch = "wasm32"))]

use netcode_lab::trace::arrivals::read;
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("seq".to_string()),
        Just("serverTime".to_string()),
        Just("serverTime_ms".to_string()),
        Just("arrival".to_string()),
        Just("arrival_ms".to_string()),
        Just("x".to_string()),
        Just("y".to_string()),
        Just("vx".to_string()),
        Just("vy".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("1e400".to_string()),
        Just("\"".to_string()),
        Just("#".to_string()),
        Just(String::new()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| x.to_string()),
        (-1e3..1e3f64).prop_map(|x| format!("{x:.3}")),
        "[a-z0-9 .+-]{0,6}",
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(","), Just(","), Just(","), Just("\n"), Just("\r\n"), Just(" ")]
}

fn log_text() -> impl Strategy<Value = String> {
    prop::collection::vec((piece(), separator()), 0..80)
        .prop_map(|parts| parts.into_iter().map(|(piece, sep)| piece + sep).collect())
}

/// A well-formed header with rows of random cells: the rows' checks are reached.
fn rows_text() -> impl Strategy<Value = String> {
    let header = prop::sample::subsequence(vec!["seq", "serverTime", "x", "y", "vx", "vy"], 1..6);
    let arrival = prop_oneof![Just("arrival"), Just("arrival_ms")];
    let rows = prop::collection::vec(prop::collection::vec(piece(), 0..8), 0..30);
    (header, arrival, rows).prop_map(|(header, arrival, rows)| {
        let mut text = header.join(",") + "," + arrival + "\n";
        for row in rows {
            text += &(row.join(",") + "\n");
        }
        text
    })
}

fn check(bytes: &[u8]) {
    match read(bytes) {
        Ok(trace) => assert!(trace.validate().is_ok()),
        Err(e) => {
            let line = e.to_string();
            assert!(!line.contains('\n') && !line.is_empty(), "{line:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn any_text_of_log_pieces_is_read_or_refused_in_one_line(text in log_text()) {
        check(text.as_bytes());
    }

    #[test]
    fn any_rows_under_a_header_are_read_or_refused_in_one_line(text in rows_text()) {
        check(text.as_bytes());
    }

    #[test]
    fn any_bytes_are_read_or_refused_in_one_line(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check(&bytes);
    }
}
