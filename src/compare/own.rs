//! The page's own pipeline as one of the strategies: a simulated run has already played the articles' pipeline
//! with the page's settings on its log, frame by frame, so `playground` is read and scored from the run's frame
//! rows (never replayed), and a seeds' reference whose buffer and clock are the run's own follows what the run
//! played (`engines::reference::Following`) rather than stepping the same buffer and clock again. Both give the
//! very bits a replay gives (`tests/engines/league.rs`, `tests/engines/reference.rs`).
//!
//! ```text
//!  sim frame rows ──► FrameModes::shown ──► Shown {render time, position, mode} ──► engines::score::Scorer
//!                └──► played_row        ──► Played {render time, status, position} ──► reference::Following
//! ```

use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::engines::reference::Played;
use crate::engines::score::{Scorer, Scoring, StrategyMetrics, STRIDE};
use crate::engines::{Setup, Shown, ShownMode, StrategyKind};
use crate::geom::Vec2;
use crate::param::ParamError;
use crate::run::{ClientInput, Timeline, TruthTrack};
use crate::sim::metrics::RemoteMetrics;
use crate::sim::record::frame;

/// How the run's own frames say what the `playground` strategy shows: its render time and position, with the
/// mode `reference::Article` gives.
pub struct FrameModes {
    ready: f64,
    underrun: f64,
    extrapolated: f64,
}

impl Default for FrameModes {
    fn default() -> Self {
        let code =
            |status: SampleStatus| SampleStatus::ALL.iter().position(|s| *s == status).map_or(-1.0, |i| i as f64);
        let extrapolated =
            DisplayMode::ALL.iter().position(|m| *m == DisplayMode::Extrapolated).map_or(-1.0, |i| i as f64);
        FrameModes { ready: code(SampleStatus::Ready), underrun: code(SampleStatus::Underrun), extrapolated }
    }
}

impl FrameModes {
    /// What the frame row `r` (`sim::record::frame` columns) shows.
    pub fn shown(&self, r: &[f64]) -> Shown {
        let (x, y, status) = (r[frame::X], r[frame::Y], r[frame::STATUS]);
        let mode = if status == self.underrun {
            if r[frame::MODE] == self.extrapolated {
                ShownMode::Extrapolated
            } else {
                ShownMode::Held
            }
        } else if !(x.is_finite() && y.is_finite()) {
            ShownMode::Nothing
        } else if status == self.ready {
            ShownMode::Interpolated
        } else {
            ShownMode::Waiting
        };
        let position = Vec2::new(x, y);
        Shown { position: position.is_finite().then_some(position), render_time: r[frame::RENDER_TIME], mode }
    }
}

/// The run's own frames as its pipeline played them ([`Played`]: what a reference that follows the run reads).
pub fn played_of(frames: &Timeline) -> impl Iterator<Item = Played> + '_ {
    frames.each_row().map(played_row)
}

/// What the frame row `r` (`sim::record::frame` columns) says the run's pipeline played.
#[inline(always)]
pub fn played_row(r: &[f64]) -> Played {
    // The status column holds the index in `SampleStatus::ALL` (`sim::record`), always one of them; Ready, nearly
    // every frame, is told without the conversion.
    const READY: f64 = 1.0;
    debug_assert_eq!(SampleStatus::ALL[READY as usize], SampleStatus::Ready);
    let code = r[frame::STATUS];
    let status = if code == READY {
        SampleStatus::Ready
    } else {
        SampleStatus::ALL.get(code as usize).copied().unwrap_or(SampleStatus::ClockUncertain)
    };
    Played { render_time: r[frame::RENDER_TIME], status, position: Vec2::new(r[frame::X], r[frame::Y]) }
}

/// The `playground` strategy's rows read from the run's own frames.
pub fn rows_from_frames(frames: &Timeline) -> Vec<f64> {
    let modes = FrameModes::default();
    let mut rows = Vec::with_capacity(frames.len() * STRIDE);
    for r in frames.each_row() {
        let shown = modes.shown(r);
        rows.extend_from_slice(&[shown.render_time, r[frame::X], r[frame::Y], shown.mode.code()]);
    }
    rows
}

/// The `playground` strategy scored from the run's own frames, without a replay (the same metrics as a replay
/// gives, bit for bit).
pub fn score_frames(frames: &Timeline, truth: &TruthTrack) -> StrategyMetrics {
    let modes = FrameModes::default();
    let mut scorer = Scorer::new(StrategyKind::Playground, frames.len());
    for r in frames.each_row() {
        scorer.push(r[frame::DT], r[frame::SERVER_NOW], &modes.shown(r));
    }
    scorer.finish(truth)
}

/// The `playground` strategy scored from the run's own frames and the run's own remote metrics (`metrics`,
/// `sim::metrics::remote_metrics` of those frames): the track's metrics are the run's `shown` track — the same
/// points (the frames' shown positions) scored around the same guess (the mean lag) by the same track metrics —
/// so only the counts are read from the frames. Should the run's mean lag differ in any bit from the one the
/// frames give (it cannot, unless `metrics` belong to other frames), the track is scored from the frames after all.
pub fn score_frames_with(frames: &Timeline, truth: &TruthTrack, metrics: &RemoteMetrics) -> StrategyMetrics {
    let modes = FrameModes::default();
    let mut scorer = Scorer::counting(StrategyKind::Playground);
    for r in frames.each_row() {
        scorer.push(r[frame::DT], r[frame::SERVER_NOW], &modes.shown(r));
    }
    if scorer.mean_lag().to_bits() == metrics.mean_lag.to_bits() {
        scorer.finish_with(metrics.shown)
    } else {
        score_frames(frames, truth)
    }
}

/// What the page's own pipeline already did on the log being scored: its frames, and the run's remote metrics
/// when they have been computed (the full re-simulation computes them; `Simulation::metrics`).
#[derive(Clone, Copy, Debug)]
pub struct OwnRun<'a> {
    pub frames: &'a Timeline,
    pub metrics: Option<&'a RemoteMetrics>,
}

/// Every strategy of `kinds` scored on one log, in order: the one path every comparison takes. `own`, when
/// given, is what the page's pipeline recorded on that very log: `playground` is then read from its frames (its
/// track from the run's metrics, when they are there) and a reference that follows the run follows them. It must
/// hold one row per frame of the log; otherwise everything is replayed.
pub fn score_all(
    setup: &Setup,
    kinds: &[StrategyKind],
    inputs: &[ClientInput],
    truth: &TruthTrack,
    own: Option<OwnRun>,
) -> Result<Vec<StrategyMetrics>, ParamError> {
    let mut scoring = Scoring::new(inputs, truth);
    let own = own.filter(|own| own.frames.dropped() == 0 && own.frames.len() == scoring.frames());
    kinds
        .iter()
        .map(|&kind| match (kind, own) {
            (StrategyKind::Playground, Some(OwnRun { frames, metrics: Some(metrics) })) => {
                Ok(score_frames_with(frames, truth, metrics))
            }
            (StrategyKind::Playground, Some(OwnRun { frames, metrics: None })) => Ok(score_frames(frames, truth)),
            (_, Some(OwnRun { frames, .. })) if setup.follows_run(kind) => {
                scoring.score_following(setup, kind, &played_of(frames).collect::<Vec<_>>())
            }
            _ => scoring.score(setup, kind),
        })
        .collect()
}
