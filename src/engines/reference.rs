//! The references the engines are ranked against: the articles' own pipelines and the naive "show the latest
//! snapshot".
//!
//! ```text
//!  latest      newest snapshot (by tick) as it is — seed 000 §4.3 opens with why this judders at the send rate
//!  seed000     RemotePlayback: reanchor clock (seed 000 §4.3.8 RemotePlayerView), RENDER_DELAY_MS = 100,
//!              extrapolate-seed with MAX_EXTRAPOLATE_MS = 120 (§4.3.5, §4.3.8), a render time before the oldest
//!              snapshot shows the oldest (beforeOldest: oldest), linear, capacity 32 (§4.3.6)
//!  seed004     RemotePlayback: smoothed clock (seed 004 §2.2), the interpolation delay of seed 004 §5.3's table
//!              for the network (the page's render delay on a custom network), extrapolation capped at half a
//!              tick ("外推时间不能超过一个tick的一半", §3.4: capRule halfSendInterval), velocity decay; the delay
//!              stays the table's (§4.2's adaptive rule is the page's option, not part of this reference)
//!  playground  RemotePlayback with this page's remote settings: the orange ◆ of the Remote view, bit for bit
//! ```
//! All three RemotePlayback references consume RTT samples as the page's pipeline does (the seeds' clocks need
//! them); their frame is an underrun exactly when the buffer's sample is `Underrun` (the page's underrun share).
//!
//! A reference whose buffer and clock parameters are the run's own (seed 004's recipe at the run's own delay, on
//! the default settings of the page; any reference the reader's settings happen to equal) would replay, bit for
//! bit, the very buffer and render clock the run's pipeline has already stepped on the same inputs: only its
//! underrun policy (its presenter) can differ. It is then scored as a [`Following`]: the render times and the
//! samples' statuses are read from the run's frames ([`Played`]), a Ready frame shows the run's own interpolated
//! position (every presenter shows a Ready sample as it is), and only the other frames are sampled — from a copy
//! of the buffer that takes the same inserts and prunes — and shown through the reference's own presenter.
//! ```text
//!  run's frame i: render time, status, x, y ──┬─ Ready      ─► prune(render time); the run's (x, y), interpolated
//!                                              ├─ uncertain  ─► the buffer's ClockUncertain sample (no prune) ─┐
//!  deliveries ─► buffer copy (insert)          └─ otherwise  ─► sample(render time), prune(render time) ───────┴► presenter
//! ```

use super::{Shown, ShownMode, Smoother};
use crate::buffer::{BeforeOldest, SampleStatus, SnapshotBuffer};
use crate::clock::{ClockKind, ReanchorEstimate};
use crate::display::{DisplayMode, Displayed, Presenter};
use crate::extrapolate::{CapRule, UnderrunPolicy};
use crate::geom::{self, Vec2};
use crate::param::ParamError;
use crate::playback::{PlaybackParams, RemotePlayback};
use crate::snapshot::Snapshot;
use crate::stream::Stream;

/// Seed 000 §4.3.8: `RENDER_DELAY_MS = 100`.
pub const SEED000_RENDER_DELAY: f64 = 0.1;
/// Seed 000 §4.3.8: `MAX_EXTRAPOLATE_MS = 120`.
pub const SEED000_MAX_EXTRAPOLATION: f64 = 0.12;

/// Show the newest snapshot received (older arrivals are ignored).
#[derive(Clone, Debug, Default)]
pub struct Latest {
    newest: Option<(u64, Vec2, f64)>,
}

impl Smoother for Latest {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        if self.newest.is_none_or(|(tick, _, _)| snapshot.tick > tick) {
            self.newest = Some((snapshot.tick, snapshot.pos, snapshot.server_time));
        }
    }

    fn frame(&mut self, _now: f64, _dt: f64) -> Shown {
        match self.newest {
            Some((_, pos, server_time)) => Shown::at(pos, server_time, ShownMode::Latest),
            None => Shown::NOTHING,
        }
    }
}

/// One of the articles' pipelines (the project's [`RemotePlayback`]) with fixed settings.
#[derive(Clone, Debug)]
pub struct Article {
    playback: RemotePlayback,
}

impl Article {
    /// Its clock keeps no per-frame metrics (`RemotePlayback::unmonitored`): a strategy is read for what it
    /// shows, never for its clock's jump log.
    pub fn new(params: PlaybackParams, stream: &Stream) -> Result<Self, ParamError> {
        Ok(Article { playback: RemotePlayback::unmonitored(params, stream)? })
    }

    /// Seed 000 §4.3.8's remote player view.
    pub fn seed000_params() -> PlaybackParams {
        let mut p = PlaybackParams::default();
        p.clock.clock = ClockKind::Reanchor;
        p.clock.reanchor_estimate = ReanchorEstimate::Packet;
        p.clock.render_delay = SEED000_RENDER_DELAY;
        p.underrun.underrun_policy = UnderrunPolicy::ExtrapolateSeed;
        p.underrun.max_extrapolation = SEED000_MAX_EXTRAPOLATION;
        p.underrun.cap_rule = CapRule::MaxExtrapolation;
        p.buffer.before_oldest = BeforeOldest::Oldest;
        p
    }

    /// Seed 004's recipe for a network whose §5.3 interpolation delay is `delay`.
    pub fn seed004_params(delay: f64) -> PlaybackParams {
        let mut p = PlaybackParams::default();
        p.clock.clock = ClockKind::Smooth;
        p.clock.render_delay = delay;
        p.underrun.underrun_policy = UnderrunPolicy::ExtrapolateDecay;
        p.underrun.cap_rule = CapRule::HalfSendInterval;
        p.buffer.before_oldest = BeforeOldest::Gap;
        p
    }

    pub fn seed000(stream: &Stream) -> Result<Self, ParamError> {
        Article::new(Self::seed000_params(), stream)
    }

    pub fn seed004(stream: &Stream, delay: f64) -> Result<Self, ParamError> {
        Article::new(Self::seed004_params(delay), stream)
    }

    pub fn playback(&self) -> &RemotePlayback {
        &self.playback
    }
}

impl Smoother for Article {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.playback.on_snapshot(*snapshot, arrival);
    }

    fn on_rtt(&mut self, now: f64, rtt: f64) {
        self.playback.on_rtt_sample(now, rtt);
    }

    fn frame(&mut self, now: f64, dt: f64) -> Shown {
        let f = self.playback.frame_shown(now, dt);
        shown(f.render_time, f.status, &f.displayed)
    }
}

/// What a pipeline's frame shows, as a strategy's [`Shown`]: an underrun when the sample was one.
#[inline(always)]
fn shown(render_time: f64, status: SampleStatus, displayed: &Displayed) -> Shown {
    let mode = match (status, displayed.mode) {
        (SampleStatus::Underrun, DisplayMode::Extrapolated) => ShownMode::Extrapolated,
        (SampleStatus::Underrun, _) => ShownMode::Held,
        (_, DisplayMode::Hidden) => ShownMode::Nothing,
        (SampleStatus::Ready, _) => ShownMode::Interpolated,
        _ => ShownMode::Waiting,
    };
    Shown { position: displayed.position, render_time, mode }
}

/// One frame of the run's own pipeline, as its frames record it (`sim::record::frame`): the render time, the
/// buffer sample's status, and the position the run showed (on a Ready frame, the sample's own).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Played {
    pub render_time: f64,
    pub status: SampleStatus,
    pub position: Vec2,
}

/// An article's pipeline whose buffer and clock parameters are those of the run's pipeline, played on the run's
/// inputs by following the run's frames (the module doc): what a [`Article`] with these parameters shows, bit for
/// bit, without its render clock and without sampling a Ready frame. `played` must hold the run's frames in
/// order, one per frame asked for, and `params`' buffer and clock must equal the run's (`Setup::follows_run`).
/// (One type for every caller, not generic over where the frames come from: each instantiation of the scoring
/// loop costs the full wasm build kilobytes.)
///
/// The prunes are owed until the buffer is next read or written: the prunes at render times `r1, r2, …` with no
/// insert between them leave what one prune at the latest of them leaves (a prune keeps every snapshot after its
/// render time and the last one at or before it; a later prune at an earlier time finds at most that one at or
/// before it and drops nothing), and a prune never drops the newest snapshot. So a run of Ready frames costs one
/// prune, made before the next insert or sample.
#[derive(Clone, Debug)]
pub struct Following<'a> {
    /// The run's frames not yet followed.
    played: std::slice::Iter<'a, Played>,
    /// A copy of the run's buffer: the same inserts, the same prunes.
    buffer: SnapshotBuffer,
    /// The latest render time whose prune is owed (`-∞`: none).
    owed: f64,
    /// This reference's own underrun policy.
    presenter: Presenter,
}

impl<'a> Following<'a> {
    pub fn new(params: PlaybackParams, stream: &Stream, played: &'a [Played]) -> Result<Self, ParamError> {
        let played = played.iter();
        params.validate(stream)?;
        let presenter = Presenter::for_send_interval(params.underrun, stream.send_interval)?;
        Ok(Following {
            played,
            buffer: SnapshotBuffer::with_params(params.buffer, stream.send_interval)?,
            owed: f64::NEG_INFINITY,
            presenter,
        })
    }

    /// Makes the prune owed, if any.
    #[inline]
    fn settle(&mut self) {
        if self.owed > f64::NEG_INFINITY {
            self.buffer.prune(self.owed);
            self.owed = f64::NEG_INFINITY;
        }
    }
}

impl Smoother for Following<'_> {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.settle();
        self.buffer.insert(*snapshot, arrival);
    }

    fn frame(&mut self, _now: f64, _dt: f64) -> Shown {
        let Some(&run) = self.played.next() else {
            debug_assert!(false, "a frame the run did not play");
            return Shown::NOTHING;
        };
        let render_time = run.render_time;
        // `RemotePlayback::frame_lean`'s steps, the clock's reading taken from the run: a Ready sample is the
        // run's position (its render time is finite); an uncertain clock (the only source of ClockUncertain but a
        // non-finite render time, which prunes nothing either) samples without consulting the buffer and prunes
        // nothing.
        if run.status == SampleStatus::Ready && run.position.is_finite() {
            self.owed = geom::at_least(self.owed, render_time); // finite: a Ready sample's
            let displayed = self.presenter.show_interpolated(run.position);
            return Shown { position: displayed.position, render_time, mode: ShownMode::Interpolated };
        }
        self.settle();
        let sample = if run.status == SampleStatus::ClockUncertain {
            self.buffer.sample_uncertain(render_time, None)
        } else {
            // Drawn only: an Underrun comes without its reason (`SnapshotBuffer::sample_drawn`).
            let sample = match self.buffer.sample_drawn(render_time) {
                Ok(between) => {
                    debug_assert_eq!(
                        run.status,
                        SampleStatus::Ready,
                        "the buffer copy left the run's at {render_time}"
                    );
                    self.owed = render_time;
                    let displayed = self.presenter.show_interpolated(between.position);
                    return shown(render_time, SampleStatus::Ready, &displayed);
                }
                Err(sample) => sample,
            };
            self.owed = render_time;
            sample
        };
        debug_assert_eq!(sample.status, run.status, "the buffer copy left the run's at {render_time}");
        shown(render_time, sample.status, &self.presenter.show(&sample))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_references_carry_the_articles_constants() {
        let p = Article::seed000_params();
        assert_eq!((p.clock.clock, p.clock.render_delay), (ClockKind::Reanchor, 0.1));
        assert_eq!((p.underrun.underrun_policy, p.underrun.max_extrapolation), (UnderrunPolicy::ExtrapolateSeed, 0.12));
        assert_eq!(p.buffer.capacity, 32);
        assert_eq!(p.buffer.before_oldest, BeforeOldest::Oldest);
        let p = Article::seed004_params(0.15);
        assert_eq!((p.clock.clock, p.clock.render_delay), (ClockKind::Smooth, 0.15));
        assert!((p.underrun.cap(1.0 / 15.0) - 1.0 / 30.0).abs() < 1e-12, "half a tick at 15 Hz");
    }

    #[test]
    fn latest_ignores_older_arrivals() {
        let mut latest = Latest::default();
        assert_eq!(latest.frame(0.0, 0.0).mode, ShownMode::Nothing);
        latest.on_snapshot(&Snapshot::moving(6, 0.1, Vec2::new(6.0, 0.0), Vec2::ZERO), 0.2);
        latest.on_snapshot(&Snapshot::moving(3, 0.05, Vec2::new(3.0, 0.0), Vec2::ZERO), 0.21);
        let shown = latest.frame(0.22, 0.01);
        assert_eq!(
            (shown.position, shown.render_time, shown.mode),
            (Some(Vec2::new(6.0, 0.0)), 0.1, ShownMode::Latest)
        );
    }
}
