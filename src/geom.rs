//! 2-D points and vectors: the one geometry type every timeline shares.
//!
//! Positions are in world units (the articles use pixels or fixed-point units); times elsewhere in the core
//! are `f64` seconds. Nothing here knows about time.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// `x` held to `lo..=hi`, as `f64::clamp` does it (the same two comparisons, so the same bits, NaN stays NaN) but
/// without its panic when `lo > hi`, whose message prints both floats with `{:?}`: one `f64::clamp` brought Rust's
/// float formatting (~20 KB) into the page's first-frame wasm (issue 14). The core never panics on input anyway.
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
/// own `f64.max` propagates NaN: on the truth lookup every metric makes per frame they were ~3 % of the engines'
/// scoring time in V8 (issue 13).
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
        (self.x * self.x + self.y * self.y).sqrt()
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

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn the_comparisons_agree_with_std_everywhere(bits in proptest::num::u64::ANY, bound in -1e6f64..1e6) {
            let x = f64::from_bits(bits);
            proptest::prop_assert_eq!(round_half_away(x).to_bits(), x.round().to_bits());
            proptest::prop_assert!(at_least(x, bound) == x.max(bound));
            proptest::prop_assert!(at_most(x, bound) == x.min(bound));
        }
    }
}
