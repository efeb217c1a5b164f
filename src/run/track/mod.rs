//! How close a shown track follows the truth. A remote view is *meant* to be late, so its error is measured
//! after the best-fit time shift: the lag `τ` that makes the shown track match the truth best ("added latency").
//! What is left is the shape error (corners cut, overshoot, freezes, pops). Over the frames where something is
//! shown:
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
//! ```text
//!  frames ──► ShownTrack   the shown points, and where a run of shown frames was broken by unshown ones
//!                │
//!                ├──► shift.rs   τ: a 20 ms grid scanned downhill from a guess, then a parabola through the best
//!                └──► one pass in frame order: the error after the shift, stalls, snaps, jerk
//! ```
//! Every strategy of the league and every underrun policy of a run is scored here, so the truth is looked up as
//! rarely as the result allows: once per shown frame in the single pass, and in the shift scan only until a
//! shift is proven worse than the best so far. Both give the very numbers of the plain computation (the tests
//! hold the plain scan and the plain pass).

mod shift;

use crate::geom::{LengthLimit, Vec2};
use crate::run::{Timeline, TruthTrack};
use serde::Serialize;
use shift::best_shift_of;

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

/// Where a track's numbers sit in a timeline's rows: the frame's length, the true server time then, and the
/// shown x (y next to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrackColumns {
    pub dt: usize,
    pub server_now: usize,
    pub x: usize,
}

impl ShownTrack {
    /// The track in `columns` of every row of `frames` (a position that is not finite is not shown).
    pub fn of_rows(frames: &Timeline, columns: TrackColumns) -> ShownTrack {
        let mut shown = ShownTrack::with_capacity(frames.len());
        for i in 0..frames.len() {
            let r = frames.row(i).expect("in range");
            let pos = Vec2::new(r[columns.x], r[columns.x + 1]);
            shown.push(pos.is_finite().then(|| Point { dt: r[columns.dt], server_now: r[columns.server_now], pos }));
        }
        shown
    }
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
    let tau = best_shift_of(&track.points, truth, if guess.is_finite() { guess } else { 0.1 });
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
    let (still, snap) = (LengthLimit::new(STILL), LengthLimit::new(SNAP_DISTANCE));
    for r in track.runs() {
        for (run, d) in r.iter().enumerate() {
            let td = truth.at(d.server_now - tau);
            let e = (d.pos - td).length();
            sum_sq += e * e;
            // `max.max(e)` without its NaN handling (a few instructions a frame): both keep `max` when `e` is NaN,
            // and `e` (a square root, ≥ +0) never equals `max` with another sign.
            if e > max {
                max = e;
            }
            if run >= 3 {
                let step = d.pos - pos_c;
                let truth_step = td - truth_c;
                // `step.length() < STILL` and `(step − truth_step).length() > SNAP_DISTANCE`, without the roots.
                if still.is_shorter(step) && truth_step.length() > 10.0 * STILL {
                    metrics.stalls += 1;
                }
                if snap.is_longer(step - truth_step) {
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

#[cfg(test)]
mod tests {
    use super::shift::oracle::{late_track, plain_best_shift};
    use super::*;
    use crate::motion::MotionScript;

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
}
