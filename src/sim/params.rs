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
//! Every field has a default, so `{}` is a valid run. Each field is stated once, here or in the group it belongs
//! to (`#[derive(Params)]`, `crate::param`): its key, its doc, its range and unit, how the page shows it. The
//! stream's facts — its send interval and tick, the true clock offset — are this run's (`SimParams::stream`),
//! handed to the buffer and the clocks as arguments.

use crate::link::LinkParams;
use crate::motion::MotionScript;
use crate::param::{ParamError, Params};
use crate::path::lerp_chase::LerpParams;
use crate::path::params::PathParams;
use crate::playback::PlaybackParams;
use crate::predict::input::InputScript;
use crate::predict::params::PredictParams;
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

/// The longest run the simulator accepts, in seconds.
pub const MAX_DURATION: f64 = 120.0;

#[derive(Clone, Debug, PartialEq, Serialize, Params)]
#[serde(rename_all = "camelCase")]
pub struct SimParams {
    /// Seeds every random stream of the run: the same seed, the same packets lost and delayed.
    #[param(control(0.0, 4294967295.0, 1.0, "", 1.0))]
    pub seed: u64,
    /// Seconds of client time simulated.
    #[param(range(1.0, MAX_DURATION), unit = "s")]
    pub duration: f64,
    /// Client render frames per second.
    #[param(range(10.0, 240.0), unit = "Hz", control(10.0, 240.0, 1.0, "fps", 1.0))]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct ScenarioParams {
    /// How the remote entity moves: straight runs and sharp turns, a circle, stop and go, respawns.
    pub motion: MotionScript,
    /// Remote entity speed (seed 001's 120 units a second by default).
    #[param(range(0.0, 2000.0), unit = "units/s")]
    pub speed: f64,
    /// Server simulation ticks per second.
    #[param(range(1.0, 240.0), unit = "Hz")]
    pub tick_rate: f64,
    /// Snapshots per second (seed 000 §4.3.2's 20 by default), rounded to a whole number of ticks; at most one a
    /// tick.
    #[param(range(1.0, self.tick_rate.max(1.0)), unit = "Hz", control(5.0, 60.0, 1.0, "Hz", 1.0))]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct NetworkParams {
    /// Server → client (snapshots, path batches, pongs).
    pub downlink: LinkParams,
    /// Client → server (inputs, pings).
    pub uplink: LinkParams,
    /// True clock offset: server time = local time + offset at the start.
    #[param(range(-1e4, 1e4), unit = "s")]
    pub clock_offset: f64,
    /// Client clock rate error: local runs `1 + clockSkew` times as fast as the server.
    #[param(range(-0.05, 0.05))]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct PathSimParams {
    /// Seconds between batches (the article's "一秒一包" by default).
    #[param(range(0.05, 10.0), unit = "s")]
    pub batch_interval: f64,
    /// Seconds between points inside a batch; at most a batch.
    #[param(range(0.01, self.batch_interval.max(0.01)), unit = "s")]
    pub sample_interval: f64,
    /// V2 batches carry `offsetMs`; V1 batches do not.
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct EventParams {
    /// Local time at which the tab stalls (a background tab or a long frame); none by default.
    #[param(range(0.0, MAX_DURATION), unit = "s")]
    pub stall_at: Option<f64>,
    /// How long the stall lasts.
    #[param(range(0.0, 10.0), unit = "s")]
    pub stall_duration: f64,
    /// Frame rate during the stall.
    #[param(range(0.2, 240.0), unit = "Hz")]
    pub stall_fps: f64,
    /// Local time at which the client's clock jumps; none by default.
    #[param(range(0.0, MAX_DURATION), unit = "s")]
    pub kick_at: Option<f64>,
    /// Size of the jump (negative jumps back).
    #[param(range(-1.0, 1.0), unit = "s")]
    pub kick: f64,
    /// Local time from which the remote view's links (snapshots down, pings up, pongs down) change; none by default.
    #[param(range(0.0, MAX_DURATION), unit = "s")]
    pub link_step_at: Option<f64>,
    /// Added to both directions' one-way latency from then on (+0.05 s: +100 ms of RTT by default).
    #[param(range(-2.0, 2.0), unit = "s")]
    pub link_step_latency: f64,
    /// Added to both directions' jitter from then on.
    #[param(range(-1.0, 1.0), unit = "s")]
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
        self.check_ranges()?;
        self.scenario.check_ranges().map_err(|e| e.within("scenario"))?;
        self.network.downlink.validate().map_err(|e| e.within("network.downlink"))?;
        self.network.uplink.validate().map_err(|e| e.within("network.uplink"))?;
        self.network.check_ranges().map_err(|e| e.within("network"))?;
        self.remote.validate(&self.stream()).map_err(|e| e.within("remote"))?;
        self.paths.check_ranges().map_err(|e| e.within("paths"))?;
        self.paths.player.validate().map_err(|e| e.within("paths.player"))?;
        self.paths.lerp.validate().map_err(|e| e.within("paths.lerp"))?;
        self.local.validate().map_err(|e| e.within("local"))?;
        self.events.check_ranges().map_err(|e| e.within("events"))
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
