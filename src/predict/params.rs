//! The parameters of a prediction session (the page's `local` group): times in seconds, rates in Hz. Each field's
//! doc says what it is and where its default comes from; its range and unit are stated beside it, once
//! (`#[param]`, read by the checks, the page's reader and the schema).
//!
//! The smoothing part ([`SmoothingParams`]: `smoothing`, `halfLife`, `smoothTime`, `renderBase`,
//! `resetDistance`) is flattened into the same object and may change between frames
//! ([`super::session::Session::set_smoothing`]); the others define a run — change them by starting a new session.

use super::smoothing::{RenderBase, SmoothingMode, SmoothingParams};
use crate::param::{ParamError, Params};
use crate::tree::read::{buffered_name, object, Names};
use crate::tree::{Group, Read, Tree, TreeError};
use serde::de::Error as _;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
#[params(own_reader)]
pub struct PredictParams {
    /// Physics steps per second, client and server (seed 003: 60 Hz).
    #[param(range(10.0, 240.0), unit = "Hz")]
    pub tick_rate: f64,
    /// One-way client → server delay of the default `FixedDelay` link.
    #[param(range(0.0, 2.0), unit = "s")]
    pub uplink_delay: f64,
    /// One-way server → client delay (a snapshot is copied when sent).
    #[param(range(0.0, 2.0), unit = "s")]
    pub downlink_delay: f64,
    /// Pending inputs kept; size above round trip × tickRate.
    #[param(range(1.0, 100_000.0), unit = "inputs")]
    pub max_pending_inputs: u32,
    /// Each input packet also carries this many earlier unacknowledged inputs, so one lost packet does not open a
    /// gap (common practice; the article sends each input once).
    #[param(range(0.0, super::input::MAX_REDUNDANCY), unit = "inputs")]
    pub input_redundancy: u32,
    /// The player's speed.
    #[param(range(0.0, 10_000.0), unit = "units/s")]
    pub speed: f64,
    /// The square arena the player is clamped to (the article's 100).
    #[param(range(1.0, 1e6), unit = "units")]
    pub arena_size: f64,
    /// How long the server waits for a missing input id before stepping a zero input in its place.
    #[param(range(0.0, 5.0), unit = "s")]
    pub input_gap_timeout: f64,
    /// Reproduce the article's bug (an independent input timer, a server that replaces and re-steps).
    pub mismatch: bool,
    /// The bug's input timer: `setInterval(…, 1/60)` read as ms fires at the browser minimum, about 4 ms.
    #[param(range(0.001, 1.0), unit = "s")]
    pub mismatch_input_interval: f64,
    #[serde(flatten)]
    pub smoothing: SmoothingParams,
}

impl Default for PredictParams {
    fn default() -> Self {
        PredictParams {
            tick_rate: 60.0,
            uplink_delay: 0.05,
            downlink_delay: 0.05,
            max_pending_inputs: 120,
            input_redundancy: 2,
            speed: 50.0,
            arena_size: 100.0,
            input_gap_timeout: 0.2,
            mismatch: false,
            mismatch_input_interval: 0.004,
            smoothing: SmoothingParams::default(),
        }
    }
}

impl PredictParams {
    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()?;
        self.smoothing.validate()
    }

    /// The physics step in seconds.
    pub fn step_dt(&self) -> f64 {
        1.0 / self.tick_rate
    }
}

impl Read for PredictParams {
    /// Its own keys, then the flattened smoothing part, as serde reads `#[serde(flatten)]`: every key the group
    /// does not know is buffered, the smoothing part is read from that buffer once the object is read (a refusal
    /// there names the group, `local`, not the key: serde's path ends at the buffer), then the first key still
    /// unread is refused, without the list of known keys.
    #[inline(never)]
    fn read_into(out: &mut Self, tree: Tree) -> Result<(), TreeError> {
        *out = PredictParams::default();
        let mut rest = Vec::new();
        object(tree, Self::EXPECTING, &[], &mut |key, value| {
            if Self::KEYS.contains(&key) {
                out.read_key(key, value)
            } else {
                rest.push((key.to_string(), value));
                Ok(true)
            }
        })?;
        let mut unread = None;
        for (key, value) in rest {
            if !read_buffered(&mut out.smoothing, &key, value)? {
                unread.get_or_insert(key);
            }
        }
        match unread {
            Some(key) => Err(TreeError::custom(format_args!("unknown field `{key}`"))),
            None => Ok(()),
        }
    }
}

/// One key of the smoothing part from serde's buffer: a choice is refused in the buffer's words.
fn read_buffered(smoothing: &mut SmoothingParams, key: &str, value: Tree) -> Result<bool, TreeError> {
    if key == SmoothingParams::SMOOTHING.key {
        smoothing.smoothing = SmoothingMode::VALUES[buffered_name(value, SmoothingMode::NAMES)?];
    } else if key == SmoothingParams::RENDER_BASE.key {
        smoothing.render_base = RenderBase::VALUES[buffered_name(value, RenderBase::NAMES)?];
    } else {
        return smoothing.read_key(key, value);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_every_field_is_named_when_refused() {
        assert_eq!(PredictParams::default().validate(), Ok(()));
        let refused = |f: fn(&mut PredictParams)| {
            let mut p = PredictParams::default();
            f(&mut p);
            p.validate().unwrap_err().field
        };
        assert_eq!(refused(|p| p.tick_rate = 0.0), "tickRate");
        assert_eq!(refused(|p| p.uplink_delay = -0.01), "uplinkDelay");
        assert_eq!(refused(|p| p.downlink_delay = 3.0), "downlinkDelay");
        assert_eq!(refused(|p| p.max_pending_inputs = 0), "maxPendingInputs");
        assert_eq!(refused(|p| p.speed = f64::INFINITY), "speed");
        assert_eq!(refused(|p| p.arena_size = 0.5), "arenaSize");
        assert_eq!(refused(|p| p.input_gap_timeout = 10.0), "inputGapTimeout");
        assert_eq!(refused(|p| p.mismatch_input_interval = 0.0), "mismatchInputInterval");
        assert_eq!(refused(|p| p.smoothing.half_life = 0.0), "halfLife");
    }

    #[test]
    fn external_names_are_flat_camel_case() {
        let json = serde_json::to_value(PredictParams::default()).unwrap();
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        for key in [
            "tickRate",
            "uplinkDelay",
            "downlinkDelay",
            "maxPendingInputs",
            "speed",
            "arenaSize",
            "inputGapTimeout",
            "mismatch",
            "mismatchInputInterval",
            "smoothing",
            "halfLife",
            "smoothTime",
            "renderBase",
            "resetDistance",
        ] {
            assert!(keys.contains(&key), "{key} missing from {keys:?}");
        }
        let p: PredictParams =
            serde_json::from_str(r#"{"mismatch":true,"halfLife":0.2,"smoothing":"linear","uplinkDelay":0.1}"#).unwrap();
        assert!(p.mismatch);
        assert_eq!((p.smoothing.half_life, p.uplink_delay, p.tick_rate), (0.2, 0.1, 60.0));
        assert_eq!(p.smoothing.smoothing, super::super::smoothing::SmoothingMode::Linear);
    }
}
