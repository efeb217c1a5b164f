//! A path batch as it arrives, and its cleaning: seed 001 steps 1, 2 and the validation half of step 5.
//!
//! ```text
//!  arrives      {arrival, seq?, points: [{x, y, offsetMs?} …], durationMs?}
//!     │
//!     ├─ drop points with a non-finite or huge coordinate ........ nonFinitePoints / outOfRangePoints
//!     ├─ step 2+5: do the points carry a valid timeline?
//!     │     no point has offsetMs ............................... V1 (distance / speed)
//!     │     all finite, 0 ≤ offsetMs ≤ 1 h, non-decreasing ...... V2 (offsetMs, durationMs)
//!     │     anything else ...................................... V1, and `v2Fallbacks` counts it
//!     ├─ step 1: remove consecutive duplicate points ........... duplicatesRemoved
//!     └─ CleanBatch { points, offsets (V2 only), durationMs (V2 only) }
//! ```
//!
//! The article removes duplicates before it looks at the timing (seed 001 "这套方案可以拆成 7 步"). Here the offsets
//! are validated on every point first, so a broken `offsetMs` on a point that dedup would remove still sends the
//! batch to V1: a batch whose timeline is partly broken is not trusted. For a valid batch the result is the same.
//!
//! Dedup has two policies. `remove` is the article's: a repeated position goes, and with it its `offsetMs`. In a
//! V2 batch a repeat with a later offset means "stood still until then"; removing it stretches the next segment
//! over the pause, so the entity creeps instead of standing. `keepTimedPauses` keeps such a repeat, which
//! becomes a zero-length segment with a duration: a pause on the timeline.

use crate::geom::Vec2;
use serde::{Deserialize, Serialize};

/// The largest coordinate accepted, in world units (px). A point beyond it is dropped and counted.
pub const MAX_COORDINATE: f64 = 1e9;

/// The largest `offsetMs` / `durationMs` accepted: one hour. A larger one makes the timing invalid.
pub const MAX_OFFSET_MS: f64 = 3_600_000.0;

/// One received path point; `offsetMs` is its time inside the batch (seed 001 "moveList[].offsetMs").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PathPoint {
    pub x: f64,
    pub y: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_ms: Option<f64>,
}

impl PathPoint {
    pub const fn at(x: f64, y: f64) -> Self {
        PathPoint { x, y, offset_ms: None }
    }

    pub const fn timed(x: f64, y: f64, offset_ms: f64) -> Self {
        PathPoint { x, y, offset_ms: Some(offset_ms) }
    }

    pub fn pos(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
}

/// One batch of path points as the trace format spells it: `{arrival, seq?, points, durationMs?}`.
///
/// `arrival` is the client's local time in seconds at which the batch was received. `seq` and `durationMs` are
/// seed 001's `moveInfo.seq` / `moveInfo.durationMs` (V2); a V1 batch has neither.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PathBatch {
    pub arrival: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    pub points: Vec<PathPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

impl PathBatch {
    /// A V1 batch: coordinates only, no seq, no timing.
    pub fn v1(arrival: f64, points: &[(f64, f64)]) -> Self {
        let points = points.iter().map(|&(x, y)| PathPoint::at(x, y)).collect();
        PathBatch { arrival, seq: None, points, duration_ms: None }
    }

    /// A V2 batch: `(x, y, offsetMs)` points, a seq and the batch's `durationMs`.
    pub fn v2(arrival: f64, seq: u64, points: &[(f64, f64, f64)], duration_ms: f64) -> Self {
        let points = points.iter().map(|&(x, y, offset)| PathPoint::timed(x, y, offset)).collect();
        PathBatch { arrival, seq: Some(seq), points, duration_ms: Some(duration_ms) }
    }
}

/// What to do with consecutive points at the same position (seed 001 step 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, crate::param::Choice)]
#[serde(rename_all = "camelCase")]
pub enum DuplicatePolicy {
    /// The article's rule: remove every consecutive repeat (its offset goes with it).
    #[default]
    Remove,
    /// Keep a repeat whose `offsetMs` is later in a V2 batch: it is a pause. Other repeats are removed.
    KeepTimedPauses,
}

/// Which timeline a batch is played on (seed 001 "V1 回退模式 / V2 真实时间模式").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TimingKind {
    /// Durations estimated as distance / speed.
    V1,
    /// Durations taken from each point's `offsetMs`.
    V2,
}

/// Why a batch that carried `offsetMs` was played as V1 after all. `index` is the point's index in the batch
/// after points with bad coordinates were dropped.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "camelCase")]
pub enum FallbackReason {
    /// Some points carry `offsetMs` and this one does not.
    MissingOffset { index: usize },
    /// `offsetMs` is NaN or infinite.
    NonFiniteOffset { index: usize },
    /// `offsetMs` is negative or larger than [`MAX_OFFSET_MS`].
    OffsetOutOfRange { index: usize, offset_ms: f64 },
    /// `offsetMs` is smaller than the previous point's.
    DecreasingOffset { index: usize, offset_ms: f64, previous_ms: f64 },
}

/// What cleaning one batch found; the players add these to their counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CleanReport {
    pub non_finite_points: usize,
    pub out_of_range_points: usize,
    pub duplicates_removed: usize,
    /// Set when the batch carried offsets that could not be used.
    pub v2_fallback: Option<FallbackReason>,
    /// A V2 batch whose `durationMs` was non-finite, out of range or before its last offset: it ends at the
    /// last offset instead.
    pub duration_ignored: bool,
}

/// A batch ready to be turned into segments: valid points, no consecutive duplicates (unless kept as pauses).
#[derive(Clone, Debug, PartialEq)]
pub struct CleanBatch {
    pub points: Vec<Vec2>,
    /// `Some` (one per point, in ms, non-decreasing) for a V2 batch, `None` for V1.
    pub offsets_ms: Option<Vec<f64>>,
    /// The V2 batch's `durationMs` when it was valid.
    pub duration_ms: Option<f64>,
    pub report: CleanReport,
}

impl CleanBatch {
    pub fn timing(&self) -> TimingKind {
        if self.offsets_ms.is_some() {
            TimingKind::V2
        } else {
            TimingKind::V1
        }
    }

    pub fn last(&self) -> Option<Vec2> {
        self.points.last().copied()
    }
}

/// Cleans a batch: drops bad points, detects and validates its timeline, removes consecutive duplicates.
/// Never panics; everything it drops or distrusts is counted in the report.
pub fn clean(batch: &PathBatch, duplicates: DuplicatePolicy) -> CleanBatch {
    let mut report = CleanReport::default();
    let valid: Vec<PathPoint> = batch.points.iter().copied().filter(|p| keep_point(p, &mut report)).collect();
    let offsets = match detect_offsets(&valid) {
        Ok(offsets) => offsets,
        Err(reason) => {
            report.v2_fallback = Some(reason);
            None
        }
    };
    let duration_ms = offsets.as_ref().and_then(|o| checked_duration(batch.duration_ms, o, &mut report));
    let (points, offsets_ms) = dedup(&valid, offsets, duplicates, &mut report);
    CleanBatch { points, offsets_ms, duration_ms, report }
}

fn keep_point(p: &PathPoint, report: &mut CleanReport) -> bool {
    if !p.pos().is_finite() {
        report.non_finite_points += 1;
        false
    } else if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
        report.out_of_range_points += 1;
        false
    } else {
        true
    }
}

/// Step 2 and step 5's check: `Ok(None)` for a V1 batch, `Ok(Some(offsets))` for a valid V2 batch.
fn detect_offsets(points: &[PathPoint]) -> Result<Option<Vec<f64>>, FallbackReason> {
    if points.iter().all(|p| p.offset_ms.is_none()) {
        return Ok(None);
    }
    let mut offsets = Vec::with_capacity(points.len());
    for (index, p) in points.iter().enumerate() {
        let offset_ms = p.offset_ms.ok_or(FallbackReason::MissingOffset { index })?;
        if !offset_ms.is_finite() {
            return Err(FallbackReason::NonFiniteOffset { index });
        }
        if !(0.0..=MAX_OFFSET_MS).contains(&offset_ms) {
            return Err(FallbackReason::OffsetOutOfRange { index, offset_ms });
        }
        if let Some(&previous_ms) = offsets.last() {
            if offset_ms < previous_ms {
                return Err(FallbackReason::DecreasingOffset { index, offset_ms, previous_ms });
            }
        }
        offsets.push(offset_ms);
    }
    Ok(Some(offsets))
}

fn checked_duration(duration_ms: Option<f64>, offsets: &[f64], report: &mut CleanReport) -> Option<f64> {
    let duration_ms = duration_ms?;
    let last = offsets.last().copied().unwrap_or(0.0);
    if duration_ms.is_finite() && duration_ms <= MAX_OFFSET_MS && duration_ms >= last {
        Some(duration_ms)
    } else {
        report.duration_ignored = true;
        None
    }
}

/// Step 1: removes consecutive repeats of a position, keeping the first (or a later-timed one as a pause).
fn dedup(
    points: &[PathPoint],
    offsets: Option<Vec<f64>>,
    policy: DuplicatePolicy,
    report: &mut CleanReport,
) -> (Vec<Vec2>, Option<Vec<f64>>) {
    let mut kept_points: Vec<Vec2> = Vec::with_capacity(points.len());
    let mut kept_offsets: Vec<f64> = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        let offset = offsets.as_ref().map(|o| o[i]);
        let repeat = kept_points.last() == Some(&p.pos());
        let is_pause = policy == DuplicatePolicy::KeepTimedPauses
            && offset.is_some_and(|o| kept_offsets.last().is_some_and(|&previous| o > previous));
        if repeat && !is_pause {
            report.duplicates_removed += 1;
            continue;
        }
        kept_points.push(p.pos());
        kept_offsets.extend(offset);
    }
    (kept_points, offsets.map(|_| kept_offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_without_offsets_is_v1_and_not_a_fallback() {
        let clean = clean(&PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0)]), DuplicatePolicy::Remove);
        assert_eq!(clean.timing(), TimingKind::V1);
        assert_eq!(clean.report, CleanReport::default());
    }

    #[test]
    fn seed_001_v2_batch_keeps_its_offsets_and_duration() {
        let batch = PathBatch::v2(
            0.0,
            12,
            &[(100.0, 200.0, 0.0), (112.0, 200.0, 120.0), (130.0, 205.0, 280.0), (160.0, 220.0, 1000.0)],
            1000.0,
        );
        let clean = clean(&batch, DuplicatePolicy::Remove);
        assert_eq!(clean.timing(), TimingKind::V2);
        assert_eq!(clean.offsets_ms, Some(vec![0.0, 120.0, 280.0, 1000.0]));
        assert_eq!(clean.duration_ms, Some(1000.0));
        assert_eq!(clean.report, CleanReport::default());
    }

    #[test]
    fn each_broken_offset_falls_back_to_v1_with_its_reason() {
        let cases = [
            (
                vec![PathPoint::timed(0.0, 0.0, 0.0), PathPoint::at(1.0, 0.0)],
                FallbackReason::MissingOffset { index: 1 },
            ),
            (
                vec![PathPoint::timed(0.0, 0.0, 0.0), PathPoint::timed(1.0, 0.0, f64::NAN)],
                FallbackReason::NonFiniteOffset { index: 1 },
            ),
            (
                vec![PathPoint::timed(0.0, 0.0, -5.0), PathPoint::timed(1.0, 0.0, 10.0)],
                FallbackReason::OffsetOutOfRange { index: 0, offset_ms: -5.0 },
            ),
            (
                vec![PathPoint::timed(0.0, 0.0, 100.0), PathPoint::timed(1.0, 0.0, 50.0)],
                FallbackReason::DecreasingOffset { index: 1, offset_ms: 50.0, previous_ms: 100.0 },
            ),
        ];
        for (points, reason) in cases {
            let batch = PathBatch { arrival: 0.0, seq: Some(1), points, duration_ms: Some(1000.0) };
            let clean = clean(&batch, DuplicatePolicy::Remove);
            assert_eq!(clean.timing(), TimingKind::V1);
            assert_eq!(clean.report.v2_fallback, Some(reason));
            assert_eq!(clean.duration_ms, None);
        }
    }

    #[test]
    fn bad_points_are_dropped_and_counted_by_kind() {
        let batch = PathBatch::v1(0.0, &[(0.0, 0.0), (f64::NAN, 1.0), (2.0, f64::INFINITY), (3e9, 0.0), (4.0, 0.0)]);
        let clean = clean(&batch, DuplicatePolicy::Remove);
        assert_eq!(clean.points, vec![Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0)]);
        assert_eq!(clean.report.non_finite_points, 2);
        assert_eq!(clean.report.out_of_range_points, 1);
    }

    #[test]
    fn consecutive_duplicates_are_removed_but_a_return_visit_is_not() {
        let batch = PathBatch::v1(0.0, &[(0.0, 0.0), (0.0, 0.0), (5.0, 0.0), (5.0, 0.0), (5.0, 0.0), (0.0, 0.0)]);
        let clean = clean(&batch, DuplicatePolicy::Remove);
        assert_eq!(clean.points, vec![Vec2::new(0.0, 0.0), Vec2::new(5.0, 0.0), Vec2::new(0.0, 0.0)]);
        assert_eq!(clean.report.duplicates_removed, 3);
    }

    #[test]
    fn a_timed_repeat_is_removed_by_the_article_rule_and_kept_as_a_pause_by_the_other() {
        let batch = PathBatch::v2(0.0, 1, &[(0.0, 0.0, 0.0), (0.0, 0.0, 200.0), (40.0, 0.0, 400.0)], 400.0);
        let removed = clean(&batch, DuplicatePolicy::Remove);
        assert_eq!(removed.offsets_ms, Some(vec![0.0, 400.0]));
        assert_eq!(removed.report.duplicates_removed, 1);
        let kept = clean(&batch, DuplicatePolicy::KeepTimedPauses);
        assert_eq!(kept.offsets_ms, Some(vec![0.0, 200.0, 400.0]));
        assert_eq!(kept.points.len(), 3);
        assert_eq!(kept.report.duplicates_removed, 0);
    }

    #[test]
    fn a_duration_before_the_last_offset_is_ignored_and_counted() {
        let batch = PathBatch::v2(0.0, 1, &[(0.0, 0.0, 0.0), (10.0, 0.0, 500.0)], 300.0);
        let clean = clean(&batch, DuplicatePolicy::Remove);
        assert_eq!(clean.timing(), TimingKind::V2);
        assert_eq!(clean.duration_ms, None);
        assert!(clean.report.duration_ignored);
    }

    #[test]
    fn the_trace_format_reads_camel_case_and_optional_fields() {
        let json = r#"{"arrival": 1.5, "seq": 12, "durationMs": 1000,
                       "points": [{"x": 100, "y": 200, "offsetMs": 0}, {"x": 112, "y": 200}]}"#;
        let batch: PathBatch = serde_json::from_str(json).unwrap();
        assert_eq!(batch.seq, Some(12));
        assert_eq!(batch.duration_ms, Some(1000.0));
        assert_eq!(batch.points[1], PathPoint::at(112.0, 200.0));
        let v1: PathBatch = serde_json::from_str(r#"{"arrival": 0, "points": []}"#).unwrap();
        assert_eq!((v1.seq, v1.duration_ms), (None, None));
        assert_eq!(serde_json::to_string(&DuplicatePolicy::KeepTimedPauses).unwrap(), r#""keepTimedPauses""#);
    }
}
