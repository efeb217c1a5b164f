//! The render clock's parameters: which clock, the render delay, and the groups of the clock engines, the RTT
//! filter and the adaptive delay (the table below gives each default, range and source). The stream's facts it
//! reads — the send interval, the true clock offset — are not settings: they come with the stream
//! (`crate::stream::Stream`).

use super::{AdaptiveDelayParams, FilterParams, ReanchorEstimate, SmoothParams, TimescaleParams};
use crate::param::{in_range, ParamError};
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

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
        in_range("renderDelay", self.render_delay, 0.0, 1.0, "s")?;
        in_range("clockOffset", stream.clock_offset, -1e6, 1e6, "s")?;
        in_range("sendInterval", stream.send_interval, 0.001, 1.0, "s")?;
        in_range("minSamples", self.min_samples as f64, 1.0, 1000.0, "samples")?;
        in_range("jumpThreshold", self.jump_threshold, 0.0001, 1.0, "s")?;
        self.rtt.validate("rtt")?;
        self.smooth.validate()?;
        self.timescale.validate()?;
        self.adaptive_delay.validate()
    }
}
