//! Render clocks: where the render time comes from (seed 000 §4.3.8, seed 004 §2, seed 002 "时钟").
//!
//! ```text
//!  local now ──►  RenderClock (one of four) ──► render time ──► buffer.sample(render time)
//!                     ▲            ▲      ▲
//!   arrivals (serverTime, arrival) │      └─ the buffer's view (depth, jitter)
//!                         RTT samples (ping/pong, measured by the caller)
//!
//!  known      render = now + clockOffset − delay                    the ideal reference        (known.rs)
//!  reanchor   render += dt; = serverNow − delay on every snapshot   seed 000 §4.3.8            (reanchor.rs)
//!  smooth     filtered offset, slewed, hard reset, never backwards  seed 004 §2.2              (smooth.rs)
//!  timescale  runs at 1 ± r to hold the buffer depth at the delay   (timescale.rs)
//!  delay      fixed, or k·sendInterval + m·jitterStd, moving slowly seed 004 §4.2              (delay.rs)
//! ```
//! Per frame: [`RenderClock::on_snapshot`] for each accepted arrival, [`RenderClock::on_rtt_sample`] for each RTT
//! measured, then [`RenderClock::render_time`] once. The reading says whether the clock is uncertain; the
//! caller then samples with `buffer.sample_uncertain` (→ `ClockUncertain`) instead of `buffer.sample`.
//! Every clock's output is watched the same way ([`TimelineMonitor`]): regressions and jumps are counted for all four.
//!
//! Time convention: `clockOffset` is the truth, `server = local + offset` (seconds, default 0). Only `known` (and
//! `reanchor` with `reanchorEstimate: known`) may read it.

mod delay;
mod filter;
mod known;
mod monitor;
mod reanchor;
mod smooth;
mod timescale;

pub use delay::{AdaptiveDelayParams, DelayController};
pub use filter::{FilterParams, OutlierEma, Verdict};
pub use known::KnownClock;
pub use monitor::TimelineMonitor;
pub use reanchor::{ReanchorClock, ReanchorEstimate};
pub use smooth::{SmoothClock, SmoothParams};
pub use timescale::{TimescaleClock, TimescaleParams};

use crate::buffer::BufferView;
use crate::param::{in_range, ParamError};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How many RTT samples are kept for plotting.
pub const RTT_HISTORY: usize = 1024;
/// The largest RTT accepted, seconds; larger, negative or non-finite samples are invalid.
pub const MAX_RTT: f64 = 10.0;

/// Which clock gives the render time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ClockKind {
    Known,
    Reanchor,
    #[default]
    Smooth,
    Timescale,
}

impl ClockKind {
    pub const ALL: [ClockKind; 4] = [ClockKind::Known, ClockKind::Reanchor, ClockKind::Smooth, ClockKind::Timescale];

    pub fn name(self) -> &'static str {
        match self {
            ClockKind::Known => "known",
            ClockKind::Reanchor => "reanchor",
            ClockKind::Smooth => "smooth",
            ClockKind::Timescale => "timescale",
        }
    }
}

/// The render clock's parameters (camelCase outside; nested groups are named `group.field` in errors).
///
/// | field | default | range | from |
/// |---|---|---|---|
/// | `clock` | `smooth` | `known`, `reanchor`, `smooth`, `timescale` | seed 004 §2.2 is the recommended estimator |
/// | `renderDelay` | 0.1 s | 0..=1 s | seed 000 §4.3.8 `RENDER_DELAY_MS = 100` (§4.3.2: one to two send intervals) |
/// | `clockOffset` | 0 s | ±1e6 s | server = local + offset; the simulator's truth |
/// | `sendInterval` | 0.05 s | 0.001..=1 s | seed 000 §4.3.2 (20 Hz); must equal the buffer's |
/// | `minSamples` | 3 | 1..=1000 | project choice (seed 004 §2.2 "多次测量"): samples before a clock is trusted |
/// | `jumpThreshold` | 0.01 s | 0.0001..=1 s | project choice: a frame whose render step is off dt by more is a jump |
/// | `reanchorEstimate` | `packet` | `packet`, `known` | see `reanchor` |
/// | `rtt` | gain 0.1, factor 3, floor 5 ms, 5 rejects | see `FilterParams` | seed 004 §2.2, §4.2 |
/// | `smooth`, `timescale`, `adaptiveDelay` | see their types | | |
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ClockParams {
    pub clock: ClockKind,
    pub render_delay: f64,
    pub clock_offset: f64,
    pub send_interval: f64,
    pub min_samples: u64,
    pub jump_threshold: f64,
    pub reanchor_estimate: ReanchorEstimate,
    pub rtt: FilterParams,
    pub smooth: SmoothParams,
    pub timescale: TimescaleParams,
    pub adaptive_delay: AdaptiveDelayParams,
}

impl Default for ClockParams {
    fn default() -> Self {
        ClockParams {
            clock: ClockKind::Smooth,
            render_delay: 0.1,
            clock_offset: 0.0,
            send_interval: 0.05,
            min_samples: 3,
            jump_threshold: 0.01,
            reanchor_estimate: ReanchorEstimate::Packet,
            rtt: FilterParams::default(),
            smooth: SmoothParams::default(),
            timescale: TimescaleParams::default(),
            adaptive_delay: AdaptiveDelayParams::default(),
        }
    }
}

impl ClockParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("renderDelay", self.render_delay, 0.0, 1.0, "s")?;
        in_range("clockOffset", self.clock_offset, -1e6, 1e6, "s")?;
        in_range("sendInterval", self.send_interval, 0.001, 1.0, "s")?;
        in_range("minSamples", self.min_samples as f64, 1.0, 1000.0, "samples")?;
        in_range("jumpThreshold", self.jump_threshold, 0.0001, 1.0, "s")?;
        self.rtt.validate("rtt")?;
        self.smooth.validate()?;
        self.timescale.validate()?;
        self.adaptive_delay.validate()
    }
}

/// What a clock gives for one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockReading {
    /// The server time to render; NaN only while the clock has no estimate at all.
    pub render_time: f64,
    /// The render delay in force.
    pub delay: f64,
    /// Why the render time cannot be trusted yet (→ `ClockUncertain`), if it cannot.
    pub uncertain: Option<String>,
}

/// A clock engine's answer before the delay and monitoring are attached.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub render_time: f64,
    pub uncertain: Option<String>,
}

impl Estimate {
    pub fn certain(render_time: f64) -> Self {
        Estimate { render_time, uncertain: None }
    }

    pub fn uncertain(render_time: f64, reason: impl Into<String>) -> Self {
        Estimate { render_time, uncertain: Some(reason.into()) }
    }
}

/// One RTT sample as it was judged, for the plot of raw vs smoothed RTT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RttPoint {
    /// Local time of the measurement.
    pub at: f64,
    pub rtt: f64,
    /// The smoothed RTT after this sample.
    pub smoothed: Option<f64>,
    pub verdict: Verdict,
}

/// The clock's metrics as they leave the core (camelCase, seconds).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockMetrics {
    pub clock: ClockKind,
    pub render_time: Option<f64>,
    pub delay: f64,
    /// Where an adaptive delay is heading (equals `delay` when fixed).
    pub delay_target: f64,
    pub uncertain: bool,
    /// The offset the render timeline implies: render time + delay − local now (server = local + offset).
    pub offset_estimate: Option<f64>,
    /// `smooth` only: the filtered offset it is slewing towards.
    pub offset_target: Option<f64>,
    pub rtt: Option<f64>,
    pub rtt_deviation: f64,
    pub rtt_last: Option<f64>,
    pub rtt_accepted: u64,
    pub rtt_rejected: u64,
    pub rtt_reseeds: u64,
    pub rtt_invalid: u64,
    /// `smooth` only: transit samples accepted / rejected by its offset filter.
    pub offset_samples_accepted: u64,
    pub offset_samples_rejected: u64,
    /// Corrections started: reanchor resets, smooth slewing episodes, timescale rate changes, hard resets.
    pub adjustments: u64,
    pub hard_resets: u64,
    /// Frames where the clock's render time went backwards (seed 002 "RenderTimeRegressionCount").
    pub regressions: u64,
    /// Frames whose render step differed from dt by more than `jumpThreshold`.
    pub jumps: u64,
    pub largest_jump: f64,
    /// `smooth` only: frames held because the new timeline was behind the old one.
    pub held_frames: u64,
    /// `timescale` only: the current rate (1 otherwise).
    pub timescale: f64,
}

#[derive(Clone, Debug, PartialEq)]
enum Engine {
    Known(KnownClock),
    Reanchor(ReanchorClock),
    Smooth(SmoothClock),
    Timescale(TimescaleClock),
}

/// A render clock: one of the four engines, the delay, the RTT filter and the timeline monitor.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderClock {
    params: ClockParams,
    engine: Engine,
    delay: DelayController,
    rtt: OutlierEma,
    rtt_last: Option<f64>,
    rtt_invalid: u64,
    rtt_history: VecDeque<RttPoint>,
    monitor: TimelineMonitor,
    last_now: Option<f64>,
    last_reading: Option<ClockReading>,
}

impl RenderClock {
    /// A clock with checked parameters; the error names the first bad field.
    pub fn new(params: ClockParams) -> Result<Self, ParamError> {
        params.validate()?;
        let engine = match params.clock {
            ClockKind::Known => Engine::Known(KnownClock::new(params.clock_offset)),
            ClockKind::Reanchor => Engine::Reanchor(ReanchorClock::new(params.reanchor_estimate, params.clock_offset)),
            ClockKind::Smooth => Engine::Smooth(SmoothClock::new(params.smooth.clone(), params.min_samples)),
            ClockKind::Timescale => Engine::Timescale(TimescaleClock::new(
                params.timescale.clone(),
                params.send_interval,
                params.min_samples,
            )),
        };
        Ok(RenderClock {
            delay: DelayController::new(params.adaptive_delay.clone(), params.send_interval, params.render_delay),
            rtt: OutlierEma::new(params.rtt.clone()),
            monitor: TimelineMonitor::new(params.jump_threshold),
            engine,
            params,
            rtt_last: None,
            rtt_invalid: 0,
            rtt_history: VecDeque::new(),
            last_now: None,
            last_reading: None,
        })
    }

    pub fn params(&self) -> &ClockParams {
        &self.params
    }

    pub fn kind(&self) -> ClockKind {
        self.params.clock
    }

    /// An accepted snapshot stamped `server_time` arrived at local time `arrival`. Non-finite values are ignored.
    pub fn on_snapshot(&mut self, server_time: f64, arrival: f64) {
        if !(server_time.is_finite() && arrival.is_finite()) {
            return;
        }
        let delay = self.delay.current();
        match &mut self.engine {
            Engine::Known(_) => {}
            Engine::Reanchor(clock) => clock.on_snapshot(server_time, arrival, self.rtt_last, delay),
            Engine::Smooth(clock) => {
                clock.on_snapshot(server_time, arrival);
            }
            Engine::Timescale(clock) => clock.on_snapshot(),
        }
    }

    /// A round trip of `rtt` seconds was measured at local time `now`: filtered (outliers refused) and logged.
    pub fn on_rtt_sample(&mut self, now: f64, rtt: f64) -> Verdict {
        let verdict = if rtt.is_finite() && (0.0..=MAX_RTT).contains(&rtt) {
            self.rtt_last = Some(rtt);
            self.rtt.push(rtt)
        } else {
            self.rtt_invalid += 1;
            Verdict::Invalid
        };
        if self.rtt_history.len() == RTT_HISTORY {
            self.rtt_history.pop_front();
        }
        self.rtt_history.push_back(RttPoint { at: now, rtt, smoothed: self.rtt.mean(), verdict });
        verdict
    }

    /// The render time for the frame at local time `now`, `dt` seconds after the previous frame.
    pub fn render_time(&mut self, now: f64, dt: f64, view: &BufferView) -> ClockReading {
        let delay = self.delay.update(dt, view, self.latency(view));
        let rtt = self.rtt.mean();
        let estimate = match &mut self.engine {
            Engine::Known(clock) => clock.advance(now, delay),
            Engine::Reanchor(clock) => clock.advance(dt, self.rtt_last),
            Engine::Smooth(clock) => clock.advance(now, dt, delay, rtt),
            Engine::Timescale(clock) => clock.advance(dt, delay, view),
        };
        let uncertain =
            if now.is_finite() { estimate.uncertain } else { Some(format!("local time {now} is not a finite number")) };
        self.monitor.observe(estimate.render_time, dt);
        self.last_now = Some(now).filter(|n| n.is_finite());
        let reading = ClockReading { render_time: estimate.render_time, delay, uncertain };
        self.last_reading = Some(reading.clone());
        reading
    }

    /// The one-way latency this clock believes in (what the adaptive delay adds; see `delay.rs`), seconds.
    pub fn latency(&self, view: &BufferView) -> f64 {
        let against = |offset: Option<f64>| view.transit_mean.zip(offset).map_or(0.0, |(t, o)| t + o);
        let latency = match &self.engine {
            Engine::Known(_) => against(Some(self.params.clock_offset)),
            Engine::Smooth(clock) => against(clock.estimate()),
            Engine::Reanchor(_) => self.rtt_last.unwrap_or(0.0) / 2.0,
            Engine::Timescale(_) => 0.0,
        };
        if latency.is_finite() {
            latency.max(0.0)
        } else {
            0.0
        }
    }

    /// The RTT samples seen (at most [`RTT_HISTORY`], oldest first), with their verdicts.
    pub fn rtt_history(&self) -> impl ExactSizeIterator<Item = &RttPoint> + '_ {
        self.rtt_history.iter()
    }

    pub fn metrics(&self) -> ClockMetrics {
        let render_time = self.last_reading.as_ref().map(|r| r.render_time).filter(|r| r.is_finite());
        let mut metrics = ClockMetrics {
            clock: self.params.clock,
            render_time,
            delay: self.delay.current(),
            delay_target: self.delay.target(),
            uncertain: self.last_reading.as_ref().is_none_or(|r| r.uncertain.is_some()),
            offset_estimate: render_time.zip(self.last_now).map(|(r, now)| r + self.delay.current() - now),
            rtt: self.rtt.mean(),
            rtt_deviation: self.rtt.deviation(),
            rtt_last: self.rtt_last,
            rtt_accepted: self.rtt.accepted,
            rtt_rejected: self.rtt.rejected,
            rtt_reseeds: self.rtt.reseeds,
            rtt_invalid: self.rtt_invalid,
            regressions: self.monitor.regressions,
            jumps: self.monitor.jumps,
            largest_jump: self.monitor.largest_jump,
            timescale: 1.0,
            ..ClockMetrics::default()
        };
        match &self.engine {
            Engine::Known(_) => {}
            Engine::Reanchor(clock) => metrics.adjustments = clock.resets,
            Engine::Smooth(clock) => {
                metrics.offset_target = clock.target(self.rtt.mean());
                metrics.offset_samples_accepted = clock.transit_filter().accepted;
                metrics.offset_samples_rejected = clock.transit_filter().rejected;
                metrics.adjustments = clock.adjustments;
                metrics.hard_resets = clock.hard_resets;
                metrics.held_frames = clock.held_frames;
            }
            Engine::Timescale(clock) => {
                metrics.adjustments = clock.adjustments;
                metrics.hard_resets = clock.hard_resets;
                metrics.timescale = clock.scale();
            }
        }
        metrics
    }
}

#[cfg(test)]
mod tests;
