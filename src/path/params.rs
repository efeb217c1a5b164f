//! The timed player's parameters, their defaults and their checks.
//!
//! `hardSnapDistance` must exceed what the entity covers in one batch interval. The article snaps to the
//! newest batch's last point and drops that batch's path (`resetMotion(latestPoint)`), so the queue is still
//! empty when the next batch arrives one interval later: the gap is stale again, and if one interval's travel
//! is above the distance, it snaps again — on every batch, for good. `batchStart` is the alternative: jump to
//! the newest batch's *first* point and play the batch from there (from `receivedAt + interpolationDelay`), so
//! the queue refills and the stream continues; the entity loses one batch of motion instead of two.

use crate::param::{Choice, ParamError, Params};
use crate::path::batch::DuplicatePolicy;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PathParams {
    /// V1 playback speed: a segment lasts `distance / speed` (seed 001 "每段时长 = 距离 / 速度"; "示例 1：速度
    /// 120 px/s").
    #[param(range(1.0, 100_000.0), unit = "px/s", control(30.0, 300.0, 5.0, "px/s", 1.0))]
    pub speed: f64,
    /// Between receiving the first batch after idle and starting to play it (seed 001 "插值延迟": "renderTime =
    /// receiveTime + 120ms", 100–150 ms).
    #[param(range(0.0, 2.0), unit = "s")]
    pub interpolation_delay: f64,
    /// How long the queue must have been dry when a batch arrives to count as a stale gap (seed 001 "断档纠偏";
    /// no number in the article: one lost 1-s batch, ≈ 0.9 s dry, trips it, jitter does not).
    #[param(range(0.0, 60.0), unit = "s", control(0.0, 3000.0, 50.0, "ms", 1000.0))]
    pub stale_gap: f64,
    /// Distance between the rendered position and the batch's last point above which a stale batch snaps (no
    /// number in the article: above one 1-s batch at 120 px/s, below two).
    #[param(range(0.0, 1e9), unit = "px", control(0.0, 400.0, 5.0, "px", 1.0))]
    pub hard_snap_distance: f64,
    /// Where a hard snap jumps to (seed 001 "吸附到最新点"; see the module doc).
    pub hard_snap_target: SnapTarget,
    /// How consecutive duplicate points are treated (seed 001 step 1; see `batch`).
    #[serde(rename = "duplicatePoints")]
    pub duplicates: DuplicatePolicy,
}

/// Where a hard snap puts the entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
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
        self.check_ranges()
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
