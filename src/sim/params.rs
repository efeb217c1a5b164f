//! Everything one run depends on, grouped as the page groups its controls. JSON shape (camelCase):
//!
//! ```text
//! { "seed": 1, "duration": 20, "fps": 60,
//!   "scenario": { "motion": "turns", "speed": 120, "tickRate": 60, "sendRate": 20 },
//!   "network":  { "downlink": {LinkParams}, "uplink": {LinkParams}, "clockOffset": 0, "clockSkew": 0 },
//!   "remote":   { "buffer": {…}, "clock": {…}, "underrun": {…} },          // crate::playback::PlaybackParams
//!   "paths":    { "batchInterval": 1, "sampleInterval": 0.1, "withOffsets": true, "player": {…}, "lerp": {…} },
//!   "local":    { PredictParams },
//!   "events":   { "stallAt": null, "stallDuration": 1, "stallFps": 1, "kickAt": null, "kick": 0.1,
//!                 "linkStepAt": null, "linkStepLatency": 0.05, "linkStepJitter": 0 } }
//! ```
//! Every field has a default, so `{}` is a valid run. The simulator keeps the copies of one fact in step:
//! the buffer's and clock's `sendInterval` and the local session's `snapshotRate` follow `scenario.sendRate`,
//! and the `known` clock is told the true `network.clockOffset` (it is the ideal reference).
//!
//! The page reads these groups with `crate::tree` (src/tree/params.rs lists every group's keys): a field added
//! to any group here goes there too, or the page refuses its key (`tests/params_reader.rs` fails first).

use crate::link::LinkParams;
use crate::motion::MotionScript;
use crate::param::{in_range, ParamError};
use crate::path::lerp_chase::LerpParams;
use crate::path::params::PathParams;
use crate::playback::PlaybackParams;
use crate::predict::input::InputScript;
use crate::predict::params::PredictParams;
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

/// The longest run the simulator accepts, in seconds.
pub const MAX_DURATION: f64 = 120.0;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimParams {
    /// Seeds every random stream of the run (default 1).
    pub seed: u64,
    /// Seconds of client time simulated (default 20, 1..=120).
    pub duration: f64,
    /// Client render frames per second (default 60, 10..=240).
    pub fps: f64,
    pub scenario: ScenarioParams,
    pub network: NetworkParams,
    pub remote: PlaybackParams,
    pub paths: PathSimParams,
    pub local: PredictParams,
    pub events: EventParams,
    /// The local player's keys over time (`[{time, keys: {left, right, up, down}}]`); the demo script when absent.
    pub script: Option<InputScript>,
}

impl Default for SimParams {
    fn default() -> Self {
        SimParams {
            seed: 1,
            duration: 20.0,
            fps: 60.0,
            scenario: ScenarioParams::default(),
            network: NetworkParams::default(),
            remote: PlaybackParams::default(),
            paths: PathSimParams::default(),
            local: PredictParams::default(),
            events: EventParams::default(),
            script: None,
        }
    }
}

/// The server side: what the remote entity does and how often the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioParams {
    pub motion: MotionScript,
    /// Remote entity speed, units per second (default 120: seed 001's speed).
    pub speed: f64,
    /// Server simulation ticks per second (default 60).
    pub tick_rate: f64,
    /// Snapshots per second (default 20: seed 000 §4.3.2). Rounded to a whole number of ticks.
    pub send_rate: f64,
}

impl Default for ScenarioParams {
    fn default() -> Self {
        ScenarioParams { motion: MotionScript::Turns, speed: 120.0, tick_rate: 60.0, send_rate: 20.0 }
    }
}

impl ScenarioParams {
    /// Ticks between two snapshots (at least one).
    pub fn ticks_per_snapshot(&self) -> u64 {
        (self.tick_rate / self.send_rate).round().max(1.0) as u64
    }

    /// Seconds between two snapshots, after rounding to whole ticks.
    pub fn send_interval(&self) -> f64 {
        self.ticks_per_snapshot() as f64 / self.tick_rate
    }
}

/// Both directions of the network, and how the client's clock relates to the server's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkParams {
    /// Server → client (snapshots, path batches, pongs).
    pub downlink: LinkParams,
    /// Client → server (inputs, pings).
    pub uplink: LinkParams,
    /// True clock offset: server time = local time + offset at the start (default 0, ±1e4 s).
    pub clock_offset: f64,
    /// Client clock rate error: local runs `1 + clockSkew` times as fast as the server (default 0, ±0.05).
    pub clock_skew: f64,
}

impl Default for NetworkParams {
    fn default() -> Self {
        NetworkParams {
            downlink: LinkParams::default(),
            uplink: LinkParams::default(),
            clock_offset: 0.0,
            clock_skew: 0.0,
        }
    }
}

/// Seed 001's moveList batches: how the server cuts its path, and both client models.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PathSimParams {
    /// Seconds between batches (default 1: the article's "一秒一包").
    pub batch_interval: f64,
    /// Seconds between points inside a batch (default 0.1).
    pub sample_interval: f64,
    /// V2 batches carry `offsetMs`; V1 batches do not (default true).
    pub with_offsets: bool,
    pub player: PathParams,
    pub lerp: LerpParams,
}

impl Default for PathSimParams {
    fn default() -> Self {
        PathSimParams {
            batch_interval: 1.0,
            sample_interval: 0.1,
            with_offsets: true,
            player: PathParams::default(),
            lerp: LerpParams::default(),
        }
    }
}

/// Disturbances that reproduce real bugs (seed 004, and the Mirror demo's 1 fps / ±100 ms buttons), and a step of
/// the remote view's network (seed 004 §4.1–4.2: "RTT从20ms突然跳到80ms"; the adaptive-delay lesson compares both
/// controllers on an RTT step without jitter and on a jitter rise without an RTT change).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct EventParams {
    /// Local time at which the tab stalls (a background tab or a long frame); none by default.
    pub stall_at: Option<f64>,
    /// How long the stall lasts (default 1 s).
    pub stall_duration: f64,
    /// Frame rate during the stall (default 1 fps).
    pub stall_fps: f64,
    /// Local time at which the client's clock jumps; none by default.
    pub kick_at: Option<f64>,
    /// Size of the jump, seconds (default +0.1; negative jumps back).
    pub kick: f64,
    /// Local time from which the remote view's links (snapshots down, pings up, pongs down) change; none by default.
    pub link_step_at: Option<f64>,
    /// Added to both directions' one-way latency from then on (default +0.05 s: +100 ms of RTT).
    pub link_step_latency: f64,
    /// Added to both directions' jitter from then on (default 0).
    pub link_step_jitter: f64,
}

impl Default for EventParams {
    fn default() -> Self {
        EventParams {
            stall_at: None,
            stall_duration: 1.0,
            stall_fps: 1.0,
            kick_at: None,
            kick: 0.1,
            link_step_at: None,
            link_step_latency: 0.05,
            link_step_jitter: 0.0,
        }
    }
}

impl EventParams {
    /// The link conditions for a packet sent at true local time `t`: `base`, stepped from `linkStepAt` on.
    pub fn link_at(&self, base: LinkParams, t: f64) -> LinkParams {
        match self.link_step_at {
            Some(at) if t >= at => LinkParams {
                latency: crate::geom::clamp(base.latency + self.link_step_latency, 0.0, 2.0),
                jitter: crate::geom::clamp(base.jitter + self.link_step_jitter, 0.0, 1.0),
                ..base
            },
            _ => base,
        }
    }
}

impl SimParams {
    /// Checks every field; the error names the first bad one with its path (`network.downlink.loss`).
    pub fn validate(&self) -> Result<(), ParamError> {
        in_range("duration", self.duration, 1.0, MAX_DURATION, "s")?;
        in_range("fps", self.fps, 10.0, 240.0, "Hz")?;
        let s = &self.scenario;
        in_range("scenario.speed", s.speed, 0.0, 2000.0, "units/s")?;
        in_range("scenario.tickRate", s.tick_rate, 1.0, 240.0, "Hz")?;
        in_range("scenario.sendRate", s.send_rate, 1.0, s.tick_rate.max(1.0), "Hz")?;
        self.network.downlink.validate().map_err(|e| e.within("network.downlink"))?;
        self.network.uplink.validate().map_err(|e| e.within("network.uplink"))?;
        in_range("network.clockOffset", self.network.clock_offset, -1e4, 1e4, "s")?;
        in_range("network.clockSkew", self.network.clock_skew, -0.05, 0.05, "")?;
        self.remote.validate(&self.stream()).map_err(|e| e.within("remote"))?;
        let p = &self.paths;
        in_range("paths.batchInterval", p.batch_interval, 0.05, 10.0, "s")?;
        in_range("paths.sampleInterval", p.sample_interval, 0.01, p.batch_interval.max(0.01), "s")?;
        p.player.validate().map_err(|e| e.within("paths.player"))?;
        p.lerp.validate().map_err(|e| e.within("paths.lerp"))?;
        self.local.validate().map_err(|e| e.within("local"))?;
        let e = &self.events;
        if let Some(at) = e.stall_at {
            in_range("events.stallAt", at, 0.0, MAX_DURATION, "s")?;
        }
        in_range("events.stallDuration", e.stall_duration, 0.0, 10.0, "s")?;
        in_range("events.stallFps", e.stall_fps, 0.2, 240.0, "Hz")?;
        if let Some(at) = e.kick_at {
            in_range("events.kickAt", at, 0.0, MAX_DURATION, "s")?;
        }
        in_range("events.kick", e.kick, -1.0, 1.0, "s")?;
        if let Some(at) = e.link_step_at {
            in_range("events.linkStepAt", at, 0.0, MAX_DURATION, "s")?;
        }
        in_range("events.linkStepLatency", e.link_step_latency, -2.0, 2.0, "s")?;
        in_range("events.linkStepJitter", e.link_step_jitter, -1.0, 1.0, "s")?;
        Ok(())
    }

    /// The facts of this run's snapshot stream: its send interval and tick (`scenario`), the true clock offset
    /// (`network`).
    pub fn stream(&self) -> Stream {
        Stream {
            send_interval: self.scenario.send_interval(),
            tick_interval: 1.0 / self.scenario.tick_rate,
            clock_offset: self.network.clock_offset,
        }
    }

    /// How true local time, server time and the client's clock relate in this run.
    pub fn time_map(&self) -> crate::run::TimeMap {
        crate::run::TimeMap::new(
            self.network.clock_offset,
            self.network.clock_skew,
            self.events.kick_at,
            self.events.kick,
        )
    }

    /// Where the remote entity really is, at any server time.
    pub fn truth(&self) -> crate::run::TruthTrack {
        crate::run::TruthTrack::new(self.scenario.motion, self.scenario.speed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_nested_errors_carry_their_path() {
        assert_eq!(SimParams::default().validate(), Ok(()));
        let mut p = SimParams::default();
        p.network.downlink.loss = 2.0;
        assert_eq!(p.validate().unwrap_err().field, "network.downlink.loss");
        let mut p = SimParams::default();
        p.remote.clock.render_delay = f64::NAN;
        assert_eq!(p.validate().unwrap_err().field, "remote.clock.renderDelay");
    }

    #[test]
    fn the_send_interval_is_a_whole_number_of_ticks() {
        let s = ScenarioParams { send_rate: 20.0, tick_rate: 60.0, ..ScenarioParams::default() };
        assert_eq!(s.ticks_per_snapshot(), 3);
        assert!((s.send_interval() - 0.05).abs() < 1e-12);
        let s = ScenarioParams { send_rate: 25.0, tick_rate: 60.0, ..ScenarioParams::default() };
        assert_eq!(s.ticks_per_snapshot(), 2);
    }

    #[test]
    fn the_stream_is_the_scenarios_and_the_networks() {
        let mut p = SimParams::default();
        p.scenario.send_rate = 30.0;
        p.network.clock_offset = 5.0;
        let stream = p.stream();
        assert!((stream.send_interval - 1.0 / 30.0).abs() < 1e-12);
        assert_eq!((stream.tick_interval, stream.clock_offset), (1.0 / 60.0, 5.0));
    }
}
