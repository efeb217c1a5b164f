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
//!  delay      fixed; or adaptive: seed 004 §4.2's RTT rule (seed004) or k·sendInterval + m·jitterStd (jitter),
//!             moving slowly                                                                (delay.rs)
//! ```
//! Per frame: [`RenderClock::on_snapshot`] for each accepted arrival, [`RenderClock::on_rtt_sample`] for each RTT
//! measured, then [`RenderClock::render_time`] once. The reading says whether the clock is uncertain; the
//! caller then samples with `buffer.sample_uncertain` (→ `ClockUncertain`) instead of `buffer.sample`.
//! Every clock's output is watched the same way ([`TimelineMonitor`]): regressions and jumps are counted for all four.
//!
//! Seed 002's clock observability ("时钟指标": EstimatedServerOffset, OffsetUncertainty, RoundTripTime,
//! ClockAdjustmentCount, RenderTimeRegressionCount; "时钟跳变 … 应记录：旧偏移 新偏移 触发样本 估计器状态 受影响的渲染
//! 时间"; "缓冲过深 … 系统应暴露 … RenderDelayError") is in [`ClockMetrics`]:
//! - `offsetEstimate`: the offset the render timeline implies (render + delay − now);
//! - `offsetUncertainty`: how far the true offset may be from the estimate — `known` 0; `reanchor` RTT/2 (the
//!   one-way time is somewhere in 0..RTT, Cristian's bound); `smooth` the spread of its samples,
//!   √(transitDev² + (rttDev/2)²) (mean absolute deviations of the two filters); `timescale` none (it estimates no
//!   offset);
//! - `renderDelayError`: (best estimate of server now − render time) − delay, how far the rendered moment is
//!   from where the delay says it should be — `known` and `reanchor` measure it against their own estimate of
//!   server now (the true offset; the last snapshot's `serverTime − arrival + RTT/2`), `smooth` against its
//!   filtered, un-slewed target (what slewing and held frames have not caught up yet), `timescale` against the
//!   newest snapshot (its buffer depth minus the delay);
//! - `jumpLog`: the last [`JUMP_LOG`] jumps of the render timeline, each with the offset before and after, the
//!   render times, the input that came in since the previous frame (the snapshot or RTT sample that caused it;
//!   none when the local clock itself stepped) and what the estimator did.
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

pub use delay::{AdaptiveDelayParams, AdaptiveMode, DelayController, Seed004Params};
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
/// How many clock jumps are kept in the log (the most recent).
pub const JUMP_LOG: usize = 32;
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
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
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

/// A sample fed to the clock: what may have caused a jump of its timeline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "kind")]
pub enum ClockInput {
    Snapshot { server_time: f64, arrival: f64 },
    Rtt { at: f64, rtt: f64 },
}

/// One jump of the render timeline (seed 002 "时钟跳变 … 应记录：旧偏移 新偏移 触发样本 估计器状态 受影响的渲染时间").
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockJump {
    /// Local time of the frame that jumped.
    pub at: f64,
    /// The offset the timeline implied at the previous frame and at this one (render + delay − now).
    pub old_offset: f64,
    pub new_offset: f64,
    /// The render times of the previous frame and of this one.
    pub render_before: f64,
    pub render_after: f64,
    /// The last sample fed to the clock since the previous frame; `None` if none (the local clock stepped, or
    /// a held timeline started moving again).
    pub cause: Option<ClockInput>,
    /// What the estimator did: `localClock` (the client's clock itself stepped: now − previous now ≠ dt), `known`,
    /// `reanchor`, `smoothHardReset`, `smoothHeld`, `smooth`, `timescaleClamp`, `timescale`.
    pub estimator: &'static str,
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
    /// How far the true offset may be from the estimate (see the module doc); `None` for `timescale`.
    pub offset_uncertainty: Option<f64>,
    /// (Best estimate of server now − render time) − delay at the last frame (see the module doc).
    pub render_delay_error: Option<f64>,
    /// The seed 004 adaptive controller's smoothed RTT (its own lerp 0.1 every 200 ms), when that mode is on.
    pub adaptive_rtt: Option<f64>,
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
    /// The last [`JUMP_LOG`] jumps, oldest first.
    pub jump_log: Vec<ClockJump>,
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
    /// `serverTime − arrival` of the last accepted snapshot (reanchor's estimate of server now uses it).
    last_transit: Option<f64>,
    /// The last sample fed since the previous frame.
    input_since_frame: Option<ClockInput>,
    jump_log: VecDeque<ClockJump>,
    render_delay_error: Option<f64>,
    /// Whether each frame is watched for the metrics (the timeline monitor and its jump log, the render-delay
    /// error, the last reading): off for a clock whose metrics nobody reads ([`RenderClock::unmonitored`]).
    monitored: bool,
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
            last_transit: None,
            input_since_frame: None,
            jump_log: VecDeque::new(),
            render_delay_error: None,
            monitored: true,
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
        self.last_transit = Some(server_time - arrival);
        self.input_since_frame = Some(ClockInput::Snapshot { server_time, arrival });
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
        self.input_since_frame = Some(ClockInput::Rtt { at: now, rtt });
        if self.rtt_history.len() == RTT_HISTORY {
            self.rtt_history.pop_front();
        }
        self.rtt_history.push_back(RttPoint { at: now, rtt, smoothed: self.rtt.mean(), verdict });
        verdict
    }

    /// The render time for the frame at local time `now`, `dt` seconds after the previous frame.
    pub fn render_time(&mut self, now: f64, dt: f64, view: &BufferView) -> ClockReading {
        let delay = self.delay.update(now, dt, view, self.latency(view), self.rtt_last);
        let rtt = self.rtt.mean();
        let before = if self.monitored { self.engine_counters() } else { (0, 0) };
        let estimate = match &mut self.engine {
            Engine::Known(clock) => clock.advance(now, delay),
            Engine::Reanchor(clock) => clock.advance(dt, self.rtt_last),
            Engine::Smooth(clock) => clock.advance(now, dt, delay, rtt),
            Engine::Timescale(clock) => clock.advance(dt, delay, view),
        };
        let uncertain = if !now.is_finite() {
            Some(format!("local time {} is not a finite number", crate::words::num(now)))
        } else if estimate.uncertain.is_none() && !estimate.render_time.is_finite() {
            // A clock that ran off the end of f64 (frames of absurd length) says so rather than claim it.
            Some(format!("the render time {} is not a finite number", crate::words::num(estimate.render_time)))
        } else {
            estimate.uncertain
        };
        let render_time = estimate.render_time;
        if self.monitored {
            if self.monitor.observe(render_time, dt) {
                self.log_jump(now, dt, render_time, delay, before);
            }
            self.render_delay_error = self.best_server_now(now, view).map(|best| best - render_time - delay);
            self.render_delay_error = self.render_delay_error.filter(|e| e.is_finite());
        }
        self.input_since_frame = None;
        self.last_now = Some(now).filter(|n| n.is_finite());
        let reading = ClockReading { render_time, delay, uncertain };
        if self.monitored {
            self.last_reading = Some(reading.clone());
        }
        reading
    }

    /// The same clock (the same render times, bit for bit: nothing it skips feeds back into them) without the
    /// per-frame watching only its metrics read: the timeline monitor and jump log, the render-delay error, the
    /// last reading. Its [`RenderClock::metrics`] then say nothing of the frames. For the engines' references
    /// (`engines::reference`), which replay whole runs and read only the render times.
    pub fn unmonitored(mut self) -> Self {
        self.monitored = false;
        self
    }

    /// (hard resets, held frames, reanchor resets) of the engine, to tell what it did in a frame.
    fn engine_counters(&self) -> (u64, u64) {
        match &self.engine {
            Engine::Known(_) => (0, 0),
            Engine::Reanchor(clock) => (clock.resets, 0),
            Engine::Smooth(clock) => (clock.hard_resets, clock.held_frames),
            Engine::Timescale(clock) => (clock.hard_resets, 0),
        }
    }

    fn log_jump(&mut self, now: f64, dt: f64, render_after: f64, delay: f64, before: (u64, u64)) {
        let (Some(previous), Some(last_now)) = (self.last_reading.as_ref(), self.last_now) else { return };
        let after = self.engine_counters();
        // The client's own clock read a step other than dt: the local clock moved, not the estimate.
        let local_step = (now - last_now - dt).abs() > self.params.jump_threshold;
        let estimator = match &self.engine {
            _ if local_step => "localClock",
            Engine::Known(_) => "known",
            Engine::Reanchor(_) => "reanchor",
            Engine::Smooth(_) if after.0 > before.0 => "smoothHardReset",
            Engine::Smooth(_) if after.1 > before.1 => "smoothHeld",
            Engine::Smooth(_) => "smooth",
            Engine::Timescale(_) if after.0 > before.0 => "timescaleClamp",
            Engine::Timescale(_) => "timescale",
        };
        if self.jump_log.len() == JUMP_LOG {
            self.jump_log.pop_front();
        }
        self.jump_log.push_back(ClockJump {
            at: now,
            old_offset: previous.render_time + previous.delay - last_now,
            new_offset: render_after + delay - now,
            render_before: previous.render_time,
            render_after,
            // The known clock never reads a sample, and a local clock step is nobody's sample.
            cause: self.input_since_frame.filter(|_| !local_step && !matches!(self.engine, Engine::Known(_))),
            estimator,
        });
    }

    /// The clock's best estimate of the server's present at local time `now` (see the module doc).
    fn best_server_now(&self, now: f64, view: &BufferView) -> Option<f64> {
        match &self.engine {
            Engine::Known(_) => Some(now + self.params.clock_offset),
            Engine::Reanchor(_) => self.last_transit.map(|t| now + t + self.rtt_last.unwrap_or(0.0) / 2.0),
            Engine::Smooth(clock) => clock.target(self.rtt.mean()).map(|offset| now + offset),
            // The timescale clock counts its delay from the newest snapshot: that is its "present".
            Engine::Timescale(_) => view.newest_server_time,
        }
    }

    /// How far the true offset may be from the estimate, seconds (see the module doc).
    pub fn offset_uncertainty(&self) -> Option<f64> {
        match &self.engine {
            Engine::Known(_) => Some(0.0),
            Engine::Reanchor(_) => self.rtt_last.map(|r| r / 2.0),
            Engine::Smooth(clock) => {
                clock.estimate()?;
                let transit = clock.transit_filter().deviation();
                let rtt = self.rtt.deviation() / 2.0;
                Some((transit * transit + rtt * rtt).sqrt())
            }
            Engine::Timescale(_) => None,
        }
    }

    /// The render-delay error at the last frame (see the module doc).
    pub fn render_delay_error(&self) -> Option<f64> {
        self.render_delay_error
    }

    /// The delay controller (current delay, target, the seed 004 controller's smoothed RTT).
    pub fn delay(&self) -> &DelayController {
        &self.delay
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
            offset_uncertainty: self.offset_uncertainty(),
            render_delay_error: self.render_delay_error,
            adaptive_rtt: self.delay.smoothed_rtt(),
            jump_log: self.jump_log.iter().cloned().collect(),
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
