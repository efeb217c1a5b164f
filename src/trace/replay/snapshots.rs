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
use crate::snapshot::Snapshot;
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

/// What deliveries go to: the articles' playback, or another strategy (`strategy.rs`).
pub(super) trait Receiver {
    fn snapshot(&mut self, snapshot: Snapshot, arrival: f64);
    fn rtt(&mut self, at: f64, rtt: f64);
}

impl Receiver for RemotePlayback {
    fn snapshot(&mut self, snapshot: Snapshot, arrival: f64) {
        self.on_snapshot(snapshot, arrival);
    }

    fn rtt(&mut self, at: f64, rtt: f64) {
        self.on_rtt_sample(at, rtt);
    }
}

/// Snapshots and RTT samples in delivery order, and how far each has been delivered.
pub(super) struct Deliveries<'a> {
    snapshots: Vec<&'a TraceSnapshot>,
    rtt: Vec<&'a RttSample>,
    next_snapshot: usize,
    next_rtt: usize,
}

impl<'a> Deliveries<'a> {
    pub(super) fn new(snapshots: &'a [TraceSnapshot], rtt: &'a [RttSample]) -> Self {
        let mut snapshots: Vec<&TraceSnapshot> = snapshots.iter().collect();
        snapshots.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
        let mut rtt: Vec<&RttSample> = rtt.iter().collect();
        rtt.sort_by(|a, b| a.at.total_cmp(&b.at));
        Deliveries { snapshots, rtt, next_snapshot: 0, next_rtt: 0 }
    }

    /// Delivers everything due at or before local time `t`, in time order.
    pub(super) fn until<R: Receiver + ?Sized>(&mut self, t: f64, receiver: &mut R) {
        loop {
            let snapshot = self.snapshots.get(self.next_snapshot).filter(|s| s.arrival <= t);
            let rtt = self.rtt.get(self.next_rtt).filter(|r| r.at <= t);
            match (snapshot, rtt) {
                (Some(s), Some(r)) if s.arrival <= r.at => self.deliver_snapshot(s, receiver),
                (_, Some(r)) => {
                    receiver.rtt(r.at, r.rtt);
                    self.next_rtt += 1;
                }
                (Some(s), None) => self.deliver_snapshot(s, receiver),
                (None, None) => return,
            }
        }
    }

    fn deliver_snapshot<R: Receiver + ?Sized>(&mut self, s: &TraceSnapshot, receiver: &mut R) {
        receiver.snapshot(s.snapshot(), s.arrival);
        self.next_snapshot += 1;
    }

    /// The latest arrival or RTT time.
    fn last_time(&self) -> Option<f64> {
        let arrival = self.snapshots.last().map(|s| s.arrival);
        let at = self.rtt.last().map(|r| r.at);
        arrival.into_iter().chain(at).reduce(f64::max)
    }
}

pub(super) fn replay(
    params: &TraceParams,
    snapshots: &[TraceSnapshot],
    rtt: &[RttSample],
    sample_at: &[f64],
) -> Result<(Vec<SnapshotSample>, SnapshotMetrics), TraceError> {
    let mut playback = RemotePlayback::new(params.playback(snapshots)).map_err(TraceError::param)?;
    let mut deliveries = Deliveries::new(snapshots, rtt);
    let mut display = DisplayCounts::default();
    let mut samples = Vec::with_capacity(sample_at.len());
    let mut previous: Option<f64> = None;
    for &t in sample_at {
        deliveries.until(t, &mut playback);
        let frame = playback.frame(t, previous.map_or(0.0, |p| t - p));
        display.record(frame.displayed.mode);
        samples.push(SnapshotSample::of(&frame));
        previous = Some(t);
    }
    deliveries.until(f64::INFINITY, &mut playback);
    let now = previous.into_iter().chain(deliveries.last_time()).reduce(f64::max).unwrap_or(0.0);
    let metrics = playback.metrics(now);
    Ok((samples, SnapshotMetrics { buffer: metrics.buffer, display, clock: metrics.clock }))
}
