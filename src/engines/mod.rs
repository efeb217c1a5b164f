//! What other engines do to a remote entity between snapshots — modelled from their public source, driven by the
//! very packets the articles' pipeline gets, and scored with the same metrics.
//!
//! ```text
//!                      a run's log (crate::run::ClientInput, in order), from any source of deliveries
//!   delivery (snapshot, local arrival) ──┬──► Mirror     SnapshotInterpolation: timeline at 1 ± catch-up, dynamic buffer   (mirror.rs)
//!                                        │               mirror: + NetworkTransform buffer, keyed 1 interval late, reset
//!                                        │               mirror-core: the timeline's own snapshots
//!   RTT sample (local now, rtt)          ├──► NGO 2.x    LocalTime (½ RTT + 1 tick ahead of the sync) − 1 tick, legacy lerp (ngo.rs)
//!                                        ├──► NGO 1.x    NetworkTimeSystem + BufferedLinearInterpolator, 1 tick behind     (ngo1x.rs)
//!   frame (local now, dt)                ├──► Source     cl_interp lerp, interpolated-var history, ≤ 0.25 s extrapolation  (source.rs)
//!                                        ├──► geckos.io  vault + timeOffset + interpolationBuffer; nothing outside the vault (geckos.rs)
//!                                        ├──► lightyear  timeline behind the estimated server time, holds the newest     (lightyear.rs)
//!                                        ├──► FishNet    NetworkTransform goal queue, 2 goals buffered, rate per packet  (fishnet.rs)
//!                                        ├──► Gambetta   receive-time buffer, one update interval in the past              (gambetta.rs)
//!                                        ├──► NetEQ      WebRTC's audio jitter buffer: quantile target, accelerate / expand  (neteq.rs)
//!                                        └──► references: latest snapshot, seed 000, seed 004, this page's settings         (reference.rs)
//!                                                 │
//!                                                 ▼  per frame: Shown {position?, render time, mode}
//!                                  score.rs: the track, its metrics against the truth (crate::run::track)
//! ```
//! Every strategy is a [`Smoother`]: it is told each delivery as it happens and asked once per frame what it
//! shows. Time is an argument (the client's clock reading, seconds), as everywhere in the core. Only the
//! references (the seeds' clocks) and NGO 2.x (its `LocalTime` adds half the transport's RTT) look at RTT samples;
//! the other engines use snapshots and frames only.
//! The strategies know the run contract (`crate::run`) and the client's parts (buffer, clocks, playback), never
//! the simulator: whatever made the log, they replay it.
//!
//! What "underrun" means differs per engine, so each says it through [`ShownMode`]: a frame is an underrun when
//! the strategy's render point has run past the data it holds and it extrapolates or holds (`Extrapolated`,
//! `Held`). `Latest` (show the newest snapshot as it is) has no render point behind the data and no underrun.

pub mod bank;
pub mod fishnet;
pub mod gambetta;
pub mod geckos;
pub mod lightyear;
pub mod mirror;
pub mod neteq;
pub mod ngo;
pub mod ngo1x;
pub mod reference;
pub mod score;
pub mod source;

use crate::geom::Vec2;
use crate::param::ParamError;
use crate::playback::PlaybackParams;
pub use crate::run::Stream;
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// How a strategy obtained what it shows in one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ShownMode {
    /// Nothing to show yet (no data, or the engine returned nothing before it ever showed anything).
    Nothing,
    /// Between two snapshots it holds.
    Interpolated,
    /// Past its newest snapshot, moving on from it.
    Extrapolated,
    /// Past its data, standing still: the last value shown, or the newest snapshot.
    Held,
    /// The newest snapshot as it is (no render point behind the data).
    Latest,
    /// Standing still for another reason than running dry: before the oldest snapshot it holds (at the start),
    /// or the seeds' buffer priming, across a gap, or with an uncertain clock.
    Waiting,
}

impl ShownMode {
    pub const ALL: [ShownMode; 6] = [
        ShownMode::Nothing,
        ShownMode::Interpolated,
        ShownMode::Extrapolated,
        ShownMode::Held,
        ShownMode::Latest,
        ShownMode::Waiting,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ShownMode::Nothing => "nothing",
            ShownMode::Interpolated => "interpolated",
            ShownMode::Extrapolated => "extrapolated",
            ShownMode::Held => "held",
            ShownMode::Latest => "latest",
            ShownMode::Waiting => "waiting",
        }
    }

    /// The code stored in timelines (index in [`ShownMode::ALL`]).
    pub fn code(self) -> f64 {
        ShownMode::ALL.iter().position(|m| *m == self).unwrap_or(0) as f64
    }

    /// The render point ran past the data (or before it): the frame counts as an underrun.
    pub fn is_underrun(self) -> bool {
        matches!(self, ShownMode::Extrapolated | ShownMode::Held)
    }
}

/// One frame of a strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    pub position: Option<Vec2>,
    /// The server time of what is shown (NaN when nothing is).
    pub render_time: f64,
    pub mode: ShownMode,
}

impl Shown {
    pub const NOTHING: Shown = Shown { position: None, render_time: f64::NAN, mode: ShownMode::Nothing };

    pub fn at(position: Vec2, render_time: f64, mode: ShownMode) -> Shown {
        Shown { position: Some(position), render_time, mode }
    }
}

/// A remote-smoothing strategy: told every delivery as it happens, asked once per frame what it shows.
pub trait Smoother {
    /// `snapshot` reached the client when its clock read `arrival` (seconds).
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64);
    /// A round trip of `rtt` seconds was measured when the client's clock read `now` (only the seeds' clocks care).
    fn on_rtt(&mut self, _now: f64, _rtt: f64) {}
    /// The frame when the client's clock reads `now`, `dt` seconds after the previous frame.
    fn frame(&mut self, now: f64, dt: f64) -> Shown;
}

/// Every strategy the playground knows, engines first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum StrategyKind {
    /// Mirror as its users run it: `NetworkClient`'s timeline and a `NetworkTransformUnreliable`.
    Mirror,
    /// Mirror's `SnapshotInterpolation` alone (no `NetworkTransform`).
    #[serde(rename = "mirror-core")]
    MirrorCore,
    Ngo,
    #[serde(rename = "ngo-1x")]
    Ngo1x,
    Source,
    Geckos,
    Lightyear,
    Fishnet,
    Gambetta,
    Neteq,
    Seed000,
    Seed004,
    Playground,
    Latest,
}

impl StrategyKind {
    pub const ALL: [StrategyKind; 14] = [
        StrategyKind::Mirror,
        StrategyKind::MirrorCore,
        StrategyKind::Ngo,
        StrategyKind::Ngo1x,
        StrategyKind::Source,
        StrategyKind::Geckos,
        StrategyKind::Lightyear,
        StrategyKind::Fishnet,
        StrategyKind::Gambetta,
        StrategyKind::Neteq,
        StrategyKind::Seed000,
        StrategyKind::Seed004,
        StrategyKind::Playground,
        StrategyKind::Latest,
    ];

    /// The external name (`mirror`, `mirror-core`, `ngo`, `ngo-1x`, `source`, `geckos`, `lightyear`, `fishnet`,
    /// `gambetta`, `neteq`, `seed000`, `seed004`, `playground`, `latest`).
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Mirror => "mirror",
            StrategyKind::MirrorCore => "mirror-core",
            StrategyKind::Ngo => "ngo",
            StrategyKind::Ngo1x => "ngo-1x",
            StrategyKind::Source => "source",
            StrategyKind::Geckos => "geckos",
            StrategyKind::Lightyear => "lightyear",
            StrategyKind::Fishnet => "fishnet",
            StrategyKind::Gambetta => "gambetta",
            StrategyKind::Neteq => "neteq",
            StrategyKind::Seed000 => "seed000",
            StrategyKind::Seed004 => "seed004",
            StrategyKind::Playground => "playground",
            StrategyKind::Latest => "latest",
        }
    }

    pub fn from_name(name: &str) -> Option<StrategyKind> {
        StrategyKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Every name, comma-separated (for error messages).
    pub fn names() -> String {
        StrategyKind::ALL.map(|k| k.name()).join(", ")
    }

    /// Whether the strategy renders behind its data (and so can run dry): all but `latest`.
    pub fn buffered(self) -> bool {
        self != StrategyKind::Latest
    }

    /// Parses `a,b,c` (spaces allowed), refusing unknown and repeated names; empty means every strategy.
    pub fn parse_list(list: &str) -> Result<Vec<StrategyKind>, ParamError> {
        let mut out = Vec::new();
        for (i, name) in list.split(',').map(str::trim).filter(|s| !s.is_empty()).enumerate() {
            let kind = StrategyKind::from_name(name).ok_or_else(|| {
                ParamError::new(format!("strategies[{i}]"), format!("unknown `{name}` (known: {})", Self::names()))
            })?;
            if out.contains(&kind) {
                return Err(ParamError::new(format!("strategies[{i}]"), format!("`{name}` is listed twice")));
            }
            out.push(kind);
        }
        Ok(if out.is_empty() { StrategyKind::ALL.to_vec() } else { out })
    }
}

/// Every engine's parameters, under the engine's own names (`{"mirror": {…}, "ngo": {…}, "ngo1x": {…}, "source": {…},
/// "geckos": {…}, "lightyear": {…}, "fishnet": {…}, "neteq": {…}}`; Gambetta's demo and the references have none
/// of their own).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, crate::param::Params)]
#[serde(default, deny_unknown_fields)]
pub struct EngineParams {
    pub mirror: mirror::MirrorParams,
    pub ngo: ngo::NgoParams,
    pub ngo1x: ngo1x::NgoParams,
    pub source: source::SourceParams,
    pub geckos: geckos::GeckosParams,
    pub lightyear: lightyear::LightyearParams,
    pub fishnet: fishnet::FishnetParams,
    pub neteq: neteq::NeteqParams,
}

impl EngineParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.mirror.validate().map_err(|e| e.within("mirror"))?;
        self.ngo.validate().map_err(|e| e.within("ngo"))?;
        self.ngo1x.validate().map_err(|e| e.within("ngo1x"))?;
        self.source.validate().map_err(|e| e.within("source"))?;
        self.geckos.validate().map_err(|e| e.within("geckos"))?;
        self.lightyear.validate().map_err(|e| e.within("lightyear"))?;
        self.fishnet.validate().map_err(|e| e.within("fishnet"))?;
        self.neteq.validate().map_err(|e| e.within("neteq"))
    }
}

/// What one strategy's run depends on besides the log ([`Setup::key`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    stream: Stream,
    own: Own,
}

/// A strategy's own settings, in a [`Key`].
#[derive(Clone, Debug, PartialEq)]
enum Own {
    Nothing,
    Mirror(mirror::MirrorParams),
    Ngo(ngo::NgoParams),
    Ngo1x(ngo1x::NgoParams),
    Source(source::SourceParams),
    Geckos(geckos::GeckosParams),
    Lightyear(lightyear::LightyearParams),
    Fishnet(fishnet::FishnetParams),
    Neteq(neteq::NeteqParams),
    Delay(f64),
    Playback(Box<PlaybackParams>),
}

/// Everything a strategy may be built from.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub stream: Stream,
    pub engines: EngineParams,
    /// This page's remote settings (the `playground` strategy).
    pub playback: PlaybackParams,
    /// The interpolation delay seed 004 §5.3 gives this network (the page's render delay on a custom network).
    pub article_delay: f64,
}

impl Setup {
    /// What the strategy `kind` depends on, as a comparable key: equal keys (on the same log) give equal runs, so
    /// a change elsewhere does not re-run it.
    pub fn key(&self, kind: StrategyKind) -> Key {
        let own = match kind {
            StrategyKind::Mirror => Own::Mirror(self.engines.mirror.clone()),
            StrategyKind::MirrorCore => Own::Mirror(self.engines.mirror.core()),
            StrategyKind::Ngo => Own::Ngo(self.engines.ngo.clone()),
            StrategyKind::Ngo1x => Own::Ngo1x(self.engines.ngo1x.clone()),
            StrategyKind::Source => Own::Source(self.engines.source.clone()),
            StrategyKind::Geckos => Own::Geckos(self.engines.geckos.clone()),
            StrategyKind::Lightyear => Own::Lightyear(self.engines.lightyear.clone()),
            StrategyKind::Fishnet => Own::Fishnet(self.engines.fishnet.clone()),
            StrategyKind::Neteq => Own::Neteq(self.engines.neteq.clone()),
            StrategyKind::Gambetta | StrategyKind::Latest | StrategyKind::Seed000 => Own::Nothing,
            StrategyKind::Seed004 => Own::Delay(self.article_delay),
            StrategyKind::Playground => Own::Playback(Box::new(self.playback.clone())),
        };
        Key { stream: self.stream, own }
    }

    /// A fresh smoother of kind `kind`; refused parameters are named (`mirror.bufferLimit: …`).
    pub fn build(&self, kind: StrategyKind) -> Result<Box<dyn Smoother>, ParamError> {
        Ok(match self.built(kind)? {
            Built::Mirror(s) => Box::new(s),
            Built::Ngo(s) => Box::new(s),
            Built::Ngo1x(s) => Box::new(s),
            Built::Source(s) => Box::new(s),
            Built::Geckos(s) => Box::new(s),
            Built::Lightyear(s) => Box::new(s),
            Built::Fishnet(s) => Box::new(s),
            Built::Gambetta(s) => Box::new(s),
            Built::Neteq(s) => Box::new(s),
            Built::Latest(s) => Box::new(s),
            Built::Article(s) => Box::new(s),
        })
    }

    /// A fresh smoother of kind `kind` as its own type ([`Built`]), for a caller that drives it through a generic
    /// function (`run::Scoring`: each strategy's frame is then compiled into its scoring loop, not called through
    /// a vtable 3,600 times per 60 s).
    pub fn built(&self, kind: StrategyKind) -> Result<Built, ParamError> {
        self.engines.validate()?;
        let s = self.stream;
        Ok(match kind {
            StrategyKind::Mirror => {
                Built::Mirror(mirror::Mirror::network_transform(self.engines.mirror.clone(), s.send_interval))
            }
            StrategyKind::MirrorCore => Built::Mirror(mirror::Mirror::new(self.engines.mirror.core(), s.send_interval)),
            StrategyKind::Ngo => Built::Ngo(ngo::Ngo::new(self.engines.ngo.clone(), s.send_interval)),
            StrategyKind::Ngo1x => Built::Ngo1x(ngo1x::Ngo::new(self.engines.ngo1x.clone(), s.send_interval)),
            StrategyKind::Source => Built::Source(source::Source::new(self.engines.source.clone(), s.tick_interval)),
            StrategyKind::Geckos => Built::Geckos(geckos::Geckos::new(self.engines.geckos.clone(), s.send_interval)),
            StrategyKind::Lightyear => Built::Lightyear(lightyear::Lightyear::new(
                self.engines.lightyear.clone(),
                s.send_interval,
                s.tick_interval,
            )),
            StrategyKind::Fishnet => {
                Built::Fishnet(fishnet::Fishnet::new(self.engines.fishnet.clone(), s.send_interval, s.tick_interval))
            }
            StrategyKind::Gambetta => Built::Gambetta(gambetta::Gambetta::new(s.send_interval)),
            StrategyKind::Neteq => Built::Neteq(neteq::Neteq::new(self.engines.neteq.clone(), s.send_interval)),
            StrategyKind::Latest => Built::Latest(reference::Latest::default()),
            StrategyKind::Seed000 | StrategyKind::Seed004 | StrategyKind::Playground => Built::Article(
                reference::Article::new(self.article_params(kind).expect("an article's pipeline"), &self.stream)?,
            ),
        })
    }

    /// The parameters of the articles' pipeline that `kind` runs (`seed000`, `seed004`, `playground`); `None` for
    /// the engines and `latest`.
    pub fn article_params(&self, kind: StrategyKind) -> Option<PlaybackParams> {
        match kind {
            StrategyKind::Seed000 => Some(reference::Article::seed000_params()),
            StrategyKind::Seed004 => Some(reference::Article::seed004_params(self.article_delay)),
            StrategyKind::Playground => Some(self.playback.clone()),
            _ => None,
        }
    }

    /// Whether `kind` is one of the seeds' references (`seed000`, `seed004`) whose buffer and clock parameters are
    /// the run's own (`playback`): replayed, its buffer and render clock would step exactly as the run's pipeline
    /// did on the same inputs, so it can follow the run's frames instead (`reference::Following`). Its underrun
    /// policy may differ. (`playground` is the run's pipeline itself: `run::score_all_own` reads it whole.)
    pub fn follows_run(&self, kind: StrategyKind) -> bool {
        matches!(kind, StrategyKind::Seed000 | StrategyKind::Seed004)
            && self
                .article_params(kind)
                .is_some_and(|p| p.buffer == self.playback.buffer && p.clock == self.playback.clock)
    }
}

/// A built strategy as its own type (what [`Setup::build`] boxes).
// Built once per strategy and moved straight into the replay that owns it: a box for the large `Article` would
// only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Built {
    Mirror(mirror::Mirror),
    Ngo(ngo::Ngo),
    Ngo1x(ngo1x::Ngo),
    Source(source::Source),
    Geckos(geckos::Geckos),
    Lightyear(lightyear::Lightyear),
    Fishnet(fishnet::Fishnet),
    Gambetta(gambetta::Gambetta),
    Neteq(neteq::Neteq),
    Latest(reference::Latest),
    /// `seed000`, `seed004` and `playground`: the articles' pipeline with their settings.
    Article(reference::Article),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_lists_refuse_unknown_and_repeated_names() {
        for kind in StrategyKind::ALL {
            assert_eq!(StrategyKind::from_name(kind.name()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
        }
        assert_eq!(StrategyKind::parse_list("").unwrap().len(), StrategyKind::ALL.len());
        assert_eq!(StrategyKind::parse_list(" mirror, source ").unwrap(), [StrategyKind::Mirror, StrategyKind::Source]);
        let err = StrategyKind::parse_list("mirror,unity").unwrap_err();
        assert_eq!(err.field, "strategies[1]");
        assert!(err.message.contains("unknown `unity`"), "{err}");
        assert_eq!(StrategyKind::parse_list("ngo,ngo").unwrap_err().field, "strategies[1]");
    }

    #[test]
    fn only_extrapolated_and_held_frames_are_underruns() {
        let underruns: Vec<&str> = ShownMode::ALL.iter().filter(|m| m.is_underrun()).map(|m| m.name()).collect();
        assert_eq!(underruns, ["extrapolated", "held"]);
        assert_eq!(ShownMode::Latest.code(), 4.0);
    }

    #[test]
    fn engine_params_parse_by_the_engines_own_names_and_refuse_typos() {
        let p: EngineParams = serde_json::from_str(
            r#"{"mirror": {"bufferTimeMultiplier": 3}, "ngo": {"ServerBufferSec": 0.1},
                "source": {"cl_interp": 0.05}, "geckos": {"interpolationBuffer": 150},
                "lightyear": {"send_interval_ratio": 2.5, "min_delay": 0.02}, "fishnet": {"interpolation": 3}}"#,
        )
        .unwrap();
        assert_eq!(p.mirror.buffer_time_multiplier, 3.0);
        assert_eq!(p.ngo.server_buffer_sec, 0.1);
        assert_eq!(p.source.cl_interp, 0.05);
        assert_eq!(p.geckos.interpolation_buffer, 150.0);
        assert_eq!((p.lightyear.send_interval_ratio, p.lightyear.min_delay), (2.5, 0.02));
        assert_eq!(p.fishnet.interpolation, 3);
        assert!(serde_json::from_str::<EngineParams>(r#"{"mirror": {"bufferTime": 3}}"#).is_err());
        let mut bad = EngineParams::default();
        bad.source.cl_extrapolate_amount = -1.0;
        assert_eq!(bad.validate().unwrap_err().field, "source.cl_extrapolate_amount");
    }
}
