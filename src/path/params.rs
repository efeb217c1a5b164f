//! The timed player's parameters, their defaults and their checks.
//!
//! | field | default | range | source |
//! |---|---|---|---|
//! | `speed` | 120 px/s | 1..=100000 | seed 001 "示例 1：速度 120 px/s" (V1 only) |
//! | `interpolationDelay` | 0.12 s | 0..=2 | seed 001 "renderTime = receiveTime + 120ms" (100–150 ms) |
//! | `staleGap` | 0.5 s | 0..=60 | no number in the article: one lost 1-s batch (≈ 0.9 s dry) trips it, jitter does not |
//! | `hardSnapDistance` | 150 px | 0..=1e9 | no number in the article: above one 1-s batch at 120 px/s (120 px), below two |
//! | `hardSnapTarget` | `latestPoint` | `latestPoint` / `batchStart` | seed 001 "吸附到最新点"; see below |
//! | `duplicatePoints` | `remove` | `remove` / `keepTimedPauses` | seed 001 step 1; see `batch` |
//!
//! `hardSnapDistance` must exceed what the entity covers in one batch interval. The article snaps to the
//! newest batch's last point and drops that batch's path (`resetMotion(latestPoint)`), so the queue is still
//! empty when the next batch arrives one interval later: the gap is stale again, and if one interval's travel
//! is above the distance, it snaps again — on every batch, for good. `batchStart` is the alternative: jump to
//! the newest batch's *first* point and play the batch from there (from `receivedAt + interpolationDelay`), so
//! the queue refills and the stream continues; the entity loses one batch of motion instead of two.

use crate::param::{in_range, ParamError};
use crate::path::batch::DuplicatePolicy;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PathParams {
    /// V1 playback speed in px/s: a segment lasts `distance / speed` (seed 001 "每段时长 = 距离 / 速度").
    pub speed: f64,
    /// Seconds between receiving the first batch after idle and starting to play it (seed 001 "插值延迟").
    pub interpolation_delay: f64,
    /// Seconds the queue must have been dry when a batch arrives to count as a stale gap (seed 001 "断档纠偏").
    pub stale_gap: f64,
    /// Pixels between the rendered position and the batch's last point above which a stale batch snaps.
    pub hard_snap_distance: f64,
    /// Where a hard snap jumps to.
    pub hard_snap_target: SnapTarget,
    /// How consecutive duplicate points are treated.
    #[serde(rename = "duplicatePoints")]
    pub duplicates: DuplicatePolicy,
}

/// Where a hard snap puts the entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SnapTarget {
    /// The article's: the newest batch's last point; the batch's path is not played.
    #[default]
    LatestPoint,
    /// The newest batch's first point, then the batch plays from `receivedAt + interpolationDelay`.
    BatchStart,
}

impl Default for PathParams {
    fn default() -> Self {
        PathParams {
            speed: 120.0,
            interpolation_delay: 0.12,
            stale_gap: 0.5,
            hard_snap_distance: 150.0,
            hard_snap_target: SnapTarget::LatestPoint,
            duplicates: DuplicatePolicy::Remove,
        }
    }
}

impl PathParams {
    /// Checks every field, naming the first bad one.
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("speed", self.speed, 1.0, 100_000.0, "px/s")?;
        in_range("interpolationDelay", self.interpolation_delay, 0.0, 2.0, "s")?;
        in_range("staleGap", self.stale_gap, 0.0, 60.0, "s")?;
        in_range("hardSnapDistance", self.hard_snap_distance, 0.0, 1e9, "px")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_each_bad_field_is_named() {
        assert_eq!(PathParams::default().validate(), Ok(()));
        let bad = [
            ("speed", PathParams { speed: 0.0, ..Default::default() }),
            ("interpolationDelay", PathParams { interpolation_delay: f64::NAN, ..Default::default() }),
            ("staleGap", PathParams { stale_gap: -1.0, ..Default::default() }),
            ("hardSnapDistance", PathParams { hard_snap_distance: f64::INFINITY, ..Default::default() }),
        ];
        for (field, params) in bad {
            assert_eq!(params.validate().unwrap_err().field, field);
        }
    }

    #[test]
    fn external_names_are_camel_case_and_missing_fields_take_defaults() {
        let params: PathParams =
            serde_json::from_str(r#"{"interpolationDelay": 0.1, "duplicatePoints": "keepTimedPauses"}"#).unwrap();
        assert_eq!(params.interpolation_delay, 0.1);
        assert_eq!(params.duplicates, DuplicatePolicy::KeepTimedPauses);
        assert_eq!(params.speed, 120.0);
        let params: PathParams = serde_json::from_str(r#"{"hardSnapTarget": "batchStart"}"#).unwrap();
        assert_eq!(params.hard_snap_target, SnapTarget::BatchStart);
        let json = serde_json::to_string(&PathParams::default()).unwrap();
        let keys = ["speed", "interpolationDelay", "staleGap", "hardSnapDistance", "hardSnapTarget", "duplicatePoints"];
        for key in keys {
            assert!(json.contains(key), "{json}");
        }
    }
}
