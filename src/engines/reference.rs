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

use super::{Shown, ShownMode, Smoother};
use crate::buffer::{BeforeOldest, SampleStatus};
use crate::clock::{ClockKind, ReanchorEstimate};
use crate::display::DisplayMode;
use crate::extrapolate::{CapRule, UnderrunPolicy};
use crate::geom::Vec2;
use crate::param::ParamError;
use crate::playback::{PlaybackParams, RemotePlayback};
use crate::snapshot::Snapshot;

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
    pub fn new(params: PlaybackParams) -> Result<Self, ParamError> {
        Ok(Article { playback: RemotePlayback::unmonitored(params)? })
    }

    /// Seed 000 §4.3.8's remote player view.
    pub fn seed000_params(send_interval: f64) -> PlaybackParams {
        let mut p = PlaybackParams::default().with_send_interval(send_interval);
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
    pub fn seed004_params(send_interval: f64, delay: f64) -> PlaybackParams {
        let mut p = PlaybackParams::default().with_send_interval(send_interval);
        p.clock.clock = ClockKind::Smooth;
        p.clock.render_delay = delay;
        p.underrun.underrun_policy = UnderrunPolicy::ExtrapolateDecay;
        p.underrun.cap_rule = CapRule::HalfSendInterval;
        p.buffer.before_oldest = BeforeOldest::Gap;
        p
    }

    pub fn seed000(send_interval: f64) -> Result<Self, ParamError> {
        Article::new(Self::seed000_params(send_interval))
    }

    pub fn seed004(send_interval: f64, delay: f64) -> Result<Self, ParamError> {
        Article::new(Self::seed004_params(send_interval, delay))
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
        let mode = match (f.status, f.displayed.mode) {
            (SampleStatus::Underrun, DisplayMode::Extrapolated) => ShownMode::Extrapolated,
            (SampleStatus::Underrun, _) => ShownMode::Held,
            (_, DisplayMode::Hidden) => ShownMode::Nothing,
            (SampleStatus::Ready, _) => ShownMode::Interpolated,
            _ => ShownMode::Waiting,
        };
        Shown { position: f.displayed.position, render_time: f.render_time, mode }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_references_carry_the_articles_constants() {
        let p = Article::seed000_params(0.05);
        assert_eq!((p.clock.clock, p.clock.render_delay), (ClockKind::Reanchor, 0.1));
        assert_eq!((p.underrun.underrun_policy, p.underrun.max_extrapolation), (UnderrunPolicy::ExtrapolateSeed, 0.12));
        assert_eq!(p.buffer.capacity, 32);
        assert_eq!(p.buffer.before_oldest, BeforeOldest::Oldest);
        let p = Article::seed004_params(1.0 / 15.0, 0.15);
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
