//! Reading a trace: text → types (serde, every error with its path) → meaning (kind, ranges, order).
//!
//! ```text
//!  text ─► empty? not an object? ──────────────────────────► trace: …
//!       ─► serde_path_to_error + serde_json ─ fails ─► format wrong or missing? ─► format: …   (first, always)
//!                                                   └► the path and serde's reason ─► snapshots[3].serverTime: …
//!       ─► format ─► arrays for the kind ─► params ─► every number ─► sampleAt order ─► frame count ─► Trace
//! ```

use super::error::TraceError;
use super::limits;
use super::objects;
use super::params::TraceParams;
use super::{
    RttSample, Trace, TraceBatch, TraceData, TraceKind, TraceSnapshot, FORMAT, MAX_EARLY_ARRIVAL, MAX_LERP_FRAMES,
    MAX_TIME,
};
use crate::clock::ClockKind;
use crate::clock::MAX_RTT;
use crate::path::batch::{MAX_COORDINATE, MAX_OFFSET_MS};
use crate::snapshot::Problem;
use crate::words::num;
use serde::de::Error as _;
use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

/// The document as serde reads it, before its meaning is checked.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawTrace {
    format: String,
    #[serde(deserialize_with = "kind")]
    kind: TraceKind,
    #[serde(default)]
    note: Option<String>,
    #[serde(default, deserialize_with = "objects::optional_object")]
    params: Option<TraceParams>,
    #[serde(default, deserialize_with = "limits::snapshots")]
    snapshots: Option<Vec<TraceSnapshot>>,
    #[serde(default, deserialize_with = "limits::rtt")]
    rtt: Option<Vec<RttSample>>,
    #[serde(default, deserialize_with = "limits::paths")]
    paths: Option<Vec<TraceBatch>>,
    #[serde(deserialize_with = "limits::sample_at")]
    sample_at: Vec<f64>,
}

fn kind<'de, D: Deserializer<'de>>(d: D) -> Result<TraceKind, D::Error> {
    match String::deserialize(d)?.as_str() {
        "snapshots" => Ok(TraceKind::Snapshots),
        "paths" => Ok(TraceKind::Paths),
        other => Err(D::Error::custom(format!("unknown name \"{other}\" (known: snapshots, paths)"))),
    }
}

/// Parses and checks `text`.
pub(super) fn parse(text: &str) -> Result<Trace, TraceError> {
    limits::check_size(text.len())?;
    if looks_like_utf16(text.as_bytes()) {
        return Err(utf16());
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.trim_start();
    if start.is_empty() {
        return Err(TraceError::document("empty: there is no JSON in it"));
    }
    if !start.starts_with('{') {
        let found: String = start.chars().take(12).collect();
        return Err(TraceError::document(format!("expected a JSON object {{…}}, found `{found}`")));
    }
    let raw = read(text).map_err(|e| format_error(text).unwrap_or(e))?;
    check_format(&Found::Text(raw.format.clone()))?;
    let trace = build(raw)?;
    validate(&trace)?;
    Ok(trace)
}

fn read(text: &str) -> Result<RawTrace, TraceError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let raw: RawTrace =
        serde_path_to_error::deserialize(&mut de).map_err(|e| TraceError::from_serde(e.path(), e.inner(), text))?;
    de.end().map_err(|e| TraceError::document(format!("not valid JSON ({e})")))?;
    Ok(raw)
}

/// Text of bytes whose first characters have zero bytes between them, or that start with a UTF-16
/// byte-order mark: UTF-16, which a trace is not.
pub(super) fn looks_like_utf16(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || bytes.iter().take(4).any(|&b| b == 0)
}

pub(super) fn utf16() -> TraceError {
    TraceError::document("UTF-16 text; a trace is UTF-8 (save it as UTF-8)")
}

/// When the types did not read, a wrong or missing `format` is still the first thing said: the file is then
/// not a trace of this version at all, and its other errors would mislead. Only `format` is kept while
/// reading: everything else is skipped, so a huge array costs nothing here.
fn format_error(text: &str) -> Option<TraceError> {
    #[derive(Deserialize)]
    struct FormatOnly {
        #[serde(default)]
        format: Option<Found>,
    }
    let only: FormatOnly = serde_json::from_str(text).ok()?;
    match only.format {
        None => Some(TraceError::new("format", format!("missing (a trace says \"format\": \"{FORMAT}\")"))),
        Some(found) => check_format(&found).err(),
    }
}

/// What the `format` key held: its text, or what kind of value it was instead.
enum Found {
    Text(String),
    Other(String),
}

impl<'de> Deserialize<'de> for Found {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct FoundVisitor;
        impl<'de> serde::de::Visitor<'de> for FoundVisitor {
            type Value = Found;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Found, E> {
                Ok(Found::Text(v.to_string()))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Found, E> {
                Ok(Found::Other(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Found, E> {
                Ok(Found::Other(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Found, E> {
                Ok(Found::Other(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Found, E> {
                Ok(Found::Other(num(v).to_string()))
            }
            fn visit_unit<E>(self) -> Result<Found, E> {
                Ok(Found::Other("null".into()))
            }
            fn visit_none<E>(self) -> Result<Found, E> {
                Ok(Found::Other("null".into()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Found, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Found::Other("an array".into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Found, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Found::Other("an object".into()))
            }
        }
        d.deserialize_any(FoundVisitor)
    }
}

fn check_format(format: &Found) -> Result<(), TraceError> {
    match format {
        Found::Text(s) if s == FORMAT => Ok(()),
        Found::Text(s) => {
            Err(TraceError::new("format", format!("unknown format \"{s}\" (this reader knows \"{FORMAT}\")")))
        }
        Found::Other(other) => {
            Err(TraceError::new("format", format!("expected the string \"{FORMAT}\", found {other}")))
        }
    }
}

/// The arrays the kind needs, and no others.
fn build(raw: RawTrace) -> Result<Trace, TraceError> {
    let kind = raw.kind.name();
    let not_allowed = |field: &str| TraceError::new(field, format!("not allowed in a trace of kind \"{kind}\""));
    let missing = |field: &str| TraceError::new(field, format!("missing (a trace of kind \"{kind}\" needs it)"));
    let data = match raw.kind {
        TraceKind::Snapshots => {
            if raw.paths.is_some() {
                return Err(not_allowed("paths"));
            }
            let snapshots = raw.snapshots.ok_or_else(|| missing("snapshots"))?;
            TraceData::Snapshots { snapshots, rtt: raw.rtt.unwrap_or_default() }
        }
        TraceKind::Paths => {
            if raw.snapshots.is_some() {
                return Err(not_allowed("snapshots"));
            }
            if raw.rtt.is_some() {
                return Err(not_allowed("rtt"));
            }
            TraceData::Paths { paths: raw.paths.ok_or_else(|| missing("paths"))? }
        }
    };
    Ok(Trace { note: raw.note, params: raw.params.unwrap_or_default(), data, sample_at: raw.sample_at })
}

/// Everything `parse` checks after the types: params, every number, sampleAt, the frame count.
pub(super) fn validate(trace: &Trace) -> Result<(), TraceError> {
    limits::check_counts(trace)?;
    trace.params.validate().map_err(TraceError::param)?;
    match &trace.data {
        TraceData::Snapshots { snapshots, rtt } => {
            snapshots.iter().enumerate().try_for_each(|(i, s)| check_snapshot(i, s))?;
            rtt.iter().enumerate().try_for_each(|(i, r)| check_rtt(i, r))?;
            if trace.params.clock.unwrap_or(ClockKind::Known) == ClockKind::Known {
                let offset = trace.params.clock_offset.unwrap_or(0.0);
                snapshots.iter().enumerate().try_for_each(|(i, s)| check_sent_before_arrival(i, s, offset))?;
            }
        }
        TraceData::Paths { paths } => paths.iter().enumerate().try_for_each(|(i, b)| check_batch(i, b))?,
    }
    check_sample_at(&trace.sample_at)?;
    if trace.kind() == TraceKind::Paths {
        check_frame_count(&trace.sample_at, trace.params.fps())?;
    }
    Ok(())
}

fn check_snapshot(i: usize, s: &TraceSnapshot) -> Result<(), TraceError> {
    if let Err(invalid) = s.snapshot().validate() {
        let message = match invalid.problem {
            Problem::NotFinite { value } => format!("{} is not a finite number", num(value)),
            Problem::TooLarge { value, limit } => format!("{} is beyond ±{}", num(value), num(limit)),
            _ => invalid.to_string(),
        };
        return Err(TraceError::new(format!("snapshots[{i}].{}", invalid.field), message));
    }
    check_time(&format!("snapshots[{i}].arrival"), s.arrival)
}

/// With the `known` clock, `server = local + clockOffset` is taken as true: a snapshot that would have arrived
/// more than [`MAX_EARLY_ARRIVAL`] before it was sent says the offset is wrong, and every frame would be a gap.
fn check_sent_before_arrival(i: usize, s: &TraceSnapshot, offset: f64) -> Result<(), TraceError> {
    let early = s.server_time - (s.arrival + offset);
    if early > MAX_EARLY_ARRIVAL {
        let message = format!(
            "{} is {} s before its serverTime {} (server = local + clockOffset {}); the known clock needs the \
             true params.clockOffset, or choose a clock that estimates it",
            num(s.arrival),
            num(early),
            num(s.server_time),
            num(offset)
        );
        return Err(TraceError::new(format!("snapshots[{i}].arrival"), message));
    }
    Ok(())
}

fn check_rtt(i: usize, r: &RttSample) -> Result<(), TraceError> {
    check_time(&format!("rtt[{i}].at"), r.at)?;
    check_bounded(&format!("rtt[{i}].rtt"), r.rtt, 0.0, MAX_RTT, "s")
}

fn check_batch(i: usize, b: &TraceBatch) -> Result<(), TraceError> {
    check_time(&format!("paths[{i}].arrival"), b.arrival)?;
    for (j, p) in b.points.iter().enumerate() {
        check_magnitude(&format!("paths[{i}].points[{j}].x"), p.x, MAX_COORDINATE)?;
        check_magnitude(&format!("paths[{i}].points[{j}].y"), p.y, MAX_COORDINATE)?;
        if let Some(offset) = p.offset_ms {
            check_bounded(&format!("paths[{i}].points[{j}].offsetMs"), offset, 0.0, MAX_OFFSET_MS, "ms")?;
        }
    }
    match b.duration_ms {
        Some(duration) => check_bounded(&format!("paths[{i}].durationMs"), duration, 0.0, MAX_OFFSET_MS, "ms"),
        None => Ok(()),
    }
}

fn check_sample_at(sample_at: &[f64]) -> Result<(), TraceError> {
    for (i, &t) in sample_at.iter().enumerate() {
        check_time(&format!("sampleAt[{i}]"), t)?;
        if let Some(&previous) = i.checked_sub(1).and_then(|p| sample_at.get(p)) {
            if t < previous {
                let message = format!(
                    "{} is earlier than sampleAt[{}] = {} (sampleAt must not decrease)",
                    num(t),
                    i - 1,
                    num(previous)
                );
                return Err(TraceError::new(format!("sampleAt[{i}]"), message));
            }
        }
    }
    Ok(())
}

/// The lerp chase runs one frame per `1 / fps` between the first and the last sample.
fn check_frame_count(sample_at: &[f64], fps: f64) -> Result<(), TraceError> {
    let (Some(first), Some(last)) = (sample_at.first(), sample_at.last()) else {
        return Ok(());
    };
    let frames = (last - first) * fps;
    if frames > MAX_LERP_FRAMES {
        let message = format!(
            "spans {} s: {} lerp frames at {} fps, more than {}",
            num(last - first),
            num(frames),
            num(fps),
            num(MAX_LERP_FRAMES)
        );
        return Err(TraceError::new("sampleAt", message));
    }
    Ok(())
}

fn check_time(field: &str, t: f64) -> Result<(), TraceError> {
    check_magnitude(field, t, MAX_TIME)
}

fn check_magnitude(field: &str, value: f64, limit: f64) -> Result<(), TraceError> {
    if !value.is_finite() {
        return Err(TraceError::new(field, format!("{} is not a finite number", num(value))));
    }
    if value.abs() > limit {
        return Err(TraceError::new(field, format!("{} is beyond ±{}", num(value), num(limit))));
    }
    Ok(())
}

fn check_bounded(field: &str, value: f64, min: f64, max: f64, unit: &str) -> Result<(), TraceError> {
    if !value.is_finite() {
        return Err(TraceError::new(field, format!("{} is not a finite number", num(value))));
    }
    if value < min && min == 0.0 {
        return Err(TraceError::new(field, format!("{} is negative", num(value))));
    }
    if value < min || value > max {
        return Err(TraceError::new(field, crate::words::outside(value, min, max, unit)));
    }
    Ok(())
}
