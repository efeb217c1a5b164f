//! The most a trace may hold, and the readers that stop at it.
//!
//! ```text
//!  bytes ≤ 40 MiB ─► read ─► snapshots ≤ 150 000 ─► rtt ≤ 50 000 ─► paths ≤ 50 000 batches,
//!                            400 000 points in all ─► sampleAt ≤ 150 000 ─► note ≤ 2 000 characters
//! ```
//! The limits keep memory bounded whatever a file holds: the text is refused by its size before anything is
//! parsed, and each array is counted *while* it is read, so a file of ten million `sampleAt` entries stops at
//! entry 150 001 instead of allocating them all. A trace at every count limit, written as [`Trace::to_json`]
//! writes it, still fits in the byte limit. The page shows a trace with 150 000 samples in about 71 MB of
//! timelines (59 columns × 8 bytes per frame).
//!
//! [`Trace::to_json`]: super::Trace::to_json

use super::objects::Object;
use super::{Trace, TraceData, TraceError};
use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::marker::PhantomData;

/// The largest trace text accepted, in bytes (40 MiB).
pub const MAX_TRACE_BYTES: usize = 40 << 20;
/// The most snapshots a trace may hold (about 42 minutes at 60 Hz, 2 hours at 20 Hz).
pub const MAX_SNAPSHOTS: usize = 150_000;
/// The most RTT samples a trace may hold (the simulator measures five a second: 2.8 hours).
pub const MAX_RTT_SAMPLES: usize = 50_000;
/// The most path batches a trace may hold (seed 001 sends one a second: 14 hours).
pub const MAX_BATCHES: usize = 50_000;
/// The most path points a trace may hold, all batches together.
pub const MAX_POINTS: usize = 400_000;
/// The most `sampleAt` entries (frames) a trace may ask for (about 42 minutes at 60 fps).
pub const MAX_SAMPLES: usize = 150_000;
/// The longest `note`, in characters.
pub const MAX_NOTE_CHARS: usize = 2_000;

/// The error for a text over [`MAX_TRACE_BYTES`] (the same words whether the size is known or not).
pub fn too_large() -> TraceError {
    TraceError::document(format!(
        "larger than {} MiB ({MAX_TRACE_BYTES} bytes), the most a trace may hold",
        MAX_TRACE_BYTES >> 20
    ))
}

/// Refuses a text of `bytes` bytes when it is over the limit.
pub fn check_size(bytes: usize) -> Result<(), TraceError> {
    if bytes > MAX_TRACE_BYTES {
        return Err(too_large());
    }
    Ok(())
}

pub(super) fn more_than(limit: usize, what: &str) -> String {
    format!("more than {limit} {what}, the most a trace may hold")
}

/// The counts of a trace built in code (a parsed one was stopped while reading).
pub(super) fn check_counts(trace: &Trace) -> Result<(), TraceError> {
    let over = |field: &str, count: usize, limit: usize, what: &str| {
        if count > limit {
            Err(TraceError::new(field, more_than(limit, what)))
        } else {
            Ok(())
        }
    };
    match &trace.data {
        TraceData::Snapshots { snapshots, rtt } => {
            over("snapshots", snapshots.len(), MAX_SNAPSHOTS, "snapshots")?;
            over("rtt", rtt.len(), MAX_RTT_SAMPLES, "RTT samples")?;
        }
        TraceData::Paths { paths } => {
            over("paths", paths.len(), MAX_BATCHES, "batches")?;
            let mut points = 0;
            for (i, batch) in paths.iter().enumerate() {
                points += batch.points.len();
                over(&format!("paths[{i}].points"), points, MAX_POINTS, "points in all batches")?;
            }
        }
    }
    over("sampleAt", trace.sample_at.len(), MAX_SAMPLES, "sample times")?;
    if let Some(note) = &trace.note {
        over("note", note.chars().count(), MAX_NOTE_CHARS, "characters")?;
    }
    Ok(())
}

/// An array read element by element that refuses element `limit + 1` (before reading it into memory).
struct AtMost<T> {
    limit: usize,
    what: &'static str,
    marker: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for AtMost<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.limit).min(4096));
        while let Some(item) = seq.next_element()? {
            if out.len() == self.limit {
                return Err(A::Error::custom(more_than(self.limit, self.what)));
            }
            out.push(item);
        }
        Ok(out)
    }
}

fn at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    limit: usize,
    what: &'static str,
) -> Result<Vec<T>, D::Error> {
    d.deserialize_seq(AtMost { limit, what, marker: PhantomData })
}

/// An optional (`null` = absent) array of at most `limit` JSON objects.
struct OptionalObjects<T> {
    limit: usize,
    what: &'static str,
    marker: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for OptionalObjects<T> {
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let objects: Vec<Object<T>> = at_most(d, self.limit, self.what)?;
        Ok(Some(objects.into_iter().map(|o| o.0).collect()))
    }
}

fn optional_objects_at_most<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
    limit: usize,
    what: &'static str,
) -> Result<Option<Vec<T>>, D::Error> {
    d.deserialize_option(OptionalObjects { limit, what, marker: PhantomData })
}

pub(super) fn snapshots<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    optional_objects_at_most(d, MAX_SNAPSHOTS, "snapshots")
}

pub(super) fn rtt<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    optional_objects_at_most(d, MAX_RTT_SAMPLES, "RTT samples")
}

pub(super) fn paths<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    optional_objects_at_most(d, MAX_BATCHES, "batches")
}

pub(super) fn sample_at<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    at_most(d, MAX_SAMPLES, "sample times")
}

/// The rows of an arrival log (`trace::arrivals`): as many as a trace may hold snapshots.
pub(super) fn arrivals<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let objects: Vec<Object<T>> = at_most(d, MAX_SNAPSHOTS, "snapshots")?;
    Ok(objects.into_iter().map(|o| o.0).collect())
}

pub(super) fn points<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let objects: Vec<Object<T>> = at_most(d, MAX_POINTS, "points in all batches")?;
    Ok(objects.into_iter().map(|o| o.0).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{RttSample, TraceBatch, TraceParams, TracePoint, TraceSnapshot};

    /// Numbers with all 17 significant digits, as a simulator writes them.
    fn long(i: usize, scale: f64) -> f64 {
        (i as f64 + 0.123_456_789_012_345_6) * scale
    }

    #[test]
    fn a_trace_at_every_count_limit_fits_in_the_byte_limit() {
        let snapshots = (0..MAX_SNAPSHOTS)
            .map(|i| TraceSnapshot {
                tick: 1_000_000 + i as u64,
                server_time: long(i, 0.05) + 1e5,
                arrival: long(i, 0.05) + 1e5 + 0.071_234_567_890_123_4,
                x: -long(i % 1000, 0.987_654_321),
                y: long(i % 1000, 0.123_456_789),
                vx: -long(7, 17.123_456_789),
                vy: long(3, 0.000_123_456_789),
                generation: Some(4_000_000_000),
                teleport: Some(true),
            })
            .collect();
        let rtt = (0..MAX_RTT_SAMPLES).map(|i| RttSample { at: long(i, 0.2) + 1e5, rtt: long(0, 0.987) }).collect();
        let sample_at: Vec<f64> = (0..MAX_SAMPLES).map(|i| long(i, 1.0 / 60.0) + 1e5).collect();
        let note = Some("n".repeat(MAX_NOTE_CHARS));
        let params = TraceParams::default();
        let trace = Trace {
            note: note.clone(),
            params: params.clone(),
            data: TraceData::Snapshots { snapshots, rtt },
            sample_at: sample_at.clone(),
        };
        assert_eq!(trace.validate(), Ok(()));
        let bytes = trace.to_json().len();
        assert!(bytes <= MAX_TRACE_BYTES, "snapshots: {bytes} bytes");

        let per_batch = MAX_POINTS / MAX_BATCHES;
        let paths = (0..MAX_BATCHES)
            .map(|i| TraceBatch {
                arrival: long(i, 1.0) + 1e5,
                seq: Some(1_000_000 + i as u64),
                points: (0..per_batch)
                    .map(|j| TracePoint {
                        x: -long(j, 12.345),
                        y: long(i % 1000, 0.987),
                        offset_ms: Some(long(j, 99.9)),
                    })
                    .collect(),
                duration_ms: Some(long(per_batch, 99.9)),
            })
            .collect();
        let trace = Trace { note, params, data: TraceData::Paths { paths }, sample_at };
        assert_eq!(trace.validate(), Ok(()));
        let bytes = trace.to_json().len();
        assert!(bytes <= MAX_TRACE_BYTES, "paths: {bytes} bytes");
    }

    fn sample_at_text(entries: usize) -> String {
        let zeros = vec!["0"; entries].join(",");
        format!(r#"{{"format": "netcode-lab/trace@1", "kind": "snapshots", "snapshots": [], "sampleAt": [{zeros}]}}"#)
    }

    #[test]
    fn arrays_are_counted_while_they_are_read() {
        assert_eq!(Trace::from_json(&sample_at_text(MAX_SAMPLES)).map(|t| t.sample_at.len()), Ok(MAX_SAMPLES));
        let err = Trace::from_json(&sample_at_text(MAX_SAMPLES + 1)).unwrap_err();
        assert_eq!(err.to_string(), "sampleAt: more than 150000 sample times, the most a trace may hold");
        let one = r#"{"tick": 0, "serverTime": 0, "arrival": 0, "x": 0, "y": 0, "vx": 0, "vy": 0}"#;
        let text = format!(
            r#"{{"format": "netcode-lab/trace@1", "kind": "snapshots", "rtt": [{}], "snapshots": [], "sampleAt": []}}"#,
            vec![r#"{"at": 0, "rtt": 0.1}"#; MAX_RTT_SAMPLES + 1].join(",")
        );
        assert_eq!(
            Trace::from_json(&text).unwrap_err().to_string(),
            "rtt: more than 50000 RTT samples, the most a trace may hold"
        );
        let text = format!(
            r#"{{"format": "netcode-lab/trace@1", "kind": "snapshots", "snapshots": [{}], "sampleAt": []}}"#,
            vec![one; MAX_SNAPSHOTS + 1].join(",")
        );
        assert_eq!(
            Trace::from_json(&text).unwrap_err().to_string(),
            "snapshots: more than 150000 snapshots, the most a trace may hold"
        );
    }

    #[test]
    fn a_trace_built_in_code_meets_the_same_limits() {
        let mut trace = crate::trace::examples::example("seed-002").unwrap();
        trace.sample_at = vec![10.0; MAX_SAMPLES + 1];
        assert_eq!(
            trace.validate().unwrap_err().to_string(),
            "sampleAt: more than 150000 sample times, the most a trace may hold"
        );
        trace.sample_at = vec![10.0];
        trace.note = Some("é".repeat(MAX_NOTE_CHARS + 1));
        assert_eq!(
            trace.validate().unwrap_err().to_string(),
            "note: more than 2000 characters, the most a trace may hold"
        );
        trace.note = Some("é".repeat(MAX_NOTE_CHARS));
        assert_eq!(trace.validate(), Ok(()), "characters are counted, not bytes");
        let batch = TraceBatch { points: vec![TracePoint::default(); MAX_POINTS / 2 + 1], ..TraceBatch::default() };
        let paths = Trace { data: TraceData::Paths { paths: vec![batch.clone(), batch] }, ..trace };
        assert_eq!(
            paths.validate().unwrap_err().to_string(),
            "paths[1].points: more than 400000 points in all batches, the most a trace may hold"
        );
    }

    #[test]
    fn a_text_over_the_byte_limit_is_refused_before_it_is_read() {
        let text = " ".repeat(MAX_TRACE_BYTES + 1);
        let expected = "trace: larger than 40 MiB (41943040 bytes), the most a trace may hold";
        assert_eq!(Trace::from_json(&text).unwrap_err().to_string(), expected);
        assert_eq!(Trace::from_json_bytes(text.as_bytes()).unwrap_err().to_string(), expected);
        assert_eq!(check_size(MAX_TRACE_BYTES), Ok(()));
    }
}
