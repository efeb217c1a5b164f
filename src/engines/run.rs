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
//! a whole `RemotePlayback`, ~0.3 ms), but scoring a track (`metrics_of`) costs about as much again. What is
//! shared rather than done again per strategy:
//! - `playground` is the page's own pipeline, which the run (or the league's logging pass) has already stepped on
//!   these very inputs: its rows and its score are read from the pipeline's frames ([`rows_from_frames`],
//!   [`score_frames`], [`score_all`]; `sim::league` scores it while it logs), never replayed. A replay would give
//!   the same bits (`tests/engines/league.rs` checks rows and metrics). When the run's own metrics are at hand
//!   (the full re-simulation computes them), its track is not even scored again: it *is* the run's `shown` track
//!   ([`score_all_own`], [`score_frames_with`]).
//! - A seeds' reference whose buffer and clock parameters are the run's own (seed 004's at the run's own delay:
//!   the page's defaults; `Setup::follows_run`) would replay the very buffer and render clock the run already
//!   stepped: it follows the run's frames instead (`reference::Following`, [`played_of`]): their render times,
//!   statuses and Ready positions, its own underrun policy on the other frames, sampled from a copy of the buffer
//!   ([`score_all_own`] with the run's frames; the league while it logs). The same bits as its replay
//!   (`tests/engines/reference.rs`).
//! - The other references replay a `RemotePlayback` that builds no whole `Frame` per frame and whose clock keeps
//!   no metrics nobody reads (`RemotePlayback::frame_shown`, `RemotePlayback::unmonitored`): its fixed-delay clock
//!   is handed no buffer view (`RenderClock::reads_view`), its frame prunes by the index its sample found
//!   (`SnapshotBuffer::prune_sampled`), and an Underrun is sampled without the words of its reason
//!   (`SnapshotBuffer::sample_drawn`, as a following reference samples its buffer copy). Its reanchor clock, when
//!   certain of a finite render time, reads it as the last one plus the frame's dt without the general path's
//!   estimate and reasons (`RenderClock::render_time_unwatched`; 11.99 → 11.67 M instructions for all 9 scored).
//! - The run's frames are read in place, row after row (`Timeline::each_row`), not by index.
//! - Every strategy matches each input of the log; `ClientInput` is `repr(u8)`, so that match is one byte
//!   compared, not a variant decoded from a niche of `Snapshot`.
//! - geckos' vault and Gambetta's position buffer are windows over a `Vec` (`buffer::window`), read by plain index
//!   where a `VecDeque` wrapped every index.
//! - A [`Scorer`] tells a finite lag or coordinate by `x − x == 0` (a subtraction and a compare; `is_finite` masks
//!   and compares with a constant it loads first), and counts a frame's mode with one increment (the underrun,
//!   extrapolation and frame counts are read from the per-mode counts at the end).
//! - Each frame of the log carries its true server time (`sim::FrameTick::server_now`, worked out once by the run),
//!   so a strategy's frame is scored without converting the frame's local time again (debug builds check that the
//!   inputs belong to the map given).
//! - A replay and a frame read feed the same [`Scorer`], so both are scored by one piece of code.
//! - Strategies scored one after another on the same inputs ([`Scoring`]: [`score_all_own`], the league) count
//!   the frames once and gather each track in the same buffer (`sim::metrics::ShownTrack`: the shown points only,
//!   read in place by the metrics), so a league column makes one track allocation, not nine.
//! - [`Scoring`] drives each strategy as its own type (`engines::Built`) through a generic replay, so a frame is not
//!   a call through a vtable (the page's rows-only replays keep the boxed `dyn Smoother`). Inside the engines, the
//!   per-frame work that repeated itself is gone, each checked bit for bit against the plain version in its
//!   module's tests: Mirror keeps one buffer for its time and entity snapshots until a teleport parts them,
//!   geckos' vault tries where the last lookup found its time before a binary search, Source's history is a
//!   plain `Vec` read newest first and its clock drift samples are not scaled by a factor of exactly 1.
//! - The page replays only the strategies it draws, without scoring them ([`Bank`]); the league table, which
//!   scores every strategy on five networks, runs in a Web Worker (`sim::league`).
//!
//! `examples/engines_cost.rs` counts the instructions of all this under callgrind (the speed goal of issue 13).

use super::reference::{Following, Played};
use super::{Built, Setup, Shown, ShownMode, Smoother, StrategyKind};
use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::geom::Vec2;
use crate::param::ParamError;
use crate::sim::metrics::{metrics_of_track, Point, RemoteMetrics, ShownTrack, TrackMetrics};
use crate::sim::record::frame;
use crate::sim::remote::ClientInput;
use crate::sim::timeline::Timeline;
use crate::sim::world::{TimeMap, TruthTrack};
use crate::sim::FrameTick;
use serde::Serialize;
use std::collections::BTreeMap;

/// Column names of a strategy's per-frame rows.
pub const COLUMNS: [&str; 4] = ["renderTime", "x", "y", "mode"];
/// Values per row.
pub const STRIDE: usize = COLUMNS.len();

/// One strategy's quality on one run (seconds, world units, shares 0..1). Serialized as one flat object, the
/// track's metrics beside the rest (see the `Serialize` impl below).
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyMetrics {
    pub strategy: StrategyKind,
    /// Share of frames with a position, best-fit shift (`addedLatency`), RMS and max error after it, stalls,
    /// snaps, jerk (see `sim::metrics`).
    pub track: TrackMetrics,
    /// Share of frames whose render point had run past the data (extrapolating or holding); `None` for `latest`,
    /// which renders no point behind its data.
    pub underrun_share: Option<f64>,
    /// Share of frames extrapolated.
    pub extrapolation_share: f64,
    /// Mean of (true server now − the strategy's render time): the lag it aims for.
    pub mean_lag: f64,
}

/// What `#[serde(flatten)]` of the track's metrics wrote, as a struct: a flattened struct is written as a map whose
/// keys serde-wasm-bindgen decodes from wasm memory one by one (~130 TextDecoder calls per `engineMetrics` of the
/// nine strategies), where a struct's field names are made into JS strings once and cached. The same JSON as the
/// flattened derive (a test holds it).
impl Serialize for StrategyMetrics {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let t = &self.track;
        let mut s = serializer.serialize_struct("StrategyMetrics", 11)?;
        s.serialize_field("strategy", &self.strategy)?;
        s.serialize_field("shown", &t.shown)?;
        s.serialize_field("addedLatency", &t.added_latency)?;
        s.serialize_field("rmsError", &t.rms_error)?;
        s.serialize_field("maxError", &t.max_error)?;
        s.serialize_field("stalls", &t.stalls)?;
        s.serialize_field("snaps", &t.snaps)?;
        s.serialize_field("jerk", &t.jerk)?;
        s.serialize_field("underrunShare", &self.underrun_share)?;
        s.serialize_field("extrapolationShare", &self.extrapolation_share)?;
        s.serialize_field("meanLag", &self.mean_lag)?;
        s.end()
    }
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

/// What scoring keeps of a track while it is shown frame by frame (by a replay, or read from the run's own frames),
/// turned into [`StrategyMetrics`] at the end: the per-frame points for `sim::metrics::metrics_of`, the underrun
/// and extrapolation counts, and the lag sum.
pub struct Scorer {
    kind: StrategyKind,
    /// The shown points, for the track's metrics.
    points: ShownTrack,
    /// Whether `points` are gathered: not when the track's metrics come from elsewhere (the run's own,
    /// [`score_all_own`]): then frames are only counted.
    gather: bool,
    /// Frames per mode (index: the mode's place in `ShownMode`), one increment a frame; the count of frames and
    /// those of underruns and extrapolations are read from them.
    modes: [usize; ShownMode::ALL.len()],
    lag_sum: f64,
    lag_n: usize,
}

impl Scorer {
    /// A scorer for `frames` frames of strategy `kind`.
    pub fn new(kind: StrategyKind, frames: usize) -> Self {
        Scorer {
            kind,
            points: ShownTrack::with_capacity(frames),
            gather: true,
            modes: [0; ShownMode::ALL.len()],
            lag_sum: 0.0,
            lag_n: 0,
        }
    }

    /// A scorer for strategy `kind` that gathers its track in `track` (emptied first; its memory is reused).
    fn reusing(kind: StrategyKind, mut track: ShownTrack) -> Self {
        track.clear();
        Scorer { points: track, gather: true, ..Scorer::counting(kind) }
    }

    /// A scorer that only counts (underruns, extrapolations, the lag): the track's metrics are given to
    /// [`Scorer::finish_with`].
    fn counting(kind: StrategyKind) -> Self {
        Scorer { gather: false, ..Scorer::new(kind, 0) }
    }

    /// Mean of (true server now − render time) over the frames pushed so far, NaN when none was finite.
    fn mean_lag(&self) -> f64 {
        if self.lag_n > 0 {
            self.lag_sum / self.lag_n as f64
        } else {
            f64::NAN
        }
    }

    /// One frame `dt` seconds long, when the true server time was `server_now`, in which the strategy showed
    /// `shown`.
    #[inline(always)]
    pub fn push(&mut self, dt: f64, server_now: f64, shown: &Shown) {
        self.modes[shown.mode as usize] += 1;
        let lag = server_now - shown.render_time;
        if finite(lag) {
            self.lag_sum += lag;
            self.lag_n += 1;
        }
        if self.gather {
            let position = shown.position.filter(|p| finite(p.x) && finite(p.y));
            self.points.push(position.map(|pos| Point { dt, server_now, pos }));
        }
    }

    /// The metrics of the frames pushed, against `truth`.
    pub fn finish(self, truth: &TruthTrack) -> StrategyMetrics {
        self.finish_keeping(truth).0
    }

    /// [`Scorer::finish`], handing back the gathered track's memory for the next scorer ([`Scorer::reusing`]).
    fn finish_keeping(mut self, truth: &TruthTrack) -> (StrategyMetrics, ShownTrack) {
        let points = std::mem::take(&mut self.points);
        let track = metrics_of_track(&points, truth, self.mean_lag());
        (self.finish_with(track), points)
    }

    /// The metrics of the frames pushed, the track's being `track`.
    fn finish_with(self, track: TrackMetrics) -> StrategyMetrics {
        let n = self.modes.iter().sum::<usize>().max(1) as f64;
        let count = |mode: ShownMode| self.modes[mode as usize];
        let underruns: usize = ShownMode::ALL.into_iter().filter(|m| m.is_underrun()).map(count).sum();
        StrategyMetrics {
            strategy: self.kind,
            track,
            underrun_share: self.kind.buffered().then_some(underruns as f64 / n),
            extrapolation_share: count(ShownMode::Extrapolated) as f64 / n,
            mean_lag: self.mean_lag(),
        }
    }
}

/// Whether `x` is finite, as `f64::is_finite` says, told by `x − x` (0 for a finite `x`, NaN for ±∞ and NaN): a
/// subtraction and a compare, where `is_finite` masks the sign bit off and compares with a 64-bit constant it must
/// load first (the scoring step asks twice a frame and strategy).
#[inline(always)]
#[allow(clippy::eq_op)] // `x - x` is the point: 0 or NaN
fn finite(x: f64) -> bool {
    x - x == 0.0
}

/// Feeds `inputs` to `smoother` in order, handing each frame's tick and what it showed to `on_frame`.
#[inline(always)]
fn replay<S: Smoother + ?Sized>(
    smoother: &mut S,
    inputs: &[ClientInput],
    mut on_frame: impl FnMut(&FrameTick, &Shown),
) {
    for input in inputs {
        match input {
            ClientInput::Snapshot(snapshot, arrival) => smoother.on_snapshot(snapshot, *arrival),
            ClientInput::Rtt(now, rtt) => smoother.on_rtt(*now, *rtt),
            ClientInput::Frame(tick) => on_frame(tick, &smoother.frame(tick.reading, tick.dt)),
        }
    }
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
    let frames = inputs.iter().filter(|i| matches!(i, ClientInput::Frame(_))).count();
    let mut rows = Vec::with_capacity(if keep.rows { frames * STRIDE } else { 0 });
    let mut push_row = |shown: &Shown| {
        let (x, y) = shown.position.filter(|p| p.is_finite()).map_or((f64::NAN, f64::NAN), |p| (p.x, p.y));
        rows.extend_from_slice(&[shown.render_time, x, y, shown.mode.code()]);
    };
    // One loop per case, so the page's rows-only replay carries no scoring.
    let metrics = match (keep.rows, keep.metrics) {
        (_, true) => {
            let mut scorer = Scorer::new(kind, frames);
            replay(smoother, inputs, |tick, shown| {
                if keep.rows {
                    push_row(shown);
                }
                debug_assert_eq!(
                    tick.server_now.to_bits(),
                    map.server_of_local(tick.local).to_bits(),
                    "inputs of another run"
                );
                scorer.push(tick.dt, tick.server_now, shown);
            });
            Some(scorer.finish(truth))
        }
        (true, false) => {
            replay(smoother, inputs, |_, shown| push_row(shown));
            None
        }
        (false, false) => {
            replay(smoother, inputs, |_, _| {});
            None
        }
    };
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

/// Scores one strategy after another on one run's client inputs, sharing what does not depend on the strategy: the
/// count of frames, and one [`ShownTrack`] whose memory every strategy's track reuses (a 60 s track is ~115 KB;
/// nine of them were nine allocations, and as many page faults, per league column).
pub struct Scoring<'a> {
    inputs: &'a [ClientInput],
    map: &'a TimeMap,
    truth: &'a TruthTrack,
    frames: usize,
    track: ShownTrack,
}

impl<'a> Scoring<'a> {
    pub fn new(inputs: &'a [ClientInput], map: &'a TimeMap, truth: &'a TruthTrack) -> Self {
        let frames = inputs.iter().filter(|i| matches!(i, ClientInput::Frame(_))).count();
        Scoring { inputs, map, truth, frames, track: ShownTrack::with_capacity(frames) }
    }

    /// Frame inputs in the log.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// `kind` built from `setup`, replayed and scored: the metrics [`run`] with [`Keep::METRICS`] gives.
    pub fn score(&mut self, setup: &Setup, kind: StrategyKind) -> Result<StrategyMetrics, ParamError> {
        Ok(match setup.built(kind)? {
            Built::Mirror(mut s) => self.score_on(kind, &mut s),
            Built::Ngo(mut s) => self.score_on(kind, &mut s),
            Built::Source(mut s) => self.score_on(kind, &mut s),
            Built::Geckos(mut s) => self.score_on(kind, &mut s),
            Built::Gambetta(mut s) => self.score_on(kind, &mut s),
            Built::Latest(mut s) => self.score_on(kind, &mut s),
            Built::Article(mut s) => self.score_on(kind, &mut s),
        })
    }

    /// `kind`, one of the seeds' references whose buffer and clock are the run's own ([`Setup::follows_run`]),
    /// scored by following `played`, the run's frames on these inputs ([`Following`]): the metrics
    /// [`Scoring::score`] gives, bit for bit, without its render clock or a sample per Ready frame.
    pub fn score_following(
        &mut self,
        setup: &Setup,
        kind: StrategyKind,
        played: &[Played],
    ) -> Result<StrategyMetrics, ParamError> {
        setup.engines.validate()?;
        let params = setup.article_params(kind).ok_or_else(|| {
            ParamError::new("strategies", format!("`{}` runs no pipeline of the articles", kind.name()))
        })?;
        Ok(self.score_on(kind, &mut Following::new(params, played)?))
    }

    /// `smoother` (of kind `kind`) replayed and scored; generic, so that its frame is compiled into the loop.
    fn score_on<S: Smoother>(&mut self, kind: StrategyKind, smoother: &mut S) -> StrategyMetrics {
        let mut scorer = Scorer::reusing(kind, std::mem::take(&mut self.track));
        let map = self.map;
        replay(smoother, self.inputs, |tick, shown| {
            // The frames carry their server time (`FrameTick::server_now`); they must be this run's.
            debug_assert_eq!(
                tick.server_now.to_bits(),
                map.server_of_local(tick.local).to_bits(),
                "inputs of another run"
            );
            scorer.push(tick.dt, tick.server_now, shown)
        });
        let (metrics, track) = scorer.finish_keeping(self.truth);
        self.track = track;
        metrics
    }
}

/// How the run's own frames say what the `playground` strategy shows: its render time and position, with the
/// mode `reference::Article` gives (the page's pipeline is that strategy: a replay gives the very same bits —
/// `tests/engines/league.rs` checks it).
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

/// The `playground` strategy scored from the run's own frames, without a replay (the same metrics as
/// [`drive`] gives, bit for bit).
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
/// points (the frames' shown positions) scored around the same guess (the mean lag) by the same
/// `sim::metrics::metrics_of` — so only the counts are read from the frames. Should the run's mean lag differ in
/// any bit from the one the frames give (it cannot, unless `metrics` belong to other frames), the track is scored
/// from the frames after all.
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

/// What the page's own pipeline already did on the inputs being scored: its frames, and the run's remote metrics
/// when they have been computed (the full re-simulation computes them; `Simulation::metrics`).
#[derive(Clone, Copy, Debug)]
pub struct OwnRun<'a> {
    pub frames: &'a Timeline,
    pub metrics: Option<&'a RemoteMetrics>,
}

/// Every strategy of `kinds` scored on one run's client inputs, in order. `own_frames`, when given, are the
/// frames the page's pipeline recorded on those very inputs: `playground` is then scored from them rather than
/// replayed (the pipeline already ran it). They must hold one row per frame input; otherwise it is replayed.
pub fn score_all(
    setup: &Setup,
    kinds: &[StrategyKind],
    inputs: &[ClientInput],
    map: &TimeMap,
    truth: &TruthTrack,
    own_frames: Option<&Timeline>,
) -> Result<Vec<StrategyMetrics>, ParamError> {
    let own = own_frames.map(|frames| OwnRun { frames, metrics: None });
    score_all_own(setup, kinds, inputs, map, truth, own)
}

/// [`score_all`], with the run's remote metrics too when they are at hand: `playground`'s track is then taken
/// from them ([`score_frames_with`]) rather than scored again.
pub fn score_all_own(
    setup: &Setup,
    kinds: &[StrategyKind],
    inputs: &[ClientInput],
    map: &TimeMap,
    truth: &TruthTrack,
    own: Option<OwnRun>,
) -> Result<Vec<StrategyMetrics>, ParamError> {
    let mut scoring = Scoring::new(inputs, map, truth);
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

#[cfg(test)]
mod tests {
    /// The hand-written `Serialize` of [`StrategyMetrics`] writes what the derive with the track flattened wrote,
    /// key for key and in order. Red: a field of `TrackMetrics` added without its line, or a key misspelt.
    #[test]
    fn strategy_metrics_serialize_as_the_flattened_derive() {
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Flattened {
            strategy: super::StrategyKind,
            #[serde(flatten)]
            track: super::TrackMetrics,
            underrun_share: Option<f64>,
            extrapolation_share: f64,
            mean_lag: f64,
        }
        let track = super::TrackMetrics {
            shown: 0.9,
            added_latency: 0.1,
            rms_error: 1.5,
            max_error: 4.0,
            stalls: 3,
            snaps: 2,
            jerk: 1e5,
        };
        for underrun_share in [Some(0.25), None] {
            let m = super::StrategyMetrics {
                strategy: super::StrategyKind::Mirror,
                track,
                underrun_share,
                extrapolation_share: 0.125,
                mean_lag: 0.2,
            };
            let derived =
                Flattened { strategy: m.strategy, track, underrun_share, extrapolation_share: 0.125, mean_lag: 0.2 };
            assert_eq!(serde_json::to_string(&m).unwrap(), serde_json::to_string(&derived).unwrap());
        }
    }

    use super::*;

    /// `finite` says what `f64::is_finite` says, on the edges (±0, the subnormals, the largest finite values, ±∞,
    /// NaNs of both signs and any payload) and on a spread of bit patterns. A test that lets ∞ through (`x == x`)
    /// or that stops the largest finite values (`x.abs() < 1e308`) turns it red.
    #[test]
    fn finite_is_is_finite() {
        let edges = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_dead_beef_0001),
            1.0,
            -3.5e300,
        ];
        let mut bits = 0x9e37_79b9_7f4a_7c15u64;
        let spread = (0..100_000).map(|_| {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            f64::from_bits(bits)
        });
        for x in edges.into_iter().chain(spread) {
            assert_eq!(finite(x), x.is_finite(), "{x:e} ({:#x})", x.to_bits());
        }
    }
}
