//! The remote entity's true motion: what the server simulates, as a pure function of server time.
//!
//! Each script stresses a different weakness of smoothing:
//! - `turns` — straight runs joined by sharp corners (extrapolation overshoots every corner, lerp-chase cuts
//!   them);
//! - `circle` — constant speed, constantly turning (linear interpolation cuts the chord, Hermite follows the arc);
//! - `stopAndGo` — runs and dead stops (extrapolation keeps going after the stop);
//! - `respawn` — `turns`, but every few seconds the entity dies and reappears elsewhere: a new lifetime
//!   generation and a teleport flag, which must never be interpolated across (seed 002 "实体重生", "传送").

use crate::geom::{self, Vec2};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, crate::param::Choice)]
#[serde(rename_all = "camelCase")]
pub enum MotionScript {
    #[default]
    Turns,
    Circle,
    StopAndGo,
    Respawn,
}

/// The truth at one server time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TruthState {
    pub pos: Vec2,
    pub vel: Vec2,
    /// Lifetime generation (bumped on every respawn).
    pub generation: u32,
}

/// Seconds between respawns in the `respawn` script.
pub const RESPAWN_PERIOD: f64 = 4.0;
/// Radius of the `circle` script, in world units.
pub const CIRCLE_RADIUS: f64 = 70.0;

/// The loop of the `turns` script: a zig-zag with right-angle and acute corners inside ±120 × ±70.
const TURNS: [Vec2; 7] = [
    Vec2::new(-110.0, -60.0),
    Vec2::new(40.0, -60.0),
    Vec2::new(40.0, 20.0),
    Vec2::new(-60.0, 20.0),
    Vec2::new(110.0, 60.0),
    Vec2::new(110.0, -30.0),
    Vec2::new(-110.0, 60.0),
];

/// How far along the loop (in seconds of travel) a respawned entity reappears.
pub const RESPAWN_SKIP: f64 = 1.7;

/// The true state of `script` at server time `t` for a cruising speed `speed` (units per second).
#[inline(always)]
pub fn truth(script: MotionScript, speed: f64, t: f64) -> TruthState {
    let t = geom::at_least(t, 0.0);
    match script {
        MotionScript::Turns => along_loop(&TURNS, speed, t, 0),
        MotionScript::Circle => circle(speed, t),
        MotionScript::StopAndGo => stop_and_go(speed, t),
        MotionScript::Respawn => respawn(speed, t),
    }
}

/// The `turns` loop as a polyline (closed: the last point joins the first), for drawing the truth.
pub fn turns_loop() -> &'static [Vec2] {
    &TURNS
}

/// `x` modulo `period`, in `0..period`. (`rem_euclid` is a software fmod and `floor` a libm call on baseline
/// x86-64; a truncating cast is one instruction, and this runs for every truth lookup.)
#[inline(always)]
fn wrap(x: f64, period: f64) -> f64 {
    let r = x - period * whole_periods(x, period);
    if r < 0.0 {
        r + period
    } else if r >= period {
        0.0
    } else {
        r
    }
}

/// `((x / period) as i64) as f64`, the whole periods in `x`, bit for bit, mostly without the division (`period` is a
/// constant wherever this is inlined, so `1 / period` is too): `x · (1/period)` and the rounded `x / period` are both
/// within 2.3e-16 relative of the true quotient, so below 10⁶ they truncate alike unless the quotient lies within
/// 1e-9 of a whole number, when the division decides. A division was ~3 ns of each truth lookup in Chromium's V8,
/// where the metrics make ~5,000 per track.
#[inline(always)]
fn whole_periods(x: f64, period: f64) -> f64 {
    let q = x * (1.0 / period);
    let whole = trunc_small(q);
    if q < 1e6 && q - whole > 1e-9 && q - whole < 1.0 - 1e-9 {
        whole
    } else {
        ((x / period) as i64) as f64
    }
}

/// `x.trunc()` where it is below 2³¹ in size (elsewhere: some whole number, or 0 for NaN), in one instruction: wasm's
/// `f64.trunc`, or on baseline x86-64 (no SSE4.1, where `f64::trunc` is a libm call) a truncating cast.
#[inline(always)]
fn trunc_small(x: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    let whole = x.trunc();
    #[cfg(not(target_arch = "wasm32"))]
    let whole = f64::from(x as i32);
    whole
}

/// Segment lengths of the `turns` loop (checked against the points by a test) and their sum.
const TURN_LENGTHS: [f64; TURNS.len()] =
    [150.0, 80.0, 100.0, 174.642_491_965_729_8, 90.0, 237.697_286_480_094_25, 120.0];
const TURNS_TOTAL: f64 = 150.0 + 80.0 + 100.0 + 174.642_491_965_729_8 + 90.0 + 237.697_286_480_094_25 + 120.0;

#[inline(always)]
fn along_loop(points: &[Vec2; TURNS.len()], speed: f64, t: f64, generation: u32) -> TruthState {
    let (lengths, total) = (&TURN_LENGTHS, TURNS_TOTAL);
    let mut d = wrap(speed * t, total);
    for (i, &len) in lengths.iter().enumerate() {
        if d < len || i == lengths.len() - 1 {
            // The segment's end: the next point, or the first after the last (without a `%` per lookup).
            let (a, b) = (points[i], if i + 1 < points.len() { points[i + 1] } else { points[0] });
            let dir = (b - a) * (1.0 / len);
            return TruthState { pos: a.lerp(b, geom::at_most(d / len, 1.0)), vel: dir * speed, generation };
        }
        d -= len;
    }
    unreachable!("the loop has at least one segment")
}

fn circle(speed: f64, t: f64) -> TruthState {
    let w = speed / CIRCLE_RADIUS;
    let (s, c) = (w * t).sin_cos();
    TruthState {
        pos: Vec2::new(CIRCLE_RADIUS * c, CIRCLE_RADIUS * s),
        vel: Vec2::new(-speed * s, speed * c),
        generation: 0,
    }
}

/// Runs right for 1 s, stops 0.5 s, runs left 1 s, stops 0.5 s, and again.
fn stop_and_go(speed: f64, t: f64) -> TruthState {
    const RUN: f64 = 1.0;
    const STOP: f64 = 0.5;
    let phase = wrap(t, 2.0 * (RUN + STOP));
    let x0 = -speed * RUN / 2.0;
    let (pos_x, vel_x) = if phase < RUN {
        (x0 + speed * phase, speed)
    } else if phase < RUN + STOP {
        (x0 + speed * RUN, 0.0)
    } else if phase < 2.0 * RUN + STOP {
        (x0 + speed * RUN - speed * (phase - RUN - STOP), -speed)
    } else {
        (x0, 0.0)
    };
    TruthState { pos: Vec2::new(pos_x, 0.0), vel: Vec2::new(vel_x, 0.0), generation: 0 }
}

/// `turns`, but each new life reappears `RESPAWN_SKIP` seconds further along the loop.
fn respawn(speed: f64, t: f64) -> TruthState {
    let generation = (t / RESPAWN_PERIOD).floor() as u32;
    along_loop(&TURNS, speed, t + generation as f64 * RESPAWN_SKIP, generation)
}

/// Whether a respawn happens in the server-time interval `(from, to]`.
pub fn respawned_between(script: MotionScript, from: f64, to: f64) -> bool {
    script == MotionScript::Respawn && (to / RESPAWN_PERIOD).floor() > (from / RESPAWN_PERIOD).floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numeric_velocity(script: MotionScript, t: f64) -> Vec2 {
        let h = 1e-6;
        (truth(script, 120.0, t + h).pos - truth(script, 120.0, t - h).pos) * (1.0 / (2.0 * h))
    }

    #[test]
    fn velocity_is_the_derivative_of_position_away_from_corners() {
        for script in MotionScript::ALL {
            for t in [0.3, 1.7, 2.2, 5.1, 9.9] {
                let v = numeric_velocity(script, t);
                let s = truth(script, 120.0, t);
                assert!((v - s.vel).length() < 1e-3, "{script:?} at {t}: {v:?} vs {:?}", s.vel);
            }
        }
    }

    #[test]
    fn the_turn_lengths_match_the_points() {
        for (i, len) in TURN_LENGTHS.iter().enumerate() {
            assert!((TURNS[i].distance(TURNS[(i + 1) % TURNS.len()]) - len).abs() < 1e-9, "segment {i}");
        }
        assert!((TURN_LENGTHS.iter().sum::<f64>() - TURNS_TOTAL).abs() < 1e-9);
    }

    /// The periods `wrap` is given (the turns loop, stop-and-go's cycle of 2 × (1 s + 0.5 s)).
    const PERIODS: [f64; 2] = [TURNS_TOTAL, 3.0];

    /// The whole periods in `x`, by the division the multiplication stands in for.
    fn by_division(x: f64, period: f64) -> f64 {
        ((x / period) as i64) as f64
    }

    /// Where the multiplication and the division could truncate differently: at every 7th multiple of the period
    /// up to 10⁶ periods and the floats either side of it. Red: the product trusted when it is a whole number (the
    /// float below 3 × the turns loop gives the product 3 and the quotient 2.9999999999999996).
    #[test]
    fn whole_periods_are_the_divisions_at_every_multiple() {
        for period in PERIODS {
            for k in (0..1_000_000u32).step_by(7).chain([1, 2, 3, 999_999, 1_000_000, 1_000_001]) {
                let at = f64::from(k) * period;
                for x in [at, f64::from_bits(at.to_bits().saturating_sub(1)), f64::from_bits(at.to_bits() + 1)] {
                    assert_eq!(
                        whole_periods(x, period).to_bits(),
                        by_division(x, period).to_bits(),
                        "{x:e} / {period}"
                    );
                }
            }
        }
        for x in [-1.0, -0.0, f64::NAN, f64::INFINITY, 1e300, 5e-324] {
            assert_eq!(whole_periods(x, 3.0).to_bits(), by_division(x, 3.0).to_bits(), "{x:e}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn whole_periods_are_the_divisions_anywhere(x in 0.0f64..1e9, bits in proptest::num::u64::ANY) {
            for period in PERIODS {
                proptest::prop_assert_eq!(whole_periods(x, period).to_bits(), by_division(x, period).to_bits());
                let any = f64::from_bits(bits);
                proptest::prop_assert_eq!(whole_periods(any, period).to_bits(), by_division(any, period).to_bits());
            }
        }
    }

    #[test]
    fn wrap_stays_in_the_period() {
        assert_eq!(wrap(7.0, 3.0), 1.0);
        assert_eq!(wrap(-1.0, 3.0), 2.0);
        assert_eq!(wrap(0.0, 3.0), 0.0);
    }

    #[test]
    fn moving_scripts_cruise_at_the_given_speed() {
        assert!((truth(MotionScript::Turns, 120.0, 0.5).vel.length() - 120.0).abs() < 1e-9);
        assert!((truth(MotionScript::Circle, 120.0, 3.0).vel.length() - 120.0).abs() < 1e-9);
        assert_eq!(truth(MotionScript::StopAndGo, 120.0, 1.2).vel, Vec2::ZERO);
    }

    #[test]
    fn respawn_bumps_the_generation_and_jumps() {
        let before = truth(MotionScript::Respawn, 120.0, RESPAWN_PERIOD - 1e-3);
        let after = truth(MotionScript::Respawn, 120.0, RESPAWN_PERIOD + 1e-3);
        assert_eq!((before.generation, after.generation), (0, 1));
        assert!(before.pos.distance(after.pos) > 20.0);
        assert!(respawned_between(MotionScript::Respawn, 3.9, 4.1));
        assert!(!respawned_between(MotionScript::Turns, 3.9, 4.1));
    }

    #[test]
    fn positions_stay_in_the_arena() {
        for script in MotionScript::ALL {
            for i in 0..2000 {
                let p = truth(script, 120.0, i as f64 * 0.031).pos;
                assert!(p.x.abs() <= 200.0 && p.y.abs() <= 130.0, "{script:?} {p:?}");
            }
        }
    }
}
