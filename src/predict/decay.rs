//! The page's "correction-offset decay" plot: how each smoothing mode shows one correction over time.
//!
//! ```text
//!  a correction of |c| at t = 0, the player standing still; one point per frame n at t = n / fps
//!  halfLife      |c| · 0.5^(t / halfLife)            the same curve at any fps
//!  linear        |c| · max(0, 1 − t / smoothTime)    the same curve at any fps
//!  firstVersion  |c| · 0.9^(n + 1)                   per frame: faster at a higher fps
//!  snap          0                                   the jump is the whole correction
//! ```
//!
//! The curve is produced by the real [`Smoother`], one point per frame, not by a second copy of the formulas.

use super::smoothing::{Smoother, SmoothingMode, SmoothingParams};
use crate::geom::Vec2;
use crate::param::{in_range, ParamError};
use serde::{Deserialize, Serialize};

/// One point of an offset-decay curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecayPoint {
    /// Seconds since the correction.
    pub time: f64,
    /// Distance between the rendered position and the physics, in world units.
    pub offset: f64,
}

/// How each mode shows one correction of length `initial` over `duration` seconds at `fps` frames per second,
/// with the player standing still: the page's "correction-offset decay" plot. Runs the real [`Smoother`],
/// one point per frame, the first at the correction's frame (time 0).
///
/// `halfLife` gives `initial · 0.5^(t / halfLife)`, `linear` `initial · (1 − t / smoothTime)`, `snap` 0,
/// `firstVersion` `initial · 0.9^(n + 1)` at frame n — the only one that depends on the frame rate.
pub fn decay_curve(
    mode: SmoothingMode,
    params: &SmoothingParams,
    initial: f64,
    fps: f64,
    duration: f64,
) -> Result<Vec<DecayPoint>, ParamError> {
    params.validate()?;
    let initial = in_range("initial", initial, 0.0, 1e6, "units")?;
    let fps = in_range("fps", fps, 1.0, 1000.0, "Hz")?;
    let duration = in_range("duration", duration, 0.0, 60.0, "s")?;
    let dt = 1.0 / fps;
    let before = Vec2::new(initial, 0.0);
    let mut smoother = Smoother::new(mode);
    smoother.end_frame(before, params); // the view rests at the old position
    let frames = (duration * fps).floor() as usize;
    let mut points = Vec::with_capacity(frames + 1);
    for n in 0..=frames {
        if n == 0 {
            smoother.add_correction(before - Vec2::ZERO, params);
        } else {
            smoother.advance(dt, params);
        }
        points.push(DecayPoint { time: n as f64 * dt, offset: smoother.offset(Vec2::ZERO, params).length() });
        smoother.end_frame(Vec2::ZERO, params);
    }
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn params() -> SmoothingParams {
        SmoothingParams::default()
    }

    /// The article's `lerp(…, 0.1)` per frame is not frame-rate independent: the frame shown 1/6 s after the
    /// correction (frame 5, 10 and 24, each already one chase step in) still shows 53 %, 31 % and 7 % of the
    /// gap; the half-life shows 0.5^(0.1667 / 0.08) = 23.6 % at every rate.
    #[test]
    fn the_first_version_decays_at_a_rate_that_depends_on_fps() {
        let p = params();
        let at_one_sixth = |mode, fps: f64| {
            let last = *decay_curve(mode, &p, 1.0, fps, 1.0 / 6.0 + 1e-9).unwrap().last().unwrap();
            assert!((last.time - 1.0 / 6.0).abs() < 1e-12);
            last.offset
        };
        assert_relative_eq!(at_one_sixth(SmoothingMode::FirstVersion, 30.0), 0.9f64.powi(6), max_relative = 1e-12);
        assert_relative_eq!(at_one_sixth(SmoothingMode::FirstVersion, 60.0), 0.9f64.powi(11), max_relative = 1e-12);
        assert_relative_eq!(at_one_sixth(SmoothingMode::FirstVersion, 144.0), 0.9f64.powi(25), max_relative = 1e-12);
        for fps in [30.0, 60.0, 144.0] {
            let left = at_one_sixth(SmoothingMode::HalfLife, fps);
            assert_relative_eq!(left, 0.5f64.powf((1.0 / 6.0) / 0.08), max_relative = 1e-9);
            assert!((left - 0.236).abs() < 1e-3);
        }
    }

    #[test]
    fn decay_curves_follow_their_formulas() {
        let p = params();
        let curve = |mode| decay_curve(mode, &p, 8.0, 60.0, 0.5).unwrap();
        let half_life = curve(SmoothingMode::HalfLife);
        assert_eq!(half_life.len(), 31);
        assert_eq!(half_life[0], DecayPoint { time: 0.0, offset: 8.0 });
        assert_relative_eq!(half_life[12].offset, 8.0 * 0.5f64.powf(0.2 / 0.08), max_relative = 1e-12);
        let linear = curve(SmoothingMode::Linear);
        assert_eq!(linear[0].offset, 8.0);
        assert_relative_eq!(linear[3].offset, 8.0 * (1.0 - 0.05 / 0.1), max_relative = 1e-12);
        assert!(linear[6].offset < 1e-12, "six frames of 1/60 s add up to just under smoothTime");
        assert_eq!(linear[7].offset, 0.0, "gone after smoothTime");
        assert!(curve(SmoothingMode::Snap).iter().all(|p| p.offset == 0.0));
        let first = curve(SmoothingMode::FirstVersion);
        assert_relative_eq!(first[0].offset, 7.2, max_relative = 1e-12);
        assert_relative_eq!(first[9].offset, 8.0 * 0.9f64.powi(10), max_relative = 1e-12);
    }

    #[test]
    fn decay_curve_names_a_bad_argument() {
        let p = params();
        assert_eq!(decay_curve(SmoothingMode::Snap, &p, f64::NAN, 60.0, 1.0).unwrap_err().field, "initial");
        assert_eq!(decay_curve(SmoothingMode::Snap, &p, 1.0, 0.0, 1.0).unwrap_err().field, "fps");
        assert_eq!(decay_curve(SmoothingMode::Snap, &p, 1.0, 60.0, 1e9).unwrap_err().field, "duration");
        let bad = SmoothingParams { half_life: 0.0, ..p };
        assert_eq!(decay_curve(SmoothingMode::Snap, &bad, 1.0, 60.0, 1.0).unwrap_err().field, "halfLife");
    }
}
