//! The old way: chase the newest point with lerp every frame (seed 001 "旧方案为什么看起来不对").
//!
//! ```text
//!  every frame:   pos += (target − pos) · factor            target = last point of the newest batch
//!
//!  distance to    |█████████
//!  the target     |█████▌        each frame covers `factor` of what is left: fast when far, slow when near,
//!                 |███▏          so the speed is a sawtooth that restarts whenever a batch moves the target
//!                 |█▊            (seed 001 "lerp 追点天然不是匀速": delta = remainingDistance · factor)
//!                 └──────────► frames
//! ```
//!
//! `perFrame` is the article's form: the same `lerpFactor` every frame, so after `n` frames the remaining
//! distance is `(1 − factor)ⁿ` of what it was. At 30, 60 and 144 fps half a second is 15, 30 and 72 frames,
//! leaving 20.6 %, 4.2 % and 0.05 % of the distance: the motion depends on the frame rate.
//!
//! `timeConstant` uses `factor = 1 − e^(−dt/τ)`: after any number of frames adding up to `T` seconds the
//! remaining distance is `e^(−T/τ)`, whatever the frame rate. What does *not* change: it is still a chase of the
//! newest point, still fast-then-slow, still cut short by every new batch and still cutting corners.
//! The default τ = 0.158 s is the one for which both forms agree at 60 fps with factor 0.1
//! (`τ = −dt / ln(1 − factor)`); a half-life `h` is `τ = h / ln 2`.
//!
//! A new batch overwrites the target (seed 001 "新数据包会把旧路径打断"); there is no queue, no seq and no delay.
//! The first batch places the entity at its first point.

use crate::geom::Vec2;
use crate::param::{Choice, ParamError, Params};
use crate::path::batch::{clean, DuplicatePolicy, PathBatch};
use serde::{Deserialize, Serialize};

/// Which lerp factor a frame uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum LerpMode {
    /// The article's `x += (targetX − x) · lerpFactor`, once per frame whatever its length.
    #[default]
    PerFrame,
    /// `factor = 1 − e^(−dt/τ)`: frame-rate independent.
    TimeConstant,
}

/// Parameters of the lerp chase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct LerpParams {
    /// How far each frame moves towards the target (seed 001 "nextX = x + (targetX − x) · 0.1").
    #[param(range(1e-6, 1.0), unit = "per frame", control(0.01, 1.0, 0.01, "/frame", 1.0))]
    pub lerp_factor: f64,
    /// Once per frame whatever its length (the article's), or frame-rate independent.
    pub lerp_mode: LerpMode,
    /// The time constant of the frame-rate independent chase (the factor 0.1 at 60 fps by default).
    #[param(range(1e-3, 60.0), unit = "s")]
    pub lerp_tau: f64,
}

impl Default for LerpParams {
    fn default() -> Self {
        LerpParams { lerp_factor: 0.1, lerp_mode: LerpMode::PerFrame, lerp_tau: tau_matching(0.1, 60.0) }
    }
}

impl LerpParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// The factor one frame of `dt` seconds uses.
    pub fn factor(&self, dt: f64) -> f64 {
        match self.lerp_mode {
            LerpMode::PerFrame => self.lerp_factor,
            LerpMode::TimeConstant => 1.0 - (-dt / self.lerp_tau).exp(),
        }
    }
}

/// The time constant τ for which `1 − e^(−1/(fps·τ))` equals `factor` at `fps`. A factor of 1 (or more)
/// gives 0; callers validate the result as `lerpTau`.
pub fn tau_matching(factor: f64, fps: f64) -> f64 {
    if factor >= 1.0 {
        0.0
    } else {
        -1.0 / (fps * (1.0 - factor).ln())
    }
}

/// What `LerpChase::ingest` did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum LerpOutcome {
    /// The target is now the batch's last point.
    Retargeted { target: Vec2 },
    /// No usable point: the old target stays.
    Rejected,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LerpCounters {
    pub batches: u64,
    pub retargets: u64,
    pub empty_batches: u64,
    pub non_finite_points: u64,
    pub out_of_range_points: u64,
    /// `step` calls with a negative or non-finite `dt` (no motion).
    pub invalid_steps: u64,
}

/// The chase: a position that moves a fraction of the way to the newest target each frame.
#[derive(Clone, Debug)]
pub struct LerpChase {
    params: LerpParams,
    position: Option<Vec2>,
    target: Option<Vec2>,
    counters: LerpCounters,
}

impl LerpChase {
    pub fn new(params: LerpParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(LerpChase { params, position: None, target: None, counters: LerpCounters::default() })
    }

    pub fn params(&self) -> &LerpParams {
        &self.params
    }

    pub fn position(&self) -> Option<Vec2> {
        self.position
    }

    pub fn target(&self) -> Option<Vec2> {
        self.target
    }

    pub fn counters(&self) -> &LerpCounters {
        &self.counters
    }

    /// A new batch overwrites the target with its last valid point.
    pub fn ingest(&mut self, batch: &PathBatch) -> LerpOutcome {
        self.counters.batches += 1;
        let cleaned = clean(batch, DuplicatePolicy::Remove);
        self.counters.non_finite_points += cleaned.report.non_finite_points as u64;
        self.counters.out_of_range_points += cleaned.report.out_of_range_points as u64;
        let (Some(&first), Some(&last)) = (cleaned.points.first(), cleaned.points.last()) else {
            self.counters.empty_batches += 1;
            return LerpOutcome::Rejected;
        };
        self.position.get_or_insert(first);
        self.target = Some(last);
        self.counters.retargets += 1;
        LerpOutcome::Retargeted { target: last }
    }

    /// One frame of `dt` seconds: `pos += (target − pos) · factor`. Returns the new position (`None` before the
    /// first batch). A negative or non-finite `dt` moves nothing and is counted.
    pub fn step(&mut self, dt: f64) -> Option<Vec2> {
        if !(dt.is_finite() && dt >= 0.0) {
            self.counters.invalid_steps += 1;
            return self.position;
        }
        if let (Some(position), Some(target)) = (self.position.as_mut(), self.target) {
            *position += (target - *position) * self.params.factor(dt);
        }
        self.position
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn chase_for(params: LerpParams, fps: f64, seconds: f64) -> f64 {
        let mut chase = LerpChase::new(params).unwrap();
        chase.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (100.0, 0.0)]));
        let frames = (seconds * fps).round() as usize;
        let mut x = 0.0;
        for _ in 0..frames {
            x = chase.step(1.0 / fps).unwrap().x;
        }
        x
    }

    /// Seed 001 "lerp 追点天然不是匀速", measured at three frame rates.
    #[test]
    fn per_frame_factor_ends_in_different_places_at_30_60_and_144_fps() {
        let params = LerpParams::default();
        let [x30, x60, x144] = [30.0, 60.0, 144.0].map(|fps| chase_for(params, fps, 0.5));
        assert_relative_eq!(x30, 100.0 * (1.0 - 0.9_f64.powi(15)), epsilon = 1e-9); // 79.41
        assert_relative_eq!(x60, 100.0 * (1.0 - 0.9_f64.powi(30)), epsilon = 1e-9); // 95.76
        assert_relative_eq!(x144, 100.0 * (1.0 - 0.9_f64.powi(72)), epsilon = 1e-9); // 99.95
        assert!(x60 - x30 > 15.0 && x144 - x60 > 4.0, "{x30} {x60} {x144}");
    }

    #[test]
    fn time_constant_factor_ends_in_the_same_place_at_any_frame_rate() {
        let params = LerpParams { lerp_mode: LerpMode::TimeConstant, ..Default::default() };
        let expected = 100.0 * (1.0 - (-0.5 / params.lerp_tau).exp());
        for fps in [30.0, 60.0, 144.0] {
            assert_relative_eq!(chase_for(params, fps, 0.5), expected, epsilon = 1e-9);
        }
        // …and at 60 fps it is the article's factor 0.1.
        assert_relative_eq!(expected, 100.0 * (1.0 - 0.9_f64.powi(30)), epsilon = 1e-9);
    }

    #[test]
    fn each_frame_covers_a_tenth_of_what_is_left() {
        let mut chase = LerpChase::new(LerpParams::default()).unwrap();
        assert_eq!(chase.step(1.0 / 60.0), None);
        chase.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (100.0, 0.0)]));
        let steps: Vec<f64> = (0..3).map(|_| chase.step(1.0 / 60.0).unwrap().x).collect();
        assert_relative_eq!(steps[0], 10.0, epsilon = 1e-12);
        assert_relative_eq!(steps[1], 19.0, epsilon = 1e-12);
        assert_relative_eq!(steps[2], 27.1, epsilon = 1e-12);
    }

    #[test]
    fn a_new_batch_overwrites_the_target_mid_chase() {
        let mut chase = LerpChase::new(LerpParams::default()).unwrap();
        chase.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0), (60.0, 40.0)]));
        chase.step(0.016);
        let outcome = chase.ingest(&PathBatch::v1(0.1, &[(60.0, 40.0), (120.0, 40.0)]));
        assert_eq!(outcome, LerpOutcome::Retargeted { target: Vec2::new(120.0, 40.0) });
        // The chase heads for the new target from where it is: it never passes the corner (60, 0).
        assert_relative_eq!(chase.position().unwrap().x, 6.0, epsilon = 1e-12);
        assert_relative_eq!(chase.position().unwrap().y, 4.0, epsilon = 1e-12);
    }

    #[test]
    fn bad_batches_and_steps_are_counted_and_change_nothing() {
        let mut chase = LerpChase::new(LerpParams::default()).unwrap();
        assert_eq!(chase.ingest(&PathBatch::v1(0.0, &[])), LerpOutcome::Rejected);
        assert_eq!(chase.ingest(&PathBatch::v1(0.0, &[(f64::NAN, 0.0)])), LerpOutcome::Rejected);
        chase.ingest(&PathBatch::v1(0.0, &[(1.0, 1.0), (5.0, 1.0)]));
        for dt in [f64::NAN, -1.0, f64::INFINITY] {
            assert_eq!(chase.step(dt), Some(Vec2::new(1.0, 1.0)));
        }
        let c = chase.counters();
        assert_eq!((c.batches, c.empty_batches, c.non_finite_points, c.invalid_steps, c.retargets), (3, 2, 1, 3, 1));
    }

    #[test]
    fn parameters_are_checked_and_named() {
        assert_relative_eq!(LerpParams::default().lerp_tau, 0.158_187, epsilon = 1e-6);
        let bad = LerpParams { lerp_factor: 0.0, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "lerpFactor");
        let bad = LerpParams { lerp_tau: f64::NAN, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "lerpTau");
        let json = serde_json::to_string(&LerpParams::default()).unwrap();
        assert!(json.contains(r#""lerpMode":"perFrame""#) && json.contains("lerpFactor"), "{json}");
    }
}
