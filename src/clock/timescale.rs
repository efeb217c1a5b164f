//! `timescale`: no offset estimate at all — the render timeline runs a few percent fast or slow to keep the
//! buffer at its target depth, and is clamped hard when it drifts too far.
//!
//! ```text
//!  depth  = newest server time in the buffer − render time         (smoothed over τ: the raw depth is a sawtooth)
//!  error  = depth − target (the render delay)
//!
//!  error >  band·sendInterval  ─► rate 1 + r   (too much buffered: catch up)
//!  |error| ≤ band·sendInterval ─► rate 1
//!  error < −band·sendInterval  ─► rate 1 − r   (running dry: slow down)
//!  |error| > hardClamp·sendInterval ─► render = newest − target    (hard clamp, counted; may run backwards)
//!
//!  render += rate · dt
//! ```
//! The seeds only hint at this (seed 004 §4.1 "自适应插值延迟"; seed 002 "缓冲过深 … 不能为了追赶而无记录地丢弃
//! 一段时间线"): it is the family of clocks that steer by what is buffered instead of by the clocks' offset. The
//! depth follows the arrivals, so it absorbs drift between the clocks; its cost is a render time that is not
//! tied to any estimate of "server now". It is uncertain until `minSamples` snapshots have arrived, and again for
//! `minSamples` snapshots after a hard clamp.

use super::{Estimate, Uncertain};
use crate::buffer::BufferView;
use crate::param::{ParamError, Params};
use serde::{Deserialize, Serialize};

/// The timescale clock's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TimescaleParams {
    /// How much faster or slower than 1 the timeline runs while the depth is off (1 ± a few percent).
    #[param(range(0.001, 0.5))]
    pub rate: f64,
    /// A depth error within this many send intervals is left alone (project choice: the raw depth saws by one).
    #[param(range(0.0, 20.0), unit = "send intervals")]
    pub band: f64,
    /// A depth error beyond this many send intervals is clamped at once, not slewed (project choice); more than
    /// half an interval above the band.
    #[param(range(self.band.max(0.0) + 0.5, 100.0), unit = "send intervals")]
    pub hard_clamp: f64,
    /// The time constant the depth is smoothed over (project choice: five send intervals at 20 Hz).
    #[param(range(0.001, 10.0), unit = "s")]
    pub depth_time_constant: f64,
}

impl Default for TimescaleParams {
    fn default() -> Self {
        TimescaleParams { rate: 0.05, band: 1.0, hard_clamp: 4.0, depth_time_constant: 0.25 }
    }
}

impl TimescaleParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// The depth-steered clock.
#[derive(Clone, Debug, PartialEq)]
pub struct TimescaleClock {
    params: TimescaleParams,
    send_interval: f64,
    min_samples: u64,
    render: Option<f64>,
    depth: f64,
    scale: f64,
    since_reset: u64,
    pub adjustments: u64,
    pub hard_resets: u64,
}

impl TimescaleClock {
    pub fn new(params: TimescaleParams, send_interval: f64, min_samples: u64) -> Self {
        TimescaleClock {
            params,
            send_interval,
            min_samples,
            render: None,
            depth: 0.0,
            scale: 1.0,
            since_reset: 0,
            adjustments: 0,
            hard_resets: 0,
        }
    }

    pub fn on_snapshot(&mut self) {
        self.since_reset += 1;
    }

    /// The current rate of the render timeline (1 = real time).
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The smoothed buffer depth, seconds.
    pub fn depth(&self) -> f64 {
        self.depth
    }

    pub fn advance(&mut self, dt: f64, target: f64, view: &BufferView) -> Estimate {
        let (Some(newest), Some(render)) = (view.newest_server_time, self.render) else {
            return self.start(view.newest_server_time, target);
        };
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        self.depth += (newest - render - self.depth) * (1.0 - (-dt / self.params.depth_time_constant).exp());
        let error = self.depth - target;
        let render = if error.abs() > self.params.hard_clamp * self.send_interval {
            self.hard_resets += 1;
            self.adjustments += 1;
            self.since_reset = 0;
            self.depth = target;
            self.scale = 1.0;
            newest - target
        } else {
            self.steer(error);
            render + self.scale * dt
        };
        self.render = Some(render);
        self.estimate(render)
    }

    fn start(&mut self, newest: Option<f64>, target: f64) -> Estimate {
        match (newest, self.render) {
            (Some(newest), None) => {
                let render = newest - target;
                self.render = Some(render);
                self.depth = target;
                self.estimate(render)
            }
            (_, render) => Estimate::uncertain(render.unwrap_or(f64::NAN), Uncertain::NoSnapshotForDepth),
        }
    }

    fn steer(&mut self, error: f64) {
        let band = self.params.band * self.send_interval;
        let scale = if error > band {
            1.0 + self.params.rate
        } else if error < -band {
            1.0 - self.params.rate
        } else {
            1.0
        };
        self.adjustments += u64::from(scale != 1.0 && scale != self.scale);
        self.scale = scale;
    }

    fn estimate(&self, render: f64) -> Estimate {
        if self.since_reset < self.min_samples {
            let (since, needed) = (self.since_reset, self.min_samples);
            let reason = if self.hard_resets == 0 {
                Uncertain::DepthSamples { since, needed }
            } else {
                Uncertain::HardClamp { since, needed }
            };
            Estimate::uncertain(render, reason)
        } else {
            Estimate::certain(render)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn view(newest: f64) -> BufferView {
        BufferView { newest_server_time: Some(newest), ..Default::default() }
    }

    fn clock() -> TimescaleClock {
        let mut clock = TimescaleClock::new(TimescaleParams::default(), 0.05, 3);
        for _ in 0..3 {
            clock.on_snapshot();
        }
        clock
    }

    #[test]
    fn starts_one_delay_behind_the_newest_snapshot() {
        let mut clock = clock();
        let e = clock.advance(0.016, 0.1, &view(10.0));
        assert_relative_eq!(e.render_time, 9.9, epsilon = 1e-12);
        assert_eq!(e.uncertain, None);
    }

    #[test]
    fn a_deep_buffer_speeds_the_timeline_up_and_a_dry_one_slows_it() {
        let mut clock = clock();
        clock.advance(0.016, 0.1, &view(10.0));
        // 120 ms more buffered than wanted (2.4 send intervals), snapshots keep coming in real time: once the
        // depth average passes target + one send interval (about 9 frames), the rate is 1.05.
        let mut last = 9.9;
        let mut steps = Vec::new();
        for k in 1..=60 {
            let r = clock.advance(0.016, 0.1, &view(10.12 + 0.016 * k as f64)).render_time;
            steps.push(r - last);
            last = r;
        }
        assert_relative_eq!(*steps.last().unwrap(), 0.016 * 1.05, epsilon = 1e-12);
        assert_relative_eq!(steps[0], 0.016, epsilon = 1e-12);
        assert_eq!(clock.scale(), 1.05);
        assert_eq!(clock.adjustments, 1);
        // The snapshots stop: the depth drains and the timeline slows before it would have to be clamped.
        let frozen = 10.12 + 0.016 * 60.0;
        let slowed = (0..100).find(|_| {
            clock.advance(0.016, 0.1, &view(frozen));
            clock.scale() == 0.95
        });
        assert!(slowed.is_some());
        assert_eq!((clock.hard_resets, clock.adjustments), (0, 2));
    }

    #[test]
    fn a_large_drift_is_clamped_hard_and_makes_the_clock_uncertain() {
        let mut clock = clock();
        clock.advance(0.016, 0.1, &view(10.0));
        let mut e = clock.advance(0.016, 0.1, &view(10.0));
        for _ in 0..200 {
            e = clock.advance(0.016, 0.1, &view(11.0)); // a second of snapshots arrived at once
            if clock.hard_resets > 0 {
                break;
            }
        }
        assert_eq!(clock.hard_resets, 1);
        assert_relative_eq!(e.render_time, 10.9, epsilon = 1e-12);
        assert!(e.uncertain.unwrap().to_string().contains("hard clamp"));
    }
}
