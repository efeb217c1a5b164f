//! The playground's parameters: the simulation's and the engines' own, side by side. They are one JSON object —
//! the simulation's keys and `"engines"` beside them, as the page, the URL and `--params FILE` write them — but two
//! values inside: an engine's setting replays the engines on the run's log and never runs the simulation again.
//!
//! ```text
//! { "seed": 1, "duration": 20, …every key of crate::sim::params…, "engines": { "mirror": {…}, "ngo": {…}, … } }
//!   └──────────────── sim: SimParams ─────────────────────────────┘  └──── engines: EngineParams ─────────────┘
//! ```

use crate::engines::EngineParams;
use crate::param::{Entry, Kind, ParamError, Schema, Visit};
use crate::playback::PlaybackParams;
use crate::predict::input::InputScript;
use crate::predict::params::PredictParams;
use crate::sim::params::{EventParams, NetworkParams, PathSimParams, ScenarioParams, SimParams};
use crate::tree::{Group, Read, Tree, TreeError};
use serde::{Deserialize, Serialize};

/// The key of the engines' group among the simulation's keys.
const ENGINES: &str = "engines";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaygroundParams {
    pub sim: SimParams,
    pub engines: EngineParams,
}

impl PlaygroundParams {
    /// Checks every field; the error names the first bad one with its path (`engines.mirror.bufferLimit`).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.sim.validate()?;
        self.engines.validate().map_err(|e| e.within(ENGINES))
    }

    /// Every parameter under its path (`remote.clock.renderDelay`): key, field, kind, unit, range, the page's
    /// control, default and doc, in the order of the parameter object.
    pub fn schema() -> Vec<Entry> {
        crate::param::entries::<PlaygroundParams>()
    }

    /// Parses JSON parameters (the page's object as a file) and checks them; errors name the field
    /// (`network.downlink.loss: …`).
    pub fn from_json(text: &str) -> Result<PlaygroundParams, ParamError> {
        let params: PlaygroundParams = crate::tree::from_json(text)?;
        params.validate()?;
        Ok(params)
    }
}

/// serde's derive over `Wire`: a file's reader (`from_json`).
impl<'de> Deserialize<'de> for PlaygroundParams {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Wire::deserialize(deserializer).map(PlaygroundParams::from)
    }
}

/// The one object as serde's derive reads a JSON file: the simulation's fields, then `engines`, in the order serde
/// lists them when it refuses a key. JSON tells `1` from `1.0` and reads an array as a group's fields in order,
/// which a JavaScript object cannot say: the file's reader is serde's, the page's the tree reader (`crate::tree`),
/// each refusing in the same words where both can be given the same value.
#[derive(Serialize, Deserialize)]
#[serde(expecting = "struct SimParams", default, rename_all = "camelCase", deny_unknown_fields)]
struct Wire {
    seed: u64,
    duration: f64,
    fps: f64,
    scenario: ScenarioParams,
    network: NetworkParams,
    remote: PlaybackParams,
    paths: PathSimParams,
    local: PredictParams,
    events: EventParams,
    script: Option<InputScript>,
    engines: EngineParams,
}

impl Default for Wire {
    fn default() -> Self {
        Wire::from(PlaygroundParams::default())
    }
}

impl From<PlaygroundParams> for Wire {
    fn from(params: PlaygroundParams) -> Self {
        let PlaygroundParams { sim, engines } = params;
        let SimParams { seed, duration, fps, scenario, network, remote, paths, local, events, script } = sim;
        Wire { seed, duration, fps, scenario, network, remote, paths, local, events, script, engines }
    }
}

impl From<Wire> for PlaygroundParams {
    fn from(wire: Wire) -> Self {
        let Wire { seed, duration, fps, scenario, network, remote, paths, local, events, script, engines } = wire;
        let sim = SimParams { seed, duration, fps, scenario, network, remote, paths, local, events, script };
        PlaygroundParams { sim, engines }
    }
}

/// One object: the simulation's keys, then `engines` (as `Wire`: a struct, not a flattened map, which
/// serde-wasm-bindgen would write key by key).
impl Serialize for PlaygroundParams {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Wire::from(self.clone()).serialize(serializer)
    }
}

impl Schema for PlaygroundParams {
    const KIND: Kind = Kind::Group;
    fn walk(&self, prefix: &str, visit: &mut Visit) {
        self.sim.walk(prefix, visit);
        self.engines.walk(&crate::param::join(prefix, ENGINES), visit);
    }
}

impl Read for PlaygroundParams {
    /// The simulation's reader for its keys, the engines' for `engines`; an unknown key is refused naming both.
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        static KEYS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        let keys = KEYS.get_or_init(|| SimParams::KEYS.iter().copied().chain([ENGINES]).collect());
        *slot = PlaygroundParams::default();
        crate::tree::read::object(tree, SimParams::EXPECTING, keys, &mut |key, value| {
            if key == ENGINES {
                EngineParams::read_into(&mut slot.engines, value)?;
                Ok(true)
            } else {
                slot.sim.read_key(key, value)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_an_empty_object_is_the_defaults() {
        assert_eq!(PlaygroundParams::default().validate(), Ok(()));
        assert_eq!(PlaygroundParams::from_json("{}").unwrap(), PlaygroundParams::default());
    }

    #[test]
    fn both_parts_are_read_from_one_object_and_written_back_as_one() {
        let text = r#"{"seed": 9, "remote": {"clock": {"renderDelay": 0.2}}, "engines": {"mirror": {"bufferTimeMultiplier": 3}}}"#;
        let p = PlaygroundParams::from_json(text).unwrap();
        assert_eq!((p.sim.seed, p.sim.remote.clock.render_delay), (9, 0.2));
        assert_eq!(p.engines.mirror.buffer_time_multiplier, 3.0);
        let written = serde_json::to_string(&p).unwrap();
        assert_eq!(PlaygroundParams::from_json(&written).unwrap(), p);
        let (script, engines) = (written.find("\"script\":").unwrap(), written.find("\"engines\":").unwrap());
        assert!(
            script < engines && written.starts_with("{\"seed\":"),
            "the simulation's keys, then engines: {written}"
        );
    }

    #[test]
    fn nested_errors_carry_their_path() {
        let err = PlaygroundParams::from_json(r#"{"sead": 3}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`sead`: unknown key \"sead\" (known: seed, duration, fps, scenario, network, remote, paths, local, \
             events, script, engines)"
        );
        assert!(PlaygroundParams::from_json("{} []").is_err(), "trailing characters");
        let err = PlaygroundParams::from_json(r#"{"network": {"downlink": {"loss": "lots"}}}"#).unwrap_err();
        assert_eq!(err.field, "network.downlink.loss", "{err}");
        let err = PlaygroundParams::from_json(r#"{"engines": {"mirror": {"bufferLimit": -1}}}"#).unwrap_err();
        assert_eq!(err.field, "engines.mirror.bufferLimit", "{err}");
    }

    /// Every group of parameters refuses a key it does not know (a typo must not silently become a default):
    /// `zzz` is put into each object of the defaults in turn. A new group that lets an unknown key by fails here.
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
        let defaults = serde_json::to_value(PlaygroundParams::default()).unwrap();
        let mut paths = Vec::new();
        objects(&defaults, "", &mut paths);
        assert!(paths.len() >= 20, "{paths:?}");
        for path in paths {
            let mut value = defaults.clone();
            let target = path.split('.').filter(|k| !k.is_empty()).fold(&mut value, |v, k| &mut v[k]);
            target.as_object_mut().unwrap().insert("zzz".into(), 1.into());
            let err = PlaygroundParams::from_json(&value.to_string()).unwrap_err();
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
        let err = PlaygroundParams::from_json(r#"{"network": {"downlink": {"duplicate*: 0.05}}}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`network.downlink`: not valid JSON (EOF while parsing a string at line 1 column 46)"
        );
    }
}
