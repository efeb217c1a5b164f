//! The server's true path with times, and the batches a seed-001 server would send from it.
//!
//! ```text
//!  truth (server)   (0,0) ───────── (60,0)              a polyline with a time at every vertex
//!                                     │                  (local clock: the comparison assumes the clocks agree)
//!                                   (60,40) ───────── (120,40)
//!
//!  batches          window k = [k·batchInterval, (k+1)·batchInterval]
//!                   points   = truth sampled every sampleInterval in the window, plus the window's end
//!                   V2       : offsetMs = sample time − window start, durationMs = window length, seq = firstSeq + k
//!                   V1       : the same points, no offsetMs, no seq, no durationMs
//!                   arrival  = window end + latency
//! ```
//!
//! Every batch ends at the point the next one begins with, so consecutive batches connect — the way a server
//! that sends "where I went since the last message" would (seed 001 "一秒一包"). Corners that fall between two
//! samples are cut by the chord between them, in both models: that is what the samples say.

use crate::geom::{clamp, Vec2};
use crate::param::{in_range, ParamError};
use crate::path::batch::{PathBatch, PathPoint, MAX_COORDINATE};
use crate::path::params::PathParams;
use crate::words::decimal;
use serde::{Deserialize, Serialize};

/// One vertex of the true path: where the entity was at time `t` (seconds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedPoint {
    pub t: f64,
    pub x: f64,
    pub y: f64,
}

impl TimedPoint {
    pub fn pos(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
}

/// The most vertices a truth may have.
pub const MAX_TRUTH_POINTS: usize = 1_000_000;

/// A timed polyline: linear between vertices, clamped before the first and after the last.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TruthPath {
    points: Vec<TimedPoint>,
}

impl TruthPath {
    /// Checks the vertices (field `truth`): at least one, finite, coordinates within ±1e9, times non-decreasing.
    pub fn new(points: Vec<TimedPoint>) -> Result<Self, ParamError> {
        let err = |message: String| Err(ParamError::new("truth", message));
        if points.is_empty() || points.len() > MAX_TRUTH_POINTS {
            return err(format!("{} points; 1..={MAX_TRUTH_POINTS} needed", points.len()));
        }
        for (i, p) in points.iter().enumerate() {
            if !(p.t.is_finite() && p.pos().is_finite()) {
                return err(format!("point {i} is not finite"));
            }
            if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
                return err(format!("point {i} is beyond ±{}", decimal(MAX_COORDINATE)));
            }
            if i > 0 && p.t < points[i - 1].t {
                return err(format!("point {i} is earlier than point {}", i - 1));
            }
        }
        Ok(TruthPath { points })
    }

    /// Walks `waypoints` at a constant `speed` (px/s) from `start` — seed 001's example is
    /// `at_speed(0.0, 120.0, &[(0,0), (60,0), (60,40), (120,40)])`.
    pub fn at_speed(start: f64, speed: f64, waypoints: &[(f64, f64)]) -> Result<Self, ParamError> {
        in_range("speed", speed, 1e-3, 1e6, "px/s")?;
        let mut t = start;
        let mut points = Vec::with_capacity(waypoints.len());
        for (i, &(x, y)) in waypoints.iter().enumerate() {
            if i > 0 {
                let (px, py) = waypoints[i - 1];
                t += Vec2::new(px, py).distance(Vec2::new(x, y)) / speed;
            }
            points.push(TimedPoint { t, x, y });
        }
        TruthPath::new(points)
    }

    /// Samples a motion given as a function of time every `step` seconds from `start` to `end` (inclusive).
    pub fn sampled(motion: impl Fn(f64) -> Vec2, start: f64, end: f64, step: f64) -> Result<Self, ParamError> {
        in_range("step", step, 1e-4, 3600.0, "s")?;
        let span = end - start;
        if !(span >= 0.0 && span / step <= MAX_TRUTH_POINTS as f64) {
            return Err(ParamError::new(
                "truth",
                format!("cannot sample {}..{} every {} s", decimal(start), decimal(end), decimal(step)),
            ));
        }
        let count = (span / step).ceil() as usize;
        let points = (0..=count)
            .map(|i| (start + i as f64 * step).min(end))
            .map(|t| {
                let p = motion(t);
                TimedPoint { t, x: p.x, y: p.y }
            })
            .collect();
        TruthPath::new(points)
    }

    pub fn points(&self) -> &[TimedPoint] {
        &self.points
    }

    pub fn start(&self) -> f64 {
        self.points[0].t
    }

    pub fn end(&self) -> f64 {
        self.points[self.points.len() - 1].t
    }

    /// The segment `i` (from vertex `i` to `i + 1`) whose span `t_i ≤ t < t_{i+1}` holds `t`.
    pub fn segment_at(&self, t: f64) -> Option<usize> {
        let after = self.points.partition_point(|p| p.t <= t);
        (after > 0 && after < self.points.len()).then(|| after - 1)
    }

    /// The time span and speed (px/s) of segment `i`.
    pub fn segment(&self, i: usize) -> (f64, f64, f64) {
        let (a, b) = (self.points[i], self.points[i + 1]);
        let duration = b.t - a.t;
        let speed = if duration > 0.0 { a.pos().distance(b.pos()) / duration } else { 0.0 };
        (a.t, b.t, speed)
    }

    /// Where the entity truly was at `t`.
    pub fn position_at(&self, t: f64) -> Vec2 {
        match self.segment_at(t) {
            Some(i) => {
                let (a, b) = (self.points[i], self.points[i + 1]);
                a.pos().lerp(b.pos(), (t - a.t) / (b.t - a.t))
            }
            None if t < self.start() => self.points[0].pos(),
            None => self.points[self.points.len() - 1].pos(),
        }
    }

    /// The shortest distance from `p` to the polyline, whatever the time (how far off the road a model is).
    pub fn distance_to_path(&self, p: Vec2) -> f64 {
        let nearest_on = |a: Vec2, b: Vec2| {
            let ab = b - a;
            let length_sq = ab.x * ab.x + ab.y * ab.y;
            let along = if length_sq > 0.0 { ((p - a).x * ab.x + (p - a).y * ab.y) / length_sq } else { 0.0 };
            p.distance(a.lerp(b, clamp(along, 0.0, 1.0)))
        };
        match self.points.as_slice() {
            [only] => p.distance(only.pos()),
            points => points.windows(2).map(|w| nearest_on(w[0].pos(), w[1].pos())).fold(f64::INFINITY, f64::min),
        }
    }
}

/// How a seed-001 server turns its true path into batches.
///
/// | field | default | range |
/// |---|---|---|
/// | `batchInterval` | 1 s (seed 001 "一秒一包") | 0.01..=10 s |
/// | `sampleInterval` | 0.1 s | 0.001..=`batchInterval` |
/// | `withOffsets` | true (V2: offsetMs, durationMs, seq) | |
/// | `latency` | 0.05 s | 0..=5 s |
/// | `firstSeq` | 1 | |
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BatchPlan {
    pub batch_interval: f64,
    pub sample_interval: f64,
    pub with_offsets: bool,
    pub latency: f64,
    pub first_seq: u64,
}

impl Default for BatchPlan {
    fn default() -> Self {
        BatchPlan { batch_interval: 1.0, sample_interval: 0.1, with_offsets: true, latency: 0.05, first_seq: 1 }
    }
}

impl BatchPlan {
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("batchInterval", self.batch_interval, 0.01, 10.0, "s")?;
        in_range("sampleInterval", self.sample_interval, 0.001, self.batch_interval, "s")?;
        in_range("latency", self.latency, 0.0, 5.0, "s")?;
        Ok(())
    }

    /// How late the timed player shows the truth for this plan (V2, steady arrivals): a point sampled at `s`
    /// is sent at its window's end, arrives `latency` later and plays `interpolationDelay` after that,
    /// at `s + batchInterval + latency + interpolationDelay`.
    pub fn playback_delay(&self, path: &PathParams) -> f64 {
        self.batch_interval + self.latency + path.interpolation_delay
    }
}

/// The batches a server following `plan` sends while the entity walks `truth`, in sending order.
pub fn batches_from_truth(truth: &TruthPath, plan: &BatchPlan) -> Result<Vec<PathBatch>, ParamError> {
    plan.validate()?;
    let span = truth.end() - truth.start();
    if span / plan.sample_interval > MAX_TRUTH_POINTS as f64 {
        return Err(ParamError::new("sampleInterval", format!("too many samples for a {} s truth", decimal(span))));
    }
    let windows = ((span / plan.batch_interval).ceil() as u64).max(1);
    let batches = (0..windows)
        .map(|k| {
            let window_start = truth.start() + k as f64 * plan.batch_interval;
            let window_end = (window_start + plan.batch_interval).min(truth.end());
            batch_for_window(truth, plan, k, window_start, window_end)
        })
        .collect();
    Ok(batches)
}

fn batch_for_window(truth: &TruthPath, plan: &BatchPlan, k: u64, start: f64, end: f64) -> PathBatch {
    let ticks = (((end - start) / plan.sample_interval) - 1e-9).ceil().max(0.0) as usize;
    let times = (0..ticks).map(|j| start + j as f64 * plan.sample_interval).chain(std::iter::once(end));
    let points = times
        .map(|t| {
            let p = truth.position_at(t);
            let offset_ms = plan.with_offsets.then_some((t - start) * 1000.0);
            PathPoint { x: p.x, y: p.y, offset_ms }
        })
        .collect();
    PathBatch {
        arrival: end + plan.latency,
        seq: plan.with_offsets.then_some(plan.first_seq + k),
        points,
        duration_ms: plan.with_offsets.then_some((end - start) * 1000.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn seed_001() -> TruthPath {
        TruthPath::at_speed(0.0, 120.0, &[(0.0, 0.0), (60.0, 0.0), (60.0, 40.0), (120.0, 40.0)]).unwrap()
    }

    #[test]
    fn the_seed_001_truth_is_at_60_18_at_650_ms() {
        let truth = seed_001();
        assert_relative_eq!(truth.end(), 4.0 / 3.0, epsilon = 1e-12);
        let p = truth.position_at(0.65);
        assert_relative_eq!(p.x, 60.0, epsilon = 1e-9);
        assert_relative_eq!(p.y, 18.0, epsilon = 1e-9);
        assert_eq!(truth.segment_at(0.65), Some(1));
        assert_eq!((truth.segment_at(-1.0), truth.segment_at(2.0)), (None, None));
        assert_eq!(truth.position_at(9.0), Vec2::new(120.0, 40.0));
    }

    #[test]
    fn distance_to_path_is_zero_on_it_and_measures_a_cut_corner() {
        let truth = seed_001();
        assert_eq!(truth.distance_to_path(Vec2::new(60.0, 20.0)), 0.0);
        // The chord from (50, 0) to (60, 10) passes (55, 5), 5 px from both legs of the corner.
        assert_relative_eq!(truth.distance_to_path(Vec2::new(55.0, 5.0)), 5.0, epsilon = 1e-12);
    }

    #[test]
    fn a_bad_truth_is_refused_with_the_field_named() {
        assert_eq!(TruthPath::new(vec![]).unwrap_err().field, "truth");
        let backwards = vec![TimedPoint { t: 1.0, x: 0.0, y: 0.0 }, TimedPoint { t: 0.5, x: 1.0, y: 0.0 }];
        assert!(TruthPath::new(backwards).unwrap_err().message.contains("point 1"));
        assert_eq!(TruthPath::at_speed(0.0, 0.0, &[(0.0, 0.0)]).unwrap_err().field, "speed");
    }

    #[test]
    fn v2_batches_connect_and_carry_offsets_duration_and_seq() {
        let plan = BatchPlan { batch_interval: 0.5, sample_interval: 0.2, ..Default::default() };
        let batches = batches_from_truth(&seed_001(), &plan).unwrap();
        assert_eq!(batches.len(), 3); // windows 0–0.5, 0.5–1.0, 1.0–1.333
        let first = &batches[0];
        let offsets: Vec<f64> = first.points.iter().map(|p| p.offset_ms.unwrap()).collect();
        assert_eq!(offsets.len(), 4);
        for (offset, expected) in offsets.iter().zip([0.0, 200.0, 400.0, 500.0]) {
            assert_relative_eq!(*offset, expected, epsilon = 1e-9);
        }
        assert_eq!((first.seq, first.duration_ms), (Some(1), Some(500.0)));
        assert_relative_eq!(first.arrival, 0.55, epsilon = 1e-12);
        for pair in batches.windows(2) {
            assert_eq!(pair[0].points.last().map(|p| (p.x, p.y)), pair[1].points.first().map(|p| (p.x, p.y)));
        }
        let last = &batches[2];
        assert_eq!(last.seq, Some(3));
        assert_relative_eq!(last.duration_ms.unwrap(), 1000.0 / 3.0, epsilon = 1e-9);
        assert_eq!(last.points.last().map(|p| (p.x, p.y)), Some((120.0, 40.0)));
    }

    #[test]
    fn v1_batches_carry_only_coordinates() {
        let plan = BatchPlan { with_offsets: false, ..Default::default() };
        let batches = batches_from_truth(&seed_001(), &plan).unwrap();
        assert_eq!(batches.len(), 2);
        assert!(batches.iter().all(|b| b.seq.is_none() && b.duration_ms.is_none()));
        assert!(batches.iter().flat_map(|b| &b.points).all(|p| p.offset_ms.is_none()));
        assert_eq!(batches[0].points.len(), 11); // 0, 0.1, … 0.9 and the window end 1.0
    }

    #[test]
    fn a_sampled_motion_becomes_a_polyline_through_its_samples() {
        let truth = TruthPath::sampled(|t| Vec2::new(10.0 * t, 0.0), 0.0, 1.05, 0.1).unwrap();
        assert_eq!(truth.points().len(), 12);
        assert_relative_eq!(truth.end(), 1.05);
        assert_relative_eq!(truth.position_at(0.55).x, 5.5, epsilon = 1e-9);
    }

    #[test]
    fn plan_parameters_are_checked() {
        let bad = BatchPlan { sample_interval: 2.0, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "sampleInterval");
        let bad = BatchPlan { latency: f64::NAN, ..Default::default() };
        assert_eq!(bad.validate().unwrap_err().field, "latency");
        assert_relative_eq!(BatchPlan::default().playback_delay(&PathParams::default()), 1.17);
    }
}
