//! Segments with start and end times: seed 001 steps 3–7, one batch turned into a curve `position = f(time)`.
//!
//! The article's worked example, V1 at 120 px/s (seed 001 "整条路径的时间轴"):
//!
//! ```text
//!  (0,0) ── S1 ──► (60,0)          S1: 60 px / 120 px/s = 500 ms
//!                    │ S2           S2: 40 px / 120 px/s = 333.3 ms
//!                    ▼
//!                  (60,40) ── S3 ──► (120,40)   S3: 60 px = 500 ms
//!
//!  0 ms       500 ms      833 ms       1333 ms
//!  |---- S1 ----|--- S2 ---|---- S3 ----|
//!                   ▲ 650 ms: S2, progress = 150 / 333.3 = 0.45 → (60, 18)   (seed 001 "一个具体时刻的计算")
//! ```
//!
//! V2 takes the times from the points instead (`start + offsetMs`), and the batch lasts `durationMs` when that
//! is longer than its last offset (seed 001 "第二阶段"):
//!
//! ```text
//!  offsetMs   0        120           280                                1000 = durationMs
//!             |-- S1 --|---- S2 -----|--------------- S3 ----------------|
//!  speed       100 px/s   116.8 px/s              46.6 px/s
//! ```
//!
//! Sampling (step 7): before the first point's time the path holds at its first point; inside a segment it is
//! `from + (to − from) · (t − start) / (end − start)` with the constant velocity `(to − from) / (end − start)`;
//! after the last segment it holds at the last point until the path's end. A segment shorter than
//! [`MIN_SEGMENT_DURATION`] (two points at the same `offsetMs`, or a duration lost to rounding) is a jump: its
//! velocity is zero rather than near-infinite, and a frame almost never lands inside it.

use crate::geom::Vec2;
use crate::path::batch::{CleanBatch, TimingKind};
use serde::Serialize;

/// Segments shorter than this (seconds) are jumps: no velocity.
pub const MIN_SEGMENT_DURATION: f64 = 1e-9;

/// One straight piece of a path, played from `start` to `end` (local seconds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Segment {
    pub from: Vec2,
    pub to: Vec2,
    pub start: f64,
    pub end: f64,
}

impl Segment {
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }

    /// A segment played in (almost) no time between two different points.
    pub fn is_jump(&self) -> bool {
        self.duration() < MIN_SEGMENT_DURATION && self.from != self.to
    }

    /// Constant velocity along the segment in units per second; zero for a pause or a jump.
    pub fn velocity(&self) -> Vec2 {
        let duration = self.duration();
        if duration >= MIN_SEGMENT_DURATION {
            (self.to - self.from) * (1.0 / duration)
        } else {
            Vec2::ZERO
        }
    }

    /// Seed 001 "每一帧怎么计算当前位置": `progress = (now − start) / (end − start)`, clamped to `0..=1`.
    pub fn position_at(&self, t: f64) -> Vec2 {
        let duration = self.duration();
        if duration > 0.0 {
            self.from.lerp(self.to, crate::geom::clamp((t - self.start) / duration, 0.0, 1.0))
        } else {
            self.to
        }
    }
}

/// Where a path puts the entity at one time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Located {
    pub position: Vec2,
    pub velocity: Vec2,
    /// The segment whose span contains the time; `None` while holding before the first or after the last point.
    pub segment: Option<usize>,
}

impl Located {
    pub fn is_moving(&self) -> bool {
        self.velocity != Vec2::ZERO
    }
}

/// A batch on the client's timeline: its segments and the span `start..end` it occupies in the queue.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimedPath {
    /// When the path begins (the receive time + interpolation delay, or the previous path's end).
    pub start: f64,
    /// When the next path may begin: the last segment's end, or `start + durationMs` if that is later.
    pub end: f64,
    pub first: Vec2,
    pub last: Vec2,
    pub segments: Vec<Segment>,
    pub timing: TimingKind,
}

impl TimedPath {
    /// Builds the timeline of a cleaned, non-empty batch starting at `start`; `speed` (px/s, > 0) is used by V1.
    /// Returns `None` for an empty batch.
    pub fn build(batch: &CleanBatch, start: f64, speed: f64) -> Option<TimedPath> {
        let (&first, &last) = (batch.points.first()?, batch.points.last()?);
        let (offsets, span) = match &batch.offsets_ms {
            Some(offsets_ms) => v2_offsets(offsets_ms, batch.duration_ms),
            None => v1_offsets(&batch.points, speed),
        };
        let segments = batch
            .points
            .windows(2)
            .zip(offsets.windows(2))
            .map(|(p, o)| Segment { from: p[0], to: p[1], start: start + o[0], end: start + o[1] })
            .collect();
        Some(TimedPath { start, end: start + span, first, last, segments, timing: batch.timing() })
    }

    /// Step 7: the position, velocity and segment at time `t`.
    pub fn locate(&self, t: f64) -> Located {
        let hold = |position| Located { position, velocity: Vec2::ZERO, segment: None };
        let (Some(head), Some(tail)) = (self.segments.first(), self.segments.last()) else {
            return hold(self.first);
        };
        if t < head.start {
            return hold(self.first);
        }
        if t >= tail.end {
            return hold(self.last);
        }
        // The first segment that has not ended; zero-duration segments (jumps) are stepped over.
        let index = self.segments.partition_point(|s| s.end <= t);
        let segment = &self.segments[index];
        Located { position: segment.position_at(t), velocity: segment.velocity(), segment: Some(index) }
    }

    /// The path's length in world units.
    pub fn length(&self) -> f64 {
        self.segments.iter().map(|s| s.from.distance(s.to)).sum()
    }
}

/// V1 (step 4): each segment lasts `distance / speed`; returns offsets in seconds and the total span.
fn v1_offsets(points: &[Vec2], speed: f64) -> (Vec<f64>, f64) {
    let mut offsets = Vec::with_capacity(points.len());
    let mut elapsed = 0.0;
    offsets.push(elapsed);
    for pair in points.windows(2) {
        elapsed += pair[0].distance(pair[1]) / speed;
        offsets.push(elapsed);
    }
    (offsets, elapsed)
}

/// V2 (step 5): offsets come from the batch (ms → s); the span is `max(last offset, durationMs)`.
fn v2_offsets(offsets_ms: &[f64], duration_ms: Option<f64>) -> (Vec<f64>, f64) {
    let offsets: Vec<f64> = offsets_ms.iter().map(|ms| ms / 1000.0).collect();
    let last = offsets.last().copied().unwrap_or(0.0);
    let span = duration_ms.map_or(last, |d| (d / 1000.0).max(last));
    (offsets, span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::batch::{clean, DuplicatePolicy, PathBatch};
    use approx::assert_relative_eq;

    fn timed(batch: &PathBatch, start: f64, speed: f64) -> TimedPath {
        TimedPath::build(&clean(batch, DuplicatePolicy::Remove), start, speed).unwrap()
    }

    fn seed_001_v1() -> TimedPath {
        timed(&PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0), (60.0, 40.0), (120.0, 40.0)]), 0.0, 120.0)
    }

    /// Seed 001 "整条路径的时间轴": 0 | 500 | 833.3 | 1333.3 ms.
    #[test]
    fn seed_001_segments_end_at_500_833_and_1333_ms() {
        let path = seed_001_v1();
        let ends_ms: Vec<f64> = path.segments.iter().map(|s| s.end * 1000.0).collect();
        assert_eq!(ends_ms.len(), 3);
        assert_relative_eq!(ends_ms[0], 500.0, epsilon = 1e-9);
        assert_relative_eq!(ends_ms[1], 833.333_333_333, epsilon = 1e-6);
        assert_relative_eq!(ends_ms[2], 1_333.333_333_333, epsilon = 1e-6);
        assert_relative_eq!(path.end, 4.0 / 3.0, epsilon = 1e-12);
        assert_relative_eq!(path.length(), 160.0);
    }

    /// Seed 001 "示例 1" and "一个具体时刻的计算": (30, 0) at 250 ms, (60, 18) at 650 ms.
    #[test]
    fn seed_001_positions_at_250_and_650_ms() {
        let path = seed_001_v1();
        let at_250 = path.locate(0.25);
        assert_relative_eq!(at_250.position.x, 30.0, epsilon = 1e-9);
        assert_eq!(at_250.segment, Some(0));
        let at_650 = path.locate(0.65);
        assert_eq!(at_650.segment, Some(1));
        assert_relative_eq!(at_650.position.x, 60.0, epsilon = 1e-9);
        assert_relative_eq!(at_650.position.y, 18.0, epsilon = 1e-9);
        // S2 goes straight up at the V1 speed.
        assert_relative_eq!(at_650.velocity.y, 120.0, epsilon = 1e-9);
        assert_eq!(at_650.velocity.x, 0.0);
    }

    #[test]
    fn the_path_holds_at_its_ends() {
        let path = seed_001_v1();
        let before = path.locate(-1.0);
        assert_eq!((before.position, before.segment, before.is_moving()), (Vec2::new(0.0, 0.0), None, false));
        let after = path.locate(5.0);
        assert_eq!((after.position, after.segment, after.is_moving()), (Vec2::new(120.0, 40.0), None, false));
    }

    /// Seed 001 "第二阶段" batch: offsets 0/120/280/1000 ms, durationMs 1000, seq 12.
    #[test]
    fn seed_001_v2_batch_plays_on_its_own_offsets() {
        let batch = PathBatch::v2(
            0.0,
            12,
            &[(100.0, 200.0, 0.0), (112.0, 200.0, 120.0), (130.0, 205.0, 280.0), (160.0, 220.0, 1000.0)],
            1000.0,
        );
        let path = timed(&batch, 10.0, 120.0);
        assert_eq!(path.timing, TimingKind::V2);
        let ends: Vec<f64> = path.segments.iter().map(|s| s.end - 10.0).collect();
        for (end, expected) in ends.iter().zip([0.12, 0.28, 1.0]) {
            assert_relative_eq!(*end, expected, epsilon = 1e-9);
        }
        assert_relative_eq!(path.end, 11.0, epsilon = 1e-12);
        let mid_s2 = path.locate(10.2);
        assert_relative_eq!(mid_s2.position.x, 121.0, epsilon = 1e-9);
        assert_relative_eq!(mid_s2.position.y, 202.5, epsilon = 1e-9);
        let mid_s3 = path.locate(10.64);
        assert_relative_eq!(mid_s3.position.x, 145.0, epsilon = 1e-9);
        assert_relative_eq!(mid_s3.position.y, 212.5, epsilon = 1e-9);
        // Each segment has its own speed: 12 px in 120 ms = 100 px/s; 33.5 px in 720 ms = 46.6 px/s.
        assert_relative_eq!(path.locate(10.06).velocity.length(), 100.0, epsilon = 1e-9);
        assert_relative_eq!(mid_s3.velocity.length(), 1125.0_f64.sqrt() / 0.72, epsilon = 1e-9);
    }

    #[test]
    fn a_duration_longer_than_the_last_offset_holds_at_the_last_point() {
        let batch = PathBatch::v2(0.0, 1, &[(0.0, 0.0, 0.0), (50.0, 0.0, 500.0)], 800.0);
        let path = timed(&batch, 0.0, 120.0);
        assert_relative_eq!(path.end, 0.8);
        let holding = path.locate(0.7);
        assert_eq!((holding.position, holding.is_moving()), (Vec2::new(50.0, 0.0), false));
    }

    #[test]
    fn a_first_offset_after_zero_holds_at_the_first_point_until_then() {
        let batch = PathBatch::v2(0.0, 1, &[(0.0, 0.0, 200.0), (50.0, 0.0, 700.0)], 700.0);
        let path = timed(&batch, 0.0, 120.0);
        assert_eq!(path.locate(0.1).position, Vec2::new(0.0, 0.0));
        assert_relative_eq!(path.locate(0.45).position.x, 25.0, epsilon = 1e-9);
    }

    #[test]
    fn equal_offsets_are_a_jump_that_is_never_sampled_mid_way() {
        let batch = PathBatch::v2(
            0.0,
            1,
            &[(0.0, 0.0, 0.0), (10.0, 0.0, 100.0), (90.0, 0.0, 100.0), (100.0, 0.0, 200.0)],
            200.0,
        );
        let path = timed(&batch, 0.0, 120.0);
        assert_eq!(path.segments[1].duration(), 0.0);
        assert_eq!(path.segments[1].velocity(), Vec2::ZERO);
        let at_jump = path.locate(0.1);
        assert_eq!((at_jump.position, at_jump.segment), (Vec2::new(90.0, 0.0), Some(2)));
    }

    #[test]
    fn a_segment_shorter_than_a_nanosecond_is_a_jump_without_velocity() {
        let (from, to) = (Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0));
        let blink = Segment { from, to, start: 0.0, end: 1e-12 };
        assert!(blink.is_jump());
        assert_eq!(blink.velocity(), Vec2::ZERO);
        assert_eq!(blink.position_at(1.0), to);
        let short = Segment { from, to, start: 0.0, end: 1e-6 };
        assert!(!short.is_jump());
        assert_relative_eq!(short.velocity().x, 1e8, max_relative = 1e-9);
        let pause = Segment { from, to: from, start: 0.0, end: 0.0 };
        assert!(!pause.is_jump());
    }

    #[test]
    fn a_single_point_is_a_hold_that_lasts_its_duration() {
        let v1 = timed(&PathBatch::v1(0.0, &[(5.0, 5.0)]), 2.0, 120.0);
        assert_eq!((v1.segments.len(), v1.end), (0, 2.0));
        assert_eq!(v1.locate(2.0).position, Vec2::new(5.0, 5.0));
        let v2 = timed(&PathBatch::v2(0.0, 1, &[(5.0, 5.0, 0.0)], 300.0), 2.0, 120.0);
        assert_relative_eq!(v2.end, 2.3);
    }
}
