//! Driving a strategy over one run's client inputs, and scoring what it showed.
//!
//! ```text
//!  ClientInput log (sim::remote: every delivery, RTT sample and frame, in the order the client saw them)
//!     Snapshot(s, arrival) ─► smoother.on_snapshot      Rtt(now, rtt) ─► smoother.on_rtt
//!     Frame(tick)          ─► smoother.frame(tick.reading, tick.dt) ─► row [renderTime, x, y, mode]
//!                                                                  └► Point {dt, true server now, position}
//!  metrics: sim::metrics::metrics_of (best-fit shift, RMS, stalls, snaps, jerk) + underrun / extrapolation shares
//! ```
//! The same log drives every strategy, so they all see the same packets lost, late and reordered. Each strategy
//! keeps its own state only, so a change of one engine's parameters re-runs that engine alone ([`Bank`]).
//!
//! Cost: a replay is cheap (an engine is 0.1–0.2 ms per 60 s at 60 fps natively; the seeds' references replay
//! a whole `RemotePlayback`, ~0.3 ms), but scoring a track (`metrics_of`) costs about as much again. The page
//! therefore replays only the strategies it draws, without scoring them ([`Bank`]), and `playground` — the page's
//! own pipeline — is read from the run's frames, not replayed ([`rows_from_frames`]); the league table, which
//! scores every strategy on five networks, runs in a Web Worker (`sim::league`).

use super::{Setup, ShownMode, Smoother, StrategyKind};
use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::param::ParamError;
use crate::sim::metrics::{metrics_of, Point, TrackMetrics};
use crate::sim::record::frame;
use crate::sim::remote::ClientInput;
use crate::sim::timeline::Timeline;
use crate::sim::world::{TimeMap, TruthTrack};
use serde::Serialize;
use std::collections::BTreeMap;

/// Column names of a strategy's per-frame rows.
pub const COLUMNS: [&str; 4] = ["renderTime", "x", "y", "mode"];
/// Values per row.
pub const STRIDE: usize = COLUMNS.len();

/// One strategy's quality on one run (seconds, world units, shares 0..1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StrategyMetrics {
    pub strategy: StrategyKind,
    /// Share of frames with a position, best-fit shift (`addedLatency`), RMS and max error after it, stalls,
    /// snaps, jerk (see `sim::metrics`).
    #[serde(flatten)]
    pub track: TrackMetrics,
    /// Share of frames whose render point had run past the data (extrapolating or holding); `None` for `latest`,
    /// which renders no point behind its data.
    pub underrun_share: Option<f64>,
    /// Share of frames extrapolated.
    pub extrapolation_share: f64,
    /// Mean of (true server now − the strategy's render time): the lag it aims for.
    pub mean_lag: f64,
}

/// A strategy's run: its rows and its metrics, each when asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyRun {
    pub kind: StrategyKind,
    /// `STRIDE` values per frame: render time, x, y (NaN when nothing is shown), mode code (`ShownMode::code`).
    pub rows: Vec<f64>,
    pub metrics: Option<StrategyMetrics>,
}

/// What a run keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keep {
    /// The per-frame rows (for drawing).
    pub rows: bool,
    /// The metrics against the truth (for the table).
    pub metrics: bool,
}

impl Keep {
    pub const ROWS: Keep = Keep { rows: true, metrics: false };
    pub const METRICS: Keep = Keep { rows: false, metrics: true };
    pub const BOTH: Keep = Keep { rows: true, metrics: true };
}

/// Feeds `inputs` to `smoother`, keeping the per-frame rows and/or scoring the track against `truth`.
pub fn drive(
    kind: StrategyKind,
    smoother: &mut dyn Smoother,
    inputs: &[ClientInput],
    map: &TimeMap,
    truth: &TruthTrack,
    keep: Keep,
) -> StrategyRun {
    let keep_rows = keep.rows;
    let frames = inputs.iter().filter(|i| matches!(i, ClientInput::Frame(_))).count();
    let mut rows = Vec::with_capacity(if keep_rows { frames * STRIDE } else { 0 });
    let mut points: Vec<Option<Point>> = Vec::with_capacity(if keep.metrics { frames } else { 0 });
    let (mut underruns, mut extrapolated, mut lag_sum, mut lag_n) = (0usize, 0usize, 0.0, 0usize);
    for input in inputs {
        match *input {
            ClientInput::Snapshot(snapshot, arrival) => smoother.on_snapshot(&snapshot, arrival),
            ClientInput::Rtt(now, rtt) => smoother.on_rtt(now, rtt),
            ClientInput::Frame(tick) => {
                let shown = smoother.frame(tick.reading, tick.dt);
                let server_now = map.server_of_local(tick.local);
                if !keep.metrics {
                    if keep_rows {
                        let p = shown.position.filter(|p| p.is_finite());
                        let (x, y) = p.map_or((f64::NAN, f64::NAN), |p| (p.x, p.y));
                        rows.extend_from_slice(&[shown.render_time, x, y, shown.mode.code()]);
                    }
                    continue;
                }
                underruns += usize::from(shown.mode.is_underrun());
                extrapolated += usize::from(shown.mode == ShownMode::Extrapolated);
                let lag = server_now - shown.render_time;
                if lag.is_finite() {
                    lag_sum += lag;
                    lag_n += 1;
                }
                let position = shown.position.filter(|p| p.is_finite());
                if keep_rows {
                    let (x, y) = position.map_or((f64::NAN, f64::NAN), |p| (p.x, p.y));
                    rows.extend_from_slice(&[shown.render_time, x, y, shown.mode.code()]);
                }
                if keep.metrics {
                    points.push(position.map(|pos| Point { dt: tick.dt, server_now, pos }));
                }
            }
        }
    }
    let n = points.len().max(1) as f64;
    let mean_lag = if lag_n > 0 { lag_sum / lag_n as f64 } else { f64::NAN };
    let metrics = keep.metrics.then(|| StrategyMetrics {
        strategy: kind,
        track: metrics_of(&points, truth, mean_lag),
        underrun_share: kind.buffered().then_some(underruns as f64 / n),
        extrapolation_share: extrapolated as f64 / n,
        mean_lag,
    });
    StrategyRun { kind, rows, metrics }
}

/// Builds and drives `kind` on `inputs`.
pub fn run(
    setup: &Setup,
    kind: StrategyKind,
    inputs: &[ClientInput],
    map: &TimeMap,
    truth: &TruthTrack,
    keep: Keep,
) -> Result<StrategyRun, ParamError> {
    let mut smoother = setup.build(kind)?;
    Ok(drive(kind, smoother.as_mut(), inputs, map, truth, keep))
}

/// The `playground` strategy's rows read from the run's own frames (it is the page's pipeline; a replay gives
/// the very same bits — `tests/engines/league.rs` checks it), with the mode `reference::Article` gives.
pub fn rows_from_frames(frames: &Timeline) -> Vec<f64> {
    let code = |status: SampleStatus| SampleStatus::ALL.iter().position(|s| *s == status).map_or(-1.0, |i| i as f64);
    let (ready, underrun) = (code(SampleStatus::Ready), code(SampleStatus::Underrun));
    let extrapolated = DisplayMode::ALL.iter().position(|m| *m == DisplayMode::Extrapolated).map_or(-1.0, |i| i as f64);
    let mut rows = Vec::with_capacity(frames.len() * STRIDE);
    for r in (0..frames.len()).filter_map(|i| frames.row(i)) {
        let (x, y, status) = (r[frame::X], r[frame::Y], r[frame::STATUS]);
        let mode = if status == underrun {
            if r[frame::MODE] == extrapolated {
                ShownMode::Extrapolated
            } else {
                ShownMode::Held
            }
        } else if !(x.is_finite() && y.is_finite()) {
            ShownMode::Nothing
        } else if status == ready {
            ShownMode::Interpolated
        } else {
            ShownMode::Waiting
        };
        rows.extend_from_slice(&[r[frame::RENDER_TIME], x, y, mode.code()]);
    }
    rows
}

/// The page's cache of the strategies it draws (rows only, no scoring) on the current simulation: a strategy is
/// re-run only when the inputs changed (a new remote pipeline run) or its own parameters did ([`Setup::key`]).
#[derive(Debug, Default)]
pub struct Bank {
    runs: BTreeMap<StrategyKind, (u64, String, StrategyRun)>,
    /// Strategy runs made so far (a test counts them to see what a change re-ran).
    pub runs_made: u64,
}

impl Bank {
    /// The rows of `kind` on the inputs `inputs_id` names, re-made only if its key or the inputs changed.
    pub fn get(
        &mut self,
        setup: &Setup,
        kind: StrategyKind,
        inputs_id: u64,
        inputs: &[ClientInput],
        map: &TimeMap,
        truth: &TruthTrack,
    ) -> Result<&StrategyRun, ParamError> {
        let key = setup.key(kind);
        let fresh = self.runs.get(&kind).is_some_and(|(id, k, _)| *id == inputs_id && *k == key);
        if !fresh {
            let made = run(setup, kind, inputs, map, truth, Keep::ROWS)?;
            self.runs_made += 1;
            self.runs.insert(kind, (inputs_id, key, made));
        }
        Ok(&self.runs[&kind].2)
    }
}
