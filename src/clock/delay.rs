//! The render delay: fixed, or adapted — by seed 004 §4.2's RTT rule, or by the measured jitter. Slowly.
//!
//! Two controllers, one named for the article and one for the project (`adaptiveDelay.mode`):
//!
//! ```text
//!  seed004 (seed 004 §4.2, as written)              jitter (the project's, the default when adaptive is on)
//!  every 200 ms of local time:                      every frame of dt seconds:
//!    smoothedRtt = lerp(smoothedRtt, rtt, 0.1)        target = clamp([latency +] k·sendInterval + m·transitStd)
//!    target = smoothedRtt > 100 ms ? 0.15 : 0.05      delay += (target − delay)·(1 − e^(−dt/τ)), ≤ maxRate·dt
//!             [+ latency]
//!    delay  = lerp(delay, target, 0.02)
//!
//!  delay ▲          RTT above 100 ms (seed004) / jitter up (jitter)
//!        │      ┌───────────────────────  target
//!        │      │     .-''''''''''''''''    delay follows: τ = −0.2 s / ln(1 − 0.02) = 9.9 s (seed004), τ (jitter);
//!        │──────┘ .-'                        a step is at most 0.02 × (0.15 − 0.05) = 2 ms per 200 ms sample
//!        └──────────────────────────────►
//! ```
//!
//! **seed004** is the article's controller, line by line: "每200毫秒采样一次RTT然后做一阶低通滤波 float smoothedRtt
//! = Mathf.Lerp(smoothedRtt, currentRtt, 0.1f); if (smoothedRtt > 100) { … InterpolationDelay =
//! Mathf.Lerp(timeManager.InterpolationDelay, 0.15f, 0.02f); } else { … Mathf.Lerp(…, 0.05f, 0.02f); }" and "不能突然
//! 把InterpolationDelay从0.05改成0.15 … 要让它一小步一小步地变". Its sampling runs on a grid of `sampleInterval`
//! (200 ms) of local time that starts at the first frame; a frame that crosses several grid points (a stalled
//! tab) takes every one of them, in order. `currentRtt` is the latest RTT measured (the simulator's ping/pong,
//! a trace's `rtt` samples), 0 before the first one — NGO's `Rtt` reads 0 until measured — and `smoothedRtt`
//! starts at 0, the value of the article's C# field before its first assignment. The thresholds, targets and
//! gains are parameters with the article's values as defaults.
//!
//! **jitter** sizes the delay from what empties the buffer — the spread of arrival times — instead of from the
//! RTT: `k` send intervals (seed 000 §4.3.2: "一到两个快照间隔") plus `m` standard deviations of transit time
//! ([`crate::buffer::BufferView::transit_std`]). It is the default mode because an RTT that is high but steady
//! does not starve a buffer, while jitter at a low RTT does; the article's rule raises the delay for the first
//! and not for the second (the adaptive-delay lesson runs both on both). Seed 004 §4.1 itself names the cause:
//! "只要抖动幅度大于缓冲深度覆盖的时间范围就必然出现渲染空窗".
//!
//! **Where the delay is counted from.** Seed 000 §4.3.2 counts it from `serverNow` and sizes it in send intervals
//! only, as if a snapshot were fresh on arrival; seed 004's 0.05/0.15 are NGO's `InterpolationDelay`, counted from
//! its client `ServerTime` — the newest received server time, advanced. But `serverNow` from seed 004 §2.2
//! (`serverTime + RTT/2`) is the server's *present*, and every snapshot is already one one-way latency old when it
//! arrives. So, in either mode, the latency the clock itself believes in (`known`: the true mean; `smooth`: its
//! offset estimate against the transit mean, ≈ RTT/2; `reanchor`: the last RTT/2; `timescale`: 0, since its delay
//! is measured from the newest snapshot) is added to the target — `addLatency: true`, the default. With
//! `addLatency: false`, or on the `timescale` clock, each mode's target is exactly as written.

use crate::buffer::BufferView;
use crate::param::{Choice, ParamError, Params};
use serde::{Deserialize, Serialize};

/// Which controller moves an adaptive delay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum AdaptiveMode {
    /// The project's: k send intervals plus m standard deviations of transit time, eased over τ.
    #[default]
    Jitter,
    /// Seed 004 §4.2's RTT threshold rule, as written.
    Seed004,
}

/// Seed 004 §4.2's constants, each a parameter with the article's value as its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Seed004Params {
    /// How often the RTT is sampled ("每200毫秒采样一次RTT").
    #[param(range(0.01, 5.0), unit = "s", control(50.0, 1000.0, 10.0, "ms", 1000.0))]
    pub sample_interval: f64,
    /// How far each sample pulls the smoothed RTT (`Mathf.Lerp(smoothedRtt, currentRtt, 0.1f)`).
    #[param(range(0.001, 1.0), control(0.01, 1.0, 0.01, "/sample", 1.0))]
    pub rtt_gain: f64,
    /// Above this smoothed RTT the delay heads for `highDelay` (`if (smoothedRtt > 100)`, in ms).
    #[param(range(0.0, 2.0), unit = "s", control(0.0, 400.0, 5.0, "ms", 1000.0))]
    pub rtt_threshold: f64,
    /// The delay aimed at above the threshold (`Mathf.Lerp(…, 0.15f, 0.02f)`).
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 500.0, 5.0, "ms", 1000.0))]
    pub high_delay: f64,
    /// The delay aimed at below it (`Mathf.Lerp(…, 0.05f, 0.02f)`: "慢慢恢复到默认值").
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 500.0, 5.0, "ms", 1000.0))]
    pub low_delay: f64,
    /// How far each sample moves the delay (the `0.02f` of both lerps).
    #[param(range(0.0001, 1.0), control(0.005, 0.2, 0.005, "/sample", 1.0))]
    pub delay_gain: f64,
}

impl Default for Seed004Params {
    fn default() -> Self {
        Seed004Params {
            sample_interval: 0.2,
            rtt_gain: 0.1,
            rtt_threshold: 0.1,
            high_delay: 0.15,
            low_delay: 0.05,
            delay_gain: 0.02,
        }
    }
}

impl Seed004Params {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// The time constant of the delay's approach: `−sampleInterval / ln(1 − delayGain)` (9.9 s by default).
    pub fn time_constant(&self) -> f64 {
        -self.sample_interval / (1.0 - self.delay_gain).ln()
    }
}

/// Adaptive delay parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct AdaptiveDelayParams {
    /// Whether the delay moves at all (the seeds' clocks use a fixed delay).
    pub enabled: bool,
    /// Which controller moves it: the project's (`jitter`) or seed 004 §4.2's RTT rule beside it (module doc).
    pub mode: AdaptiveMode,
    /// Whether the delay also covers the one-way latency the clock believes in (module doc).
    pub add_latency: bool,
    /// `jitter`: k send intervals (seed 004 §3.3: 50 ms at 30 Hz ≈ 1.5 ticks; seed 000 §4.3.2 "一到两个快照间隔").
    #[param(range(0.0, 10.0), unit = "send intervals")]
    pub intervals: f64,
    /// `jitter`: m standard deviations of lateness (project choice: two).
    #[param(range(0.0, 10.0), unit = "standard deviations")]
    pub jitter_stds: f64,
    /// `jitter`: the lowest delay it aims at.
    #[param(range(0.0, 1.0), unit = "s")]
    pub min_delay: f64,
    /// `jitter`: the highest (project choice; seed 004 §5.3's slowest preset is 0.15 s); at least `minDelay`.
    #[param(range(self.min_delay, 1.0), unit = "s")]
    pub max_delay: f64,
    /// `jitter`: τ of the approach (seed 004 §4.2's lerp of 0.02 every 200 ms ≈ 9.9 s).
    #[param(range(0.1, 600.0), unit = "s")]
    pub time_constant: f64,
    /// `jitter`: the fastest the delay moves (project choice: the timeline never slows below 90 % speed).
    #[param(range(0.001, 0.5), unit = "s/s")]
    pub max_rate: f64,
    /// `seed004`: the article's constants.
    pub seed004: Seed004Params,
}

impl Default for AdaptiveDelayParams {
    fn default() -> Self {
        AdaptiveDelayParams {
            enabled: false,
            mode: AdaptiveMode::Jitter,
            add_latency: true,
            intervals: 1.5,
            jitter_stds: 2.0,
            min_delay: 0.0,
            max_delay: 0.5,
            time_constant: 10.0,
            max_rate: 0.1,
            seed004: Seed004Params::default(),
        }
    }
}

impl AdaptiveDelayParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()?;
        self.seed004.validate().map_err(|e| e.within("seed004"))
    }

    /// The latency added to a target: the clock's belief when `addLatency`, else 0.
    fn latency(&self, latency: f64) -> f64 {
        if self.add_latency && latency.is_finite() {
            latency.max(0.0)
        } else {
            0.0
        }
    }

    /// The jitter mode's target for a send interval, a transit spread and a one-way latency (ignored unless
    /// `addLatency`).
    pub fn target(&self, send_interval: f64, transit_std: f64, latency: f64) -> f64 {
        let spread = if transit_std.is_finite() { transit_std } else { 0.0 };
        let target = self.latency(latency) + self.intervals * send_interval + self.jitter_stds * spread;
        crate::geom::clamp(target, self.min_delay, self.max_delay)
    }
}

/// What the seed 004 controller keeps between samples.
#[derive(Clone, Debug, PartialEq)]
struct Seed004State {
    /// Local time of the grid's first point (the first frame), and how many points have been taken.
    origin: Option<f64>,
    taken: u64,
    smoothed_rtt: f64,
}

/// A frame that crosses more grid points than this (a clock kicked far forward) starts a new grid instead.
const MAX_CATCH_UP: u64 = 600;

/// The current render delay.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayController {
    params: AdaptiveDelayParams,
    send_interval: f64,
    current: f64,
    target: f64,
    seed004: Seed004State,
}

impl DelayController {
    /// Starts at `initial` seconds (the fixed `renderDelay`).
    pub fn new(params: AdaptiveDelayParams, send_interval: f64, initial: f64) -> Self {
        DelayController {
            params,
            send_interval,
            current: initial,
            target: initial,
            seed004: Seed004State { origin: None, taken: 0, smoothed_rtt: 0.0 },
        }
    }

    /// Moves the delay for the frame at local time `now`, `dt` seconds after the previous one, and returns it; a
    /// fixed delay never moves. `latency` is the clock's belief about the one-way latency, `rtt` the latest RTT
    /// measured (seconds).
    pub fn update(&mut self, now: f64, dt: f64, view: &BufferView, latency: f64, rtt: Option<f64>) -> f64 {
        if !self.params.enabled {
            return self.current;
        }
        match self.params.mode {
            AdaptiveMode::Jitter => self.update_jitter(dt, view, latency),
            AdaptiveMode::Seed004 => self.update_seed004(now, latency, rtt),
        }
        self.current
    }

    fn update_jitter(&mut self, dt: f64, view: &BufferView, latency: f64) {
        if !(dt.is_finite() && dt > 0.0) {
            return;
        }
        self.target = self.params.target(self.send_interval, view.transit_std, latency);
        let eased = (self.target - self.current) * (1.0 - (-dt / self.params.time_constant).exp());
        let limit = self.params.max_rate * dt;
        self.current += crate::geom::clamp(eased, -limit, limit);
    }

    /// Seed 004 §4.2: one sample per grid point of `sampleInterval` reached by `now`.
    fn update_seed004(&mut self, now: f64, latency: f64, rtt: Option<f64>) {
        if !now.is_finite() {
            return;
        }
        let p = self.params.seed004.clone();
        let state = &mut self.seed004;
        let origin = *state.origin.get_or_insert(now);
        let due = ((now - origin) / p.sample_interval + 1e-9).floor();
        if due < 0.0 {
            return; // the local clock went back: wait for the grid
        }
        let due = due as u64 + 1;
        if due.saturating_sub(state.taken) > MAX_CATCH_UP {
            state.origin = Some(now);
            state.taken = 0;
            return self.update_seed004(now, latency, rtt);
        }
        let current_rtt = rtt.filter(|r| r.is_finite()).unwrap_or(0.0);
        let added = self.params.latency(latency);
        while state.taken < due {
            state.smoothed_rtt += (current_rtt - state.smoothed_rtt) * p.rtt_gain;
            let level = if state.smoothed_rtt > p.rtt_threshold { p.high_delay } else { p.low_delay };
            self.target = level + added;
            self.current += (self.target - self.current) * p.delay_gain;
            state.taken += 1;
        }
    }

    pub fn current(&self) -> f64 {
        self.current
    }

    /// Where the delay is heading (the fixed delay when not adaptive).
    pub fn target(&self) -> f64 {
        self.target
    }

    /// The seed 004 controller's smoothed RTT (seconds), once it has taken a sample.
    pub fn smoothed_rtt(&self) -> Option<f64> {
        (self.params.enabled && self.params.mode == AdaptiveMode::Seed004 && self.seed004.taken > 0)
            .then_some(self.seed004.smoothed_rtt)
    }

    /// How many seed 004 samples have been taken.
    pub fn samples(&self) -> u64 {
        self.seed004.taken
    }

    pub fn params(&self) -> &AdaptiveDelayParams {
        &self.params
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn adaptive() -> AdaptiveDelayParams {
        AdaptiveDelayParams { enabled: true, ..Default::default() }
    }

    fn seed004() -> AdaptiveDelayParams {
        AdaptiveDelayParams { enabled: true, mode: AdaptiveMode::Seed004, add_latency: false, ..Default::default() }
    }

    #[test]
    fn the_target_is_k_intervals_plus_m_deviations() {
        // 20 Hz, 15 ms of transit spread: 1.5 · 50 + 2 · 15 = 105 ms, plus 40 ms of latency.
        assert_relative_eq!(adaptive().target(0.05, 0.015, 0.04), 0.145, epsilon = 1e-12);
        let literal = AdaptiveDelayParams { add_latency: false, ..adaptive() };
        assert_relative_eq!(literal.target(0.05, 0.015, 0.04), 0.105, epsilon = 1e-12);
        assert_relative_eq!(adaptive().target(0.05, 1.0, 0.0), 0.5, epsilon = 1e-12);
        assert_eq!(AdaptiveDelayParams::default().mode, AdaptiveMode::Jitter, "the project's controller by default");
    }

    #[test]
    fn the_delay_moves_slowly_and_never_faster_than_max_rate() {
        let view = BufferView { transit_std: 0.1, ..Default::default() }; // target 0.275 s
        let mut delay = DelayController::new(adaptive(), 0.05, 0.05);
        let mut last = delay.current();
        for k in 1..=60 {
            let now = delay.update(k as f64 / 60.0, 1.0 / 60.0, &view, 0.0, None);
            assert!(now - last <= 0.1 / 60.0 + 1e-15, "rate limit");
            last = now;
        }
        // After 1 s: rate-limited to at most 0.1 s of growth, and eased (τ = 10 s) to less than that.
        assert!(last > 0.05 && last < 0.15, "{last}");
        for k in 61..60 * 121 {
            delay.update(k as f64 / 60.0, 1.0 / 60.0, &view, 0.0, None);
        }
        assert_relative_eq!(delay.current(), 0.275, epsilon = 1e-4);
    }

    #[test]
    fn a_fixed_delay_stays_put() {
        let mut delay = DelayController::new(AdaptiveDelayParams::default(), 0.05, 0.1);
        let view = BufferView { transit_std: 0.5, ..Default::default() };
        assert_eq!(delay.update(1.0, 0.016, &view, 0.3, Some(0.5)), 0.1);
        assert_eq!(delay.smoothed_rtt(), None);
    }

    /// Seed 004 §4.2 by hand, RTT 150 ms from the start, delay from 0.05:
    /// sample 1 (t = 0):   smoothed = 0 + (0.15 − 0) · 0.1 = 0.015  ≤ 0.1 → target 0.05, delay stays 0.05
    /// sample k:           smoothed = 0.15 · (1 − 0.9^k); first > 0.1 when 0.9^k < 1/3, k = 11 (0.9^11 = 0.3138,
    ///                     smoothed = 0.10293), at t = 10 · 0.2 = 2.0 s
    /// sample 11 (t = 2):  delay = 0.05 + (0.15 − 0.05) · 0.02 = 0.052     (one step: 0.02 × 100 ms = 2 ms)
    /// sample 11 + n:      delay = 0.15 − 0.1 · 0.98^(n+1); 63 % of the way (0.98^(n+1) ≤ 1/e) at n + 1 = 50,
    ///                     t = 2.0 + 49 · 0.2 = 11.8 s; the time constant −0.2 / ln 0.98 = 9.899 s.
    #[test]
    fn seed_004_moves_by_two_percent_per_200_ms_once_the_smoothed_rtt_passes_100_ms() {
        let mut delay = DelayController::new(seed004(), 0.05, 0.05);
        let view = BufferView::default();
        let mut first_move = None;
        let mut crossed = None;
        let mut largest = 0.0f64;
        let mut last = 0.05;
        for frame in 0..=60 * 20 {
            let now = frame as f64 / 60.0;
            let d = delay.update(now, 1.0 / 60.0, &view, 0.0, Some(0.15));
            largest = largest.max(d - last);
            if d > 0.05 && first_move.is_none() {
                first_move = Some(now);
                assert_relative_eq!(d, 0.052, epsilon = 1e-12);
                assert_relative_eq!(delay.smoothed_rtt().unwrap(), 0.15 * (1.0 - 0.9f64.powi(11)), epsilon = 1e-12);
            }
            if d >= 0.05 + 0.1 * (1.0 - (-1f64).exp()) && crossed.is_none() {
                crossed = Some(now);
            }
            last = d;
        }
        assert_relative_eq!(first_move.unwrap(), 2.0, epsilon = 1e-9);
        assert_relative_eq!(crossed.unwrap(), 11.8, epsilon = 1e-9);
        assert_relative_eq!(largest, 0.002, epsilon = 1e-12);
        assert_relative_eq!(Seed004Params::default().time_constant(), 9.899, epsilon = 1e-3);
        assert_eq!(delay.samples(), 101, "20 s of 200 ms grid points, both ends included");
    }

    #[test]
    fn seed_004_ignores_jitter_below_the_threshold_and_follows_its_parameters() {
        // RTT 60 ms ± 50 ms of noise: the smoothed RTT stays under 100 ms, the delay stays at 0.05.
        let mut delay = DelayController::new(seed004(), 0.05, 0.05);
        let wide = BufferView { transit_std: 0.05, ..Default::default() };
        for frame in 0..600 {
            let rtt = if (frame / 12) % 2 == 0 { 0.01 } else { 0.11 }; // alternates from one 200 ms sample to the next
            delay.update(frame as f64 / 60.0, 1.0 / 60.0, &wide, 0.0, Some(rtt));
        }
        assert_relative_eq!(delay.current(), 0.05, epsilon = 1e-12);
        // A lower threshold (50 ms) and a larger gain (0.1): the delay moves, by 10 % of the way per sample.
        let quick = AdaptiveDelayParams {
            seed004: Seed004Params { rtt_threshold: 0.05, delay_gain: 0.1, ..Default::default() },
            ..seed004()
        };
        let mut delay = DelayController::new(quick, 0.05, 0.05);
        for frame in 0..=12 * 60 {
            delay.update(frame as f64 / 60.0, 1.0 / 60.0, &wide, 0.0, Some(0.06));
        }
        assert!(delay.current() > 0.14, "{}", delay.current());
    }

    #[test]
    fn seed_004_takes_every_grid_point_a_stalled_frame_crossed_and_adds_latency_when_asked() {
        let mut smooth = DelayController::new(seed004(), 0.05, 0.05);
        let mut stalled = DelayController::new(seed004(), 0.05, 0.05);
        let view = BufferView::default();
        for frame in 0..=600 {
            smooth.update(frame as f64 / 60.0, 1.0 / 60.0, &view, 0.0, Some(0.2));
        }
        stalled.update(0.0, 1.0 / 60.0, &view, 0.0, Some(0.2));
        stalled.update(10.0, 10.0, &view, 0.0, Some(0.2));
        assert_eq!(smooth.samples(), stalled.samples());
        assert_eq!(smooth.current(), stalled.current());
        let with_latency = AdaptiveDelayParams { add_latency: true, ..seed004() };
        let mut delay = DelayController::new(with_latency, 0.05, 0.05);
        delay.update(0.0, 0.0, &view, 0.08, None);
        assert_relative_eq!(delay.target(), 0.13, epsilon = 1e-12); // 0.05 + 80 ms of latency
    }

    #[test]
    fn max_below_min_is_refused_and_seed_004_fields_are_named() {
        // Each group names its fields from itself; the clock that holds it adds `adaptiveDelay.`.
        let p = AdaptiveDelayParams { min_delay: 0.3, max_delay: 0.2, ..adaptive() };
        assert_eq!(p.validate().unwrap_err().field, "maxDelay");
        let p = AdaptiveDelayParams { seed004: Seed004Params { delay_gain: 0.0, ..Default::default() }, ..adaptive() };
        assert_eq!(p.validate().unwrap_err().field, "seed004.delayGain");
        let json = r#"{"enabled": true, "mode": "seed004", "seed004": {"rttThreshold": 0.2}}"#;
        let p: AdaptiveDelayParams = serde_json::from_str(json).unwrap();
        assert_eq!((p.mode, p.seed004.rtt_threshold, p.seed004.high_delay), (AdaptiveMode::Seed004, 0.2, 0.15));
    }
}
