//! Scoring one model's per-frame track against the truth: the numbers the comparison page shows.
//!
//! ```text
//!  truth      ●────────────●────────────●          the server's path, with times
//!  model      ○  ○  ○  ○  ○  ○  ○  ○  ○          one position per frame (t_k = start + k·dt)
//!              ◄── delay ──►                       models show the past: each is compared with the truth
//!                                                  `delay` seconds earlier
//! ```
//!
//! * **delay** — the truth delay used: `truthDelay` if given, otherwise the one (0..=5 s, 1 ms resolution) that
//!   minimises the model's mean error (searched on a 10 ms grid, then refined). A model is not blamed for being late on purpose; how late it is is
//!   reported beside its error (the timed player's delay is `batchInterval + latency + interpolationDelay`).
//! * **meanError / maxError** — `|model(t) − truth(t − delay)|` over the frames that have a position.
//! * **speedVariation** — inside each straight truth segment (frames whose delayed time is at least
//!   `cornerMargin` from both its ends), the RMS of `(speed − that segment's mean model speed) / truth speed`.
//!   A timed player at the right speed scores ≈ 0; lerp's sawtooth scores high (seed 001 "同一线段内速度恒定").
//! * **stallFrames** — frames where the model moves slower than `stallSpeedRatio` × the truth's speed while
//!   the truth moves (seed 001 "停住一下 … 新包到了再继续").
//! * **cornerCutting** — the largest distance from the true polyline, whatever the time (seed 001 "转向发生在
//!   真实拐点").
//! * **maxJump** — the largest distance covered in one frame (snaps and boundary jumps show up here).
//!
//! Speeds are finite differences between consecutive frames, the same for both models.

use crate::geom::Vec2;
use crate::path::truth::TruthPath;
use serde::Serialize;

/// The longest truth delay searched, in seconds.
pub const MAX_TRUTH_DELAY: f64 = 5.0;

/// How a track is scored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreParams {
    /// `Some(d)`: compare with the truth `d` s earlier; `None`: the delay that minimises the mean error.
    pub truth_delay: Option<f64>,
    pub stall_speed_ratio: f64,
    pub corner_margin: f64,
}

/// Positions of one model at frames `start + k · dt`.
#[derive(Clone, Copy, Debug)]
pub struct Track<'a> {
    pub start: f64,
    pub dt: f64,
    pub positions: &'a [Option<Vec2>],
}

impl Track<'_> {
    fn time(&self, k: usize) -> f64 {
        self.start + k as f64 * self.dt
    }

    /// Speed over the frame that ends at `k` (`None` without positions at `k − 1` and `k`).
    fn speed(&self, k: usize) -> Option<f64> {
        let previous = self.positions.get(k.checked_sub(1)?).copied().flatten()?;
        Some(previous.distance(self.positions[k]?) / self.dt)
    }
}

/// One frame of one model, scored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelFrame {
    pub position: Option<Vec2>,
    /// Distance from the previous frame over `dt` (px/s).
    pub speed: Option<f64>,
    /// The truth at `t − delay`.
    pub truth: Vec2,
    /// `|position − truth|`.
    pub error: Option<f64>,
    /// Distance from the true polyline.
    pub off_path: Option<f64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelMetrics {
    /// Frames with a position; the error metrics are 0 when this is 0.
    pub frames: usize,
    pub delay: f64,
    pub mean_error: f64,
    pub max_error: f64,
    pub speed_variation: f64,
    /// Frames that entered `speedVariation`.
    pub straight_frames: usize,
    pub stall_frames: usize,
    pub corner_cutting: f64,
    pub max_jump: f64,
}

/// Scores a track: its metrics and each frame's numbers.
pub fn score(truth: &TruthPath, track: Track, params: ScoreParams) -> (ModelMetrics, Vec<ModelFrame>) {
    let delay = params.truth_delay.unwrap_or_else(|| best_delay(truth, track));
    let frames: Vec<ModelFrame> = (0..track.positions.len()).map(|k| model_frame(truth, track, delay, k)).collect();
    let errors: Vec<f64> = frames.iter().filter_map(|f| f.error).collect();
    let speeds: Vec<f64> = frames.iter().filter_map(|f| f.speed).collect();
    let (speed_variation, straight_frames) = speed_variation(truth, track, delay, params.corner_margin);
    let metrics = ModelMetrics {
        frames: errors.len(),
        delay,
        mean_error: if errors.is_empty() { 0.0 } else { errors.iter().sum::<f64>() / errors.len() as f64 },
        max_error: errors.iter().copied().fold(0.0, f64::max),
        speed_variation,
        straight_frames,
        stall_frames: stall_frames(truth, track, delay, params.stall_speed_ratio),
        corner_cutting: frames.iter().filter_map(|f| f.off_path).fold(0.0, f64::max),
        max_jump: speeds.iter().fold(0.0_f64, |m, s| m.max(s * track.dt)),
    };
    (metrics, frames)
}

fn model_frame(truth: &TruthPath, track: Track, delay: f64, k: usize) -> ModelFrame {
    let position = track.positions[k];
    let truth_then = truth.position_at(track.time(k) - delay);
    ModelFrame {
        position,
        speed: track.speed(k),
        truth: truth_then,
        error: position.map(|p| p.distance(truth_then)),
        off_path: position.map(|p| truth.distance_to_path(p)),
    }
}

/// Mean error over every `stride`-th frame that has a position.
fn mean_error(truth: &TruthPath, track: Track, delay: f64, stride: usize) -> f64 {
    let (sum, count) = track
        .positions
        .iter()
        .enumerate()
        .step_by(stride)
        .filter_map(|(k, p)| p.map(|p| p.distance(truth.position_at(track.time(k) - delay))))
        .fold((0.0, 0usize), |(sum, count), e| (sum + e, count + 1));
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

/// The delay in `0..=MAX_TRUTH_DELAY` with the smallest mean error: a 10 ms grid over about a thousand of the
/// frames, then 1 ms steps around the best over all of them. Ties go to the shorter delay.
fn best_delay(truth: &TruthPath, track: Track) -> f64 {
    let argmin = |candidates: &mut dyn Iterator<Item = f64>, stride| {
        candidates
            .map(|d| (d, mean_error(truth, track, d, stride)))
            .fold((0.0, f64::INFINITY), |best, (d, e)| if e < best.1 { (d, e) } else { best })
            .0
    };
    let coarse_stride = track.positions.len().div_ceil(1000).max(1);
    let coarse = argmin(&mut (0..=500).map(|i| i as f64 * 0.01), coarse_stride);
    argmin(&mut (-10..=10).map(|i| (coarse + i as f64 * 0.001).clamp(0.0, MAX_TRUTH_DELAY)), 1)
}

fn speed_variation(truth: &TruthPath, track: Track, delay: f64, margin: f64) -> (f64, usize) {
    // (segment, model speed / truth speed) for every frame well inside a moving straight segment.
    let mut samples: Vec<(usize, f64)> = Vec::new();
    for k in 1..track.positions.len() {
        let (then, before) = (track.time(k) - delay, track.time(k - 1) - delay);
        let (Some(speed), Some(segment)) = (track.speed(k), truth.segment_at(then)) else { continue };
        let (start, end, truth_speed) = truth.segment(segment);
        if truth_speed > 1e-9 && before >= start + margin && then <= end - margin {
            samples.push((segment, speed / truth_speed));
        }
    }
    let mut sum_sq = 0.0;
    for group in samples.chunk_by(|a, b| a.0 == b.0) {
        let mean = group.iter().map(|s| s.1).sum::<f64>() / group.len() as f64;
        sum_sq += group.iter().map(|s| (s.1 - mean).powi(2)).sum::<f64>();
    }
    let variation = if samples.is_empty() { 0.0 } else { (sum_sq / samples.len() as f64).sqrt() };
    (variation, samples.len())
}

fn stall_frames(truth: &TruthPath, track: Track, delay: f64, ratio: f64) -> usize {
    (1..track.positions.len())
        .filter(|&k| {
            let (then, before) = (track.time(k) - delay, track.time(k - 1) - delay);
            let truth_speed = truth.position_at(before).distance(truth.position_at(then)) / track.dt;
            track.speed(k).is_some_and(|speed| truth_speed > 1e-9 && speed < ratio * truth_speed)
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    fn straight() -> TruthPath {
        TruthPath::at_speed(0.0, 100.0, &[(0.0, 0.0), (300.0, 0.0)]).unwrap()
    }

    fn params() -> ScoreParams {
        ScoreParams { truth_delay: None, stall_speed_ratio: 0.1, corner_margin: 0.1 }
    }

    #[test]
    fn a_copy_of_the_truth_half_a_second_late_scores_zero_at_delay_half_a_second() {
        let truth = straight();
        let positions: Vec<Option<Vec2>> = (0..=300).map(|k| Some(truth.position_at(k as f64 * 0.01 - 0.5))).collect();
        let (metrics, frames) = score(&truth, Track { start: 0.0, dt: 0.01, positions: &positions }, params());
        assert_relative_eq!(metrics.delay, 0.5, epsilon = 1e-9);
        assert!(metrics.max_error < 1e-9, "{metrics:?}");
        assert!(metrics.speed_variation < 1e-9 && metrics.straight_frames > 200, "{metrics:?}");
        assert_eq!(metrics.stall_frames, 0);
        assert!(metrics.corner_cutting < 1e-9);
        assert_relative_eq!(metrics.max_jump, 1.0, epsilon = 1e-9);
        assert_eq!(frames[0].speed, None);
        assert_relative_eq!(frames[100].speed.unwrap(), 100.0, epsilon = 1e-6);
    }

    #[test]
    fn a_track_that_stops_and_rushes_is_scored_as_stalls_and_speed_variation() {
        let truth = straight();
        // Stands still for 0.1 s, then covers 0.1 s of truth in one frame, repeatedly.
        let positions: Vec<Option<Vec2>> =
            (0..=300).map(|k| Some(truth.position_at(((k / 10) * 10) as f64 * 0.01))).collect();
        let fixed = ScoreParams { truth_delay: Some(0.0), ..params() };
        let (metrics, _) = score(&truth, Track { start: 0.0, dt: 0.01, positions: &positions }, fixed);
        assert_eq!(metrics.stall_frames, 270); // 9 of every 10 frames while the truth moves (0..3 s)
        assert!(metrics.speed_variation > 2.5, "{metrics:?}"); // speeds 0 (×9) and 10× the truth (×1)
        assert_relative_eq!(metrics.max_jump, 10.0, epsilon = 1e-9);
    }

    #[test]
    fn frames_without_a_position_are_left_out() {
        let positions = vec![None, None, Some(Vec2::new(0.0, 30.0))];
        let (metrics, frames) = score(&straight(), Track { start: 0.0, dt: 0.1, positions: &positions }, params());
        assert_eq!(metrics.frames, 1);
        assert_eq!(metrics.corner_cutting, 30.0);
        assert_eq!((frames[0].error, frames[2].speed), (None, None));
    }
}
