//! The snapshot jitter buffer: snapshots sorted by server time, sampled at a render time.
//!
//! ```text
//!  server time ─►   t100        t101        t102
//!  buffer          [■ 10.0]    [■ 10.1]    [■ 10.2]        sorted by server time, not by arrival
//!  arrivals          10.08       10.25       10.23         (102 overtook 101: an out-of-order arrival)
//!  render time                       ▲ 10.15                 (local 10.30 − delay 0.15, seed 002 §"第五步")
//!  bracket                     left 101 ── right 102        factor = (10.15 − 10.1) / (10.2 − 10.1) = 0.5 → x 1.5
//! ```
//!
//! One buffer holds one entity's timeline. Per client frame it is driven in this order:
//!
//! 1. `insert(snapshot, arrival)` for each delivery → an [`InsertOutcome`] (inserted, duplicate, conflict,
//!    late duplicate, invalid, late; out-of-order and eviction flagged) — see `buffer/insert.rs`;
//! 2. `sample(render_time)` (or `sample_uncertain` when the clock says it cannot be trusted) → a [`Sample`] with a
//!    [`SampleStatus`] — see `buffer/sample.rs`; `sample_drawn` is the same sample for a caller that only
//!    draws (a plain interpolation, or a render time exactly on a snapshot, comes back as a small [`Between`]);
//! 3. `prune(render_time)`: what the render time has passed is dropped, one left anchor is kept so the next
//!    sample still has a left side (and an underrun policy still has something to continue from).
//!
//! A sample never returns a default position: it says how good it is and only a `Ready` sample carries a
//! position (seed 002 §"第八步", "所有非 Ready 结果都保留具体原因，不返回默认位置"). What to show otherwise is the
//! job of the underrun policy (`crate::extrapolate`, `crate::display`), never of the buffer.
//!
//! Every arrival and every sample is counted ([`BufferMetrics`], seed 002 "可观测性").

mod insert;
mod params;
mod reason;
mod sample;
pub(crate) mod window;

pub use insert::{InsertOutcome, DROPPED_MEMORY};
pub use params::{BeforeOldest, BufferParams, MAX_CAPACITY};
pub use reason::Reason;
pub use sample::{Between, Sample, SampleStatus};

use crate::buffer_metrics::{ArrivalStats, BufferMetrics};
use crate::param::ParamError;
use crate::snapshot::Snapshot;
use window::Window;

/// A snapshot and the local time it arrived.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    snapshot: Snapshot,
    arrival: f64,
}

/// What a render clock may want to know about the buffer (the timescale clock steers by its depth, the adaptive
/// delay by its jitter).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BufferView {
    pub newest_server_time: Option<f64>,
    pub newest_arrival: Option<f64>,
    /// Average time between arrivals (seconds).
    pub arrival_interval: Option<f64>,
    /// Mean of arrival − server time (seconds): one-way latency minus the clock offset.
    pub transit_mean: Option<f64>,
    /// Standard deviation of transit time (seconds).
    pub transit_std: f64,
}

/// Snapshots of one entity ordered by server time (and, equivalently, by tick).
#[derive(Clone, Debug)]
pub struct SnapshotBuffer {
    params: BufferParams,
    /// The stream's send interval (seconds), and the widest bracket still interpolated: `gapFactor` of them.
    send_interval: f64,
    max_bracket: f64,
    /// The snapshots held, and in front of them the last [`DROPPED_MEMORY`] dropped (pruned or evicted), oldest
    /// first (ascending ticks): a copy of one of those is a late duplicate. The newest dropped is the floor:
    /// nothing at or before it is accepted again.
    entries: Window<Entry, DROPPED_MEMORY>,
    /// How many entries were at or before the last sampled render time.
    cursor: usize,
    /// The entity this buffer holds, fixed by the first accepted snapshot.
    entity: Option<u32>,
    newest_tick: Option<u64>,
    first_arrival: Option<f64>,
    /// Set once the buffer has held `minSnapshots`: from then on it is primed for good.
    priming_time: Option<f64>,
    arrivals: ArrivalStats,
    last_status: Option<SampleStatus>,
    last_render_time: Option<f64>,
    /// Counters; the derived fields are filled in by [`SnapshotBuffer::metrics`].
    counts: BufferMetrics,
}

impl SnapshotBuffer {
    /// A buffer with the default parameters and the given capacity (clamped to `2..=MAX_CAPACITY`), for a stream
    /// of seed 000 §4.3.2's 20 snapshots a second.
    pub fn new(capacity: usize) -> Self {
        let params = BufferParams { capacity: capacity.clamp(2, MAX_CAPACITY), ..BufferParams::default() };
        Self::build(params, crate::stream::Stream::default().send_interval)
    }

    /// A buffer with checked parameters for a stream of one snapshot every `send_interval` seconds; the error names
    /// the first bad field.
    pub fn with_params(params: BufferParams, send_interval: f64) -> Result<Self, ParamError> {
        params.validate(send_interval)?;
        Ok(Self::build(params, send_interval))
    }

    fn build(params: BufferParams, send_interval: f64) -> Self {
        SnapshotBuffer {
            entries: Window::with_room(params.capacity.min(1024)),
            max_bracket: params.gap_factor * send_interval,
            send_interval,
            params,
            cursor: 0,
            entity: None,
            newest_tick: None,
            first_arrival: None,
            priming_time: None,
            arrivals: ArrivalStats::default(),
            last_status: None,
            last_render_time: None,
            counts: BufferMetrics::default(),
        }
    }

    pub fn params(&self) -> &BufferParams {
        &self.params
    }

    /// Seconds between two snapshots of the stream this buffer holds.
    pub fn send_interval(&self) -> f64 {
        self.send_interval
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The snapshots held, oldest first.
    pub fn snapshots(&self) -> impl ExactSizeIterator<Item = &Snapshot> + '_ {
        self.entries.iter().map(|e| &e.snapshot)
    }

    /// The snapshots held with their local arrival times, oldest first.
    pub fn arrivals(&self) -> impl ExactSizeIterator<Item = (&Snapshot, f64)> + '_ {
        self.entries.iter().map(|e| (&e.snapshot, e.arrival))
    }

    pub fn oldest(&self) -> Option<Snapshot> {
        self.entries.first().map(|e| e.snapshot)
    }

    pub fn newest(&self) -> Option<Snapshot> {
        self.entries.last().map(|e| e.snapshot)
    }

    /// Whether the buffer has ever held `minSnapshots` (after which it never reports Priming again).
    pub fn is_primed(&self) -> bool {
        self.priming_time.is_some()
    }

    /// Drops every snapshot the render time has passed, keeping the last one at or before it as the left anchor.
    /// Nothing is pruned before the buffer is primed. Returns how many were dropped.
    pub fn prune(&mut self, render_time: f64) -> usize {
        if !render_time.is_finite() || !self.is_primed() {
            return 0;
        }
        let passed = self.count_at_or_before(render_time).saturating_sub(1);
        for _ in 0..passed {
            self.drop_oldest();
        }
        self.counts.pruned += passed as u64;
        passed
    }

    /// [`SnapshotBuffer::prune`] at the render time just sampled (`sample`, `sample_drawn`, with no insert
    /// since): the sample's lookup left the count of snapshots at or before it in the cursor, so the prune drops
    /// by that index instead of looking the render time up again (what `RemotePlayback`'s frame does every frame).
    #[inline]
    pub fn prune_sampled(&mut self, render_time: f64) -> usize {
        if !render_time.is_finite() || !self.is_primed() {
            return 0;
        }
        #[cfg(debug_assertions)]
        {
            let sampled = self.cursor;
            assert_eq!(sampled, self.count_at_or_before(render_time), "a prune at another time than sampled");
        }
        let passed = self.cursor.saturating_sub(1);
        for _ in 0..passed {
            self.drop_oldest();
        }
        self.counts.pruned += passed as u64;
        passed
    }

    /// What the render clocks read from the buffer.
    pub fn view(&self) -> BufferView {
        let newest = self.entries.last();
        BufferView {
            newest_server_time: newest.map(|e| e.snapshot.server_time),
            newest_arrival: newest.map(|e| e.arrival),
            arrival_interval: self.arrivals.interval(),
            transit_mean: self.arrivals.transit_mean(),
            transit_std: self.arrivals.transit_std(),
        }
    }

    /// The metrics at local time `now` (ages are measured from it).
    pub fn metrics(&self, now: f64) -> BufferMetrics {
        let (oldest, newest) = (self.entries.first(), self.entries.last());
        BufferMetrics {
            arrival_interval: self.arrivals.interval(),
            jitter: self.arrivals.jitter(),
            transit_std: self.arrivals.transit_std(),
            buffered: self.entries.len(),
            buffer_depth: newest.zip(self.last_render_time).map(|(n, r)| n.snapshot.server_time - r),
            buffer_span: oldest.zip(newest).map(|(o, n)| n.snapshot.server_time - o.snapshot.server_time),
            oldest_age: oldest.map(|e| now - e.arrival),
            newest_age: newest.map(|e| now - e.arrival),
            priming_time: self.priming_time,
            ready_samples: self.counts.samples.ready,
            last_render_time: self.last_render_time,
            ..self.counts.clone()
        }
    }
}

#[cfg(test)]
mod tests;
