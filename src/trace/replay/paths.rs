//! Replaying path batches: the timed player and the lerp chase on the same batches (seed 001).
//!
//! ```text
//!  local ─►  0.0 arrival        0.12 start (interpolationDelay)       0.77 = 0.12 + 650 ms
//!  timed     ingest at arrival ─► [ S1 ──── S2 ─── S3 ]                 sample(t) → (60, 18)
//!  lerp      frames f_k = sampleAt[0] + k/fps:  take batches with arrival ≤ f_k, then pos += (target − pos)·factor
//!  samples   ▲    ▲    ▲    ▲  … one per sampleAt: timed at t, lerp after the last frame f_k ≤ t
//! ```
//! The timed player is a function of time, so it is sampled at exactly `t`. The chase is a function of frame
//! *count*, so it runs on its own frame grid at `fps`, starting at the first sample; a sample shows where the
//! chase stands after the last frame at or before it (within [`FRAME_EPSILON`]).

use crate::geom::Vec2;
use crate::path::batch::PathBatch;
use crate::path::lerp_chase::{LerpChase, LerpCounters};
use crate::path::player::{Frame, PathCounters, PathPlayer, PlaybackState};
use crate::trace::{TraceBatch, TraceError, TraceParams};
use serde::Serialize;

/// A lerp frame this close after a sample time still counts as at or before it (rounding of `k / fps`).
pub const FRAME_EPSILON: f64 = 1e-9;

/// A position, `null`/`null` when there is none.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    pub x: Option<f64>,
    pub y: Option<f64>,
}

impl Point {
    fn of(p: Option<Vec2>) -> Self {
        Point { x: p.map(|p| p.x), y: p.map(|p| p.y) }
    }
}

/// The timed player's position and state.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimedPoint {
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub state: PlaybackState,
}

impl TimedPoint {
    fn of(frame: &Frame) -> Self {
        let Point { x, y } = Point::of(frame.position);
        TimedPoint { x, y, state: frame.state }
    }
}

/// One sample of a path replay.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PathSample {
    pub local: f64,
    pub timed: TimedPoint,
    pub lerp: Point,
}

/// The timed player's counters (flat), the chase's counters, and how many chase frames ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathMetrics {
    #[serde(flatten)]
    pub timed: PathCounters,
    pub lerp: LerpCounters,
    pub lerp_frames: u64,
}

/// The chase's frames: `start + k · dt`.
struct FrameGrid {
    start: f64,
    dt: f64,
    next: u64,
}

impl FrameGrid {
    /// The time of the next frame if it is at or before `t`, advancing past it.
    fn next_until(&mut self, t: f64) -> Option<f64> {
        let time = self.start + self.next as f64 * self.dt;
        (time <= t + FRAME_EPSILON).then(|| {
            self.next += 1;
            time
        })
    }
}

pub(super) fn replay(
    params: &TraceParams,
    batches: &[TraceBatch],
    sample_at: &[f64],
) -> Result<(Vec<PathSample>, PathMetrics), TraceError> {
    let mut timed = PathPlayer::new(params.path()).map_err(TraceError::param)?;
    let mut lerp = LerpChase::new(params.lerp()).map_err(TraceError::param)?;
    let mut order: Vec<PathBatch> = batches.iter().map(TraceBatch::batch).collect();
    order.sort_by(|a, b| a.arrival.total_cmp(&b.arrival));
    let dt = 1.0 / params.fps();
    let mut grid = FrameGrid { start: sample_at.first().copied().unwrap_or(0.0), dt, next: 0 };
    let (mut to_timed, mut to_lerp) = (0, 0);
    let mut samples = Vec::with_capacity(sample_at.len());
    for &t in sample_at {
        while let Some(b) = order.get(to_timed).filter(|b| b.arrival <= t) {
            timed.ingest(b, b.arrival);
            to_timed += 1;
        }
        while let Some(frame_time) = grid.next_until(t) {
            while let Some(b) = order.get(to_lerp).filter(|b| b.arrival <= frame_time) {
                lerp.ingest(b);
                to_lerp += 1;
            }
            lerp.step(dt);
        }
        let frame = timed.sample(t);
        samples.push(PathSample { local: t, timed: TimedPoint::of(&frame), lerp: Point::of(lerp.position()) });
    }
    for b in &order[to_timed..] {
        timed.ingest(b, b.arrival);
    }
    for b in &order[to_lerp..] {
        lerp.ingest(b);
    }
    let metrics =
        PathMetrics { timed: timed.counters().clone(), lerp: lerp.counters().clone(), lerp_frames: grid.next };
    Ok((samples, metrics))
}
