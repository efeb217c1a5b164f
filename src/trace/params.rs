//! The trace's flat `params` object, its defaults, and how it maps onto the core's parameter groups.
//!
//! The trace defaults are the trace's own (see the table in the module doc of `crate::trace`): they differ
//! from the modules' defaults on purpose — a trace replays the *plain* client (known clock, hold on underrun)
//! unless it asks for more. `PlaybackParams::default()` uses the smooth clock and `extrapolate-seed`.
//!
//! ```text
//!  renderDelay clock ──────────────────────────────► ClockParams   (other clock fields: module defaults)
//!  adaptiveDelay addLatency adaptive* ─────────────► ClockParams.adaptiveDelay (seed 004 §4.2's constants)
//!  capacity minSnapshots gapFactor interpolation
//!  beforeOldest ───────────────────────────────────► BufferParams
//!  sendInterval clockOffset ───────────────────────► the stream's facts (crate::stream::Stream; sendInterval's
//!                                                     default: the median server-time spacing)
//!  underrun maxExtrapolation capRule ─────────────► UnderrunParams
//!  speed interpolationDelay staleGap
//!  hardSnapDistance hardSnapTarget ───────────────► PathParams    (duplicatePoints: module default)
//!  lerpFactor ─────────────────────────────────────► LerpParams    (lerpMode: perFrame)
//!  fps ────────────────────────────────────────────► the lerp chase's frame grid (replay)
//! ```

use super::TraceSnapshot;
use crate::buffer::{BeforeOldest, BufferParams};
use crate::clock::{AdaptiveDelayParams, AdaptiveMode, ClockKind, ClockParams, Seed004Params};
use crate::extrapolate::{CapRule, UnderrunParams, UnderrunPolicy};
use crate::interpolate::Interpolation;
use crate::motion::MotionScript;
use crate::param::{in_range, ParamError};
use crate::path::lerp_chase::LerpParams;
use crate::path::params::{PathParams, SnapTarget};
use crate::playback::PlaybackParams;
use crate::sim::params::ScenarioParams;
use crate::stream::Stream;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

/// Trace default: seconds between the render time and the server's present (seed 000 §4.3.8: 100 ms).
pub const DEFAULT_RENDER_DELAY: f64 = 0.1;
/// Trace default extrapolation cap, seconds (seed 000 §4.3.8 `MAX_EXTRAPOLATE_MS = 120`).
pub const DEFAULT_MAX_EXTRAPOLATION: f64 = 0.12;
/// Send interval used when it is not given and the snapshots hold fewer than two distinct server times.
pub const DEFAULT_SEND_INTERVAL: f64 = 0.05;
/// A trace does not say its server's tick: the simulator's default, 60 Hz.
pub const TICK_INTERVAL: f64 = 1.0 / 60.0;
/// A derived send interval is clamped into the range the buffer accepts.
pub const SEND_INTERVAL_RANGE: (f64, f64) = (0.001, 1.0);
/// Trace default frame rate of the lerp chase.
pub const DEFAULT_FPS: f64 = 60.0;
/// Accepted frame rates.
pub const FPS_RANGE: (f64, f64) = (1.0, 1000.0);

/// The external names of each choice.
pub const CLOCKS: [(&str, ClockKind); 4] = [
    ("known", ClockKind::Known),
    ("reanchor", ClockKind::Reanchor),
    ("smooth", ClockKind::Smooth),
    ("timescale", ClockKind::Timescale),
];
pub const UNDERRUNS: [(&str, UnderrunPolicy); 5] = [
    ("hold", UnderrunPolicy::Hold),
    ("extrapolate-seed", UnderrunPolicy::ExtrapolateSeed),
    ("extrapolate-decay", UnderrunPolicy::ExtrapolateDecay),
    ("snap", UnderrunPolicy::Snap),
    ("hide", UnderrunPolicy::Hide),
];
pub const INTERPOLATIONS: [(&str, Interpolation); 2] =
    [("linear", Interpolation::Linear), ("hermite", Interpolation::Hermite)];
pub const SNAP_TARGETS: [(&str, SnapTarget); 2] =
    [("latestPoint", SnapTarget::LatestPoint), ("batchStart", SnapTarget::BatchStart)];
pub const BEFORE_OLDEST: [(&str, BeforeOldest); 2] = [("gap", BeforeOldest::Gap), ("oldest", BeforeOldest::Oldest)];
pub const CAP_RULES: [(&str, CapRule); 2] =
    [("maxExtrapolation", CapRule::MaxExtrapolation), ("halfSendInterval", CapRule::HalfSendInterval)];
/// `adaptiveDelay`: `off` (the trace default: a fixed `renderDelay`) or one of the two controllers.
pub const ADAPTIVE: [(&str, Option<AdaptiveMode>); 3] =
    [("off", None), ("jitter", Some(AdaptiveMode::Jitter)), ("seed004", Some(AdaptiveMode::Seed004))];

/// The `params` object: every key optional (`None` = the trace default), unknown keys refused.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TraceParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub render_delay: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock_offset: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "clock")]
    pub clock: Option<ClockKind>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "underrun")]
    pub underrun: Option<UnderrunPolicy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_extrapolation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "interpolation")]
    pub interpolation: Option<Interpolation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub send_interval: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_snapshots: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_factor: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interpolation_delay: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale_gap: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hard_snap_distance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "snap_target")]
    pub hard_snap_target: Option<SnapTarget>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lerp_factor: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "before_oldest")]
    pub before_oldest: Option<BeforeOldest>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "cap_rule")]
    pub cap_rule: Option<CapRule>,
    /// `Some(None)` is `"off"`.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "adaptive", serialize_with = "adaptive_name")]
    pub adaptive_delay: Option<Option<AdaptiveMode>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub add_latency: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_sample_interval: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_rtt_gain: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_rtt_threshold: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_high_delay: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_low_delay: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_delay_gain: Option<f64>,
    /// The snapshots follow this motion script exactly: the trace's truth (see `crate::trace::truth`).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "motion")]
    pub motion: Option<TraceMotion>,
}

/// `params.motion`: the motion script (`crate::motion::truth`) the snapshots were taken from, and its speed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceMotion {
    pub script: MotionScript,
    /// Cruising speed, units per second (the simulator's `scenario.speed` range).
    pub speed: f64,
}

impl TraceMotion {
    /// The simulator's default script and speed (`crate::sim::params::ScenarioParams`).
    pub fn standard() -> Self {
        let scenario = ScenarioParams::default();
        TraceMotion { script: scenario.motion, speed: scenario.speed }
    }

    pub fn validate(&self) -> Result<(), ParamError> {
        let &(min, max) = ScenarioParams::SPEED.range.expect("the speed has a range");
        in_range("motion.speed", self.speed, min, max, ScenarioParams::SPEED.unit).map(|_| ())
    }
}

impl TraceParams {
    /// Checks every key against its module's range; the error names the key (`renderDelay`, `fps`, …).
    pub fn validate(&self) -> Result<(), ParamError> {
        let (playback, stream) =
            (self.playback(), self.stream_with(self.send_interval.unwrap_or(DEFAULT_SEND_INTERVAL)));
        playback.buffer.validate(stream.send_interval)?;
        playback.clock.validate(&stream).map_err(trace_key)?;
        playback.underrun.validate()?;
        self.path().validate()?;
        self.lerp().validate()?;
        in_range("fps", self.fps(), FPS_RANGE.0, FPS_RANGE.1, "fps")?;
        self.motion.as_ref().map_or(Ok(()), TraceMotion::validate)
    }

    /// The stream these snapshots came in: `sendInterval` (derived from them when not given), `clockOffset`
    /// (0 when not given), a server tick of 1/60 s (the simulator's default tick rate: a trace does not say).
    pub fn stream(&self, snapshots: &[TraceSnapshot]) -> Stream {
        self.stream_with(self.send_interval_for(snapshots))
    }

    fn stream_with(&self, send_interval: f64) -> Stream {
        Stream { send_interval, tick_interval: TICK_INTERVAL, clock_offset: self.clock_offset.unwrap_or(0.0) }
    }

    /// `sendInterval`, or the median spacing of the snapshots' distinct server times clamped into
    /// [`SEND_INTERVAL_RANGE`], or [`DEFAULT_SEND_INTERVAL`] with fewer than two distinct server times.
    pub fn send_interval_for(&self, snapshots: &[TraceSnapshot]) -> f64 {
        self.send_interval.unwrap_or_else(|| {
            median_spacing(snapshots)
                .map_or(DEFAULT_SEND_INTERVAL, |spacing| spacing.clamp(SEND_INTERVAL_RANGE.0, SEND_INTERVAL_RANGE.1))
        })
    }

    /// The playback's parameters (the trace's defaults where not given).
    pub fn playback(&self) -> PlaybackParams {
        let module = PlaybackParams::default();
        let buffer = BufferParams {
            capacity: self.capacity.unwrap_or(module.buffer.capacity),
            min_snapshots: self.min_snapshots.unwrap_or(module.buffer.min_snapshots),
            gap_factor: self.gap_factor.unwrap_or(module.buffer.gap_factor),
            interpolation: self.interpolation.unwrap_or(Interpolation::Linear),
            before_oldest: self.before_oldest.unwrap_or(BeforeOldest::Gap),
        };
        let clock = ClockParams {
            clock: self.clock.unwrap_or(ClockKind::Known),
            render_delay: self.render_delay.unwrap_or(DEFAULT_RENDER_DELAY),
            adaptive_delay: self.adaptive(),
            ..module.clock
        };
        let underrun = UnderrunParams {
            underrun_policy: self.underrun.unwrap_or(UnderrunPolicy::Hold),
            max_extrapolation: self.max_extrapolation.unwrap_or(DEFAULT_MAX_EXTRAPOLATION),
            cap_rule: self.cap_rule.unwrap_or(CapRule::MaxExtrapolation),
        };
        PlaybackParams { buffer, clock, underrun }
    }

    /// The adaptive delay: off unless `adaptiveDelay` names a mode; `addLatency` false unless given (a trace's
    /// delays are counted from server now as written); seed 004's constants from the `adaptive*` keys.
    fn adaptive(&self) -> AdaptiveDelayParams {
        let module = AdaptiveDelayParams::default();
        let seed = Seed004Params::default();
        let mode = self.adaptive_delay.flatten();
        AdaptiveDelayParams {
            enabled: mode.is_some(),
            mode: mode.unwrap_or(module.mode),
            add_latency: self.add_latency.unwrap_or(false),
            seed004: Seed004Params {
                sample_interval: self.adaptive_sample_interval.unwrap_or(seed.sample_interval),
                rtt_gain: self.adaptive_rtt_gain.unwrap_or(seed.rtt_gain),
                rtt_threshold: self.adaptive_rtt_threshold.unwrap_or(seed.rtt_threshold),
                high_delay: self.adaptive_high_delay.unwrap_or(seed.high_delay),
                low_delay: self.adaptive_low_delay.unwrap_or(seed.low_delay),
                delay_gain: self.adaptive_delay_gain.unwrap_or(seed.delay_gain),
            },
            ..module
        }
    }

    /// The timed player's parameters (module defaults where not given).
    pub fn path(&self) -> PathParams {
        let module = PathParams::default();
        PathParams {
            speed: self.speed.unwrap_or(module.speed),
            interpolation_delay: self.interpolation_delay.unwrap_or(module.interpolation_delay),
            stale_gap: self.stale_gap.unwrap_or(module.stale_gap),
            hard_snap_distance: self.hard_snap_distance.unwrap_or(module.hard_snap_distance),
            hard_snap_target: self.hard_snap_target.unwrap_or(module.hard_snap_target),
            ..module
        }
    }

    /// The lerp chase's parameters: `lerpFactor` once per frame (the article's form).
    pub fn lerp(&self) -> LerpParams {
        let module = LerpParams::default();
        LerpParams { lerp_factor: self.lerp_factor.unwrap_or(module.lerp_factor), ..module }
    }

    pub fn fps(&self) -> f64 {
        self.fps.unwrap_or(DEFAULT_FPS)
    }
}

/// The median of the gaps between consecutive distinct server times.
fn median_spacing(snapshots: &[TraceSnapshot]) -> Option<f64> {
    let mut times: Vec<f64> = snapshots.iter().map(|s| s.server_time).filter(|t| t.is_finite()).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    gaps.sort_by(f64::total_cmp);
    let mid = gaps.len() / 2;
    match gaps.len() {
        0 => None,
        n if n % 2 == 1 => Some(gaps[mid]),
        _ => Some((gaps[mid - 1] + gaps[mid]) / 2.0),
    }
}

/// A choice read by its external name: a wrong type says "expected a string", a wrong name lists the known ones.
fn named<'de, D: Deserializer<'de>, T: Copy>(d: D, names: &[(&str, T)]) -> Result<Option<T>, D::Error> {
    let Some(name) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    match names.iter().find(|(n, _)| *n == name) {
        Some(&(_, value)) => Ok(Some(value)),
        None => {
            let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            Err(D::Error::custom(format!("unknown name \"{name}\" (known: {})", known.join(", "))))
        }
    }
}

fn clock<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ClockKind>, D::Error> {
    named(d, &CLOCKS)
}

fn underrun<'de, D: Deserializer<'de>>(d: D) -> Result<Option<UnderrunPolicy>, D::Error> {
    named(d, &UNDERRUNS)
}

fn interpolation<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Interpolation>, D::Error> {
    named(d, &INTERPOLATIONS)
}

fn snap_target<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SnapTarget>, D::Error> {
    named(d, &SNAP_TARGETS)
}

/// A clock error named as the trace spells the key: the seed 004 controller's constants are flat `adaptive…`
/// keys here (`adaptiveRttGain`), not the clock module's `adaptiveDelay.seed004.rttGain`.
fn trace_key(e: ParamError) -> ParamError {
    const SEED004: [(&str, &str); 6] = [
        ("sampleInterval", "adaptiveSampleInterval"),
        ("rttGain", "adaptiveRttGain"),
        ("rttThreshold", "adaptiveRttThreshold"),
        ("highDelay", "adaptiveHighDelay"),
        ("lowDelay", "adaptiveLowDelay"),
        ("delayGain", "adaptiveDelayGain"),
    ];
    let key = e.field.strip_prefix("adaptiveDelay.seed004.");
    match key.and_then(|k| SEED004.iter().find(|(module, _)| *module == k)) {
        Some((_, trace)) => ParamError::new(*trace, e.message),
        None => e,
    }
}

fn motion<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TraceMotion>, D::Error> {
    super::objects::optional_object(d)
}

fn before_oldest<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BeforeOldest>, D::Error> {
    named(d, &BEFORE_OLDEST)
}

fn cap_rule<'de, D: Deserializer<'de>>(d: D) -> Result<Option<CapRule>, D::Error> {
    named(d, &CAP_RULES)
}

fn adaptive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<AdaptiveMode>>, D::Error> {
    named(d, &ADAPTIVE)
}

fn adaptive_name<S: serde::Serializer>(value: &Option<Option<AdaptiveMode>>, s: S) -> Result<S::Ok, S::Error> {
    let name = ADAPTIVE.iter().find(|(_, v)| Some(*v) == *value).map_or("off", |(n, _)| *n);
    s.serialize_str(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(tick: u64, server_time: f64) -> TraceSnapshot {
        TraceSnapshot { tick, server_time, arrival: server_time, ..TraceSnapshot::default() }
    }

    #[test]
    fn trace_defaults_differ_from_the_modules_where_documented() {
        let (p, stream) = (TraceParams::default().playback(), TraceParams::default().stream(&[]));
        assert_eq!(p.clock.clock, ClockKind::Known);
        assert_eq!(p.clock.render_delay, 0.1);
        assert_eq!(p.underrun.underrun_policy, UnderrunPolicy::Hold);
        assert_eq!(p.underrun.max_extrapolation, 0.12);
        assert_eq!((p.buffer.capacity, stream.send_interval, stream.clock_offset), (32, 0.05, 0.0));
        assert_eq!(p.validate(&stream), Ok(()));
        assert_eq!(TraceParams::default().fps(), 60.0);
        assert_eq!(TraceParams::default().path(), PathParams::default());
    }

    #[test]
    fn the_send_interval_is_the_median_spacing_clamped() {
        let p = TraceParams::default();
        // Spacings 0.1, 0.05, 0.05 (and a duplicate time): median 0.05.
        let snaps = [snapshot(1, 1.0), snapshot(2, 1.1), snapshot(3, 1.15), snapshot(3, 1.15), snapshot(4, 1.2)];
        assert!((p.send_interval_for(&snaps) - 0.05).abs() < 1e-12);
        // Even count: the mean of the two middle spacings (0.1 and 0.3).
        let even = [snapshot(1, 0.0), snapshot(2, 0.1), snapshot(3, 0.4)];
        assert!((p.send_interval_for(&even) - 0.2).abs() < 1e-12);
        assert_eq!(p.send_interval_for(&[snapshot(1, 0.0), snapshot(2, 5.0)]), 1.0);
        assert_eq!(p.send_interval_for(&[snapshot(1, 0.0)]), DEFAULT_SEND_INTERVAL);
        let given = TraceParams { send_interval: Some(0.2), ..Default::default() };
        assert_eq!(given.send_interval_for(&snaps), 0.2);
    }

    #[test]
    fn every_key_is_checked_by_its_module_and_named() {
        let cases = [
            ("renderDelay", TraceParams { render_delay: Some(2.0), ..Default::default() }),
            ("clockOffset", TraceParams { clock_offset: Some(1e7), ..Default::default() }),
            ("maxExtrapolation", TraceParams { max_extrapolation: Some(-1.0), ..Default::default() }),
            ("capacity", TraceParams { capacity: Some(1), ..Default::default() }),
            ("sendInterval", TraceParams { send_interval: Some(0.0), ..Default::default() }),
            ("minSnapshots", TraceParams { min_snapshots: Some(0), ..Default::default() }),
            ("gapFactor", TraceParams { gap_factor: Some(0.5), ..Default::default() }),
            ("speed", TraceParams { speed: Some(0.0), ..Default::default() }),
            ("interpolationDelay", TraceParams { interpolation_delay: Some(3.0), ..Default::default() }),
            ("staleGap", TraceParams { stale_gap: Some(-0.1), ..Default::default() }),
            ("hardSnapDistance", TraceParams { hard_snap_distance: Some(-1.0), ..Default::default() }),
            ("lerpFactor", TraceParams { lerp_factor: Some(1.5), ..Default::default() }),
            ("fps", TraceParams { fps: Some(0.5), ..Default::default() }),
            ("adaptiveRttGain", TraceParams { adaptive_rtt_gain: Some(0.0), ..Default::default() }),
            ("adaptiveDelayGain", TraceParams { adaptive_delay_gain: Some(2.0), ..Default::default() }),
            ("adaptiveSampleInterval", TraceParams { adaptive_sample_interval: Some(0.0), ..Default::default() }),
        ];
        for (field, params) in cases {
            assert_eq!(params.validate().unwrap_err().field, field);
        }
        assert_eq!(TraceParams::default().validate(), Ok(()));
    }

    #[test]
    fn choices_are_read_by_their_external_names() {
        let p: TraceParams = serde_json::from_str(
            r#"{"clock": "smooth", "underrun": "extrapolate-decay", "interpolation": "hermite",
                "hardSnapTarget": "batchStart"}"#,
        )
        .unwrap();
        assert_eq!(p.clock, Some(ClockKind::Smooth));
        assert_eq!(p.underrun, Some(UnderrunPolicy::ExtrapolateDecay));
        assert_eq!(p.interpolation, Some(Interpolation::Hermite));
        assert_eq!(p.hard_snap_target, Some(SnapTarget::BatchStart));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<TraceParams>(&json).unwrap(), p);
        let err = serde_json::from_str::<TraceParams>(r#"{"clock": "atomic"}"#).unwrap_err().to_string();
        assert!(err.starts_with(r#"unknown name "atomic" (known: known, reanchor, smooth, timescale)"#), "{err}");
        for (name, value) in UNDERRUNS {
            assert_eq!(value.name(), name);
        }
    }

    #[test]
    fn the_new_keys_reach_their_modules_and_old_traces_keep_their_meaning() {
        let p: TraceParams = serde_json::from_str(
            r#"{"beforeOldest": "oldest", "capRule": "halfSendInterval", "adaptiveDelay": "seed004",
                "adaptiveRttThreshold": 0.08, "adaptiveDelayGain": 0.05}"#,
        )
        .unwrap();
        let playback = p.playback();
        assert_eq!(playback.buffer.before_oldest, BeforeOldest::Oldest);
        assert_eq!(playback.underrun.cap_rule, CapRule::HalfSendInterval);
        let a = &playback.clock.adaptive_delay;
        assert!(a.enabled && a.mode == AdaptiveMode::Seed004 && !a.add_latency);
        assert_eq!((a.seed004.rtt_threshold, a.seed004.delay_gain, a.seed004.high_delay), (0.08, 0.05, 0.15));
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<TraceParams>(&json).unwrap(), p);
        let off: TraceParams = serde_json::from_str(r#"{"adaptiveDelay": "off"}"#).unwrap();
        assert!(!off.playback().clock.adaptive_delay.enabled);
        assert_eq!(serde_json::to_string(&off).unwrap(), r#"{"adaptiveDelay":"off"}"#);
        // A trace without the new keys replays as before: Gap before the oldest, the fixed cap, a fixed delay.
        let old = TraceParams::default().playback();
        assert_eq!(old.buffer.before_oldest, BeforeOldest::Gap);
        assert_eq!(old.underrun.cap_rule, CapRule::MaxExtrapolation);
        assert!(!old.clock.adaptive_delay.enabled);
        let err = serde_json::from_str::<TraceParams>(r#"{"adaptiveDelay": "rtt"}"#).unwrap_err().to_string();
        assert!(err.starts_with(r#"unknown name "rtt" (known: off, jitter, seed004)"#), "{err}");
    }
}
