//! A game's own arrival log — `netcode-lab/arrivals@1`: per snapshot its sequence number or server time, the
//! local time it arrived, and optionally where the entity was. A client of any engine can write one in ten lines
//! (`docs/arrival-log.md`); read here into a [`Trace`] of kind `snapshots`, it replays, and every strategy is
//! ranked on it, like any trace.
//!
//! # CSV
//!
//! ```text
//! seq,serverTime,arrival,x,y          the header: columns by name, in any order
//! 0,0.000,0.071,-110,-60              one row per snapshot, in the order they arrived
//! 1,0.050,0.118,-104,-60
//! ```
//! | column | | unit | meaning |
//! |---|---|---|---|
//! | `seq` | `seq` or `serverTime` required | whole number ≥ 0 | the snapshot's sequence number (its tick) |
//! | `serverTime` | | s (`serverTime_ms`: ms) | when the state was true, on the server's clock |
//! | `arrival` | required | s (`arrival_ms`: ms) | when it arrived, on the client's clock; must not decrease |
//! | `x`, `y` | optional, both or neither | world units | where the entity was |
//! | `vx`, `vy` | optional, both or neither, with `x`, `y` | units/s | its velocity |
//!
//! Each time column is in seconds, or in milliseconds when its name ends in `_ms` (`arrival_ms`); one column per
//! quantity (`arrival` and `arrival_ms` together are refused). Cells are trimmed and may be in double quotes (no
//! comma inside). Blank lines and lines starting with `#` are skipped; the header is the first other line. Every
//! row has every column of the header, and a number in each (an empty cell is refused). An unknown column is
//! refused, like an unknown key in a trace (a typo must not silently become a default).
//!
//! # JSON
//!
//! ```text
//! {"format": "netcode-lab/arrivals@1",       required, exactly this string
//!  "sendInterval": 0.05,                     optional, s (0.001..=1)
//!  "clockOffset": 0.02,                      optional, s (server = local + clockOffset; ±1e6)
//!  "note": "free text",                      optional (2 000 characters)
//!  "arrivals": [{"seq": 0, "serverTime": 0, "arrival": 0.071, "x": -110, "y": -60} …]}
//! ```
//! The keys of a row are the CSV's columns in camelCase, a time in milliseconds ending in `Ms` (`arrivalMs`,
//! `serverTimeMs`); every row names the same quantities as the first. JSON has no NaN: a file that writes one is
//! refused at it.
//!
//! # What the trace holds
//!
//! - **server time**: `serverTime`; with `seq` only, `seq × sendInterval`: `sendInterval` as given (JSON), or
//!   inferred as the mean spacing of the arrivals, `(arrival at the highest seq − arrival at the lowest) / (highest
//!   seq − lowest)` — long logs make it exact whatever the jitter; fewer than two sequence numbers cannot say it.
//! - **tick**: `seq`; without it, the rank of the server time among the log's distinct server times (equal server
//!   times are copies of one snapshot).
//! - **position**: `x`, `y`; the velocity `vx`, `vy`, or the step from the snapshot before it in server time over
//!   their time apart (the first: the step to the next; a lone one: 0). Without positions the log is a run of the
//!   project's standard motion (the simulator's default script and speed, [`TraceMotion::standard`]): each
//!   snapshot is `crate::motion::truth` at its server time, and `params.motion` says so (the truth of the trace).
//!   With positions the truth is the polyline through them (`crate::trace`, "The truth").
//! - **clocks**: `clockOffset` as given (JSON), or the one that gives the fastest snapshot no transit time:
//!   `max(serverTime − arrival)` (every other snapshot then took longer; the added latency of a strategy is counted
//!   from that fastest path).
//! - **frames**: `sampleAt` every 1/60 s from the first arrival to the last (the simulator's default frame rate).
//! - every other parameter: the trace's defaults.
//!
//! # Limits and errors
//!
//! The trace's limits hold (`crate::trace`, "Limits"): the text at most 40 MiB (refused before it is read), at most
//! 150 000 rows (counted while read: row 150 001 stops the reading), times |t| ≤ 1e12 s, positions and velocities
//! |·| ≤ 1e9, and no more frames than a trace may ask for. A refusal is one line naming where: `line 5, arrival:
//! NaN is not a finite number`, `line 1: no arrival column (arrival or arrival_ms is required)`,
//! `arrivals[3].serverTime: expected a number, found the string "x"`.
//!
//! # Which file is which (`netcode-lab replay`, `compare --trace`, the page's import)
//!
//! [`read`] tells by content: text whose first character (after a byte-order mark and blanks) is `{` or `[` is
//! JSON — an arrival log when its `format` is `netcode-lab/arrivals@1`, a trace otherwise; other text is an
//! arrival log in CSV when its first line names at least one of the columns above, and is read as a trace
//! otherwise (which refuses it as not JSON).

mod csv;
mod json;

use super::params::{TraceMotion, SEND_INTERVAL_RANGE};
use super::{Trace, TraceData, TraceError, TraceParams, TraceSnapshot, MAX_SAMPLES, MAX_TIME};
use crate::geom::Vec2;
use crate::snapshot::{MAX_COORDINATE, MAX_VELOCITY};
use crate::words::num;

/// The format string of the JSON form.
pub const FORMAT: &str = "netcode-lab/arrivals@1";
/// Frames per second of the trace made from a log (the simulator's default).
pub const FPS: f64 = 60.0;

/// One row as read: where it was (for errors), and its values in seconds and world units.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Row {
    seq: Option<u64>,
    server_time: Option<f64>,
    arrival: f64,
    pos: Option<Vec2>,
    vel: Option<Vec2>,
}

/// A log as read, before it becomes a trace.
#[derive(Debug, Default)]
struct Log {
    rows: Vec<Row>,
    send_interval: Option<f64>,
    clock_offset: Option<f64>,
    note: Option<String>,
}

/// How a row's place and a column are named in an error (`line 5, arrival` or `arrivals[3].arrival`).
trait Place {
    fn at(&self, row: usize, column: &str) -> String;
    fn row(&self, row: usize) -> String;
}

/// A trace or an arrival log (CSV or JSON), told by content (see the module doc); the error names the field, or
/// the line and column.
pub fn read(bytes: &[u8]) -> Result<Trace, TraceError> {
    super::limits::check_size(bytes.len())?;
    if super::parse::looks_like_utf16(bytes) {
        return Err(super::parse::utf16());
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| TraceError::document(format!("not UTF-8 text (byte {})", e.valid_up_to())))?;
    read_text(text)
}

/// [`read`] for text.
pub fn read_text(text: &str) -> Result<Trace, TraceError> {
    super::limits::check_size(text.len())?;
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = body.trim_start();
    if start.starts_with('{') || start.starts_with('[') {
        if text.contains(FORMAT) && json::is_arrivals(body) {
            return json::parse(body);
        }
        return Trace::from_json(text);
    }
    if csv::names_a_column(body) {
        return csv::parse(body);
    }
    Trace::from_json(text)
}

/// Checks that `value` (in its column's own unit) is finite and within `limit`.
fn check_number(field: &str, value: f64, limit: f64) -> Result<f64, TraceError> {
    if !value.is_finite() {
        return Err(TraceError::new(field, format!("{} is not a finite number", num(value))));
    }
    if value.abs() > limit {
        return Err(TraceError::new(field, format!("{} is beyond ±{}", num(value), num(limit))));
    }
    Ok(value)
}

/// The limits of each quantity, in its column's unit.
fn time_limit(ms: bool) -> f64 {
    if ms {
        MAX_TIME * 1e3
    } else {
        MAX_TIME
    }
}

const POSITION_LIMIT: f64 = MAX_COORDINATE;
const VELOCITY_LIMIT: f64 = MAX_VELOCITY;

/// The log as a trace (see "What the trace holds").
fn to_trace(log: Log, place: &dyn Place) -> Result<Trace, TraceError> {
    let rows = &log.rows;
    if rows.is_empty() {
        return Err(TraceError::document("the arrival log has no rows"));
    }
    for (i, pair) in rows.windows(2).enumerate() {
        if pair[1].arrival < pair[0].arrival {
            let message = format!(
                "{} is earlier than the row before's {} (the log is written as snapshots arrive: arrival must \
                 not decrease)",
                num(pair[1].arrival),
                num(pair[0].arrival)
            );
            return Err(TraceError::new(place.at(i + 1, "arrival"), message));
        }
    }
    let send_interval = match log.send_interval {
        Some(given) => Some(given),
        None if rows.iter().any(|r| r.server_time.is_none()) => Some(infer_send_interval(rows)?),
        None => None,
    };
    let server_times = rows
        .iter()
        .enumerate()
        .map(|(i, r)| match (r.server_time, r.seq, send_interval) {
            (Some(t), _, _) => Ok(t),
            (None, Some(seq), Some(interval)) => {
                let t = seq as f64 * interval;
                check_number(&place.at(i, "seq"), t, MAX_TIME).map_err(|e| {
                    TraceError::new(e.field, format!("seq × sendInterval {} s: {}", num(interval), e.message))
                })
            }
            _ => Err(TraceError::new(place.row(i), "needs serverTime or seq")),
        })
        .collect::<Result<Vec<f64>, _>>()?;
    let ticks = ticks(rows, &server_times);
    let standard = TraceMotion::standard();
    let with_positions = rows[0].pos.is_some();
    let velocities = if with_positions { Some(velocities(rows, &server_times)) } else { None };
    let snapshots: Vec<TraceSnapshot> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let (pos, vel, generation) = match (r.pos, &velocities) {
                (Some(pos), Some(v)) => (pos, r.vel.unwrap_or(v[i]), 0),
                _ => {
                    let truth = crate::motion::truth(standard.script, standard.speed, server_times[i]);
                    (truth.pos, truth.vel, truth.generation)
                }
            };
            TraceSnapshot {
                tick: ticks[i],
                server_time: server_times[i],
                arrival: r.arrival,
                x: pos.x,
                y: pos.y,
                vx: vel.x,
                vy: vel.y,
                generation: (generation != 0).then_some(generation),
                teleport: None,
            }
        })
        .collect();
    let clock_offset = log
        .clock_offset
        .unwrap_or_else(|| snapshots.iter().map(|s| s.server_time - s.arrival).fold(f64::NEG_INFINITY, f64::max));
    let first = rows[0].arrival;
    let last = rows[rows.len() - 1].arrival;
    // A frame within a nanosecond of the last arrival still counts (0.3 − 0.25 is 0.04999999999999999).
    let frames = ((last - first) * FPS + 1e-9).floor();
    if frames >= MAX_SAMPLES as f64 {
        let message = format!(
            "the arrivals span {} s: more than {MAX_SAMPLES} frames at {} fps, the most a trace may hold",
            num(last - first),
            num(FPS)
        );
        return Err(TraceError::new(place.at(rows.len() - 1, "arrival"), message));
    }
    let sample_at = (0..=frames as usize).map(|k| first + k as f64 / FPS).collect();
    let params = TraceParams {
        clock_offset: Some(clock_offset),
        send_interval,
        motion: (!with_positions).then_some(standard),
        ..TraceParams::default()
    };
    let note = log.note.or_else(|| Some(format!("an arrival log of {} snapshots", rows.len())));
    let trace = Trace { note, params, data: TraceData::Snapshots { snapshots, rtt: Vec::new() }, sample_at };
    trace.validate().map_err(|e| in_place(e, place))?;
    Ok(trace)
}

/// An error of the trace made from the log, named by the log's row: `snapshots[3].x` is row 3's `x`.
fn in_place(e: TraceError, place: &dyn Place) -> TraceError {
    let row = e.field.strip_prefix("snapshots[").and_then(|rest| rest.split_once("]."));
    match row.and_then(|(index, column)| Some((index.parse::<usize>().ok()?, column))) {
        Some((index, column)) => TraceError::new(place.at(index, column), e.message),
        None => e,
    }
}

/// `(arrival at the highest seq − arrival at the lowest) / (highest − lowest)`, into the buffer's range.
fn infer_send_interval(rows: &[Row]) -> Result<f64, TraceError> {
    let with_seq = rows.iter().filter_map(|r| Some((r.seq?, r.arrival)));
    let lowest = with_seq.clone().min_by_key(|(seq, _)| *seq);
    let highest = with_seq.max_by_key(|(seq, _)| *seq);
    let cannot = |why: &str| {
        TraceError::new("sendInterval", format!("needed to place seq on the server's clock, and {why}; give it"))
    };
    let (Some((low, first)), Some((high, last))) = (lowest, highest) else {
        return Err(cannot("no row has a seq"));
    };
    if high == low {
        return Err(cannot("one sequence number cannot say it"));
    }
    let spacing = (last - first) / (high - low) as f64;
    if spacing <= 0.0 {
        return Err(cannot("the arrivals do not advance with seq"));
    }
    Ok(spacing.clamp(SEND_INTERVAL_RANGE.0, SEND_INTERVAL_RANGE.1))
}

/// `seq`, or the rank of the server time among the distinct server times.
fn ticks(rows: &[Row], server_times: &[f64]) -> Vec<u64> {
    if rows.iter().all(|r| r.seq.is_some()) {
        return rows.iter().map(|r| r.seq.unwrap_or(0)).collect();
    }
    let mut distinct = server_times.to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    server_times.iter().map(|t| distinct.partition_point(|d| d < t) as u64).collect()
}

/// Each row's velocity: the step from the snapshot before it in server time over their time apart (the first: the
/// step to the next; a lone one: 0). Copies of one server time share the first copy's.
fn velocities(rows: &[Row], server_times: &[f64]) -> Vec<Vec2> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| server_times[a].total_cmp(&server_times[b]));
    let mut firsts = order.clone();
    firsts.dedup_by(|later, earlier| server_times[*later] == server_times[*earlier]);
    let pos = |i: usize| rows[i].pos.unwrap_or(Vec2::ZERO);
    let step = |a: usize, b: usize| (pos(b) - pos(a)) * (1.0 / (server_times[b] - server_times[a]));
    let mut out = vec![Vec2::ZERO; rows.len()];
    for (k, &i) in firsts.iter().enumerate() {
        out[i] = match (k.checked_sub(1).map(|p| firsts[p]), firsts.get(k + 1)) {
            (Some(before), _) => step(before, i),
            (None, Some(&after)) => step(i, after),
            (None, None) => Vec2::ZERO,
        };
    }
    for &i in &order {
        let first = firsts[firsts.partition_point(|&f| server_times[f] < server_times[i])];
        out[i] = out[first];
    }
    out
}

#[cfg(test)]
mod tests;
