//! `smooth`: seed 004 §2.2's estimator — many samples, filtered, approached gradually, never backwards.
//!
//! ```text
//!  each snapshot:  transit sample  = serverTime − arrival           (filtered: outliers refused)
//!  each RTT:       RTT             = EMA with outlier rejection     (see `filter`)
//!  target offset   = mean(serverTime − arrival) + RTT/2             = serverTime − (arrival − RTT/2), averaged
//!  each frame:     |target − estimate| > hardReset ?  estimate = target           (hard reset, counted)
//!                  |target − estimate| > deadband  ?  estimate moves ≤ slewRate·dt towards it  (slewing)
//!                  render = max(now + estimate − delay, previous render)        (never runs backwards)
//!
//!  render ▲                                   ___.---
//!         │                          ___.---''        a backward hard reset: the render time waits (held
//!         │              ___.---'''═══════            frames) until the new timeline catches up with it
//!         │   ___.---''''
//!         └─────────────────────────────────► local
//! ```
//! Seed 004 §2.2: "时钟偏移不会一次性跳变到新值而是逐步向目标值靠拢 … 不会出现突然倒退或者大步跳进". Averaging the
//! transit samples and adding half the smoothed RTT is the same as averaging the per-snapshot offset samples
//! `serverTime − (arrival − RTT/2)` while the RTT is steady, and it lets snapshots that arrive before the first
//! RTT sample count. The estimate is uncertain (→ `ClockUncertain`) until `minSamples` transit samples and one
//! RTT sample have been accepted, and again for `minSamples` samples after a hard reset.

use super::filter::{FilterParams, OutlierEma, Verdict};
use super::{Estimate, Uncertain};
use crate::param::{ParamError, Params};
use serde::{Deserialize, Serialize};

/// The smooth clock's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SmoothParams {
    /// The filter of the offset samples: the same treatment as the RTT's (seed 004 §2.2).
    pub offset: FilterParams,
    /// How fast the timeline may run fast or slow while it converges (project choice: at most 5 %).
    #[param(range(0.001, 0.5), unit = "s/s")]
    pub slew_rate: f64,
    /// Smaller errors are left alone: no endless micro-slewing (project choice).
    #[param(range(0.0, 0.1), unit = "s")]
    pub deadband: f64,
    /// A larger error is not slewed but jumped (project choice: it would take more than 5 s to slew away).
    #[param(range(0.01, 10.0), unit = "s")]
    pub hard_reset: f64,
}

impl Default for SmoothParams {
    fn default() -> Self {
        SmoothParams { offset: FilterParams::default(), slew_rate: 0.05, deadband: 0.002, hard_reset: 0.25 }
    }
}

impl SmoothParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.offset.validate().map_err(|e| e.within("offset"))?;
        self.check_ranges()
    }
}

/// The filtered, slewed, monotone clock.
#[derive(Clone, Debug, PartialEq)]
pub struct SmoothClock {
    params: SmoothParams,
    min_samples: u64,
    transit: OutlierEma,
    estimate: Option<f64>,
    since_reset: u64,
    last_output: Option<f64>,
    slewing: bool,
    pub adjustments: u64,
    pub hard_resets: u64,
    pub held_frames: u64,
}

impl SmoothClock {
    pub fn new(params: SmoothParams, min_samples: u64) -> Self {
        SmoothClock {
            transit: OutlierEma::new(params.offset.clone()),
            params,
            min_samples,
            estimate: None,
            since_reset: 0,
            last_output: None,
            slewing: false,
            adjustments: 0,
            hard_resets: 0,
            held_frames: 0,
        }
    }

    pub fn on_snapshot(&mut self, server_time: f64, arrival: f64) -> Verdict {
        let sample = server_time - arrival;
        if !sample.is_finite() {
            return Verdict::Invalid;
        }
        let verdict = self.transit.push(sample);
        if verdict != Verdict::Rejected {
            self.since_reset += 1;
        }
        verdict
    }

    /// The offset the estimate is moving towards, once there is a transit sample.
    pub fn target(&self, rtt: Option<f64>) -> Option<f64> {
        self.transit.mean().map(|transit| transit + rtt.unwrap_or(0.0) / 2.0)
    }

    pub fn estimate(&self) -> Option<f64> {
        self.estimate
    }

    pub fn transit_filter(&self) -> &OutlierEma {
        &self.transit
    }

    pub fn advance(&mut self, now: f64, dt: f64, delay: f64, rtt: Option<f64>) -> Estimate {
        let Some(target) = self.target(rtt) else {
            return Estimate::uncertain(f64::NAN, Uncertain::NoSnapshotForOffset);
        };
        let estimate = self.steer(target, dt);
        let candidate = now + estimate - delay;
        let output = match self.last_output {
            Some(last) if candidate.is_nan() || candidate < last => {
                self.held_frames += 1;
                last
            }
            _ => candidate,
        };
        self.last_output = Some(output);
        match self.uncertainty(rtt) {
            Some(reason) => Estimate::uncertain(output, reason),
            None => Estimate::certain(output),
        }
    }

    /// Moves the estimate towards `target` for one frame and returns it.
    fn steer(&mut self, target: f64, dt: f64) -> f64 {
        let Some(estimate) = self.estimate else {
            self.estimate = Some(target);
            return target;
        };
        let error = target - estimate;
        let next = if error.abs() > self.params.hard_reset {
            self.hard_resets += 1;
            self.adjustments += 1;
            self.since_reset = 0;
            self.slewing = false;
            target
        } else if error.abs() > self.params.deadband && dt.is_finite() && dt > 0.0 {
            self.adjustments += u64::from(!self.slewing);
            self.slewing = true;
            let limit = self.params.slew_rate * dt;
            estimate + crate::geom::clamp(error, -limit, limit)
        } else {
            self.slewing = false;
            estimate
        };
        self.estimate = Some(next);
        next
    }

    fn uncertainty(&self, rtt: Option<f64>) -> Option<Uncertain> {
        let needed = self.min_samples;
        if rtt.is_none() {
            Some(Uncertain::NoRttForOneWay)
        } else if self.transit.accepted < needed {
            Some(Uncertain::ClockSamples { accepted: self.transit.accepted, needed })
        } else if self.since_reset < needed {
            Some(Uncertain::HardReset { since: self.since_reset, needed })
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    /// Snapshots every 50 ms with 40 ms one-way delay, server = local + 2 s; RTT 80 ms.
    fn converged() -> SmoothClock {
        let mut clock = SmoothClock::new(SmoothParams::default(), 3);
        for i in 0..20 {
            let server = 100.0 + 0.05 * i as f64;
            clock.on_snapshot(server, server - 2.0 + 0.04);
        }
        clock
    }

    #[test]
    fn the_estimate_is_transit_plus_half_the_rtt() {
        let mut clock = converged();
        let e = clock.advance(98.99, 0.016, 0.1, Some(0.08));
        assert_eq!(e.uncertain, None);
        assert_relative_eq!(clock.estimate().unwrap(), 2.0, epsilon = 1e-9);
        assert_relative_eq!(e.render_time, 98.99 + 2.0 - 0.1, epsilon = 1e-9);
    }

    #[test]
    fn small_errors_slew_at_the_bounded_rate() {
        let mut clock = converged();
        clock.advance(98.0, 0.016, 0.1, Some(0.08));
        // The RTT estimate grows by 40 ms: the target moves 20 ms; the estimate slews 5 % of dt per frame.
        let first = clock.advance(98.016, 0.016, 0.1, Some(0.12));
        assert_relative_eq!(clock.estimate().unwrap(), 2.0 + 0.05 * 0.016, epsilon = 1e-12);
        assert_relative_eq!(first.render_time, 98.016 + 2.0008 - 0.1, epsilon = 1e-9);
        for k in 2..100 {
            clock.advance(98.0 + 0.016 * k as f64, 0.016, 0.1, Some(0.12));
        }
        assert_relative_eq!(clock.estimate().unwrap(), 2.02, epsilon = 0.0021);
        assert_eq!((clock.adjustments, clock.hard_resets), (1, 0));
    }

    #[test]
    fn a_large_backward_error_resets_hard_but_the_render_time_waits() {
        let mut clock = converged();
        let before = clock.advance(98.0, 0.016, 0.1, Some(0.08)).render_time;
        // The server clock jumps back 1 s: after maxRejects outliers the filter re-seeds at the new level.
        for i in 0..6 {
            let server = 99.0 + 0.05 * i as f64;
            clock.on_snapshot(server, server - 1.0 + 0.04);
        }
        let after = clock.advance(98.016, 0.016, 0.1, Some(0.08));
        assert_eq!(clock.hard_resets, 1);
        assert_eq!(after.render_time, before, "never backwards: held");
        assert!(after.uncertain.unwrap().to_string().contains("hard reset"));
        assert_eq!(clock.held_frames, 1);
    }

    #[test]
    fn it_is_uncertain_without_rtt_or_enough_samples() {
        let mut clock = SmoothClock::new(SmoothParams::default(), 3);
        assert!(clock.advance(1.0, 0.016, 0.1, None).render_time.is_nan());
        clock.on_snapshot(3.0, 1.0);
        assert!(clock.advance(1.0, 0.016, 0.1, Some(0.05)).uncertain.unwrap().to_string().contains("1 of 3"));
        assert!(converged().advance(1.0, 0.016, 0.1, None).uncertain.unwrap().to_string().contains("RTT"));
    }
}
