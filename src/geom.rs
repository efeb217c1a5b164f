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
}
