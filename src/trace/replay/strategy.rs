//! Replaying a snapshot trace through another strategy (`netcode-lab replay TRACE --strategy NAME`).
//!
//! Deliveries and frames follow the format doc's order exactly as the plain replay does (`snapshots.rs`); only
//! the receiver changes. A trace carries no truth, so the metrics are counts, not quality:
//!
//! ```text
//! {"strategy": "mirror",
//!  "samples": [{"local", "renderTime", "mode", "x", "y"} one per sampleAt],   renderTime/x/y null when absent
//!  "metrics": {"frames", "modes": {"nothing", "interpolated", "extrapolated", "held", "latest", "waiting"},
//!              "underrunShare"}}                                           null for `latest`
//! ```
//! What a strategy is built from: the trace's send interval (`sendInterval`, or the median spacing), a server
//! tick of 1/60 s (the simulator's default tick rate; a trace does not say), the engines' defaults, the
//! trace's own settings for `playback`, and its `renderDelay` as seed 004's delay.

use super::snapshots::{Deliveries, Receiver};
use crate::engines::{EngineParams, Setup, ShownMode, Smoother, StrategyKind, Stream};
use crate::sim::params::ScenarioParams;
use crate::snapshot::Snapshot;
use crate::trace::{Trace, TraceData, TraceError};
use serde::Serialize;
use std::collections::BTreeMap;

/// One frame of a strategy replay.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StrategySample {
    pub local: f64,
    pub render_time: Option<f64>,
    pub mode: ShownMode,
    pub x: Option<f64>,
    pub y: Option<f64>,
}

/// Frames per mode, and the underrun share.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StrategyCounts {
    pub frames: u64,
    pub modes: BTreeMap<&'static str, u64>,
    pub underrun_share: Option<f64>,
}

/// What `replay --strategy` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyReplay {
    pub strategy: StrategyKind,
    pub samples: Vec<StrategySample>,
    pub metrics: StrategyCounts,
}

impl StrategyReplay {
    pub fn to_json(&self) -> String {
        crate::trace::output::strategy_json(self)
    }
}

struct Boxed(Box<dyn Smoother>);

impl Receiver for Boxed {
    fn snapshot(&mut self, snapshot: Snapshot, arrival: f64) {
        self.0.on_snapshot(&snapshot, arrival);
    }

    fn rtt(&mut self, at: f64, rtt: f64) {
        self.0.on_rtt(at, rtt);
    }
}

/// Replays the snapshots of `trace` through strategy `kind`; a paths trace is refused (`kind`).
pub fn replay_strategy(trace: &Trace, kind: StrategyKind) -> Result<StrategyReplay, TraceError> {
    trace.validate()?;
    let TraceData::Snapshots { snapshots, rtt } = &trace.data else {
        return Err(TraceError::new(
            "kind",
            "--strategy replays snapshot traces only; this trace is of kind \"paths\"",
        ));
    };
    let playback = trace.params.playback(snapshots);
    let setup = Setup {
        stream: Stream {
            send_interval: playback.buffer.send_interval,
            tick_interval: 1.0 / ScenarioParams::default().tick_rate,
        },
        engines: EngineParams::default(),
        article_delay: playback.clock.render_delay,
        playback,
    };
    let mut receiver = Boxed(setup.build(kind).map_err(TraceError::param)?);
    let mut deliveries = Deliveries::new(snapshots, rtt);
    let mut modes: BTreeMap<&'static str, u64> = ShownMode::ALL.iter().map(|m| (m.name(), 0)).collect();
    let mut samples = Vec::with_capacity(trace.sample_at.len());
    let (mut previous, mut underruns) = (None::<f64>, 0u64);
    for &t in &trace.sample_at {
        deliveries.until(t, &mut receiver);
        let shown = receiver.0.frame(t, previous.map_or(0.0, |p| t - p));
        *modes.entry(shown.mode.name()).or_default() += 1;
        underruns += u64::from(shown.mode.is_underrun());
        samples.push(StrategySample {
            local: t,
            render_time: Some(shown.render_time).filter(|r| r.is_finite()),
            mode: shown.mode,
            x: shown.position.map(|p| p.x),
            y: shown.position.map(|p| p.y),
        });
        previous = Some(t);
    }
    let frames = samples.len() as u64;
    let underrun_share = kind.buffered().then(|| underruns as f64 / frames.max(1) as f64);
    Ok(StrategyReplay { strategy: kind, samples, metrics: StrategyCounts { frames, modes, underrun_share } })
}
