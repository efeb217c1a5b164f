//! Both models on the same batches, frame by frame, scored against the truth (what the comparison page draws).
//!
//! ```text
//!  batches (sorted by arrival) ──► at each frame t_k = truth.start + k/fps:
//!                                     every batch with arrival ≤ t_k:  timed.ingest(batch, arrival)
//!                                                                      lerp.ingest(batch)
//!                                     timed.sample(t_k)   lerp.step(1/fps)
//!                                  ──► per frame: position, speed, error, distance off the path (metrics.rs)
//!                                  ──► per model: ModelMetrics; and each ingest outcome with its time
//! ```
//!
//! The timed player receives each batch at its exact arrival time; the lerp chase has no notion of time and
//! retargets at the frame the batch arrived in, as a game loop that polls its socket once a frame would.

use crate::geom::Vec2;
use crate::param::{in_range, ParamError};
use crate::path::batch::PathBatch;
use crate::path::lerp_chase::{LerpChase, LerpCounters, LerpParams};
use crate::path::metrics::{score, ModelFrame, ModelMetrics, ScoreParams, Track, MAX_TRUTH_DELAY};
use crate::path::params::PathParams;
use crate::path::player::{Frame, IngestOutcome, PathCounters, PathPlayer};
use crate::path::truth::TruthPath;
use serde::{Deserialize, Serialize};

/// The most frames one comparison may run.
pub const MAX_FRAMES: usize = 1_000_000;

/// Parameters of one comparison run; the player's and the chase's parameters are flattened in (one
/// camelCase object: `fps`, `duration`, `speed`, `interpolationDelay`, `lerpFactor`, …).
///
/// | field | default | range |
/// |---|---|---|
/// | `fps` | 60 | 1..=1000 |
/// | `duration` | 10 s | 0..=3600 s |
/// | `truthDelay` | none: each model's best delay | 0..=5 s |
/// | `stallSpeedRatio` | 0.1 | 0..=1 |
/// | `cornerMargin` | 0.15 s | 0..=10 s |
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CompareParams {
    pub fps: f64,
    pub duration: f64,
    pub truth_delay: Option<f64>,
    pub stall_speed_ratio: f64,
    pub corner_margin: f64,
    #[serde(flatten)]
    pub path: PathParams,
    #[serde(flatten)]
    pub lerp: LerpParams,
}

impl Default for CompareParams {
    fn default() -> Self {
        CompareParams {
            fps: 60.0,
            duration: 10.0,
            truth_delay: None,
            stall_speed_ratio: 0.1,
            corner_margin: 0.15,
            path: PathParams::default(),
            lerp: LerpParams::default(),
        }
    }
}

impl CompareParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("fps", self.fps, 1.0, 1000.0, "fps")?;
        in_range("duration", self.duration, 0.0, 3600.0, "s")?;
        if self.duration * self.fps > MAX_FRAMES as f64 {
            return Err(ParamError::new("duration", format!("more than {MAX_FRAMES} frames at this fps")));
        }
        if let Some(delay) = self.truth_delay {
            in_range("truthDelay", delay, 0.0, MAX_TRUTH_DELAY, "s")?;
        }
        in_range("stallSpeedRatio", self.stall_speed_ratio, 0.0, 1.0, "")?;
        in_range("cornerMargin", self.corner_margin, 0.0, 10.0, "s")?;
        self.path.validate()?;
        self.lerp.validate()
    }

    fn score_params(&self) -> ScoreParams {
        ScoreParams {
            truth_delay: self.truth_delay,
            stall_speed_ratio: self.stall_speed_ratio,
            corner_margin: self.corner_margin,
        }
    }
}

/// One frame of the run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameRecord {
    pub time: f64,
    pub timed: ModelFrame,
    pub lerp: ModelFrame,
    /// The timed player's own frame: state, velocity, path, segment, buffered paths.
    pub player: Frame,
    /// The chase's target at this frame.
    pub lerp_target: Option<Vec2>,
}

/// What the timed player did with one batch (`batch` indexes the input slice).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestRecord {
    pub batch: usize,
    pub time: f64,
    pub outcome: IngestOutcome,
}

/// A whole run: every frame, every ingest, and the two models' metrics and counters.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub frames: Vec<FrameRecord>,
    pub ingests: Vec<IngestRecord>,
    pub timed: ModelMetrics,
    pub lerp: ModelMetrics,
    pub timed_counters: PathCounters,
    pub lerp_counters: LerpCounters,
}

/// Runs both models on `batches` from `truth.start()` for `duration` seconds at `fps`.
/// A batch with a non-finite `arrival` refuses the run (field `arrival`).
pub fn run(truth: &TruthPath, batches: &[PathBatch], params: &CompareParams) -> Result<Comparison, ParamError> {
    params.validate()?;
    if let Some(i) = batches.iter().position(|b| !b.arrival.is_finite()) {
        return Err(ParamError::new(
            "arrival",
            format!("batch {i}: {} is not a finite time", crate::words::num(batches[i].arrival)),
        ));
    }
    let mut timed = PathPlayer::new(params.path)?;
    let mut lerp = LerpChase::new(params.lerp)?;
    let mut order: Vec<usize> = (0..batches.len()).collect();
    order.sort_by(|&a, &b| batches[a].arrival.total_cmp(&batches[b].arrival));
    let (start, dt) = (truth.start(), 1.0 / params.fps);
    let frame_count = (params.duration * params.fps + 1e-9).floor() as usize + 1;

    let mut ingests = Vec::with_capacity(batches.len());
    let mut next = 0;
    let mut raw: Vec<(f64, Frame, Option<Vec2>, Option<Vec2>)> = Vec::with_capacity(frame_count);
    for k in 0..frame_count {
        let now = start + k as f64 * dt;
        while let Some(&i) = order.get(next).filter(|&&i| batches[i].arrival <= now) {
            let outcome = timed.ingest(&batches[i], batches[i].arrival);
            lerp.ingest(&batches[i]);
            ingests.push(IngestRecord { batch: i, time: batches[i].arrival, outcome });
            next += 1;
        }
        let frame = timed.sample(now);
        let lerp_position = lerp.step(dt);
        raw.push((now, frame, lerp_position, lerp.target()));
    }

    let timed_positions: Vec<Option<Vec2>> = raw.iter().map(|r| r.1.position).collect();
    let lerp_positions: Vec<Option<Vec2>> = raw.iter().map(|r| r.2).collect();
    let (timed_metrics, timed_frames) =
        score(truth, Track { start, dt, positions: &timed_positions }, params.score_params());
    let (lerp_metrics, lerp_frames) =
        score(truth, Track { start, dt, positions: &lerp_positions }, params.score_params());
    let frames = raw
        .iter()
        .zip(timed_frames.into_iter().zip(lerp_frames))
        .map(|(&(time, player, _, lerp_target), (timed, lerp))| FrameRecord { time, timed, lerp, player, lerp_target })
        .collect();
    Ok(Comparison {
        frames,
        ingests,
        timed: timed_metrics,
        lerp: lerp_metrics,
        timed_counters: timed.counters().clone(),
        lerp_counters: lerp.counters().clone(),
    })
}
