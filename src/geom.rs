//! 2-D points and vectors: the one geometry type every timeline shares.
//!
//! Positions are in world units (the articles use pixels or fixed-point units); times elsewhere in the core
//! are `f64` seconds. Nothing here knows about time.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// `x` held to `lo..=hi`, as `f64::clamp` does it (the same two comparisons, so the same bits, NaN stays NaN) but
/// without its panic when `lo > hi`, whose message prints both floats with `{:?}`: one `f64::clamp` brought Rust's
/// float formatting (~20 KB) into the page's first-frame wasm. The core never panics on input anyway.
#[inline]
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    let mut x = x;
    if x < lo {
        x = lo;
    }
    if x > hi {
        x = hi;
    }
    x
}

/// `x.max(lo)` as one comparison (for `lo` not NaN: a NaN `x` gives `lo`, as `f64::max` does; only the sign of a
/// zero may differ). In wasm `f64::max` and `f64::min` are calls into compiler-builtins' `fmax`/`fmin`, since wasm's
/// own `f64.max` propagates NaN: on the truth lookup every metric makes per frame such calls are ~3 % of the
/// engines' scoring time in V8.
#[inline(always)]
pub fn at_least(x: f64, lo: f64) -> f64 {
    if x > lo {
        x
    } else {
        lo
    }
}

/// `x.min(hi)` as one comparison (for `hi` not NaN; a NaN `x` gives `hi`, as `f64::min` does): see [`at_least`].
#[inline(always)]
pub fn at_most(x: f64, hi: f64) -> f64 {
    if x < hi {
        x
    } else {
        hi
    }
}

/// `x.round()` (halves away from zero), bit for bit, without the call into compiler-builtins that `f64::round` is
/// in wasm (whose own `f64.nearest` rounds halves to even): `x − trunc(x)` is exact, so comparing its size with ½
/// decides as `round` does; a NaN stays NaN and ±∞ stays ±∞ (their fraction is NaN).
#[inline(always)]
pub fn round_half_away(x: f64) -> f64 {
    let whole = x.trunc();
    if (x - whole).abs() >= 0.5 {
        whole + x.signum()
    } else {
        whole
    }
}

/// `v.length() < limit` and `v.length() > limit` told without the square root, with the same answer for every
/// vector (NaN and infinite ones too): the root is correctly rounded and never falls as its argument grows, so
/// `length() < limit` holds exactly for the squared lengths below the least one whose rounded root reaches `limit`,
/// found once from `limit²` and its neighbours. The per-frame pass of the metrics asks twice a frame and track
/// (src/run/track/); a square root is the slowest arithmetic it does.
#[derive(Clone, Copy, Debug)]
pub struct LengthLimit {
    /// The least squared length whose root is ≥ the limit.
    reached_from: f64,
    /// The greatest squared length whose root is ≤ the limit.
    kept_up_to: f64,
}

impl LengthLimit {
    /// The tests for `limit`, a positive finite length whose square is finite and normal (the core's thresholds,
    /// constants between 1e-6 and 1e6); anything else yields tests that are never true.
    pub fn new(limit: f64) -> Self {
        let square = limit * limit;
        if !(square.is_normal() && limit > 0.0 && square < f64::MAX) {
            return LengthLimit { reached_from: f64::NEG_INFINITY, kept_up_to: f64::INFINITY };
        }
        // The rounded root moves by at most one step when its argument does, so a few steps from limit² suffice.
        let mut reached_from = square;
        while reached_from.sqrt() >= limit {
            reached_from = float_below(reached_from);
        }
        while reached_from.sqrt() < limit {
            reached_from = float_above(reached_from);
        }
        let mut kept_up_to = square;
        while kept_up_to.sqrt() > limit {
            kept_up_to = float_below(kept_up_to);
        }
        while float_above(kept_up_to).sqrt() <= limit {
            kept_up_to = float_above(kept_up_to);
        }
        LengthLimit { reached_from, kept_up_to }
    }

    /// `v.length() < limit`, bit for bit.
    #[inline(always)]
    pub fn is_shorter(&self, v: Vec2) -> bool {
        v.length_squared() < self.reached_from
    }

    /// `v.length() > limit`, bit for bit.
    #[inline(always)]
    pub fn is_longer(&self, v: Vec2) -> bool {
        v.length_squared() > self.kept_up_to
    }
}

/// The next float above a positive finite `x` (`f64::next_up`, stable only since Rust 1.86; the crate's MSRV is
/// 1.85, Debian's wasm route).
fn float_above(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

/// The next float below a positive finite `x` (`f64::next_down`).
fn float_below(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}

/// A point or a displacement in the plane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    pub x: f64,
    pub y: f64,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    pub const fn new(x: f64, y: f64) -> Self {
        Vec2 { x, y }
    }

    /// `self + (to − self) · t`; `t = 0` gives `self`, `t = 1` gives `to`.
    pub fn lerp(self, to: Vec2, t: f64) -> Vec2 {
        Vec2::new(self.x + (to.x - self.x) * t, self.y + (to.y - self.y) * t)
    }

    /// Euclidean length (`sqrt(x² + y²)`: positions here are far from overflow, and libm's `hypot` is slow).
    pub fn length(self) -> f64 {
        self.length_squared().sqrt()
    }

    /// `x² + y²`, the very number [`Vec2::length`] takes the root of.
    #[inline(always)]
    pub fn length_squared(self) -> f64 {
        self.x * self.x + self.y * self.y
    }

    pub fn distance(self, other: Vec2) -> f64 {
        (other - self).length()
    }

    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lerp_hits_both_ends_and_the_middle() {
        let a = Vec2::new(0.0, 10.0);
        let b = Vec2::new(4.0, 20.0);
        assert_eq!(a.lerp(b, 0.0), a);
        assert_eq!(a.lerp(b, 1.0), b);
        assert_eq!(a.lerp(b, 0.5), Vec2::new(2.0, 15.0));
    }

    #[test]
    fn distance_is_euclidean() {
        assert_eq!(Vec2::new(0.0, 0.0).distance(Vec2::new(3.0, 4.0)), 5.0);
    }

    /// Values where the comparisons could go wrong: halves and the floats either side of them, the largest
    /// float below ½ (whose `x + 0.5` rounds up to 1), integers past 2⁵², zeros, infinities, NaN.
    const EDGES: [f64; 16] = [
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.499_999_999_999_999_94,
        -0.499_999_999_999_999_94,
        2.500_000_000_000_000_4,
        4_503_599_627_370_497.0,
        -9_007_199_254_740_993.0,
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];

    /// `round_half_away` is `f64::round`, bit for bit. Red: `>` for `>=` (½ goes to 0), `+ 1.0` for
    /// `+ x.signum()` (−½ goes to +0), or `(x + 0.5).floor()` (0.49999999999999994 goes to 1).
    #[test]
    fn round_half_away_is_f64_round() {
        for x in EDGES {
            assert_eq!(round_half_away(x).to_bits(), x.round().to_bits(), "{x:e}");
        }
    }

    /// `at_least`/`at_most` give what `f64::max`/`min` give, NaN included, but for the sign of a zero, which
    /// `max` and `min` leave open too. Red: the comparison turned (`x < lo` keeps the smaller), or `x` kept when
    /// it is NaN.
    #[test]
    fn at_least_and_at_most_are_max_and_min() {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a == 0.0 && b == 0.0);
        for x in EDGES {
            for bound in EDGES.into_iter().filter(|b| !b.is_nan()) {
                assert!(same(at_least(x, bound), x.max(bound)), "at_least({x:e}, {bound:e})");
                assert!(same(at_most(x, bound), x.min(bound)), "at_most({x:e}, {bound:e})");
            }
        }
    }

    /// The limits' squares sit exactly where the rounded root crosses the limit: the squared length just below is
    /// shorter, the one at it is not (and likewise for longer). Red: the plain `limit²` as the bound (for 1e-3 and
    /// 0.1, whose squares round so that the root of the next float still rounds to the limit), or a step of the
    /// search left out.
    #[test]
    fn a_length_limit_is_where_the_root_crosses_it() {
        for limit in [1e-3, 8.0, 0.1, 0.3, 1.0 / 3.0, 2.0_f64.sqrt(), 1e-6, 1e6] {
            let l = LengthLimit::new(limit);
            assert!(l.reached_from.sqrt() >= limit && float_below(l.reached_from).sqrt() < limit, "{limit:e}");
            assert!(l.kept_up_to.sqrt() <= limit && float_above(l.kept_up_to).sqrt() > limit, "{limit:e}");
            for x in [l.reached_from, l.kept_up_to] {
                for sq in [float_below(x), x, float_above(x)] {
                    let v = Vec2::new(sq.sqrt(), 0.0);
                    let v_sq = v.length_squared();
                    assert_eq!(l.is_shorter(v), v.length() < limit, "{limit:e} at {v_sq:e}");
                    assert_eq!(l.is_longer(v), v.length() > limit, "{limit:e} at {v_sq:e}");
                }
            }
        }
        let nothing = LengthLimit::new(f64::NAN);
        assert!(!nothing.is_shorter(Vec2::ZERO) && !nothing.is_longer(Vec2::new(1e300, 0.0)));
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// Vectors near the limits the metrics use, and anywhere: the same answer as the square root's.
        #[test]
        fn a_length_limit_answers_as_the_root_does(
            x in proptest::prop_oneof![-10.0f64..10.0, -2e-3f64..2e-3, proptest::num::f64::ANY],
            y in proptest::prop_oneof![-10.0f64..10.0, -2e-3f64..2e-3, proptest::num::f64::ANY],
        ) {
            let v = Vec2::new(x, y);
            for limit in [1e-3, 8.0] {
                let l = LengthLimit::new(limit);
                proptest::prop_assert_eq!(l.is_shorter(v), v.length() < limit);
                proptest::prop_assert_eq!(l.is_longer(v), v.length() > limit);
            }
        }

        #[test]
        fn the_comparisons_agree_with_std_everywhere(bits in proptest::num::u64::ANY, bound in -1e6f64..1e6) {
            let x = f64::from_bits(bits);
            // A NaN stays a NaN (its payload is the platform's business).
            if x.is_nan() {
                proptest::prop_assert!(round_half_away(x).is_nan());
            } else {
                proptest::prop_assert_eq!(round_half_away(x).to_bits(), x.round().to_bits());
            }
            proptest::prop_assert!(at_least(x, bound) == x.max(bound));
            proptest::prop_assert!(at_most(x, bound) == x.min(bound));
        }
    }
}
