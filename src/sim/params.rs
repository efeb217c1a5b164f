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
//!                 "linkStepAt": null, "linkStepLatency": 0.05, "linkStepJitter": 0 },
//!   "engines":  { "mirror": {…}, "ngo": {…}, "source": {…}, "geckos": {…} } }   // crate::engines::EngineParams
//! ```
//! Every field has a default, so `{}` is a valid run. The simulator keeps the copies of one fact in step:
//! the buffer's and clock's `sendInterval` and the local session's `snapshotRate` follow `scenario.sendRate`,
//! and the `known` clock is told the true `network.clockOffset` (it is the ideal reference).
//!
//! The page reads these groups with `crate::tree` (src/tree/params.rs lists every group's keys): a field added
//! to any group here goes there too, or the page refuses its key (`tests/params_reader.rs` fails first).

use crate::engines::EngineParams;
use crate::link::LinkParams;
use crate::motion::MotionScript;
use crate::param::{in_range, ParamError};
use crate::path::lerp_chase::LerpParams;
use crate::path::params::PathParams;
use crate::playback::PlaybackParams;
use crate::predict::input::InputScript;
use crate::predict::params::PredictParams;
use crate::words;
use serde::{Deserialize, Serialize};
use serde_json::error::Category;

/// The longest run the simulator accepts, in seconds.
pub const MAX_DURATION: f64 = 120.0;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
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
    /// Other engines' remote smoothing, under their own names (issue 13). They only replay the remote
    /// pipeline's client inputs: changing them re-runs no pipeline.
    pub engines: EngineParams,
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
            engines: EngineParams::default(),
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
        self.effective_remote().validate().map_err(|e| e.within("remote"))?;
        let p = &self.paths;
        in_range("paths.batchInterval", p.batch_interval, 0.05, 10.0, "s")?;
        in_range("paths.sampleInterval", p.sample_interval, 0.01, p.batch_interval.max(0.01), "s")?;
        p.player.validate().map_err(|e| e.within("paths.player"))?;
        p.lerp.validate().map_err(|e| e.within("paths.lerp"))?;
        self.effective_local().validate().map_err(|e| e.within("local"))?;
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
        self.engines.validate().map_err(|e| e.within("engines"))
    }

    /// The remote playback parameters with the copies of scenario facts filled in.
    pub fn effective_remote(&self) -> PlaybackParams {
        let mut remote = self.remote.clone().with_send_interval(self.scenario.send_interval());
        remote.clock.clock_offset = self.network.clock_offset;
        remote
    }

    /// The local prediction parameters with the scenario's snapshot rate.
    pub fn effective_local(&self) -> PredictParams {
        PredictParams { snapshot_rate: self.scenario.send_rate, ..self.local }
    }

    /// Parses JSON parameters; errors name the field (`network.downlink.loss: …`). Every group is a JSON
    /// object: an array in its place is refused (serde would otherwise read it as the fields in order).
    pub fn from_json(text: &str) -> Result<SimParams, ParamError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut de = serde_json::Deserializer::from_str(text);
        let params: SimParams = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let field = field_name(e.path());
            let e = e.into_inner();
            let message = match e.classify() {
                Category::Syntax | Category::Eof => words::syntax(text, e.line(), e.column(), &e.to_string()),
                _ => words::plain(&e.to_string()),
            };
            named(field, message)
        })?;
        de.end().map_err(|e| ParamError::new("params", format!("not valid JSON ({e})")))?;
        let shape: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ParamError::new("params", e.to_string()))?;
        objects_only(&shape)?;
        params.validate()?;
        Ok(params)
    }
}

/// The error at `field`, unless the message is itself a checked value's error (`` `script[2].time`: … ``, from a
/// type that checks itself while it is read): then that one, which names the field more exactly.
pub fn named(field: String, message: String) -> ParamError {
    if let Some((inner, rest)) = message.strip_prefix('`').and_then(|m| m.split_once("`: ")) {
        let rest = match rest.rfind(" at line ") {
            Some(at) if rest[at..].contains(" column ") => &rest[..at],
            _ => rest,
        };
        return ParamError::new(inner, rest);
    }
    ParamError::new(field, message)
}

fn field_name(path: &serde_path_to_error::Path) -> String {
    words::path(path).unwrap_or_else(|| "params".into())
}

/// Refuses an array where a group of parameters (an object) belongs: serde reads an array as the fields in
/// order, and `[5]` must not silently mean `{"seed": 5}`. The only array among the parameters is `script`.
pub fn objects_only(value: &serde_json::Value) -> Result<(), ParamError> {
    fn walk(value: &serde_json::Value, path: &str) -> Result<(), ParamError> {
        use serde_json::Value;
        let name = |key: &str| if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
        match value {
            Value::Object(map) => map.iter().try_for_each(|(k, v)| match (path, k.as_str(), v) {
                ("", "script", Value::Array(events)) => {
                    events.iter().enumerate().try_for_each(|(i, e)| walk(e, &format!("script[{i}]")))
                }
                _ => walk(v, &name(k)),
            }),
            Value::Array(_) => {
                let field = if path.is_empty() { "params" } else { path };
                Err(ParamError::new(field, "expected an object, found an array"))
            }
            _ => Ok(()),
        }
    }
    walk(value, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_an_empty_object_is_the_defaults() {
        assert_eq!(SimParams::default().validate(), Ok(()));
        assert_eq!(SimParams::from_json("{}").unwrap(), SimParams::default());
    }

    #[test]
    fn nested_errors_carry_their_path() {
        let mut p = SimParams::default();
        p.network.downlink.loss = 2.0;
        assert_eq!(p.validate().unwrap_err().field, "network.downlink.loss");
        let mut p = SimParams::default();
        p.remote.clock.render_delay = f64::NAN;
        assert_eq!(p.validate().unwrap_err().field, "remote.clock.renderDelay");
        let err = SimParams::from_json(r#"{"sead": 3}"#).unwrap_err();
        assert!(err.message.starts_with("unknown key \"sead\" (known: seed, duration, fps,"), "{err}");
        assert!(SimParams::from_json("{} []").is_err(), "trailing characters");
        let err = SimParams::from_json(r#"{"network": {"downlink": {"loss": "lots"}}}"#).unwrap_err();
        assert_eq!(err.field, "network.downlink.loss", "{err}");
    }

    /// Every group of parameters refuses a key it does not know (a typo must not silently become a default):
    /// `zzz` is put into each object of the defaults in turn. A new group without `deny_unknown_fields` fails here.
    #[test]
    fn every_group_refuses_an_unknown_key() {
        fn objects(value: &serde_json::Value, path: &str, out: &mut Vec<String>) {
            if let serde_json::Value::Object(map) = value {
                out.push(path.to_string());
                for (key, inner) in map {
                    objects(inner, &if path.is_empty() { key.clone() } else { format!("{path}.{key}") }, out);
                }
            }
        }
        let defaults = serde_json::to_value(SimParams::default()).unwrap();
        let mut paths = Vec::new();
        objects(&defaults, "", &mut paths);
        assert!(paths.len() >= 15, "{paths:?}");
        for path in paths {
            let mut value = defaults.clone();
            let target = path.split('.').filter(|k| !k.is_empty()).fold(&mut value, |v, k| &mut v[k]);
            target.as_object_mut().unwrap().insert("zzz".into(), 1.into());
            let err = SimParams::from_json(&value.to_string()).unwrap_err();
            let field = if path.is_empty() { "zzz".to_string() } else { format!("{path}.zzz") };
            // A group with a flattened part (`local`) names the group, and the key in the message.
            let named = err.field == field || (err.field == path && err.message.starts_with("unknown key \"zzz\""));
            assert!(named, "{path}: {err}");
        }
    }

    /// Found by the `sim_params` fuzz target (fuzz/regressions/sim_params/): a file that ends inside a key named
    /// the key `?`.
    #[test]
    fn a_key_cut_off_by_the_end_of_the_file_names_its_object() {
        let err = SimParams::from_json(r#"{"network": {"downlink": {"duplicate*: 0.05}}}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`network.downlink`: not valid JSON (EOF while parsing a string at line 1 column 46)"
        );
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
    fn the_scenario_rate_reaches_buffer_clock_and_local() {
        let mut p = SimParams::default();
        p.scenario.send_rate = 30.0;
        p.network.clock_offset = 5.0;
        let remote = p.effective_remote();
        assert!((remote.buffer.send_interval - 1.0 / 30.0).abs() < 1e-12);
        assert_eq!(remote.clock.clock_offset, 5.0);
        assert_eq!(p.effective_local().snapshot_rate, 30.0);
    }
}
