//! What a run reports of each view against the truth: the remote view's statuses and each underrun policy's
//! track, both path models' tracks, the local player's corrections and smoothing modes. Each track is read from
//! the frame timeline's columns and scored by the run contract's track metrics (`crate::run::track`: the best-fit
//! shift, the error after it, stalls, snaps, jerk).

use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::geom::Vec2;
use crate::run::track::{metrics_of_track, ShownTrack, TrackColumns, TrackMetrics};
use crate::run::{Timeline, TruthTrack};
use crate::sim::record::frame;
use serde::Serialize;

/// Metrics of the track whose x is in `x_column` of the frame rows (y next to it), shifted around `guess` seconds.
pub fn track_metrics(frames: &Timeline, x_column: usize, truth: &TruthTrack, guess: f64) -> TrackMetrics {
    let columns = TrackColumns { dt: frame::DT, server_now: frame::SERVER_NOW, x: x_column };
    metrics_of_track(&ShownTrack::of_rows(frames, columns), truth, guess)
}

/// How the buffer's samples were spread over the statuses, as shares of frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusShare {
    pub priming: f64,
    pub ready: f64,
    pub underrun: f64,
    pub gap: f64,
    pub clock_uncertain: f64,
    pub invalid_interval: f64,
}

/// Remote-view metrics: the buffer's statuses and each underrun policy's track.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RemoteMetrics {
    pub status_share: StatusShare,
    /// Share of frames (0..1) whose sample was an underrun.
    pub underrun_share: f64,
    /// Share of frames (0..1) the chosen policy extrapolated.
    pub extrapolation_share: f64,
    /// Mean of (true server now − render time): the lag the clock and delay aim for.
    pub mean_lag: f64,
    /// The chosen policy's track.
    pub shown: TrackMetrics,
    pub hold: TrackMetrics,
    pub extrapolate_seed: TrackMetrics,
    pub extrapolate_decay: TrackMetrics,
    pub snap: TrackMetrics,
    pub hide: TrackMetrics,
}

/// Computes the remote metrics from the frame timeline.
pub fn remote_metrics(frames: &Timeline, truth: &TruthTrack) -> RemoteMetrics {
    let n = frames.len().max(1) as f64;
    let share = |status: SampleStatus| {
        let code = SampleStatus::ALL.iter().position(|s| *s == status).unwrap_or(0) as f64;
        frames.column(frame::STATUS).filter(|c| *c == code).count() as f64 / n
    };
    let status_share = StatusShare {
        priming: share(SampleStatus::Priming),
        ready: share(SampleStatus::Ready),
        underrun: share(SampleStatus::Underrun),
        gap: share(SampleStatus::Gap),
        clock_uncertain: share(SampleStatus::ClockUncertain),
        invalid_interval: share(SampleStatus::InvalidInterval),
    };
    let extrapolated = DisplayMode::ALL.iter().position(|m| *m == DisplayMode::Extrapolated).unwrap_or(1) as f64;
    let lags: Vec<f64> = (0..frames.len())
        .filter_map(|i| frames.row(i).map(|r| r[frame::SERVER_NOW] - r[frame::RENDER_TIME]))
        .filter(|l| l.is_finite())
        .collect();
    let mean_lag = lags.iter().sum::<f64>() / lags.len().max(1) as f64;
    let per = |column| track_metrics(frames, column, truth, mean_lag);
    RemoteMetrics {
        status_share,
        underrun_share: status_share.underrun,
        extrapolation_share: frames.column(frame::MODE).filter(|m| *m == extrapolated).count() as f64 / n,
        mean_lag,
        shown: per(frame::X),
        hold: per(frame::HOLD_X),
        extrapolate_seed: per(frame::SEED_X),
        extrapolate_decay: per(frame::DECAY_X),
        snap: per(frame::SNAP_X),
        hide: per(frame::HIDE_X),
    }
}

/// Both path models' tracks.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathTrackMetrics {
    pub timed: TrackMetrics,
    pub lerp: TrackMetrics,
    /// Standard deviation of frame speed while the timed player moves, over its mean (≈ 0 on straight runs).
    pub timed_speed_variation: f64,
    pub lerp_speed_variation: f64,
}

pub fn path_metrics(frames: &Timeline, truth: &TruthTrack, playback_delay: f64) -> PathTrackMetrics {
    let variation = |column: usize| {
        let speeds: Vec<f64> = (0..frames.len())
            .filter_map(|i| frames.row(i))
            .filter(|r| r[frame::PATH_MOVING] == 1.0 && r[column].is_finite())
            .map(|r| r[column])
            .collect();
        let mean = speeds.iter().sum::<f64>() / speeds.len().max(1) as f64;
        let var = speeds.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / speeds.len().max(1) as f64;
        if mean > 0.0 {
            var.sqrt() / mean
        } else {
            0.0
        }
    };
    PathTrackMetrics {
        timed: track_metrics(frames, frame::TIMED_X, truth, playback_delay),
        lerp: track_metrics(frames, frame::LERP_X, truth, playback_delay),
        timed_speed_variation: variation(frame::TIMED_SPEED),
        lerp_speed_variation: variation(frame::LERP_SPEED),
    }
}

/// The local player: how big the corrections were and how each smoothing mode shows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalModeMetrics {
    /// RMS distance between what is drawn and the prediction (the lag or offset the eye sees).
    pub rms_offset: f64,
    pub max_offset: f64,
    /// Largest single-frame jump beyond the prediction's own step.
    pub max_jump: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalMetrics {
    pub corrections: u64,
    pub mean_correction: f64,
    pub max_correction: f64,
    pub half_life: LocalModeMetrics,
    pub snap: LocalModeMetrics,
    pub first_version: LocalModeMetrics,
    pub linear: LocalModeMetrics,
}

pub fn local_metrics(frames: &Timeline, corrections: &Timeline) -> LocalMetrics {
    use crate::sim::record::correction;
    let sizes: Vec<f64> = corrections.column(correction::SIZE).filter(|s| *s > 1e-9).collect();
    let mode = |x: usize| {
        let (mut sum_sq, mut max, mut jump, mut n) = (0.0, 0.0f64, 0.0f64, 0usize);
        let mut previous: Option<(Vec2, Vec2)> = None;
        for r in (0..frames.len()).filter_map(|i| frames.row(i)) {
            let shown = Vec2::new(r[x], r[x + 1]);
            let predicted = Vec2::new(r[frame::PREDICTED_X], r[frame::PREDICTED_Y]);
            if !shown.is_finite() || !predicted.is_finite() {
                continue;
            }
            let offset = shown.distance(predicted);
            sum_sq += offset * offset;
            max = max.max(offset);
            n += 1;
            if let Some((s0, p0)) = previous {
                jump = jump.max(((shown - s0) - (predicted - p0)).length());
            }
            previous = Some((shown, predicted));
        }
        LocalModeMetrics { rms_offset: (sum_sq / n.max(1) as f64).sqrt(), max_offset: max, max_jump: jump }
    };
    LocalMetrics {
        corrections: sizes.len() as u64,
        mean_correction: sizes.iter().sum::<f64>() / sizes.len().max(1) as f64,
        max_correction: sizes.iter().copied().fold(0.0, f64::max),
        half_life: mode(frame::LOCAL_HALF_LIFE_X),
        snap: mode(frame::LOCAL_SNAP_X),
        first_version: mode(frame::LOCAL_FIRST_X),
        linear: mode(frame::LOCAL_LINEAR_X),
    }
}
