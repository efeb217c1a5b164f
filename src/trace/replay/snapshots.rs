//! Replaying snapshots: deliveries at their arrival, one playback frame per sample.
//!
//! ```text
//!  local ─►  10.08       10.23  10.25        10.30
//!  deliver   ■100        ■102   ■101                       in arrival order (ties: document order)
//!  frames  ▲      ▲   ▲         ▲      ▲      ▲            one per sampleAt, dt = time since the previous one
//!                                             └ render 10.15: ready 101─102, factor 0.5, x 1.5 (seed 002)
//! ```
//! Before each frame at `t`, every snapshot with `arrival ≤ t` and every RTT sample with `at ≤ t` is delivered,
//! merged by time (snapshots first when equal). What arrives after the last sample is delivered at the end and
//! only shows in the metrics, which are taken at the latest time in the trace.

use crate::buffer::SampleStatus;
use crate::buffer_metrics::BufferMetrics;
use crate::clock::ClockMetrics;
use crate::display::DisplayMode;
use crate::playback::{Frame, RemotePlayback};
use crate::run::{play, ClientInput, FrameTick};
use crate::trace::{RttSample, TraceError, TraceParams, TraceSnapshot};
use serde::Serialize;

/// One frame of a snapshot replay (see the format doc for each field).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSample {
    pub local: f64,
    /// `None` while the clock has no estimate at all.
    pub render_time: Option<f64>,
    pub status: SampleStatus,
    pub mode: DisplayMode,
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub left: Option<u64>,
    pub right: Option<u64>,
    pub factor: Option<f64>,
    /// The render delay in force (it moves when `adaptiveDelay` is on).
    pub delay: f64,
    /// The lifetime generation of the snapshot the sample stands on (seed 002 "LifetimeGeneration").
    pub generation: Option<u32>,
    /// Why the sample is not Ready, in English (`None` when Ready): an Underrun names the delay in force.
    pub reason: Option<String>,
}

impl SnapshotSample {
    fn of(frame: &Frame) -> Self {
        let position = frame.displayed.position;
        SnapshotSample {
            local: frame.now,
            render_time: Some(frame.reading.render_time).filter(|t| t.is_finite()),
            status: frame.sample.status,
            mode: frame.displayed.mode,
            x: position.map(|p| p.x),
            y: position.map(|p| p.y),
            left: frame.sample.left,
            right: frame.sample.right,
            factor: frame.sample.factor,
            delay: frame.reading.delay,
            generation: frame.sample.generation,
            reason: frame.sample.reason.as_ref().map(ToString::to_string),
        }
    }
}

/// How many samples were displayed in each mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DisplayCounts {
    pub interpolated: u64,
    pub extrapolated: u64,
    pub held: u64,
    pub snapped: u64,
    pub hidden: u64,
}

impl DisplayCounts {
    fn record(&mut self, mode: DisplayMode) {
        *match mode {
            DisplayMode::Interpolated => &mut self.interpolated,
            DisplayMode::Extrapolated => &mut self.extrapolated,
            DisplayMode::Held => &mut self.held,
            DisplayMode::Snapped => &mut self.snapped,
            DisplayMode::Hidden => &mut self.hidden,
        } += 1;
    }
}

/// The buffer's metrics (flat), samples per display mode, and the clock's metrics.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotMetrics {
    #[serde(flatten)]
    pub buffer: BufferMetrics,
    pub display: DisplayCounts,
    pub clock: ClockMetrics,
}

/// The trace's snapshots and RTT samples, and one frame per `sampleAt`, as a run's log (`crate::run`): before each
/// frame at `t`, every snapshot with `arrival ≤ t` and every RTT sample with `at ≤ t`, merged by time (snapshots
/// first when equal, ties in document order); what arrives after the last sample comes at the end. A frame's `dt`
/// is the time since the previous sample (0 for the first); its true server time is `t + clock_offset`, the trace's
/// own statement of its clocks (`params.clockOffset`).
pub fn log(snapshots: &[TraceSnapshot], rtt: &[RttSample], sample_at: &[f64], clock_offset: f64) -> Vec<ClientInput> {
    let mut snapshots: Vec<&TraceSnapshot> = snapshots.iter().collect();
    snapshots.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
    let mut rtt: Vec<&RttSample> = rtt.iter().collect();
    rtt.sort_by(|a, b| a.at.total_cmp(&b.at));
    let mut log = Vec::with_capacity(snapshots.len() + rtt.len() + sample_at.len());
    let (mut next_snapshot, mut next_rtt) = (0, 0);
    let mut deliver_until = |t: f64, log: &mut Vec<ClientInput>| loop {
        let snapshot = snapshots.get(next_snapshot).filter(|s| s.arrival <= t);
        let sample = rtt.get(next_rtt).filter(|r| r.at <= t);
        match (snapshot, sample) {
            (Some(s), Some(r)) if s.arrival <= r.at => {
                log.push(ClientInput::Snapshot(s.snapshot(), s.arrival));
                next_snapshot += 1;
            }
            (_, Some(r)) => {
                log.push(ClientInput::Rtt(r.at, r.rtt));
                next_rtt += 1;
            }
            (Some(s), None) => {
                log.push(ClientInput::Snapshot(s.snapshot(), s.arrival));
                next_snapshot += 1;
            }
            (None, None) => return,
        }
    };
    let mut previous: Option<f64> = None;
    for (index, &t) in sample_at.iter().enumerate() {
        deliver_until(t, &mut log);
        let dt = previous.map_or(0.0, |p| t - p);
        log.push(ClientInput::Frame(FrameTick { index, local: t, dt, reading: t, server_now: t + clock_offset }));
        previous = Some(t);
    }
    deliver_until(f64::INFINITY, &mut log);
    log
}

pub(super) fn replay(
    params: &TraceParams,
    snapshots: &[TraceSnapshot],
    rtt: &[RttSample],
    sample_at: &[f64],
) -> Result<(Vec<SnapshotSample>, SnapshotMetrics), TraceError> {
    let mut playback = RemotePlayback::new(params.playback(), &params.stream(snapshots)).map_err(TraceError::param)?;
    let log = log(snapshots, rtt, sample_at, params.clock_offset.unwrap_or(0.0));
    let mut display = DisplayCounts::default();
    let mut samples = Vec::with_capacity(sample_at.len());
    play(&mut playback, &log, |_, frame| {
        display.record(frame.displayed.mode);
        samples.push(SnapshotSample::of(&frame));
    });
    // The metrics are taken at the latest time in the trace: the last sample, or a later delivery.
    let delivered = log.iter().filter_map(|input| match input {
        ClientInput::Snapshot(_, arrival) => Some(*arrival),
        ClientInput::Rtt(at, _) => Some(*at),
        ClientInput::Frame(_) => None,
    });
    let now = sample_at.last().copied().into_iter().chain(delivered.reduce(f64::max)).reduce(f64::max).unwrap_or(0.0);
    let metrics = playback.metrics(now);
    Ok((samples, SnapshotMetrics { buffer: metrics.buffer, display, clock: metrics.clock }))
}
