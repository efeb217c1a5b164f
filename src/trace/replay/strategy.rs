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
//!
//! [`TraceRun`] is the same log with the trace's truth (`crate::trace::truth`) beside it: a trace as a source of
//! deliveries in the run contract's terms, which the league table (`compare --trace`) and the page's engines score.

use super::snapshots::log;
use crate::engines::score::replay;
use crate::engines::{EngineParams, Setup, ShownMode, StrategyKind};
use crate::run::{ClientInput, TruthTrack};
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

/// A snapshot trace as a run: its delivery log (`replay::log`), its truth, and what each strategy is built from.
#[derive(Clone, Debug)]
pub struct TraceRun {
    pub inputs: Vec<ClientInput>,
    pub truth: TruthTrack,
    pub setup: Setup,
}

impl TraceRun {
    /// `trace` checked and laid out as a run, the engines built with `engines`; a paths trace is refused (`kind`,
    /// naming `what` refuses it).
    pub fn of(trace: &Trace, engines: &EngineParams, what: &str) -> Result<TraceRun, TraceError> {
        trace.validate()?;
        let (TraceData::Snapshots { snapshots, rtt }, Some(truth)) = (&trace.data, trace.truth()) else {
            return Err(TraceError::new(
                "kind",
                format!("{what} replays snapshot traces only; this trace is of kind \"paths\""),
            ));
        };
        let playback = trace.params.playback();
        let setup = Setup {
            stream: trace.params.stream(snapshots),
            engines: engines.clone(),
            article_delay: playback.clock.render_delay,
            playback,
        };
        let inputs = log(snapshots, rtt, &trace.sample_at, setup.stream.clock_offset);
        Ok(TraceRun { inputs, truth, setup })
    }
}

/// Replays the snapshots of `trace` through strategy `kind`; a paths trace is refused (`kind`).
pub fn replay_strategy(trace: &Trace, kind: StrategyKind) -> Result<StrategyReplay, TraceError> {
    let TraceRun { inputs: log, setup, .. } = TraceRun::of(trace, &EngineParams::default(), "--strategy")?;
    let mut smoother = setup.build(kind).map_err(TraceError::param)?;
    let mut modes: BTreeMap<&'static str, u64> = ShownMode::ALL.iter().map(|m| (m.name(), 0)).collect();
    let mut samples = Vec::with_capacity(trace.sample_at.len());
    let mut underruns = 0u64;
    replay(smoother.as_mut(), &log, |tick, shown| {
        *modes.entry(shown.mode.name()).or_default() += 1;
        underruns += u64::from(shown.mode.is_underrun());
        samples.push(StrategySample {
            local: tick.local,
            render_time: Some(shown.render_time).filter(|r| r.is_finite()),
            mode: shown.mode,
            x: shown.position.map(|p| p.x),
            y: shown.position.map(|p| p.y),
        });
    });
    let frames = samples.len() as u64;
    let underrun_share = kind.buffered().then(|| underruns as f64 / frames.max(1) as f64);
    Ok(StrategyReplay { strategy: kind, samples, metrics: StrategyCounts { frames, modes, underrun_share } })
}
