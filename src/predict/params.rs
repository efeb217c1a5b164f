//! The parameters of a prediction session: external names in camelCase, times in seconds, rates in Hz.
//!
//! | name | default | range | meaning |
//! |---|---|---|---|
//! | `tickRate` | 60 | 10..=240 Hz | physics steps per second, client and server (seed 003: 60 Hz) |
//! | `snapshotRate` | 20 | 1..=240 Hz | snapshots the server sends per second (the article broadcasts at 60) |
//! | `uplinkDelay` | 0.05 | 0..=2 s | one-way client → server delay of the default `FixedDelay` link |
//! | `downlinkDelay` | 0.05 | 0..=2 s | one-way server → client delay (a snapshot is copied when sent) |
//! | `maxPendingInputs` | 120 | 1..=100000 | pending inputs kept; size above round trip × tickRate |
//! | `speed` | 50 | 0..=10000 units/s | the player's speed |
//! | `arenaSize` | 100 | 1..=1e6 units | the square arena the player is clamped to (the article's 100) |
//! | `inputRedundancy` | 2 | 0..=3 | each input packet also carries this many earlier unacknowledged inputs, so one lost packet does not open a gap (common practice; the article sends each input once) |
//! | `inputGapTimeout` | 0.2 | 0..=5 s | how long the server waits for a missing input id before stepping a zero input in its place |
//! | `mismatch` | false | | reproduce the article's bug (independent input timer, server that replaces and re-steps) |
//! | `mismatchInputInterval` | 0.004 | 0.001..=1 s | the bug's input timer: `setInterval(…, 1/60)` read as ms fires at the browser minimum, about 4 ms |
//! | `smoothing` | `halfLife` | `halfLife` `snap` `firstVersion` `linear` | the mode the page shows (all are computed) |
//! | `halfLife` | 0.08 | 0.001..=2 s | the correction offset halves every `halfLife` (seed 003 §"第四步") |
//! | `smoothTime` | 0.1 | 0.01..=2 s | the linear mode's fade time (Source's `cl_smoothtime`) |
//! | `renderBase` | `interpolated` | `interpolated` `latest` | `lerp(lastPos, pos, alpha)` or `pos` under the offset |
//! | `resetDistance` | 25 | 0..=1e6 units | a longer correction resets the view instead of sliding |
//!
//! The five smoothing parameters may change between frames ([`super::session::Session::set_smoothing`]); the
//! others define a run — change them by starting a new session.

use super::smoothing::SmoothingParams;
use crate::param::{in_range, ParamError};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PredictParams {
    pub tick_rate: f64,
    pub uplink_delay: f64,
    pub downlink_delay: f64,
    pub max_pending_inputs: u32,
    pub input_redundancy: u32,
    pub speed: f64,
    pub arena_size: f64,
    pub input_gap_timeout: f64,
    pub mismatch: bool,
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
        in_range("tickRate", self.tick_rate, 10.0, 240.0, "Hz")?;
        in_range("uplinkDelay", self.uplink_delay, 0.0, 2.0, "s")?;
        in_range("downlinkDelay", self.downlink_delay, 0.0, 2.0, "s")?;
        in_range("maxPendingInputs", f64::from(self.max_pending_inputs), 1.0, 100_000.0, "inputs")?;
        in_range(
            "inputRedundancy",
            f64::from(self.input_redundancy),
            0.0,
            super::input::MAX_REDUNDANCY as f64,
            "inputs",
        )?;
        in_range("speed", self.speed, 0.0, 10_000.0, "units/s")?;
        in_range("arenaSize", self.arena_size, 1.0, 1e6, "units")?;
        in_range("inputGapTimeout", self.input_gap_timeout, 0.0, 5.0, "s")?;
        in_range("mismatchInputInterval", self.mismatch_input_interval, 0.001, 1.0, "s")?;
        self.smoothing.validate()
    }

    /// The physics step in seconds.
    pub fn step_dt(&self) -> f64 {
        1.0 / self.tick_rate
    }
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
