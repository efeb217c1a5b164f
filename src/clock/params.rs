//! The render clock's parameters: which clock, the render delay, and the groups of the clock engines, the RTT
//! filter and the adaptive delay (the table below gives each default, range and source). The stream's facts it
//! reads — the send interval, the true clock offset — are not settings: they come with the stream
//! (`crate::stream::Stream`).

use super::{AdaptiveDelayParams, FilterParams, ReanchorEstimate, SmoothParams, TimescaleParams};
use crate::param::{in_range, Choice, ParamError, Params};
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

/// Which clock gives the render time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum ClockKind {
    Known,
    Reanchor,
    #[default]
    Smooth,
    Timescale,
}

/// The render clock's parameters (camelCase outside; nested groups are named `group.field` in errors).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ClockParams {
    /// Which clock gives the render time (seed 004 §2.2's smoothed estimate is the recommended one).
    pub clock: ClockKind,
    /// How far behind the server's present the render time runs. Default 120 ms: the default network's newest
    /// snapshot is up to 60 ms (latency + jitter) + 50 ms (one send interval) old, plus 10 ms to spare. Seed 000
    /// §4.3.8's `RENDER_DELAY_MS = 100` (§4.3.2: one to two send intervals) counts from the newest snapshot; counted
    /// from the server's present it leaves 110 ms uncovered by 10 ms and runs dry on 2–9 % of frames.
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 400.0, 5.0, "ms", 1000.0))]
    pub render_delay: f64,
    /// Samples a clock needs before it is trusted (project choice; seed 004 §2.2 "多次测量").
    #[param(range(1.0, 1000.0), unit = "samples")]
    pub min_samples: u64,
    /// A frame whose render step is off its dt by more than this is a jump (project choice).
    #[param(range(0.0001, 1.0), unit = "s")]
    pub jump_threshold: f64,
    /// Where the reanchor clock's `serverNow` comes from (`reanchor.rs`).
    pub reanchor_estimate: ReanchorEstimate,
    /// The RTT samples' filter (seed 004 §2.2, §4.2).
    pub rtt: FilterParams,
    pub smooth: SmoothParams,
    pub timescale: TimescaleParams,
    pub adaptive_delay: AdaptiveDelayParams,
}

impl Default for ClockParams {
    fn default() -> Self {
        ClockParams {
            clock: ClockKind::Smooth,
            render_delay: 0.12,
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
    /// Checks every field, and the facts of `stream` a clock reads: the true offset (server = local + offset,
    /// ±1e6 s) and the send interval (0.001..=1 s).
    pub fn validate(&self, stream: &Stream) -> Result<(), ParamError> {
        self.check_render_delay()?;
        in_range("clockOffset", stream.clock_offset, -1e6, 1e6, "s")?;
        in_range("sendInterval", stream.send_interval, 0.001, 1.0, "s")?;
        self.check_min_samples()?;
        self.check_jump_threshold()?;
        self.rtt.validate().map_err(|e| e.within("rtt"))?;
        self.smooth.validate().map_err(|e| e.within("smooth"))?;
        self.timescale.validate().map_err(|e| e.within("timescale"))?;
        self.adaptive_delay.validate().map_err(|e| e.within("adaptiveDelay"))
    }
}
