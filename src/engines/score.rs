//! Driving a strategy over a run's log, and scoring what it showed.
//!
//! ```text
//!  the log (crate::run::ClientInput: every delivery, RTT sample and frame, in the order the client saw them)
//!     Snapshot(s, arrival) ─► smoother.on_snapshot      Rtt(now, rtt) ─► smoother.on_rtt
//!     Frame(tick)          ─► smoother.frame(tick.reading, tick.dt) ─► row [renderTime, x, y, mode]
//!                                                                  └► Point {dt, true server now, position}
//!  metrics: crate::run::track (best-fit shift, RMS, stalls, snaps, jerk) + underrun / extrapolation shares
//! ```
//! The same log drives every strategy, so they all see the same packets lost, late and reordered. Each strategy
//! keeps its own state only, so a change of one engine's parameters re-runs that engine alone (`bank.rs`).
//!
//! A replay and a frame read elsewhere (the page's own pipeline, `crate::compare::own`) feed the same [`Scorer`],
//! so both are scored by one piece of code. Strategies scored one after another on the same log ([`Scoring`])
//! count the frames once and gather each track in the same buffer, and drive each strategy as its own type
//! ([`Built`]) through a generic loop, so a frame is not a call through a vtable. The page's rows-only replays
//! keep the boxed `dyn Smoother`.

use super::reference::{Following, Played};
use super::{Built, Setup, Shown, ShownMode, Smoother, StrategyKind};
use crate::param::ParamError;
use crate::run::track::{metrics_of_track, Point, ShownTrack, TrackMetrics};
use crate::run::{play, ClientInput, FrameTick, Receiver, TruthTrack};
use crate::snapshot::Snapshot;
use serde::Serialize;

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
    pub fn reusing(kind: StrategyKind, mut track: ShownTrack) -> Self {
        track.clear();
        Scorer { points: track, gather: true, ..Scorer::counting(kind) }
    }

    /// A scorer that only counts (underruns, extrapolations, the lag): the track's metrics are given to
    /// [`Scorer::finish_with`].
    pub fn counting(kind: StrategyKind) -> Self {
        Scorer { gather: false, ..Scorer::new(kind, 0) }
    }

    /// Mean of (true server now − render time) over the frames pushed so far, NaN when none was finite.
    pub fn mean_lag(&self) -> f64 {
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
    pub fn finish_keeping(mut self, truth: &TruthTrack) -> (StrategyMetrics, ShownTrack) {
        let points = std::mem::take(&mut self.points);
        let track = metrics_of_track(&points, truth, self.mean_lag());
        (self.finish_with(track), points)
    }

    /// The metrics of the frames pushed, the track's being `track`.
    pub fn finish_with(self, track: TrackMetrics) -> StrategyMetrics {
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

/// A smoother as the run contract's [`Receiver`]: each frame asked at the client's clock reading.
struct Driven<'s, S: ?Sized>(&'s mut S);

impl<S: Smoother + ?Sized> Receiver for Driven<'_, S> {
    type Shown = Shown;

    #[inline(always)]
    fn snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.0.on_snapshot(snapshot, arrival);
    }

    #[inline(always)]
    fn rtt(&mut self, now: f64, rtt: f64) {
        self.0.on_rtt(now, rtt);
    }

    #[inline(always)]
    fn frame(&mut self, tick: &FrameTick) -> Shown {
        self.0.frame(tick.reading, tick.dt)
    }
}

/// Feeds `inputs` to `smoother` in order, handing each frame's tick and what it showed to `on_frame`.
#[inline(always)]
pub fn replay<S: Smoother + ?Sized>(
    smoother: &mut S,
    inputs: &[ClientInput],
    mut on_frame: impl FnMut(&FrameTick, &Shown),
) {
    play(&mut Driven(smoother), inputs, |tick, shown| on_frame(tick, &shown));
}

/// Feeds `inputs` to `smoother`, keeping the per-frame rows and/or scoring the track against `truth`.
pub fn drive(
    kind: StrategyKind,
    smoother: &mut dyn Smoother,
    inputs: &[ClientInput],
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
    truth: &TruthTrack,
    keep: Keep,
) -> Result<StrategyRun, ParamError> {
    let mut smoother = setup.build(kind)?;
    Ok(drive(kind, smoother.as_mut(), inputs, truth, keep))
}

/// Scores one strategy after another on one log, sharing what does not depend on the strategy: the count of
/// frames, and one [`ShownTrack`] whose memory every strategy's track reuses (a 60 s track is ~115 KB).
pub struct Scoring<'a> {
    inputs: &'a [ClientInput],
    truth: &'a TruthTrack,
    frames: usize,
    track: ShownTrack,
}

impl<'a> Scoring<'a> {
    pub fn new(inputs: &'a [ClientInput], truth: &'a TruthTrack) -> Self {
        let frames = inputs.iter().filter(|i| matches!(i, ClientInput::Frame(_))).count();
        Scoring { inputs, truth, frames, track: ShownTrack::with_capacity(frames) }
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
            Built::Ngo1x(mut s) => self.score_on(kind, &mut s),
            Built::Source(mut s) => self.score_on(kind, &mut s),
            Built::Geckos(mut s) => self.score_on(kind, &mut s),
            Built::Lightyear(mut s) => self.score_on(kind, &mut s),
            Built::Fishnet(mut s) => self.score_on(kind, &mut s),
            Built::Gambetta(mut s) => self.score_on(kind, &mut s),
            Built::Neteq(mut s) => self.score_on(kind, &mut s),
            Built::Latest(mut s) => self.score_on(kind, &mut s),
            Built::Article(mut s) => self.score_on(kind, &mut s),
        })
    }

    /// `kind`, one of the seeds' references whose buffer and clock are the run's own ([`Setup::follows_run`]),
    /// scored by following `played`, what the run's pipeline played on these inputs ([`Following`]): the metrics
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
        Ok(self.score_on(kind, &mut Following::new(params, &setup.stream, played)?))
    }

    /// `smoother` (of kind `kind`) replayed and scored; generic, so that its frame is compiled into the loop.
    fn score_on<S: Smoother>(&mut self, kind: StrategyKind, smoother: &mut S) -> StrategyMetrics {
        let mut scorer = Scorer::reusing(kind, std::mem::take(&mut self.track));
        replay(smoother, self.inputs, |tick, shown| scorer.push(tick.dt, tick.server_now, shown));
        let (metrics, track) = scorer.finish_keeping(self.truth);
        self.track = track;
        metrics
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
