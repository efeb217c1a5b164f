//! The render delay: fixed, or adapted to the measured jitter — slowly.
//!
//! ```text
//!  target  = clamp([latency +] k · sendInterval + m · transitStd,  minDelay, maxDelay)
//!  delay  += (target − delay) · (1 − e^(−dt/τ)),  and never faster than maxRate · dt
//!
//!  delay ▲          target jumps (jitter burst)
//!        │      ┌───────────────────────
//!        │      │     .-''''''''''''''''    delay follows over ~τ seconds: the render time slows by at most
//!        │──────┘ .-'                        maxRate (10 %) instead of stepping back (seed 004 §4.2:
//!        └──────────────────────────────►    "不能突然把InterpolationDelay从0.05改成0.15 … 要让它一小步一小步地变")
//! ```
//! Seed 000 §4.3.2 puts the delay at one to two send intervals; seed 004 §4.1 raises it when jitter grows and
//! lowers it back when the network calms down. Here jitter is the standard deviation of transit time measured by
//! the buffer ([`crate::buffer::BufferView::transit_std`]), so the delay covers `m` standard deviations of
//! lateness on top of `k` send intervals. Changing the delay changes the render time, so every change is spread
//! out: a delay growing faster than real time would make the render time run backwards.
//!
//! Where the seeds disagree: seed 000 §4.3.2 counts the delay from `serverNow` and sizes it in send intervals
//! only, as if a snapshot were fresh on arrival; but `serverNow` from seed 004 §2.2 (`serverTime + RTT/2`) is the
//! server's *present*, and every snapshot is already one one-way latency old when it arrives. Measured from there,
//! `k · sendInterval + m · jitter` alone underruns all the time. So the latency the clock itself believes in
//! (`known`: the true mean; `smooth`: its offset estimate against the transit mean, ≈ RTT/2; `reanchor`: the last
//! RTT/2; `timescale`: 0, since its delay is measured from the newest snapshot) is added — `addLatency: true`,
//! the default. `addLatency: false` is the issue's formula as written, kept as a named option to compare.

use crate::buffer::BufferView;
use crate::param::{in_range, ParamError};
use serde::{Deserialize, Serialize};

/// Adaptive delay parameters.
///
/// | field | default | range | from |
/// |---|---|---|---|
/// | `enabled` | false | | the seeds' clocks use a fixed delay |
/// | `addLatency` | true | | see the module doc: the delay also covers the one-way latency the clock believes in |
/// | `intervals` (k) | 1.5 | 0..=10 | seed 004 §3.3 (50 ms at 30 Hz ≈ 1.5 ticks), seed 000 §4.3.2 ("一到两个快照间隔") |
/// | `jitterStds` (m) | 2 | 0..=10 | project choice: two standard deviations of lateness |
/// | `minDelay` | 0 s | 0..=1 s | |
/// | `maxDelay` | 0.5 s | minDelay..=1 s | project choice; seed 004 §5.3's slowest preset is 0.15 s |
/// | `timeConstant` (τ) | 10 s | 0.1..=600 s | seed 004 §4.2: a Lerp of 0.02 every 200 ms ≈ τ = 9.9 s |
/// | `maxRate` | 0.1 s/s | 0.001..=0.5 s/s | project choice: the timeline never slows below 90 % speed |
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AdaptiveDelayParams {
    pub enabled: bool,
    pub add_latency: bool,
    pub intervals: f64,
    pub jitter_stds: f64,
    pub min_delay: f64,
    pub max_delay: f64,
    pub time_constant: f64,
    pub max_rate: f64,
}

impl Default for AdaptiveDelayParams {
    fn default() -> Self {
        AdaptiveDelayParams {
            enabled: false,
            add_latency: true,
            intervals: 1.5,
            jitter_stds: 2.0,
            min_delay: 0.0,
            max_delay: 0.5,
            time_constant: 10.0,
            max_rate: 0.1,
        }
    }
}

impl AdaptiveDelayParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("adaptiveDelay.intervals", self.intervals, 0.0, 10.0, "send intervals")?;
        in_range("adaptiveDelay.jitterStds", self.jitter_stds, 0.0, 10.0, "standard deviations")?;
        in_range("adaptiveDelay.minDelay", self.min_delay, 0.0, 1.0, "s")?;
        in_range("adaptiveDelay.maxDelay", self.max_delay, self.min_delay, 1.0, "s")?;
        in_range("adaptiveDelay.timeConstant", self.time_constant, 0.1, 600.0, "s")?;
        in_range("adaptiveDelay.maxRate", self.max_rate, 0.001, 0.5, "s/s")?;
        Ok(())
    }

    /// The delay the controller moves towards for a send interval, a transit spread and a one-way latency
    /// (ignored unless `addLatency`).
    pub fn target(&self, send_interval: f64, transit_std: f64, latency: f64) -> f64 {
        let latency = if self.add_latency && latency.is_finite() { latency.max(0.0) } else { 0.0 };
        let spread = if transit_std.is_finite() { transit_std } else { 0.0 };
        (latency + self.intervals * send_interval + self.jitter_stds * spread).clamp(self.min_delay, self.max_delay)
    }
}

/// The current render delay.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayController {
    params: AdaptiveDelayParams,
    send_interval: f64,
    current: f64,
    target: f64,
}

impl DelayController {
    /// Starts at `initial` seconds (the fixed `renderDelay`).
    pub fn new(params: AdaptiveDelayParams, send_interval: f64, initial: f64) -> Self {
        DelayController { params, send_interval, current: initial, target: initial }
    }

    /// Moves the delay for a frame of `dt` seconds and returns it; a fixed delay never moves. `latency` is the
    /// clock's belief about the one-way latency (seconds).
    pub fn update(&mut self, dt: f64, view: &BufferView, latency: f64) -> f64 {
        let valid_dt = dt.is_finite() && dt > 0.0;
        if !self.params.enabled || !valid_dt {
            return self.current;
        }
        self.target = self.params.target(self.send_interval, view.transit_std, latency);
        let eased = (self.target - self.current) * (1.0 - (-dt / self.params.time_constant).exp());
        let limit = self.params.max_rate * dt;
        self.current += eased.clamp(-limit, limit);
        self.current
    }

    pub fn current(&self) -> f64 {
        self.current
    }

    pub fn target(&self) -> f64 {
        self.target
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn adaptive() -> AdaptiveDelayParams {
        AdaptiveDelayParams { enabled: true, ..Default::default() }
    }

    #[test]
    fn the_target_is_k_intervals_plus_m_deviations() {
        // 20 Hz, 15 ms of transit spread: 1.5 · 50 + 2 · 15 = 105 ms, plus 40 ms of latency.
        assert_relative_eq!(adaptive().target(0.05, 0.015, 0.04), 0.145, epsilon = 1e-12);
        let literal = AdaptiveDelayParams { add_latency: false, ..adaptive() };
        assert_relative_eq!(literal.target(0.05, 0.015, 0.04), 0.105, epsilon = 1e-12);
        assert_relative_eq!(adaptive().target(0.05, 1.0, 0.0), 0.5, epsilon = 1e-12);
    }

    #[test]
    fn the_delay_moves_slowly_and_never_faster_than_max_rate() {
        let view = BufferView { transit_std: 0.1, ..Default::default() }; // target 0.275 s
        let mut delay = DelayController::new(adaptive(), 0.05, 0.05);
        let mut last = delay.current();
        for _ in 0..60 {
            let now = delay.update(1.0 / 60.0, &view, 0.0);
            assert!(now - last <= 0.1 / 60.0 + 1e-15, "rate limit");
            last = now;
        }
        // After 1 s: rate-limited to at most 0.1 s of growth, and eased (τ = 10 s) to less than that.
        assert!(last > 0.05 && last < 0.15, "{last}");
        for _ in 0..60 * 120 {
            delay.update(1.0 / 60.0, &view, 0.0);
        }
        assert_relative_eq!(delay.current(), 0.275, epsilon = 1e-4);
    }

    #[test]
    fn a_fixed_delay_stays_put() {
        let mut delay = DelayController::new(AdaptiveDelayParams::default(), 0.05, 0.1);
        let view = BufferView { transit_std: 0.5, ..Default::default() };
        assert_eq!(delay.update(0.016, &view, 0.3), 0.1);
    }

    #[test]
    fn max_below_min_is_refused() {
        let p = AdaptiveDelayParams { min_delay: 0.3, max_delay: 0.2, ..adaptive() };
        assert_eq!(p.validate().unwrap_err().field, "adaptiveDelay.maxDelay");
    }
}
