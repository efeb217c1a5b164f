//! The render-delay trade-off curve: re-run the remote view for a list of delays (same seed, same packets)
//! and measure what each delay buys — fewer underruns — and costs — more added latency (seed 000 §4.3.10:
//! "太小则频繁外推，太大则远端明显滞后").
//!
//! The network does not depend on the delay, so it runs once: the first pass logs every client input (each
//! delivered snapshot, RTT sample and frame, in order); each delay then replays only the client — a fresh
//! buffer, clock and presenter — on that log. [`capacity_sweep`] does the same for the buffer's capacity (seed 004
//! §3.3: "缓冲区里至少要有3到4个快照才能稳定工作" — how many snapshots must the buffer be able to hold?).

use crate::buffer::SampleStatus;
use crate::geom::Vec2;
use crate::param::{in_range, ParamError};
use crate::playback::{FrameShown, RemotePlayback};
use crate::run::track::{metrics_of, Point};
use crate::run::{play, ClientInput, FrameTick, Receiver, TruthTrack};
use crate::sim::params::SimParams;
use crate::snapshot::Snapshot;
use serde::Serialize;

/// Delays a sweep accepts at most.
pub const MAX_POINTS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SweepPoint {
    /// Render delay, seconds.
    pub delay: f64,
    /// Share of frames (0..1) that underran.
    pub underrun_share: f64,
    pub added_latency: f64,
    pub rms_error: f64,
    /// Share of frames (0..1) that were Ready, and that were a Gap.
    pub ready_share: f64,
    pub gap_share: f64,
    /// The buffer capacity of this point (snapshots).
    pub capacity: usize,
}

/// One point per delay in `delays` (seconds), the rest of `params` unchanged.
pub fn sweep(params: &SimParams, delays: &[f64]) -> Result<Vec<SweepPoint>, ParamError> {
    params.validate()?;
    if delays.len() > MAX_POINTS {
        return Err(ParamError::new("delays", format!("{} delays; at most {MAX_POINTS}", delays.len())));
    }
    for (i, &delay) in delays.iter().enumerate() {
        in_range(&format!("delays[{i}]"), delay, 0.0, 1.0, "s")?;
    }
    variants(params, delays, |p, &delay| p.remote.clock.render_delay = delay)
}

/// One point per buffer capacity in `capacities` (snapshots, 2..=65536), the rest of `params` unchanged
/// (`minSnapshots` is lowered to the capacity where it is larger).
pub fn capacity_sweep(params: &SimParams, capacities: &[usize]) -> Result<Vec<SweepPoint>, ParamError> {
    params.validate()?;
    if capacities.len() > MAX_POINTS {
        return Err(ParamError::new("capacities", format!("{} capacities; at most {MAX_POINTS}", capacities.len())));
    }
    for (i, &c) in capacities.iter().enumerate() {
        in_range(&format!("capacities[{i}]"), c as f64, 2.0, crate::buffer::MAX_CAPACITY as f64, "snapshots")?;
    }
    variants(params, capacities, |p, &capacity| {
        p.remote.buffer.capacity = capacity;
        p.remote.buffer.min_snapshots = p.remote.buffer.min_snapshots.min(capacity);
    })
}

/// The client replayed once per value, each time on `params` changed by `apply`.
fn variants<T>(
    params: &SimParams,
    values: &[T],
    apply: impl Fn(&mut SimParams, &T),
) -> Result<Vec<SweepPoint>, ParamError> {
    let truth = params.truth();
    let log = crate::sim::deliveries(params)?;
    values
        .iter()
        .map(|value| {
            let mut p = params.clone();
            apply(&mut p, value);
            replay(&p, &log, &truth)
        })
        .collect()
}

/// The articles' playback with each frame drawn only (`RemotePlayback::frame_shown`: no words, nothing nobody reads).
struct Drawn<'p>(&'p mut RemotePlayback);

impl Receiver for Drawn<'_> {
    type Shown = FrameShown;

    fn snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.0.on_snapshot(*snapshot, arrival);
    }

    fn rtt(&mut self, now: f64, rtt: f64) {
        self.0.on_rtt_sample(now, rtt);
    }

    #[inline(always)]
    fn frame(&mut self, tick: &FrameTick) -> FrameShown {
        self.0.frame_shown(tick.reading, tick.dt)
    }
}

/// One delay's point: the client alone, replayed on the logged inputs.
fn replay(params: &SimParams, log: &[ClientInput], truth: &TruthTrack) -> Result<SweepPoint, ParamError> {
    let mut playback = RemotePlayback::new(params.remote.clone(), &params.stream())?;
    let mut points: Vec<Option<Point>> = Vec::new();
    let (mut underruns, mut lag_sum, mut lag_n) = (0usize, 0.0, 0usize);
    let (mut ready, mut gaps) = (0usize, 0usize);
    play(&mut Drawn(&mut playback), log, |tick, played| {
        let server_now = tick.server_now;
        underruns += usize::from(played.status == SampleStatus::Underrun);
        ready += usize::from(played.status == SampleStatus::Ready);
        gaps += usize::from(played.status == SampleStatus::Gap);
        let lag = server_now - played.render_time;
        if lag.is_finite() {
            lag_sum += lag;
            lag_n += 1;
        }
        let pos: Option<Vec2> = played.displayed.position;
        points.push(pos.map(|pos| Point { dt: tick.dt, server_now, pos }));
    });
    let n = points.len().max(1) as f64;
    let track = metrics_of(&points, truth, lag_sum / lag_n.max(1) as f64);
    Ok(SweepPoint {
        delay: params.remote.clock.render_delay,
        underrun_share: underruns as f64 / n,
        added_latency: track.added_latency,
        rms_error: track.rms_error,
        ready_share: ready as f64 / n,
        gap_share: gaps as f64 / n,
        capacity: params.remote.buffer.capacity,
    })
}
