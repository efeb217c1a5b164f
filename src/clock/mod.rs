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
//! measured, then [`RenderClock::render_time`] once. The reading says whether the clock is uncertain, and why
//! ([`Uncertain`]: its words are written only when asked); the caller then samples with `buffer.sample_uncertain`
//! (→ `ClockUncertain`) instead of `buffer.sample`.
//! Every clock's output is watched the same way ([`TimelineMonitor`]): regressions and jumps are counted for all four.
//!
//! Seed 002's clock observability — what a clock reports of itself: the offset it implies, how uncertain that is,
//! the render-delay error, the jump log — is in `observe.rs`; the parameters and their ranges in `params.rs`.
//!
//! Time convention: `clockOffset` is the truth, `server = local + offset` (seconds, default 0). Only `known` (and
//! `reanchor` with `reanchorEstimate: known`) may read it.

mod delay;
mod filter;
mod known;
mod monitor;
mod observe;
mod params;
mod reanchor;
mod smooth;
mod timescale;

pub use delay::{AdaptiveDelayParams, AdaptiveMode, DelayController, Seed004Params};
pub use filter::{FilterParams, OutlierEma, Verdict};
pub use known::KnownClock;
pub use monitor::TimelineMonitor;
pub use observe::{ClockInput, ClockJump, ClockMetrics, RttPoint, JUMP_LOG, RTT_HISTORY};
pub use params::{ClockKind, ClockParams};
pub use reanchor::{ReanchorClock, ReanchorEstimate};
pub use smooth::{SmoothClock, SmoothParams};
pub use timescale::{TimescaleClock, TimescaleParams};

use crate::buffer::BufferView;
use crate::param::ParamError;
use crate::stream::Stream;
use serde::Serialize;
use std::collections::VecDeque;

/// The largest RTT accepted, seconds; larger, negative or non-finite samples are invalid.
pub const MAX_RTT: f64 = 10.0;

/// What a clock gives for one frame.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockReading {
    /// The server time to render; NaN only while the clock has no estimate at all.
    pub render_time: f64,
    /// The render delay in force.
    pub delay: f64,
    /// Why the render time cannot be trusted yet (→ `ClockUncertain`), if it cannot.
    pub uncertain: Option<Uncertain>,
}

/// Why a clock's render time cannot be trusted yet. A value, not words: the words (`Display`) are written only
/// where someone reads them (a trace's replay, the step-through), never per frame of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Uncertain {
    /// The frame's local time is NaN or infinite.
    NowNotFinite(f64),
    /// The clock ran off the end of f64 (frames of absurd length).
    RenderNotFinite(f64),
    /// `reanchor`: no snapshot has reset the timeline yet.
    NoAnchor,
    /// `reanchor` with the packet estimate: `serverNow` needs an RTT sample.
    NoRttForServerNow,
    /// `smooth`: no snapshot to estimate the offset from.
    NoSnapshotForOffset,
    /// `smooth`: the one-way delay needs an RTT sample.
    NoRttForOneWay,
    /// `smooth`: fewer accepted clock samples than it needs.
    ClockSamples { accepted: u64, needed: u64 },
    /// `smooth`: a hard reset, too few samples ago.
    HardReset { since: u64, needed: u64 },
    /// `timescale`: no snapshot to measure the buffer's depth by.
    NoSnapshotForDepth,
    /// `timescale`: too few snapshots since the start to measure the depth.
    DepthSamples { since: u64, needed: u64 },
    /// `timescale`: a hard clamp, too few snapshots ago.
    HardClamp { since: u64, needed: u64 },
}

impl std::fmt::Display for Uncertain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Uncertain::NowNotFinite(now) => write!(f, "local time {} is not a finite number", crate::words::num(now)),
            Uncertain::RenderNotFinite(render) => {
                write!(f, "the render time {} is not a finite number", crate::words::num(render))
            }
            Uncertain::NoAnchor => f.write_str("no snapshot yet to anchor the render time on"),
            Uncertain::NoRttForServerNow => {
                f.write_str("no RTT sample yet: serverNow is taken as the snapshot's own time")
            }
            Uncertain::NoSnapshotForOffset => f.write_str("no snapshot yet to estimate the server clock from"),
            Uncertain::NoRttForOneWay => f.write_str("no RTT sample yet: the one-way delay is unknown"),
            Uncertain::ClockSamples { accepted, needed } => write!(f, "{accepted} of {needed} clock samples"),
            Uncertain::HardReset { since, needed } => write!(f, "hard reset {since} samples ago (needs {needed})"),
            Uncertain::NoSnapshotForDepth => f.write_str("no snapshot yet to measure the depth of"),
            Uncertain::DepthSamples { since, needed } => {
                write!(f, "{since} of {needed} snapshots to measure the buffer depth")
            }
            Uncertain::HardClamp { since, needed } => write!(f, "hard clamp {since} snapshots ago (needs {needed})"),
        }
    }
}

/// Written as its words.
impl Serialize for Uncertain {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A clock engine's answer before the delay and monitoring are attached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub render_time: f64,
    pub uncertain: Option<Uncertain>,
}

impl Estimate {
    pub fn certain(render_time: f64) -> Self {
        Estimate { render_time, uncertain: None }
    }

    pub fn uncertain(render_time: f64, why: Uncertain) -> Self {
        Estimate { render_time, uncertain: Some(why) }
    }
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
    /// The stream's true clock offset: what the ideal `known` clock reads (server = local + offset).
    clock_offset: f64,
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
    /// A clock with checked parameters for `stream`; the error names the first bad field.
    pub fn new(params: ClockParams, stream: &Stream) -> Result<Self, ParamError> {
        params.validate(stream)?;
        let (send_interval, clock_offset) = (stream.send_interval, stream.clock_offset);
        let engine = match params.clock {
            ClockKind::Known => Engine::Known(KnownClock::new(clock_offset)),
            ClockKind::Reanchor => Engine::Reanchor(ReanchorClock::new(params.reanchor_estimate, clock_offset)),
            ClockKind::Smooth => Engine::Smooth(SmoothClock::new(params.smooth.clone(), params.min_samples)),
            ClockKind::Timescale => {
                Engine::Timescale(TimescaleClock::new(params.timescale.clone(), send_interval, params.min_samples))
            }
        };
        Ok(RenderClock {
            delay: DelayController::new(params.adaptive_delay.clone(), send_interval, params.render_delay),
            clock_offset,
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
        // A fixed delay never moves: the latency the adaptive delay would add is not worked out for it.
        let delay = if self.params.adaptive_delay.enabled {
            self.delay.update(now, dt, view, self.latency(view), self.rtt_last)
        } else {
            self.delay.current()
        };
        let rtt = self.rtt.mean();
        let before = if self.monitored { self.engine_counters() } else { (0, 0) };
        let estimate = match &mut self.engine {
            Engine::Known(clock) => clock.advance(now, delay),
            Engine::Reanchor(clock) => clock.advance(dt, self.rtt_last),
            Engine::Smooth(clock) => clock.advance(now, dt, delay, rtt),
            Engine::Timescale(clock) => clock.advance(dt, delay, view),
        };
        let uncertain = if !now.is_finite() {
            Some(Uncertain::NowNotFinite(now))
        } else if estimate.uncertain.is_none() && !estimate.render_time.is_finite() {
            // A clock that ran off the end of f64 (frames of absurd length) says so rather than claim it.
            Some(Uncertain::RenderNotFinite(estimate.render_time))
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
            self.last_reading = Some(reading);
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

    /// Whether [`RenderClock::render_time`] reads its `view` argument: the timescale clock steers by the buffer's
    /// depth, an adaptive delay by its jitter and latency, a monitored clock's render-delay error by its newest
    /// snapshot. An unmonitored clock of another kind with a fixed delay (seed 000's reference replayed by the
    /// engines' league, `engines::reference`) reads none of it: its caller may pass `BufferView::default()` rather
    /// than build the view every frame (the same render times, bit for bit).
    pub fn reads_view(&self) -> bool {
        self.monitored || self.params.adaptive_delay.enabled || matches!(self.engine, Engine::Timescale(_))
    }

    /// The delay controller (current delay, target, the seed 004 controller's smoothed RTT).
    pub fn delay(&self) -> &DelayController {
        &self.delay
    }

    /// The one-way latency this clock believes in (what the adaptive delay adds; see `delay.rs`), seconds.
    pub fn latency(&self, view: &BufferView) -> f64 {
        let against = |offset: Option<f64>| view.transit_mean.zip(offset).map_or(0.0, |(t, o)| t + o);
        let latency = match &self.engine {
            Engine::Known(_) => against(Some(self.clock_offset)),
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
}

#[cfg(test)]
mod tests;
