//! Underrun policies: what to show when the render time has run past the snapshots, and their curves.
//!
//! Seed 002 ("它没有在 Underrun 时：冻结最后位置 / 外推速度 / 跳到最新快照") insists that this is an explicit choice
//! made above the sampler, never a silent default inside it. The choices, as displacement from the anchor snapshot
//! (the last one at or before the render time) for a velocity `v`, a time `ahead` past it and a cap:
//!
//! ```text
//!  offset                 extrapolate-decay: v·(a − a²/2cap), then frozen at v·cap/2
//!    ▲              ___________________________________   ← v·cap/2
//!    │          _.-'
//!    │       .-'    extrapolate-seed: v·a·(1 − a/cap)   (seed 000 §4.3.5)
//!    │     .'  _..--.._                                   ← peak v·cap/4 at a = cap/2 …
//!    │   .' .-'        '-.
//!    │  / .'              '.                              … then it walks *back* to the anchor
//!    │ /.'                  '.________________________   hold / snap: 0 (no motion)
//!    └──────────────┬──────────┬──────────────────────► ahead a
//!                 cap/2       cap
//! ```
//! The seed's single multiplier `(1 − ahead/cap)` does make the displacement stop at the cap (§4.3.5: "衰减和
//! 上限是同一件事的两面"), but it multiplies the *displacement*, not the speed: past cap/2 the entity moves backwards
//! towards the snapshot it left, then freezes there. Decaying the *velocity* linearly to zero over the cap
//! integrates to `v·(a − a²/(2·cap))`: monotone, stops at the cap, and freezes at its furthest point `v·cap/2`.
//! Both are kept, side by side, so the page can plot them (the seed's version is not hidden).

use crate::param::{in_range, ParamError};
use serde::{Deserialize, Serialize};

/// What is displayed when the sample is not Ready.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnderrunPolicy {
    /// Freeze at the last displayed position (seed 002 "冻结最后位置").
    Hold,
    /// Seed 000 §4.3.5 exactly: offset `v·a·(1 − a/cap)`; at or past the cap, frozen at the anchor snapshot.
    #[default]
    ExtrapolateSeed,
    /// The velocity decays linearly to zero over the cap: offset `v·(a − a²/(2·cap))`, frozen at `v·cap/2`.
    ExtrapolateDecay,
    /// Jump to the newest snapshot (seed 002 "跳到最新快照").
    Snap,
    /// Display nothing.
    Hide,
}

impl UnderrunPolicy {
    pub const ALL: [UnderrunPolicy; 5] = [
        UnderrunPolicy::Hold,
        UnderrunPolicy::ExtrapolateSeed,
        UnderrunPolicy::ExtrapolateDecay,
        UnderrunPolicy::Snap,
        UnderrunPolicy::Hide,
    ];

    /// The external name (`hold`, `extrapolate-seed`, `extrapolate-decay`, `snap`, `hide`).
    pub fn name(self) -> &'static str {
        match self {
            UnderrunPolicy::Hold => "hold",
            UnderrunPolicy::ExtrapolateSeed => "extrapolate-seed",
            UnderrunPolicy::ExtrapolateDecay => "extrapolate-decay",
            UnderrunPolicy::Snap => "snap",
            UnderrunPolicy::Hide => "hide",
        }
    }

    pub fn extrapolates(self) -> bool {
        matches!(self, UnderrunPolicy::ExtrapolateSeed | UnderrunPolicy::ExtrapolateDecay)
    }

    /// Displacement per unit of velocity after `ahead` seconds past the anchor (so offset = v · reach), or `None`
    /// when the policy shows nothing. Hold and snap do not move (0). Negative `ahead` counts as 0; a cap of 0
    /// means no extrapolation at all.
    pub fn reach(self, ahead: f64, cap: f64) -> Option<f64> {
        let a = ahead.max(0.0);
        match self {
            UnderrunPolicy::Hide => None,
            UnderrunPolicy::Hold | UnderrunPolicy::Snap => Some(0.0),
            _ if cap.is_nan() || cap <= 0.0 => Some(0.0),
            UnderrunPolicy::ExtrapolateSeed => Some(seed_reach(a, cap)),
            UnderrunPolicy::ExtrapolateDecay => Some(decay_reach(a, cap)),
        }
    }

    /// The offset curve for velocity `velocity` and cap `cap`: `points` samples of `ahead` evenly over `0..=until`.
    pub fn curve(self, velocity: f64, cap: f64, until: f64, points: usize) -> Vec<CurvePoint> {
        let last = points.saturating_sub(1).max(1) as f64;
        (0..points)
            .map(|i| {
                let ahead = until * i as f64 / last;
                CurvePoint { ahead, offset: self.reach(ahead, cap).map(|r| velocity * r) }
            })
            .collect()
    }
}

/// Seed 000 §4.3.5: `a·(1 − a/cap)` before the cap, 0 (frozen at the anchor) from the cap on.
fn seed_reach(a: f64, cap: f64) -> f64 {
    if a >= cap {
        0.0
    } else {
        a * (1.0 - a / cap)
    }
}

/// Velocity `v·(1 − t/cap)` integrated from 0 to `min(a, cap)`.
fn decay_reach(a: f64, cap: f64) -> f64 {
    let a = a.min(cap);
    a - a * a / (2.0 * cap)
}

/// One point of a policy's curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CurvePoint {
    pub ahead: f64,
    /// `None` where the policy shows nothing (`hide`).
    pub offset: Option<f64>,
}

/// The underrun layer's parameters.
///
/// | field (external) | default | range | from |
/// |---|---|---|---|
/// | `underrunPolicy` | `extrapolate-seed` | the five names above | seed 000 §4.3.8 (its RemotePlayerView extrapolates with the seed formula) |
/// | `maxExtrapolation` | 0.12 s | 0..=1 s | seed 000 §4.3.8 `MAX_EXTRAPOLATE_MS = 120` (§4.3.5: "通常 100–200 ms") |
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UnderrunParams {
    pub underrun_policy: UnderrunPolicy,
    /// The extrapolation cap, seconds.
    pub max_extrapolation: f64,
}

impl Default for UnderrunParams {
    fn default() -> Self {
        UnderrunParams { underrun_policy: UnderrunPolicy::ExtrapolateSeed, max_extrapolation: 0.12 }
    }
}

impl UnderrunParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("maxExtrapolation", self.max_extrapolation, 0.0, 1.0, "s")?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn the_seed_formula_peaks_at_half_the_cap_and_walks_back() {
        let seed = UnderrunPolicy::ExtrapolateSeed;
        // 3000 u/s, cap 0.1 s: 0.25 · 3000 · 0.1 = 75 at a = 0.05 (seed 000 §4.3.7).
        assert_relative_eq!(3000.0 * seed.reach(0.05, 0.1).unwrap(), 75.0, epsilon = 1e-9);
        assert_relative_eq!(3000.0 * seed.reach(0.08, 0.1).unwrap(), 48.0, epsilon = 1e-9);
        assert_eq!(seed.reach(0.1, 0.1), Some(0.0));
        assert_eq!(seed.reach(5.0, 0.1), Some(0.0));
    }

    #[test]
    fn the_decay_policy_is_monotone_and_freezes_at_half_v_cap() {
        let decay = UnderrunPolicy::ExtrapolateDecay;
        assert_relative_eq!(3000.0 * decay.reach(0.05, 0.1).unwrap(), 112.5, epsilon = 1e-9);
        assert_relative_eq!(3000.0 * decay.reach(0.1, 0.1).unwrap(), 150.0, epsilon = 1e-9);
        assert_relative_eq!(3000.0 * decay.reach(9.0, 0.1).unwrap(), 150.0, epsilon = 1e-9);
        let curve = decay.curve(3000.0, 0.1, 0.2, 201);
        assert!(curve.windows(2).all(|w| w[1].offset >= w[0].offset));
    }

    #[test]
    fn hold_and_snap_stay_hide_shows_nothing_and_a_zero_cap_never_moves() {
        assert_eq!(UnderrunPolicy::Hold.reach(0.05, 0.1), Some(0.0));
        assert_eq!(UnderrunPolicy::Snap.reach(0.05, 0.1), Some(0.0));
        assert_eq!(UnderrunPolicy::Hide.reach(0.05, 0.1), None);
        assert_eq!(UnderrunPolicy::ExtrapolateDecay.reach(0.05, 0.0), Some(0.0));
        assert_eq!(UnderrunPolicy::ExtrapolateSeed.reach(f64::INFINITY, 0.1), Some(0.0));
        assert_relative_eq!(UnderrunPolicy::ExtrapolateDecay.reach(f64::INFINITY, 0.1).unwrap(), 0.05);
        assert_eq!(UnderrunPolicy::ExtrapolateDecay.reach(f64::NAN, 0.1), Some(0.0));
    }

    #[test]
    fn curves_span_the_requested_range() {
        let curve = UnderrunPolicy::ExtrapolateSeed.curve(100.0, 0.1, 0.2, 5);
        let aheads: Vec<f64> = curve.iter().map(|p| p.ahead).collect();
        assert_eq!(aheads, [0.0, 0.05, 0.1, 0.15000000000000002, 0.2]);
        assert_relative_eq!(curve[1].offset.unwrap(), 2.5, epsilon = 1e-12);
        assert_eq!(UnderrunPolicy::Hide.curve(1.0, 0.1, 0.2, 3)[1].offset, None);
    }

    #[test]
    fn external_names_round_trip_and_params_are_checked() {
        for policy in UnderrunPolicy::ALL {
            let json = serde_json::to_string(&policy).unwrap();
            assert_eq!(json, format!("\"{}\"", policy.name()));
            assert_eq!(serde_json::from_str::<UnderrunPolicy>(&json).unwrap(), policy);
        }
        let bad = UnderrunParams { max_extrapolation: -0.1, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "maxExtrapolation");
    }
}
