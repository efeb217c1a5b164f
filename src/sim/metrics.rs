//! Quality metrics of a run, per strategy, against the truth.
//!
//! A remote view is *meant* to be late, so its error is measured after the best-fit time shift: the lag `τ`
//! that makes the shown track match the truth best ("added latency"). What is left is the shape error
//! (corners cut, overshoot, freezes, pops). For each track, over the frames where something is shown:
//!
//! | metric | meaning |
//! |---|---|
//! | `addedLatency` | the best-fit shift τ (s): how far behind the truth the track runs |
//! | `rmsError`, `maxError` | distance to the truth shifted by τ (world units) |
//! | `stalls` | frames that did not move while the shifted truth moved |
//! | `snaps` | frames whose step differs from the truth's step by more than `SNAP_DISTANCE` (a visible pop) |
//! | `jerk` | RMS of the third difference of position over dt³ (units/s³): how jerky the motion looks |
//! | `shown` | share of frames with a position |
//!
//! Cost: every strategy of the league and every policy of a run is scored here, so the truth is looked up as
//! rarely as the result allows — once per shown frame in a single pass for all the per-frame metrics, and in the
//! shift scan only until a shift is proven worse than the best so far (the scan goes outwards from the guess, where
//! the best usually is). Both give the very numbers of the plain computation (the tests below hold the plain scan).
//! A track is gathered as its shown points only ([`ShownTrack`]: no slot per unshown frame, the breaks between
//! runs kept aside), so the scan picks its points by index and the pass walks them without a check per frame.

use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::geom::Vec2;
use crate::sim::record::frame;
use crate::sim::timeline::Timeline;
use crate::sim::world::TruthTrack;
use serde::Serialize;

/// A frame step that differs from the truth's step by more than this (world units) is a snap.
pub const SNAP_DISTANCE: f64 = 8.0;
/// Below this a frame step counts as "not moving" (world units).
const STILL: f64 = 1e-3;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackMetrics {
    pub shown: f64,
    pub added_latency: f64,
    pub rms_error: f64,
    pub max_error: f64,
    pub stalls: u64,
    pub snaps: u64,
    pub jerk: f64,
}

/// One frame of a track: its length, the true server time, and the position shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub dt: f64,
    pub server_now: f64,
    pub pos: Vec2,
}

/// A track's shown frames, in frame order, gathered without a slot for the frames that show nothing: the shown
/// points themselves, where a run of consecutive shown frames was broken by unshown ones, and how many frames there
/// were in all. The metrics read it in place ([`metrics_of_track`]): the shift scan picks its points by index, the
/// per-frame pass walks the runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShownTrack {
    points: Vec<Point>,
    /// Indices into `points` where a run starts after unshown frames (ascending; never 0).
    breaks: Vec<usize>,
    /// Frames pushed, shown or not.
    frames: usize,
    /// Whether an unshown frame came since the last shown one.
    broken: bool,
}

impl ShownTrack {
    /// An empty track with room for `frames` shown frames.
    pub fn with_capacity(frames: usize) -> Self {
        ShownTrack { points: Vec::with_capacity(frames), ..ShownTrack::default() }
    }

    /// Empties the track, keeping its memory (one buffer scores one strategy after another).
    pub fn clear(&mut self) {
        self.points.clear();
        self.breaks.clear();
        (self.frames, self.broken) = (0, false);
    }

    /// The next frame: `Some` where something was shown.
    #[inline(always)]
    pub fn push(&mut self, point: Option<Point>) {
        self.frames += 1;
        match point {
            Some(p) => {
                if self.broken {
                    if !self.points.is_empty() {
                        self.breaks.push(self.points.len());
                    }
                    self.broken = false;
                }
                self.points.push(p);
            }
            None => self.broken = true,
        }
    }

    /// Frames pushed, shown or not.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The shown points, in frame order.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// The runs of consecutive shown frames, in order.
    fn runs(&self) -> impl Iterator<Item = &[Point]> {
        let starts = std::iter::once(0).chain(self.breaks.iter().copied());
        let ends = self.breaks.iter().copied().chain(std::iter::once(self.points.len()));
        starts.zip(ends).map(|(a, b)| &self.points[a..b])
    }
}

/// The track whose x is in `x_column` (y next to it), read from the frames.
fn track(frames: &Timeline, x_column: usize) -> ShownTrack {
    let mut shown = ShownTrack::with_capacity(frames.len());
    for i in 0..frames.len() {
        let r = frames.row(i).expect("in range");
        let pos = Vec2::new(r[x_column], r[x_column + 1]);
        shown.push(pos.is_finite().then(|| Point { dt: r[frame::DT], server_now: r[frame::SERVER_NOW], pos }));
    }
    shown
}

/// The squared distance between a shown point and the truth `tau` seconds before it.
#[inline(always)]
fn square_error(p: &Point, truth: &TruthTrack, tau: f64) -> f64 {
    (p.pos - truth.at(p.server_now - tau)).length().powi(2)
}

fn mean_square_error(points: &[&Point], truth: &TruthTrack, tau: f64) -> f64 {
    let sum: f64 = points.iter().map(|p| square_error(p, truth, tau)).sum();
    sum / points.len().max(1) as f64
}

/// [`mean_square_error`], the very same number, or `None` as soon as a partial sum shows it exceeds `bound`: the
/// terms are ≥ 0, so the running sum never falls, and rounding keeps `sum / n` from falling below `partial / n`.
/// The sum is the same left-to-right fold from −0.0 that `Iterator::sum` does.
fn mean_square_error_below(points: &[&Point], truth: &TruthTrack, tau: f64, bound: f64) -> Option<f64> {
    /// Points summed between two looks at the bound (a division each).
    const CHUNK: usize = 16;
    let n = points.len().max(1) as f64;
    let mut sum = -0.0;
    for chunk in points.chunks(CHUNK) {
        sum = chunk.iter().fold(sum, |s, p| s + square_error(p, truth, tau));
        if sum / n > bound {
            return None;
        }
    }
    Some(sum / n)
}

/// [`best_shift_on`] the points [`scan_points`] picks from `points` (the tests' entry: a list of shown points).
#[cfg(test)]
fn best_shift(points: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
    let coarse: Vec<&Point> = points.iter().step_by(points.len().div_ceil(COARSE).max(1)).copied().collect();
    let fine: Vec<&Point> = points.iter().step_by(points.len().div_ceil(FINE).max(1)).copied().collect();
    best_shift_on(&coarse, &fine, truth, guess)
}

/// Points the shift scan looks at: at most this many on the grid, twice as many for the parabola.
const COARSE: usize = 150;
const FINE: usize = 300;

/// The shown points the shift scan reads ([`best_shift_on`]): every `⌈shown / COARSE⌉`-th (and
/// `⌈shown / FINE⌉`-th) shown point from the first.
fn scan_points(points: &[Point]) -> (Vec<&Point>, Vec<&Point>) {
    let shown = points.len();
    let (coarse_step, fine_step) = (shown.div_ceil(COARSE).max(1), shown.div_ceil(FINE).max(1));
    (points.iter().step_by(coarse_step).collect(), points.iter().step_by(fine_step).collect())
}

/// The shift τ near `guess` that minimises the squared error: a scan of a 20 ms grid within ±0.3 s of the guess on
/// `coarse` (at most `COARSE` of the shown points), then the vertex of a parabola through the best grid point and
/// its neighbours on `fine` (at most `FINE`).
fn best_shift_on(coarse: &[&Point], fine: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
    const STEP: f64 = 0.02;
    let (lo, hi) = ((guess - 0.3).max(-0.5), (guess + 0.3).min(3.0));
    let steps = ((hi - lo) / STEP).ceil() as usize;
    // The grid point lo + i·STEP with the lowest error, the first (lowest i) of equal ones. The scan starts at the
    // grid point nearest the guess and goes outwards, so the best is found early and most other shifts are
    // abandoned part-way ([`mean_square_error_below`]); the winner is the one a plain scan from `lo` finds.
    let start = ((guess - lo) / STEP).round().clamp(0.0, steps as f64) as usize;
    let outwards = (0..=2 * steps).filter_map(|k| {
        let i = if k % 2 == 0 { start.checked_add(k / 2) } else { start.checked_sub(k.div_ceil(2)) };
        i.filter(|&i| i <= steps)
    });
    let mut best: Option<(f64, usize)> = None;
    for i in outwards {
        let tau = lo + i as f64 * STEP;
        let bound = best.map_or(f64::INFINITY, |(e, _)| e);
        let Some(e) = mean_square_error_below(coarse, truth, tau, bound) else { continue };
        let better = match best {
            None => e < f64::INFINITY,
            Some((b, bi)) => e < b || (e == b && i < bi),
        };
        if better {
            best = Some((e, i));
        }
    }
    let t = best.map_or(guess, |(_, i)| lo + i as f64 * STEP);
    // The squared error is close to a parabola near its minimum: fit one through the best grid point and its
    // neighbours (on more points) and take its vertex, kept within one grid step.
    let [a, b, c] = [t - STEP, t, t + STEP].map(|tau| mean_square_error(fine, truth, tau));
    let curvature = a - 2.0 * b + c;
    if curvature <= 0.0 {
        return t;
    }
    t + (STEP * (a - c) / (2.0 * curvature)).clamp(-STEP, STEP)
}

/// Metrics of the track whose x is in `x_column` (y next to it), shifted around `guess` seconds.
pub fn track_metrics(frames: &Timeline, x_column: usize, truth: &TruthTrack, guess: f64) -> TrackMetrics {
    metrics_of_track(&track(frames, x_column), truth, guess)
}

/// Metrics of a track given frame by frame (`None` where nothing is shown), shifted around `guess` seconds.
pub fn metrics_of(points: &[Option<Point>], truth: &TruthTrack, guess: f64) -> TrackMetrics {
    let mut track = ShownTrack::with_capacity(points.len());
    for p in points {
        track.push(*p);
    }
    metrics_of_track(&track, truth, guess)
}

/// [`metrics_of`] a track already gathered as a [`ShownTrack`].
pub fn metrics_of_track(track: &ShownTrack, truth: &TruthTrack, guess: f64) -> TrackMetrics {
    let shown = track.points.len();
    if shown == 0 {
        return TrackMetrics::default();
    }
    let (coarse, fine) = scan_points(&track.points);
    let tau = best_shift_on(&coarse, &fine, truth, if guess.is_finite() { guess } else { 0.1 });
    let mut metrics =
        TrackMetrics { shown: shown as f64 / track.frames as f64, added_latency: tau, ..TrackMetrics::default() };
    // One pass in frame order: each shown frame against the truth τ before it (evaluated once), and every four
    // consecutive shown frames (a, b, c, d) for the stall, snap and jerk of the step c → d. The frames just
    // before this one are kept as the few numbers these read (positions of a, b, c; the lengths of b and c; c's
    // truth), not as whole points; `run` counts the shown frames in a row before this one (an unshown frame starts a
    // new run).
    let (mut sum_sq, mut max) = (0.0, 0.0f64);
    let (mut jerk_sum, mut jerk_n) = (0.0, 0usize);
    let (mut pos_a, mut pos_b, mut pos_c, mut truth_c) = (Vec2::ZERO, Vec2::ZERO, Vec2::ZERO, Vec2::ZERO);
    let (mut dt_b, mut dt_c) = (0.0, 0.0);
    for r in track.runs() {
        for (run, d) in r.iter().enumerate() {
            let td = truth.at(d.server_now - tau);
            let e = (d.pos - td).length();
            (sum_sq, max) = (sum_sq + e * e, max.max(e));
            if run >= 3 {
                let step = d.pos - pos_c;
                let truth_step = td - truth_c;
                if step.length() < STILL && truth_step.length() > 10.0 * STILL {
                    metrics.stalls += 1;
                }
                if (step - truth_step).length() > SNAP_DISTANCE {
                    metrics.snaps += 1;
                }
                let dt = d.dt;
                if dt > 0.0 && (dt_b - dt).abs() < 1e-9 && (dt_c - dt).abs() < 1e-9 {
                    let third = d.pos - pos_c * 3.0 + pos_b * 3.0 - pos_a;
                    jerk_sum += (third.length() / dt.powi(3)).powi(2);
                    jerk_n += 1;
                }
            }
            (pos_a, pos_b, pos_c, truth_c) = (pos_b, pos_c, d.pos, td);
            (dt_b, dt_c) = (dt_c, d.dt);
        }
    }
    metrics.rms_error = (sum_sq / shown as f64).sqrt();
    metrics.max_error = max;
    metrics.jerk = if jerk_n > 0 { (jerk_sum / jerk_n as f64).sqrt() } else { 0.0 };
    metrics
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::motion::MotionScript;

    /// The scan `best_shift` must agree with: every grid point from `lo` up, in order, each summed in full, the
    /// first strictly lower error kept (what this module did before the outward scan with early exits).
    fn plain_best_shift(points: &[&Point], truth: &TruthTrack, guess: f64) -> f64 {
        const STEP: f64 = 0.02;
        let coarse: Vec<&Point> = points.iter().step_by(points.len().div_ceil(150).max(1)).copied().collect();
        let fine: Vec<&Point> = points.iter().step_by(points.len().div_ceil(300).max(1)).copied().collect();
        let (lo, hi) = ((guess - 0.3).max(-0.5), (guess + 0.3).min(3.0));
        let steps = ((hi - lo) / STEP).ceil() as usize;
        let mut best = (f64::INFINITY, guess);
        for i in 0..=steps {
            let tau = lo + i as f64 * STEP;
            let e = mean_square_error(&coarse, truth, tau);
            if e < best.0 {
                best = (e, tau);
            }
        }
        let t = best.1;
        let [a, b, c] = [t - STEP, t, t + STEP].map(|tau| mean_square_error(&fine, truth, tau));
        let curvature = a - 2.0 * b + c;
        if curvature <= 0.0 {
            return t;
        }
        t + (STEP * (a - c) / (2.0 * curvature)).clamp(-STEP, STEP)
    }

    /// A track that follows `truth` `lag` seconds late, with a deterministic wobble of `noise` units, 60 fps.
    fn late_track(truth: &TruthTrack, lag: f64, noise: f64, frames: usize, seed: u64) -> Vec<Point> {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut wobble = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0 * noise
        };
        (0..frames)
            .map(|i| {
                let server_now = 2.0 + i as f64 / 60.0;
                let pos = truth.at(server_now - lag) + Vec2::new(wobble(), wobble());
                Point { dt: 1.0 / 60.0, server_now, pos }
            })
            .collect()
    }

    /// The outward scan with early exits finds, bit for bit, the shift the plain scan finds: on every motion
    /// script, lags inside and outside the searched window, clean and noisy tracks, guesses near and far. A bound
    /// compared with `>=` instead of `>`, or a tie won by the later grid point, turns it red (see the next test).
    #[test]
    fn the_outward_scan_finds_the_plain_scans_shift() {
        for script in MotionScript::ALL {
            let truth = TruthTrack::new(script, 120.0);
            for (k, (lag, noise, guess)) in [
                (0.1, 0.0, 0.1),
                (0.1, 3.0, 0.25),
                (0.17, 1.0, 0.0),
                (0.45, 0.5, 0.1),
                (0.8, 8.0, 0.2),
                (0.05, 20.0, -0.4),
                (2.9, 2.0, 2.8),
            ]
            .into_iter()
            .enumerate()
            {
                let points = late_track(&truth, lag, noise, 1800 + 37 * k, k as u64);
                let refs: Vec<&Point> = points.iter().collect();
                let (fast, plain) = (best_shift(&refs, &truth, guess), plain_best_shift(&refs, &truth, guess));
                assert_eq!(fast.to_bits(), plain.to_bits(), "{script:?} lag {lag} noise {noise} guess {guess}");
            }
        }
    }

    /// The per-frame pass as it was over a slot per frame (`None` where nothing is shown; a `None` ends a run of
    /// shown frames): the model [`metrics_of_track`] must equal, which reads the shown points and their breaks.
    fn plain_pass(points: &[Option<Point>], truth: &TruthTrack, tau: f64) -> (f64, f64, u64, u64, f64) {
        let (mut sum_sq, mut max, mut stalls, mut snaps, mut jerk_sum, mut jerk_n) = (0.0, 0.0f64, 0, 0, 0.0, 0);
        let (mut shown, mut run) = (Vec::<Point>::new(), 0usize);
        for p in points {
            let Some(d) = p else {
                run = 0;
                continue;
            };
            let td = truth.at(d.server_now - tau);
            let e = (d.pos - td).length();
            (sum_sq, max) = (sum_sq + e * e, max.max(e));
            if run >= 3 {
                let [a, b, c] = [shown[shown.len() - 3], shown[shown.len() - 2], shown[shown.len() - 1]];
                let (step, truth_step) = (d.pos - c.pos, td - truth.at(c.server_now - tau));
                stalls += u64::from(step.length() < STILL && truth_step.length() > 10.0 * STILL);
                snaps += u64::from((step - truth_step).length() > SNAP_DISTANCE);
                if d.dt > 0.0 && (b.dt - d.dt).abs() < 1e-9 && (c.dt - d.dt).abs() < 1e-9 {
                    let third = d.pos - c.pos * 3.0 + b.pos * 3.0 - a.pos;
                    jerk_sum += (third.length() / d.dt.powi(3)).powi(2);
                    jerk_n += 1;
                }
            }
            shown.push(*d);
            run += 1;
        }
        let n = shown.len().max(1) as f64;
        let jerk = if jerk_n > 0 { (jerk_sum / jerk_n as f64).sqrt() } else { 0.0 };
        ((sum_sq / n).sqrt(), max, stalls, snaps, jerk)
    }

    /// A track gathered as its shown points and the breaks between runs is scored, bit for bit, as the frames with
    /// a slot each are: gaps at the start, the end, single and long, on every motion script. Runs joined across a
    /// gap (a break not kept, or kept one point off) turn the stalls, snaps or jerk red; a shown share over the
    /// shown points instead of all frames turns `shown` red.
    #[test]
    fn the_shown_points_and_their_breaks_score_as_the_frames_do() {
        for (k, script) in MotionScript::ALL.into_iter().enumerate() {
            let truth = TruthTrack::new(script, 120.0);
            let mut frames: Vec<Option<Point>> =
                late_track(&truth, 0.12, 4.0, 1500, k as u64).into_iter().map(Some).collect();
            // A jumpy stretch (snaps), a frozen one (stalls), and gaps of every kind.
            for (i, f) in frames.iter_mut().enumerate().skip(300).take(40) {
                if let Some(p) = f {
                    p.pos += Vec2::new(if i % 2 == 0 { 15.0 } else { -15.0 }, 0.0);
                }
            }
            let frozen = frames[700].unwrap().pos;
            for f in frames.iter_mut().skip(700).take(30).flatten() {
                f.pos = frozen;
            }
            for gap in [0..3, 100..101, 205..206, 207..208, 500..560, 903..904, 1490..1500] {
                for f in &mut frames[gap] {
                    *f = None;
                }
            }
            let metrics = metrics_of(&frames, &truth, 0.1);
            let (rms, max, stalls, snaps, jerk) = plain_pass(&frames, &truth, metrics.added_latency);
            assert_eq!(
                (metrics.rms_error.to_bits(), metrics.max_error.to_bits(), metrics.stalls, metrics.snaps),
                (rms.to_bits(), max.to_bits(), stalls, snaps),
                "{script:?}"
            );
            assert_eq!(metrics.jerk.to_bits(), jerk.to_bits(), "{script:?}");
            assert!(metrics.stalls > 10 && metrics.snaps > 10, "{script:?}: {metrics:?}");
            let shown = frames.iter().flatten().count();
            assert_eq!(metrics.shown, shown as f64 / 1500.0);
            let refs: Vec<&Point> = frames.iter().flatten().collect();
            assert_eq!(metrics.added_latency.to_bits(), plain_best_shift(&refs, &truth, 0.1).to_bits());
        }
    }

    /// Where every shift fits equally well (an entity standing still), the plain scan keeps its first grid point,
    /// `guess − 0.3`; the outward scan, which starts at the guess, must give way to it.
    #[test]
    fn equal_errors_go_to_the_first_grid_point() {
        let still = TruthTrack::new(MotionScript::Circle, 0.0);
        let points = late_track(&still, 0.1, 1.0, 600, 7);
        let refs: Vec<&Point> = points.iter().collect();
        let tau = best_shift(&refs, &still, 0.2);
        assert_eq!(tau.to_bits(), plain_best_shift(&refs, &still, 0.2).to_bits());
        assert!((tau - (0.2 - 0.3)).abs() < 1e-12, "{tau}");
    }
}
