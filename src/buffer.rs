//! The snapshot jitter buffer: snapshots sorted by server time, sampled at a render time.
//!
//! ```text
//!  server time ─►   t100        t101        t102
//!  buffer          [■ 10.0]    [■ 10.1]    [■ 10.2]        sorted by server time, not by arrival
//!  render time                       ▲ 10.15                 (local now − delay, seed 002 §"第五步")
//!  bracket                     left 101 ── right 102        factor = (10.15 − 10.1) / (10.2 − 10.1) = 0.5
//! ```
//!
//! A sample never returns a default position: it says how good it is (`SampleStatus`) and only a `Ready`
//! sample carries a position (seed 002 §"第八步", "所有非 Ready 结果都保留具体原因，不返回默认位置").

use crate::geom::Vec2;
use crate::snapshot::{InvalidSnapshot, Snapshot};

/// How trustworthy a sample is (seed 002 "缓冲区的关键状态").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleStatus {
    /// Fewer snapshots than the minimum: still filling, nothing to interpolate.
    Priming,
    /// The render time is bracketed by two snapshots: the position is an interpolation.
    Ready,
    /// The render time is past the newest snapshot: the buffer ran dry.
    Underrun,
    /// The render time is before the oldest snapshot kept.
    Gap,
}

impl SampleStatus {
    /// The camelCase name used when the status leaves the core (trace output, the page).
    pub fn name(self) -> &'static str {
        match self {
            SampleStatus::Priming => "priming",
            SampleStatus::Ready => "ready",
            SampleStatus::Underrun => "underrun",
            SampleStatus::Gap => "gap",
        }
    }
}

/// The result of sampling the buffer at one render time.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub status: SampleStatus,
    /// Present only when `status` is `Ready`.
    pub position: Option<Vec2>,
    pub left: Option<u64>,
    pub right: Option<u64>,
    /// Where the render time sits between `left` (0) and `right` (1).
    pub factor: Option<f64>,
    /// The server time that was rendered.
    pub render_time: f64,
    /// Why the sample is not `Ready`.
    pub reason: Option<String>,
}

/// Snapshots of one entity ordered by server time.
#[derive(Clone, Debug)]
pub struct SnapshotBuffer {
    snapshots: Vec<Snapshot>,
    capacity: usize,
    min_to_sample: usize,
}

impl SnapshotBuffer {
    /// A buffer that keeps at most `capacity` snapshots (oldest evicted first) and needs 2 to sample.
    pub fn new(capacity: usize) -> Self {
        SnapshotBuffer { snapshots: Vec::with_capacity(capacity), capacity: capacity.max(2), min_to_sample: 2 }
    }

    pub fn len(&self) -> usize {
        self.snapshots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.snapshots.is_empty()
    }

    pub fn snapshots(&self) -> &[Snapshot] {
        &self.snapshots
    }

    /// Inserts by server time with a binary search (seed 000 §4.3.4: sort by server time, not arrival).
    pub fn insert(&mut self, snapshot: Snapshot) -> Result<(), InvalidSnapshot> {
        snapshot.validate()?;
        let at = self.snapshots.partition_point(|s| s.server_time <= snapshot.server_time);
        self.snapshots.insert(at, snapshot);
        if self.snapshots.len() > self.capacity {
            self.snapshots.remove(0);
        }
        Ok(())
    }

    /// Samples the buffer at `render_time` (server seconds) by linear interpolation.
    pub fn sample(&self, render_time: f64) -> Sample {
        let not_ready = |status, left, right, reason: String| Sample {
            status,
            position: None,
            left,
            right,
            factor: None,
            render_time,
            reason: Some(reason),
        };
        let (Some(oldest), Some(newest)) = (self.snapshots.first(), self.snapshots.last()) else {
            return not_ready(SampleStatus::Priming, None, None, "no snapshot received yet".into());
        };
        if self.snapshots.len() < self.min_to_sample {
            let reason = format!("{} of {} snapshots needed to interpolate", self.len(), self.min_to_sample);
            return not_ready(SampleStatus::Priming, Some(newest.tick), None, reason);
        }
        if render_time < oldest.server_time {
            let reason =
                format!("render time {render_time:.3} s is before the oldest snapshot ({:.3} s)", oldest.server_time);
            return not_ready(SampleStatus::Gap, None, Some(oldest.tick), reason);
        }
        if render_time > newest.server_time {
            let reason = format!(
                "render time {render_time:.3} s is {:.0} ms past the newest snapshot",
                (render_time - newest.server_time) * 1000.0
            );
            return not_ready(SampleStatus::Underrun, Some(newest.tick), None, reason);
        }
        let right_at = self.snapshots.partition_point(|s| s.server_time < render_time).max(1);
        let (left, right) = (&self.snapshots[right_at - 1], &self.snapshots[right_at]);
        let span = right.server_time - left.server_time;
        let factor = if span > 0.0 { (render_time - left.server_time) / span } else { 1.0 };
        Sample {
            status: SampleStatus::Ready,
            position: Some(left.pos.lerp(right.pos, factor)),
            left: Some(left.tick),
            right: Some(right.tick),
            factor: Some(factor),
            render_time,
            reason: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn at(tick: u64, server_time: f64, x: f64) -> Snapshot {
        Snapshot::moving(tick, server_time, Vec2::new(x, 0.0), Vec2::new(10.0, 0.0))
    }

    /// Seed 002 "三个乱序到达的快照": 100, 102, 101 inserted out of order, sampled at 10.15 → x = 1.5.
    #[test]
    fn seed_002_out_of_order_snapshots_interpolate_to_one_and_a_half() {
        let mut buffer = SnapshotBuffer::new(32);
        for s in [at(100, 10.0, 0.0), at(102, 10.2, 2.0), at(101, 10.1, 1.0)] {
            buffer.insert(s).unwrap();
        }
        let ticks: Vec<u64> = buffer.snapshots().iter().map(|s| s.tick).collect();
        assert_eq!(ticks, [100, 101, 102]);
        let sample = buffer.sample(10.30 - 0.15);
        assert_eq!(sample.status, SampleStatus::Ready);
        assert_eq!((sample.left, sample.right), (Some(101), Some(102)));
        assert_relative_eq!(sample.position.unwrap().x, 1.5, epsilon = 1e-9);
        assert_relative_eq!(sample.factor.unwrap(), 0.5, epsilon = 1e-9);
    }

    #[test]
    fn statuses_outside_the_bracket_carry_no_position_and_a_reason() {
        let mut buffer = SnapshotBuffer::new(32);
        assert_eq!(buffer.sample(1.0).status, SampleStatus::Priming);
        buffer.insert(at(1, 1.0, 0.0)).unwrap();
        assert_eq!(buffer.sample(1.0).status, SampleStatus::Priming);
        buffer.insert(at(2, 1.1, 1.0)).unwrap();
        for (t, status) in [(0.9, SampleStatus::Gap), (1.2, SampleStatus::Underrun)] {
            let sample = buffer.sample(t);
            assert_eq!(sample.status, status);
            assert_eq!(sample.position, None);
            assert!(sample.reason.is_some());
        }
    }

    #[test]
    fn capacity_evicts_the_oldest() {
        let mut buffer = SnapshotBuffer::new(2);
        for tick in 0..5 {
            buffer.insert(at(tick, tick as f64, 0.0)).unwrap();
        }
        let ticks: Vec<u64> = buffer.snapshots().iter().map(|s| s.tick).collect();
        assert_eq!(ticks, [3, 4]);
    }

    #[test]
    fn a_non_finite_snapshot_is_rejected_and_not_inserted() {
        let mut buffer = SnapshotBuffer::new(4);
        let err = buffer.insert(at(1, f64::NAN, 0.0)).unwrap_err();
        assert_eq!(err.field, "serverTime");
        assert!(buffer.is_empty());
    }
}
