//! Interpolation between the two snapshots that bracket the render time.
//!
//! ```text
//!  left ●━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━● right        factor t = (render − left.time) / (right.time − left.time)
//!        linear:  p = left + (right − left)·t      straight chord, speed jumps at every snapshot (seeds 000, 002)
//!        hermite: p = h00·p0 + h10·Δ·v0 + h01·p1 + h11·Δ·v1    passes both points *and* matches both velocities
//! ```
//! Linear is what both seeds write (seed 000 §4.3.6, seed 002 "第七步"): the position always stays on the chord
//! between the two snapshots. Cubic Hermite uses the velocities the snapshots carry (seed 000 §4.3.1 says they
//! are there anyway) so the curve is C¹: no kink at each snapshot. It may leave the chord (overshoot) when the
//! velocities disagree with the positions — that is the price, and why linear stays the default.

use crate::geom::Vec2;
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// How positions between two snapshots are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, crate::param::Choice)]
#[serde(rename_all = "camelCase")]
pub enum Interpolation {
    /// The chord between the two positions (seed 000 §4.3.6, seed 002 "第七步").
    #[default]
    Linear,
    /// Cubic Hermite through both positions with both snapshots' velocities as tangents.
    Hermite,
}

impl Interpolation {
    /// The position at `factor` (0 = `left`, 1 = `right`) between two snapshots.
    #[inline]
    pub fn position(self, left: &Snapshot, right: &Snapshot, factor: f64) -> Vec2 {
        match self {
            Interpolation::Linear => left.pos.lerp(right.pos, factor),
            Interpolation::Hermite => {
                let span = right.server_time - left.server_time;
                hermite(left.pos, left.vel * span, right.pos, right.vel * span, factor)
            }
        }
    }
}

/// Cubic Hermite on the unit interval: `p0`, `p1` the ends, `m0`, `m1` the tangents scaled to the interval.
pub fn hermite(p0: Vec2, m0: Vec2, p1: Vec2, m1: Vec2, t: f64) -> Vec2 {
    let (t2, t3) = (t * t, t * t * t);
    let h00 = 2.0 * t3 - 3.0 * t2 + 1.0;
    let h10 = t3 - 2.0 * t2 + t;
    let h01 = -2.0 * t3 + 3.0 * t2;
    let h11 = t3 - t2;
    p0 * h00 + m0 * h10 + p1 * h01 + m1 * h11
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn snap(time: f64, x: f64, vx: f64) -> Snapshot {
        Snapshot::moving(0, time, Vec2::new(x, 0.0), Vec2::new(vx, 0.0))
    }

    #[test]
    fn both_hit_the_ends() {
        let (a, b) = (snap(1.0, 0.0, 5.0), snap(1.1, 2.0, -3.0));
        for mode in [Interpolation::Linear, Interpolation::Hermite] {
            assert_relative_eq!(mode.position(&a, &b, 0.0).x, 0.0, epsilon = 1e-12);
            assert_relative_eq!(mode.position(&a, &b, 1.0).x, 2.0, epsilon = 1e-12);
        }
    }

    #[test]
    fn hermite_equals_linear_for_constant_velocity_matching_the_chord() {
        // 10 units in 0.1 s at 100 u/s: the tangents agree with the chord, so the cubic is the straight line.
        let (a, b) = (snap(1.0, 0.0, 100.0), snap(1.1, 10.0, 100.0));
        for t in [0.1, 0.25, 0.5, 0.9] {
            assert_relative_eq!(Interpolation::Hermite.position(&a, &b, t).x, 10.0 * t, epsilon = 1e-9);
        }
    }

    #[test]
    fn hermite_follows_the_velocities_where_linear_cannot() {
        // Stopped at both ends yet 10 units apart: Hermite eases in and out (smoothstep), linear does not.
        let (a, b) = (snap(0.0, 0.0, 0.0), snap(1.0, 10.0, 0.0));
        assert_relative_eq!(Interpolation::Hermite.position(&a, &b, 0.25).x, 1.5625, epsilon = 1e-12);
        assert_relative_eq!(Interpolation::Linear.position(&a, &b, 0.25).x, 2.5, epsilon = 1e-12);
    }

    #[test]
    fn names_are_the_external_ones() {
        assert_eq!(serde_json::to_string(&Interpolation::Hermite).unwrap(), "\"hermite\"");
        assert_eq!(Interpolation::Linear.name(), "linear");
    }
}
