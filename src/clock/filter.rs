//! An exponential average that refuses outliers: the RTT smoother of seed 004 §2.2 ("维护一个RTT的历史样本 /
//! 用平滑算法过滤抖动 / 如果某个样本偏离平均值太多直接丢弃").
//!
//! ```text
//!  sample x ─► |x − mean| > factor · max(dev, floor) ?  ── yes, and fewer than maxRejects in a row ─► rejected:
//!           │                                          │      dev += gain/2 · (|x − mean| − dev)    (mean untouched)
//!           │                                          └─ yes, maxRejects in a row already ─► re-seeded: mean = x
//!           └─ no ─► accepted:  dev  += gain · (|x − mean| − dev)        (mean absolute deviation, like TCP's RTTVAR)
//!                               mean += gain · (x − mean)
//! ```
//! The re-seed is what keeps a filter from refusing a genuine level shift (a route change, a server clock jump)
//! forever: after `maxRejects` consecutive outliers the new level is believed. Rejected samples still widen the
//! deviation at half the gain, and a re-seed keeps it: otherwise a genuinely wide distribution (a deviation that
//! starts at zero) would be refused sample after sample and re-seeded at random values forever.

use crate::param::{ParamError, Params};
use serde::{Deserialize, Serialize};

/// How an outlier-rejecting average weighs and refuses samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct FilterParams {
    /// How far each accepted sample pulls the mean (seed 004 §4.2 `Mathf.Lerp(smoothedRtt, currentRtt, 0.1f)`).
    #[param(range(0.001, 1.0))]
    pub gain: f64,
    /// A sample further from the mean than this many mean deviations is an outlier (project choice: seed 004 §2.2
    /// says "偏离平均值太多" without a number).
    #[param(range(1.0, 100.0))]
    pub outlier_factor: f64,
    /// Below this spread nothing counts as an outlier (project choice).
    #[param(range(0.0, 1.0), unit = "s")]
    pub outlier_floor: f64,
    /// This many outliers in a row, and the next is a new level, not noise: the filter restarts (project choice).
    #[param(range(1.0, 1000.0), unit = "samples")]
    pub max_rejects: u32,
}

impl Default for FilterParams {
    fn default() -> Self {
        FilterParams { gain: 0.1, outlier_factor: 3.0, outlier_floor: 0.005, max_rejects: 5 }
    }
}

impl FilterParams {
    /// Checks the fields; the error names the field (`gain`), the caller the filter (`rtt.gain`).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// What the filter did with a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Accepted,
    /// Too far from the mean: not used.
    Rejected,
    /// Too many outliers in a row: the filter restarted at this sample.
    Reseeded,
    /// Refused before filtering (not a finite, plausible value); set by the caller, never by the filter.
    Invalid,
}

/// The running state.
#[derive(Clone, Debug, PartialEq)]
pub struct OutlierEma {
    params: FilterParams,
    mean: Option<f64>,
    dev: f64,
    rejects_in_row: u32,
    pub accepted: u64,
    pub rejected: u64,
    pub reseeds: u64,
}

impl OutlierEma {
    pub fn new(params: FilterParams) -> Self {
        OutlierEma { params, mean: None, dev: 0.0, rejects_in_row: 0, accepted: 0, rejected: 0, reseeds: 0 }
    }

    /// Feeds a finite sample (non-finite samples must be refused by the caller).
    pub fn push(&mut self, x: f64) -> Verdict {
        let Some(mean) = self.mean else {
            self.seed(x);
            self.accepted += 1;
            return Verdict::Accepted;
        };
        let distance = (x - mean).abs();
        if distance <= self.params.outlier_factor * self.dev.max(self.params.outlier_floor) {
            // Flushed to zero when tiny: a perfectly steady input would otherwise decay into slow subnormals.
            self.dev += (distance - self.dev) * self.params.gain;
            if self.dev < 1e-30 {
                self.dev = 0.0;
            }
            self.mean = Some(mean + (x - mean) * self.params.gain);
            self.rejects_in_row = 0;
            self.accepted += 1;
            Verdict::Accepted
        } else if self.rejects_in_row < self.params.max_rejects {
            self.dev += (distance - self.dev) * self.params.gain / 2.0;
            self.rejects_in_row += 1;
            self.rejected += 1;
            Verdict::Rejected
        } else {
            self.mean = Some(x);
            self.rejects_in_row = 0;
            self.reseeds += 1;
            self.accepted += 1;
            Verdict::Reseeded
        }
    }

    fn seed(&mut self, x: f64) {
        self.mean = Some(x);
        self.dev = 0.0;
        self.rejects_in_row = 0;
    }

    pub fn mean(&self) -> Option<f64> {
        self.mean
    }

    /// Mean absolute deviation of accepted samples.
    pub fn deviation(&self) -> f64 {
        self.dev
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn a_spike_is_rejected_and_the_mean_does_not_move() {
        let mut f = OutlierEma::new(FilterParams::default());
        for rtt in [0.100, 0.102, 0.098, 0.101, 0.099] {
            assert_ne!(f.push(rtt), Verdict::Rejected);
        }
        let before = f.mean().unwrap();
        assert_eq!(f.push(0.400), Verdict::Rejected);
        assert_eq!(f.mean().unwrap(), before);
        assert_eq!((f.accepted, f.rejected), (5, 1));
    }

    #[test]
    fn a_lasting_level_shift_is_believed_after_max_rejects() {
        let mut f = OutlierEma::new(FilterParams::default());
        f.push(0.1);
        let verdicts: Vec<Verdict> = (0..6).map(|_| f.push(0.3)).collect();
        assert_eq!(verdicts[..5], [Verdict::Rejected; 5]);
        assert_eq!(verdicts[5], Verdict::Reseeded);
        assert_relative_eq!(f.mean().unwrap(), 0.3);
    }

    #[test]
    fn a_wide_distribution_is_learnt_instead_of_refused_forever() {
        // RTT uniform over 80..240 ms, starting with no idea of the spread.
        let mut f = OutlierEma::new(FilterParams::default());
        let mut state = 12345u64;
        for _ in 0..400 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            f.push(0.08 + 0.16 * (state >> 11) as f64 / (1u64 << 53) as f64);
        }
        assert!(f.rejected < 60, "rejected {} of 400", f.rejected);
        assert!((f.mean().unwrap() - 0.16).abs() < 0.03, "mean {:?}", f.mean());
        assert!((0.02..0.06).contains(&f.deviation()), "deviation {}", f.deviation());
    }

    #[test]
    fn the_mean_follows_with_the_gain() {
        let mut f = OutlierEma::new(FilterParams { gain: 0.1, ..Default::default() });
        f.push(0.100);
        f.push(0.104); // within 3 × 5 ms of the mean
        assert_relative_eq!(f.mean().unwrap(), 0.1004, epsilon = 1e-12);
        assert_relative_eq!(f.deviation(), 0.0004, epsilon = 1e-12);
    }

    #[test]
    fn bad_params_name_the_field_and_the_caller_the_filter() {
        let bad = FilterParams { gain: 0.0, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "gain");
        assert_eq!(bad.validate().map_err(|e| e.within("rtt")).unwrap_err().field, "rtt.gain");
    }
}
