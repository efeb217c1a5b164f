//! The JSON form of an arrival log, `{"format": "netcode-lab/arrivals@1", "arrivals": [{…}]}` (see `mod.rs`):
//! read by serde with every error's path (`arrivals[3].serverTime`), the rows counted while read.

use super::{check_number, time_limit, Log, Place, Row, FORMAT, POSITION_LIMIT, VELOCITY_LIMIT};
use crate::geom::Vec2;
use crate::param::in_range;
use crate::trace::limits::{self, MAX_NOTE_CHARS};
use crate::trace::params::SEND_INTERVAL_RANGE;
use crate::trace::{Trace, TraceError};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawLog {
    format: String,
    #[serde(default)]
    send_interval: Option<f64>,
    #[serde(default)]
    clock_offset: Option<f64>,
    #[serde(default)]
    note: Option<String>,
    #[serde(deserialize_with = "limits::arrivals")]
    arrivals: Vec<RawRow>,
}

/// One row as written: each time in seconds or in milliseconds (`…Ms`).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(in crate::trace) struct RawRow {
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    server_time: Option<f64>,
    #[serde(default)]
    server_time_ms: Option<f64>,
    #[serde(default)]
    arrival: Option<f64>,
    #[serde(default)]
    arrival_ms: Option<f64>,
    #[serde(default)]
    x: Option<f64>,
    #[serde(default)]
    y: Option<f64>,
    #[serde(default)]
    vx: Option<f64>,
    #[serde(default)]
    vy: Option<f64>,
}

/// Whether the JSON text says `"format": "netcode-lab/arrivals@1"`: read for `format` alone (everything else
/// skipped); text that is not valid JSON (a NaN in a row) is asked whether its first `"format"` key says so, so
/// that its error comes from the log's reader, naming the row.
pub(super) fn is_arrivals(text: &str) -> bool {
    #[derive(Deserialize)]
    struct FormatOnly {
        #[serde(default)]
        format: Option<serde_json::Value>,
    }
    match serde_json::from_str::<FormatOnly>(text) {
        Ok(only) => only.format.as_ref().and_then(|f| f.as_str()) == Some(FORMAT),
        Err(_) => text.split_once("\"format\"").is_some_and(|(_, rest)| {
            let rest = rest.trim_start();
            rest.strip_prefix(':').is_some_and(|value| value.trim_start().starts_with(&format!("\"{FORMAT}\"")))
        }),
    }
}

struct Indices;

impl Place for Indices {
    fn at(&self, row: usize, column: &str) -> String {
        format!("arrivals[{row}].{column}")
    }

    fn row(&self, row: usize) -> String {
        format!("arrivals[{row}]")
    }
}

/// Reads the JSON arrival log in `text` (its `format` already seen to be [`FORMAT`]).
pub(super) fn parse(text: &str) -> Result<Trace, TraceError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let raw: RawLog =
        serde_path_to_error::deserialize(&mut de).map_err(|e| TraceError::from_serde(e.path(), e.inner(), text))?;
    de.end().map_err(|e| TraceError::document(format!("not valid JSON ({e})")))?;
    if raw.format != FORMAT {
        return Err(TraceError::new(
            "format",
            format!("unknown format \"{}\" (this reader knows \"{FORMAT}\")", raw.format),
        ));
    }
    if let Some(interval) = raw.send_interval {
        in_range("sendInterval", interval, SEND_INTERVAL_RANGE.0, SEND_INTERVAL_RANGE.1, "s")
            .map_err(|e| TraceError::new(e.field, e.message))?;
    }
    if let Some(offset) = raw.clock_offset {
        in_range("clockOffset", offset, -1e6, 1e6, "s").map_err(|e| TraceError::new(e.field, e.message))?;
    }
    if let Some(note) = &raw.note {
        if note.chars().count() > MAX_NOTE_CHARS {
            return Err(TraceError::new("note", limits::more_than(MAX_NOTE_CHARS, "characters")));
        }
    }
    let first = raw.arrivals.first().copied().unwrap_or_default();
    let rows = raw.arrivals.iter().enumerate().map(|(i, r)| row_of(i, r, &first)).collect::<Result<Vec<Row>, _>>()?;
    let log = Log { rows, send_interval: raw.send_interval, clock_offset: raw.clock_offset, note: raw.note };
    super::to_trace(log, &Indices)
}

/// One row, checked: a time in one unit only, the same quantities as the first row, every number in range.
fn row_of(i: usize, r: &RawRow, first: &RawRow) -> Result<Row, TraceError> {
    let at = |key: &str| format!("arrivals[{i}].{key}");
    let time = |s: Option<f64>, ms: Option<f64>, key: &str| -> Result<Option<f64>, TraceError> {
        match (s, ms) {
            (Some(_), Some(_)) => Err(TraceError::new(
                format!("arrivals[{i}]"),
                format!("{key} and {key}Ms both given (one unit, please)"),
            )),
            (Some(s), None) => Ok(Some(check_number(&at(key), s, time_limit(false))?)),
            (None, Some(ms)) => Ok(Some(check_number(&at(&format!("{key}Ms")), ms, time_limit(true))? * 1e-3)),
            (None, None) => Ok(None),
        }
    };
    let shape = |r: &RawRow| {
        [
            ("seq", r.seq.is_some()),
            ("serverTime", r.server_time.is_some() || r.server_time_ms.is_some()),
            ("x", r.x.is_some()),
            ("y", r.y.is_some()),
            ("vx", r.vx.is_some()),
            ("vy", r.vy.is_some()),
        ]
    };
    for ((key, here), (_, there)) in shape(r).into_iter().zip(shape(first)) {
        if here != there {
            let says = if here { "has" } else { "lacks" };
            let message = format!("{says} {key}, unlike arrivals[0] (every row names the same quantities)");
            return Err(TraceError::new(format!("arrivals[{i}]"), message));
        }
    }
    let server_time = time(r.server_time, r.server_time_ms, "serverTime")?;
    let arrival = time(r.arrival, r.arrival_ms, "arrival")?
        .ok_or_else(|| TraceError::new(at("arrival"), "missing (arrival or arrivalMs is required)"))?;
    if server_time.is_none() && r.seq.is_none() {
        return Err(TraceError::new(format!("arrivals[{i}]"), "needs serverTime or seq"));
    }
    let pair = |a: Option<f64>, b: Option<f64>, keys: (&str, &str), limit: f64| -> Result<Option<Vec2>, TraceError> {
        match (a, b) {
            (Some(a), Some(b)) => {
                Ok(Some(Vec2::new(check_number(&at(keys.0), a, limit)?, check_number(&at(keys.1), b, limit)?)))
            }
            (None, None) => Ok(None),
            (Some(_), None) => Err(TraceError::new(at(keys.1), format!("missing ({} needs {})", keys.0, keys.1))),
            (None, Some(_)) => Err(TraceError::new(at(keys.0), format!("missing ({} needs {})", keys.1, keys.0))),
        }
    };
    let pos = pair(r.x, r.y, ("x", "y"), POSITION_LIMIT)?;
    let vel = pair(r.vx, r.vy, ("vx", "vy"), VELOCITY_LIMIT)?;
    if vel.is_some() && pos.is_none() {
        return Err(TraceError::new(
            format!("arrivals[{i}]"),
            "vx and vy without x and y (a velocity needs a position)",
        ));
    }
    Ok(Row { seq: r.seq, server_time, arrival, pos, vel })
}
