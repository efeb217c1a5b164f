//! Replaying a trace: its deliveries and frames, in the order the format doc (`crate::trace`) specifies,
//! through the same drivers the simulator uses — [`RemotePlayback`](crate::playback::RemotePlayback) for
//! snapshots, [`PathPlayer`](crate::path::player::PathPlayer) and [`LerpChase`](crate::path::lerp_chase::LerpChase)
//! for path batches.
//!
//! ```text
//!  Trace ─► validate ─► snapshots: deliver (arrival ≤ t) ─► frame(t, dt) ─► SnapshotSample   … metrics
//!                     └► paths:    ingest (arrival ≤ t) ─► timed.sample(t)  ┐
//!                                  lerp frames f_k ≤ t  ─► lerp.step        ┴► PathSample     … metrics
//! ```
//! Pure and deterministic: the same trace gives the same `Replay`, and [`Replay::to_json`] the same bytes.

mod paths;
mod snapshots;
mod strategy;

pub use paths::{PathMetrics, PathSample, Point, TimedPoint};
pub use snapshots::{log, DisplayCounts, SnapshotMetrics, SnapshotSample};
pub use strategy::{replay_strategy, StrategyCounts, StrategyReplay, StrategySample, TraceRun};

use super::{Trace, TraceData, TraceError};
use serde::Serialize;

/// What a replay gives: one sample per `sampleAt`, and the metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    pub samples: ReplaySamples,
    pub metrics: ReplayMetrics,
}

/// The samples of either kind (serialized as a plain array).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ReplaySamples {
    Snapshots(Vec<SnapshotSample>),
    Paths(Vec<PathSample>),
}

/// The metrics of either kind (serialized as a plain object).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ReplayMetrics {
    Snapshots(Box<SnapshotMetrics>),
    Paths(Box<PathMetrics>),
}

/// Replays `trace` (checked first: a trace built in code gets the same errors as a parsed one).
pub fn replay(trace: &Trace) -> Result<Replay, TraceError> {
    trace.validate()?;
    match &trace.data {
        TraceData::Snapshots { snapshots, rtt } => {
            let (samples, metrics) = snapshots::replay(&trace.params, snapshots, rtt, &trace.sample_at)?;
            Ok(Replay {
                samples: ReplaySamples::Snapshots(samples),
                metrics: ReplayMetrics::Snapshots(Box::new(metrics)),
            })
        }
        TraceData::Paths { paths } => {
            let (samples, metrics) = paths::replay(&trace.params, paths, &trace.sample_at)?;
            Ok(Replay { samples: ReplaySamples::Paths(samples), metrics: ReplayMetrics::Paths(Box::new(metrics)) })
        }
    }
}
