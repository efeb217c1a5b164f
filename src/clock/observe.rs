//! What a render clock reports of itself. Seed 002's clock observability ("时钟指标": EstimatedServerOffset,
//! OffsetUncertainty, RoundTripTime, ClockAdjustmentCount, RenderTimeRegressionCount; "时钟跳变 … 应记录：旧偏移
//! 新偏移 触发样本 估计器状态 受影响的渲染时间"; "缓冲过深 … 系统应暴露 … RenderDelayError") is in [`ClockMetrics`]:
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
//! The per-frame watching these need (the timeline monitor, the jump log, the render-delay error) runs in
//! [`RenderClock::render_time`] unless the clock is [`RenderClock::unmonitored`].

use super::{ClockKind, Engine, RenderClock, Verdict};
use crate::buffer::BufferView;
use serde::Serialize;

/// How many RTT samples are kept for plotting.
pub const RTT_HISTORY: usize = 1024;
/// How many clock jumps are kept in the log (the most recent).
pub const JUMP_LOG: usize = 32;

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

impl RenderClock {
    /// (hard resets, held frames, reanchor resets) of the engine, to tell what it did in a frame.
    pub(super) fn engine_counters(&self) -> (u64, u64) {
        match &self.engine {
            Engine::Known(_) => (0, 0),
            Engine::Reanchor(clock) => (clock.resets, 0),
            Engine::Smooth(clock) => (clock.hard_resets, clock.held_frames),
            Engine::Timescale(clock) => (clock.hard_resets, 0),
        }
    }

    pub(super) fn log_jump(&mut self, now: f64, dt: f64, render_after: f64, delay: f64, before: (u64, u64)) {
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
    pub(super) fn best_server_now(&self, now: f64, view: &BufferView) -> Option<f64> {
        match &self.engine {
            Engine::Known(_) => Some(now + self.clock_offset),
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
