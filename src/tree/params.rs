//! Every group of the parameter tree (`crate::sim::params`'s JSON shape), as serde's derive names its keys and
//! names. A key added to a group's struct and not here is refused as unknown by the page; `tests/params_reader.rs`
//! fails first (it reads every group's fields with values other than the defaults, and compares each refusal
//! with the derive's).

use super::read::{buffered_name, list, object, read_enum, read_struct, Names};
use super::{Read, Tree, TreeError};
use crate::buffer::{BeforeOldest, BufferParams};
use crate::clock::{
    AdaptiveDelayParams, AdaptiveMode, ClockKind, ClockParams, FilterParams, ReanchorEstimate, Seed004Params,
    SmoothParams, TimescaleParams,
};
use crate::engines::geckos::GeckosParams;
use crate::engines::mirror::MirrorParams;
use crate::engines::ngo::NgoParams;
use crate::engines::source::SourceParams;
use crate::engines::EngineParams;
use crate::extrapolate::{CapRule, UnderrunParams, UnderrunPolicy};
use crate::interpolate::Interpolation;
use crate::link::{JitterModel, LinkParams, LossModel};
use crate::motion::MotionScript;
use crate::path::batch::DuplicatePolicy;
use crate::path::lerp_chase::{LerpMode, LerpParams};
use crate::path::params::{PathParams, SnapTarget};
use crate::playback::PlaybackParams;
use crate::predict::input::{InputScript, KeyEvent, Keys};
use crate::predict::params::PredictParams;
use crate::predict::smoothing::{RenderBase, SmoothingMode, SmoothingParams};
use crate::sim::params::{EventParams, NetworkParams, PathSimParams, ScenarioParams, SimParams};
use serde::de::Error as _;

read_struct!(SimParams {
    seed: "seed",
    duration: "duration",
    fps: "fps",
    scenario: "scenario",
    network: "network",
    remote: "remote",
    paths: "paths",
    local: "local",
    events: "events",
    script: "script",
});

read_struct!(ScenarioParams { motion: "motion", speed: "speed", tick_rate: "tickRate", send_rate: "sendRate" });
read_enum!(MotionScript { Turns: "turns", Circle: "circle", StopAndGo: "stopAndGo", Respawn: "respawn" });

read_struct!(NetworkParams {
    downlink: "downlink",
    uplink: "uplink",
    clock_offset: "clockOffset",
    clock_skew: "clockSkew",
});
read_struct!(LinkParams {
    latency: "latency",
    jitter: "jitter",
    jitter_model: "jitterModel",
    loss: "loss",
    loss_model: "lossModel",
    burst_length: "burstLength",
    reorder: "reorder",
    reorder_delay: "reorderDelay",
    duplicate: "duplicate",
});
read_enum!(JitterModel { Uniform: "uniform", Normal: "normal", Exponential: "exponential" });
read_enum!(LossModel { Uniform: "uniform", Burst: "burst" });

read_struct!(PlaybackParams { buffer: "buffer", clock: "clock", underrun: "underrun" });
read_struct!(BufferParams {
    capacity: "capacity",
    min_snapshots: "minSnapshots",
    gap_factor: "gapFactor",
    interpolation: "interpolation",
    before_oldest: "beforeOldest",
});
read_enum!(Interpolation { Linear: "linear", Hermite: "hermite" });
read_enum!(BeforeOldest { Gap: "gap", Oldest: "oldest" });
read_struct!(ClockParams {
    clock: "clock",
    render_delay: "renderDelay",
    min_samples: "minSamples",
    jump_threshold: "jumpThreshold",
    reanchor_estimate: "reanchorEstimate",
    rtt: "rtt",
    smooth: "smooth",
    timescale: "timescale",
    adaptive_delay: "adaptiveDelay",
});
read_enum!(ClockKind { Known: "known", Reanchor: "reanchor", Smooth: "smooth", Timescale: "timescale" });
read_enum!(ReanchorEstimate { Packet: "packet", Known: "known" });
read_struct!(FilterParams {
    gain: "gain",
    outlier_factor: "outlierFactor",
    outlier_floor: "outlierFloor",
    max_rejects: "maxRejects",
});
read_struct!(SmoothParams { offset: "offset", slew_rate: "slewRate", deadband: "deadband", hard_reset: "hardReset" });
read_struct!(TimescaleParams {
    rate: "rate",
    band: "band",
    hard_clamp: "hardClamp",
    depth_time_constant: "depthTimeConstant",
});
read_struct!(AdaptiveDelayParams {
    enabled: "enabled",
    mode: "mode",
    add_latency: "addLatency",
    intervals: "intervals",
    jitter_stds: "jitterStds",
    min_delay: "minDelay",
    max_delay: "maxDelay",
    time_constant: "timeConstant",
    max_rate: "maxRate",
    seed004: "seed004",
});
read_enum!(AdaptiveMode { Jitter: "jitter", Seed004: "seed004" });
read_struct!(Seed004Params {
    sample_interval: "sampleInterval",
    rtt_gain: "rttGain",
    rtt_threshold: "rttThreshold",
    high_delay: "highDelay",
    low_delay: "lowDelay",
    delay_gain: "delayGain",
});
read_struct!(UnderrunParams {
    underrun_policy: "underrunPolicy",
    max_extrapolation: "maxExtrapolation",
    cap_rule: "capRule",
});
read_enum!(UnderrunPolicy {
    Hold: "hold",
    ExtrapolateSeed: "extrapolate-seed",
    ExtrapolateDecay: "extrapolate-decay",
    Snap: "snap",
    Hide: "hide",
});
read_enum!(CapRule { MaxExtrapolation: "maxExtrapolation", HalfSendInterval: "halfSendInterval" });

read_struct!(PathSimParams {
    batch_interval: "batchInterval",
    sample_interval: "sampleInterval",
    with_offsets: "withOffsets",
    player: "player",
    lerp: "lerp",
});
read_struct!(PathParams {
    speed: "speed",
    interpolation_delay: "interpolationDelay",
    stale_gap: "staleGap",
    hard_snap_distance: "hardSnapDistance",
    hard_snap_target: "hardSnapTarget",
    duplicates: "duplicatePoints",
});
read_enum!(SnapTarget { LatestPoint: "latestPoint", BatchStart: "batchStart" });
read_enum!(DuplicatePolicy { Remove: "remove", KeepTimedPauses: "keepTimedPauses" });
read_struct!(LerpParams { lerp_factor: "lerpFactor", lerp_mode: "lerpMode", lerp_tau: "lerpTau" });
read_enum!(LerpMode { PerFrame: "perFrame", TimeConstant: "timeConstant" });

read_struct!(SmoothingParams {
    smoothing: "smoothing",
    half_life: "halfLife",
    smooth_time: "smoothTime",
    render_base: "renderBase",
    reset_distance: "resetDistance",
});
read_enum!(SmoothingMode { HalfLife: "halfLife", Snap: "snap", FirstVersion: "firstVersion", Linear: "linear" });
read_enum!(RenderBase { Interpolated: "interpolated", Latest: "latest" });

impl Read for PredictParams {
    /// `local`: its own keys, then `#[serde(flatten)] smoothing`. serde buffers every key the group does not
    /// know, reads the smoothing part from that buffer once the object is read (a refusal there names the group,
    /// `local`, not the key: serde's path ends at the buffer), then refuses the first key still unread, without
    /// the list of known keys.
    #[inline(never)]
    fn read_into(out: &mut Self, tree: Tree) -> Result<(), TreeError> {
        *out = PredictParams::default();
        let mut rest = Vec::new();
        object(tree, "struct PredictParams", &[], &mut |key, value| {
            match key {
                "tickRate" => Read::read_into(&mut out.tick_rate, value)?,
                "uplinkDelay" => Read::read_into(&mut out.uplink_delay, value)?,
                "downlinkDelay" => Read::read_into(&mut out.downlink_delay, value)?,
                "maxPendingInputs" => Read::read_into(&mut out.max_pending_inputs, value)?,
                "inputRedundancy" => Read::read_into(&mut out.input_redundancy, value)?,
                "speed" => Read::read_into(&mut out.speed, value)?,
                "arenaSize" => Read::read_into(&mut out.arena_size, value)?,
                "inputGapTimeout" => Read::read_into(&mut out.input_gap_timeout, value)?,
                "mismatch" => Read::read_into(&mut out.mismatch, value)?,
                "mismatchInputInterval" => Read::read_into(&mut out.mismatch_input_interval, value)?,
                _ => rest.push((key.to_string(), value)),
            }
            Ok(true)
        })?;
        let smoothing = &mut out.smoothing;
        let mut unread = None;
        for (key, value) in rest {
            match key.as_str() {
                "smoothing" => smoothing.smoothing = SmoothingMode::VALUES[buffered_name(value, SmoothingMode::NAMES)?],
                "halfLife" => Read::read_into(&mut smoothing.half_life, value)?,
                "smoothTime" => Read::read_into(&mut smoothing.smooth_time, value)?,
                "renderBase" => smoothing.render_base = RenderBase::VALUES[buffered_name(value, RenderBase::NAMES)?],
                "resetDistance" => Read::read_into(&mut smoothing.reset_distance, value)?,
                _ => {
                    unread.get_or_insert(key);
                }
            }
        }
        match unread {
            Some(key) => Err(TreeError::custom(format_args!("unknown field `{key}`"))),
            None => Ok(()),
        }
    }
}

read_struct!(EventParams {
    stall_at: "stallAt",
    stall_duration: "stallDuration",
    stall_fps: "stallFps",
    kick_at: "kickAt",
    kick: "kick",
    link_step_at: "linkStepAt",
    link_step_latency: "linkStepLatency",
    link_step_jitter: "linkStepJitter",
});

impl Read for InputScript {
    /// `#[serde(try_from = "Vec<KeyEvent>")]`: the events, then the script's own checks (`script[2].time`).
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        let events = list(tree, key_event)?;
        *slot = InputScript::try_from(events).map_err(TreeError::custom)?;
        Ok(())
    }
}

/// A `KeyEvent`: both keys are required (no `#[serde(default)]`); a missing one is named once the object is read.
fn key_event(tree: Tree) -> Result<KeyEvent, TreeError> {
    let (mut time, mut keys) = (None, None);
    object(tree, "struct KeyEvent", &["time", "keys"], &mut |key, value| {
        match key {
            "time" => time = Some(f64::read(value)?),
            "keys" => keys = Some(Keys::read(value)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    let time = time.ok_or_else(|| TreeError::missing_field("time"))?;
    let keys = keys.ok_or_else(|| TreeError::missing_field("keys"))?;
    Ok(KeyEvent { time, keys })
}
read_struct!(Keys { left: "left", right: "right", up: "up", down: "down" });

read_struct!(EngineParams { mirror: "mirror", ngo: "ngo", source: "source", geckos: "geckos" });
read_struct!(MirrorParams {
    buffer_time_multiplier: "bufferTimeMultiplier",
    buffer_limit: "bufferLimit",
    catchup_negative_threshold: "catchupNegativeThreshold",
    catchup_positive_threshold: "catchupPositiveThreshold",
    catchup_speed: "catchupSpeed",
    slowdown_speed: "slowdownSpeed",
    drift_ema_duration: "driftEmaDuration",
    dynamic_adjustment: "dynamicAdjustment",
    dynamic_adjustment_tolerance: "dynamicAdjustmentTolerance",
    delivery_time_ema_duration: "deliveryTimeEmaDuration",
});
read_struct!(NgoParams {
    server_buffer_sec: "ServerBufferSec",
    hard_reset_threshold_sec: "HardResetThresholdSec",
    adjustment_ratio: "AdjustmentRatio",
    maximum_interpolation_time: "MaximumInterpolationTime",
    max_interpolation_bound: "MaxInterpolationBound",
    lerp_unclamped: "LerpUnclamped",
});
read_struct!(SourceParams {
    cl_interp: "cl_interp",
    cl_interp_ratio: "cl_interp_ratio",
    cl_updaterate: "cl_updaterate",
    cl_extrapolate: "cl_extrapolate",
    cl_extrapolate_amount: "cl_extrapolate_amount",
});
read_struct!(GeckosParams {
    interpolation_buffer: "interpolationBuffer",
    auto_correct_time_offset: "autoCorrectTimeOffset",
    vault_size: "vaultSize",
});
