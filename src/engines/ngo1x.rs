//! Unity Netcode for GameObjects 1.x (the strategy `ngo-1x`; `ngo.rs` is 2.x): a server-time estimate that trails the last time sync by
//! `ServerBufferSec`, a render time one tick behind it, and a buffered linear interpolator whose output is
//! lerped once more towards its target every frame.
//!
//! ```text
//!  time sync (TimeSyncMessage, once a second: the snapshot on a whole second carries it here)
//!    Sync(serverTimeSec):  desired offset = serverTimeSec − m_TimeSec − ServerBufferSec
//!  per frame (NetworkTimeSystem.Advance, then Sync(LastSyncedServerTimeSec + dt))
//!    m_TimeSec += dt
//!    |desired − current| > HardResetThresholdSec ─► m_TimeSec += desired; offsets = 0     (hard reset)
//!    otherwise current += dt × (desired > current ? +AdjustmentRatio : −AdjustmentRatio)  (1 % slew)
//!    ServerTime = m_TimeSec + current;   renderTime = ServerTime.TimeTicksAgo(1) = ServerTime − 1 / TickRate
//!  per delivery (BufferedLinearInterpolator.AddMeasurement, sentTime = the snapshot's tick time)
//!    kept if newer than the end being interpolated to (older ones are dropped); > 100 in one frame ─► ResetTo
//!  per frame (BufferedLinearInterpolator.Update(deltaTime, renderTime, serverTime))
//!    TryConsumeFromBuffer: once renderTime ≥ end time, consume every item sent ≤ serverTime:
//!                          start ← old end, end ← the newest consumed (the first ever: start = end = it)
//!    t = (renderTime − start) / (end − start), ≥ 0; t > MaxInterpolationBound (3) ─► t = 1
//!    target = Lerp(start, end, t)            Mathf.Lerp clamps t ≤ 1: no extrapolation ("Disabling Extrapolation")
//!    current = Lerp(current, target, deltaTime / MaximumInterpolationTime)          the second, smoothing lerp
//! ```
//! Source: Unity-Technologies/com.unity.netcode.gameobjects 1.x,
//! `Runtime/Components/Interpolator/BufferedLinearInterpolator.cs` (`TryConsumeFromBuffer`, `Update`,
//! `AddMeasurement`, `ResetTo`, `BufferedLinearInterpolatorFloat.InterpolateUnclamped`),
//! `Runtime/Timing/NetworkTimeSystem.cs` (`Advance`, `Sync`, `ServerTime`; defaults from `NetworkManager`:
//! `new NetworkTimeSystem(1.0 / TickRate, k_DefaultBufferSizeSec = 0.05, 0.2)`, `k_DefaultAdjustmentRatio = 0.01`),
//! `Runtime/Messaging/Messages/TimeSyncMessage.cs` (`Handle` → `Sync(tick time, rtt)`), the server's
//! `m_TimeSyncFrequencyTicks = (int)(1.0 × TickRate)`, and `NetworkTransform.Update` (`renderTime =
//! serverTime.TimeTicksAgo(1)`). NGO's shipped `Tests/Editor/InterpolatorTests.cs` (1.x API) are reproduced in
//! `tests/engines/ngo1x.rs`; they were written when `InterpolateUnclamped` still called `Mathf.LerpUnclamped`
//! (extrapolating up to `MaxInterpolationBound`), which `LerpUnclamped: true` restores.
//!
//! Where the seed is wrong: seed 004 §4.3 says "NGO默认是外推" (NGO extrapolates by default). In the 1.x code
//! the float interpolator's `InterpolateUnclamped` calls the clamping `Mathf.Lerp` ("Disabling Extrapolation"),
//! so the default here holds at the last value; `LerpUnclamped` is the early 1.0 behaviour, kept as an option.
//!
//! Simplified: NGO's `TickRate` is the scenario's send rate (NGO sends a `NetworkTransform` state per tick); the
//! time sync rides on the snapshot whose tick is a multiple of `(int)TickRate` and shares its fate; the first
//! snapshot plays the connection approval (`Reset(serverTime)`) and the spawn (`ResetTo(position)`);
//! `LocalTime` (the client's own send clock, with `LocalBufferSec` and the RTT) is not modelled, so neither is
//! its hard reset; x and y share one interpolator (NGO 1.x runs one float interpolator per axis, with the same
//! times, which is the same thing). A teleport (`IsTeleportingNextFrame`) is `ResetTo` the new position.

use super::{Shown, ShownMode, Smoother};
use crate::geom::{self, Vec2};
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// `k_BufferCountLimit`: more measurements than this in one frame and the interpolator gives up and teleports.
pub const BUFFER_COUNT_LIMIT: usize = 100;
/// `k_SmallValue` (from Vector3's equality).
const SMALL_VALUE: f64 = 9.999999439624929e-11;
/// `k_TimeSyncFrequency`: one time sync per second.
pub const TIME_SYNC_FREQUENCY: f64 = 1.0;

/// NGO's settings, under NGO's names (C# properties) and with NGO's defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub struct NgoParams {
    /// Server time = the last time sync − this (`NetworkTimeSystem`, `k_DefaultBufferSizeSec`).
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 300.0, 5.0, "ms", 1000.0))]
    pub server_buffer_sec: f64,
    /// A time sync further off than this snaps the clock (`NetworkManager` passes 0.2).
    #[param(range(0.001, 10.0), unit = "s", control(10.0, 1000.0, 10.0, "ms", 1000.0))]
    pub hard_reset_threshold_sec: f64,
    /// How much of a smaller difference each sync corrects (`k_DefaultAdjustmentRatio`).
    #[param(range(0.0, 1.0), control(0.0, 10.0, 0.5, "%", 100.0))]
    pub adjustment_ratio: f64,
    /// The second lerp: each frame moves deltaTime / this of the way (`BufferedLinearInterpolator`).
    #[param(range(0.001, 10.0), unit = "s", control(1.0, 500.0, 1.0, "ms", 1000.0))]
    pub maximum_interpolation_time: f64,
    /// t beyond this many intervals snaps to the end (`BufferedLinearInterpolator`).
    #[param(range(1.0, 100.0))]
    pub max_interpolation_bound: f64,
    /// `InterpolateUnclamped`: `Mathf.LerpUnclamped` (NGO 1.0) instead of `Mathf.Lerp`.
    pub lerp_unclamped: bool,
}

impl Default for NgoParams {
    fn default() -> Self {
        NgoParams {
            server_buffer_sec: 0.05,
            hard_reset_threshold_sec: 0.2,
            adjustment_ratio: 0.01,
            maximum_interpolation_time: 0.1,
            max_interpolation_bound: 3.0,
            lerp_unclamped: false,
        }
    }
}

impl NgoParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// `NetworkTimeSystem`, server-time half.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSystem {
    pub server_buffer_sec: f64,
    pub hard_reset_threshold_sec: f64,
    pub adjustment_ratio: f64,
    time_sec: f64,
    current_server_time_offset: f64,
    desired_server_time_offset: f64,
    /// `LastSyncedServerTimeSec`.
    pub last_synced_server_time_sec: f64,
    /// Hard resets so far.
    pub resets: u64,
}

impl TimeSystem {
    pub fn new(server_buffer_sec: f64, hard_reset_threshold_sec: f64, adjustment_ratio: f64) -> Self {
        TimeSystem {
            server_buffer_sec,
            hard_reset_threshold_sec,
            adjustment_ratio,
            time_sec: 0.0,
            current_server_time_offset: 0.0,
            desired_server_time_offset: 0.0,
            last_synced_server_time_sec: 0.0,
            resets: 0,
        }
    }

    /// `ServerTime` = `m_TimeSec + m_CurrentServerTimeOffset`.
    pub fn server_time(&self) -> f64 {
        self.time_sec + self.current_server_time_offset
    }

    /// `Sync(serverTimeSec, rttSec)` (the RTT only feeds `LocalTime`, not modelled).
    pub fn sync(&mut self, server_time_sec: f64) {
        self.last_synced_server_time_sec = server_time_sec;
        let time_dif = server_time_sec - self.time_sec;
        self.desired_server_time_offset = time_dif - self.server_buffer_sec;
    }

    /// `Advance(deltaTimeSec)`: `true` when it hard-reset.
    pub fn advance(&mut self, delta_time_sec: f64) -> bool {
        self.time_sec += delta_time_sec;
        if (self.desired_server_time_offset - self.current_server_time_offset).abs() > self.hard_reset_threshold_sec {
            self.time_sec += self.desired_server_time_offset;
            self.desired_server_time_offset = 0.0;
            self.current_server_time_offset = 0.0;
            self.resets += 1;
            return true;
        }
        let toward = if self.desired_server_time_offset > self.current_server_time_offset { 1.0 } else { -1.0 };
        self.current_server_time_offset += delta_time_sec * toward * self.adjustment_ratio;
        false
    }

    /// `Reset(serverTimeSec, rttSec)`: `Sync` then `Advance(0)`.
    pub fn reset(&mut self, server_time_sec: f64) {
        self.sync(server_time_sec);
        self.advance(0.0);
    }

    /// The connection approval's `Reset` as it happens in a real session: the client's `m_TimeSec` starts at 0
    /// while the server has been up for a while, so the offset is far past `HardResetThresholdSec` and it always
    /// hard-resets. The simulator's server clock starts near 0, so this forces that reset.
    pub fn connect(&mut self, server_time_sec: f64) {
        self.sync(server_time_sec);
        self.time_sec += self.desired_server_time_offset;
        self.desired_server_time_offset = 0.0;
        self.current_server_time_offset = 0.0;
        self.resets += 1;
    }
}

/// `BufferedLinearInterpolator<Vector2>` of NGO 1.x.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpolator {
    pub maximum_interpolation_time: f64,
    pub max_interpolation_bound: f64,
    pub lerp_unclamped: bool,
    interp_start_value: Vec2,
    current_interp_value: Vec2,
    interp_end_value: Vec2,
    end_time_consumed: f64,
    start_time_consumed: f64,
    buffer: Vec<(Vec2, f64)>,
    last_buffered_item_received: (Vec2, f64),
    nb_items_received_this_frame: usize,
    lifetime_consumed_count: u64,
}

impl Interpolator {
    pub fn new(maximum_interpolation_time: f64, max_interpolation_bound: f64, lerp_unclamped: bool) -> Self {
        Interpolator {
            maximum_interpolation_time,
            max_interpolation_bound,
            lerp_unclamped,
            interp_start_value: Vec2::ZERO,
            current_interp_value: Vec2::ZERO,
            interp_end_value: Vec2::ZERO,
            end_time_consumed: 0.0,
            start_time_consumed: 0.0,
            buffer: Vec::new(),
            last_buffered_item_received: (Vec2::ZERO, 0.0),
            nb_items_received_this_frame: 0,
            lifetime_consumed_count: 0,
        }
    }

    /// `ResetTo(targetValue, serverTime)`: teleport there.
    pub fn reset_to(&mut self, target: Vec2, server_time: f64) {
        self.lifetime_consumed_count = 1;
        self.interp_start_value = target;
        self.interp_end_value = target;
        self.current_interp_value = target;
        self.buffer.clear();
        self.end_time_consumed = 0.0;
        self.start_time_consumed = 0.0;
        self.update(0.0, server_time, server_time);
    }

    /// `AddMeasurement(newMeasurement, sentTime)`.
    pub fn add_measurement(&mut self, value: Vec2, sent_time: f64) {
        self.nb_items_received_this_frame += 1;
        if self.nb_items_received_this_frame > BUFFER_COUNT_LIMIT {
            if self.last_buffered_item_received.1 < sent_time {
                self.last_buffered_item_received = (value, sent_time);
                self.reset_to(value, sent_time);
                self.buffer.push(self.last_buffered_item_received);
            }
            return;
        }
        if sent_time > self.end_time_consumed || self.lifetime_consumed_count == 0 {
            self.last_buffered_item_received = (value, sent_time);
            self.buffer.push(self.last_buffered_item_received);
        }
    }

    fn try_consume_from_buffer(&mut self, render_time: f64, server_time: f64) {
        if render_time < self.end_time_consumed {
            return;
        }
        let mut consumed = 0usize;
        let mut item_to_interpolate_to: Option<f64> = None;
        for i in (0..self.buffer.len()).rev() {
            let (value, time_sent) = self.buffer[i];
            if time_sent > server_time {
                continue;
            }
            if item_to_interpolate_to.is_none_or(|t| time_sent > t) {
                if self.lifetime_consumed_count == 0 {
                    self.start_time_consumed = time_sent;
                    self.interp_start_value = value;
                } else if consumed == 0 {
                    self.start_time_consumed = self.end_time_consumed;
                    self.interp_start_value = self.interp_end_value;
                }
                if time_sent > self.end_time_consumed {
                    item_to_interpolate_to = Some(time_sent);
                    self.end_time_consumed = time_sent;
                    self.interp_end_value = value;
                }
            }
            self.buffer.remove(i);
            consumed += 1;
            self.lifetime_consumed_count += 1;
        }
    }

    /// `Update(deltaTime, renderTime, serverTime)`; `None` where NGO throws ("no data has been added yet").
    pub fn update(&mut self, delta_time: f64, render_time: f64, server_time: f64) -> Option<Vec2> {
        self.try_consume_from_buffer(render_time, server_time);
        if self.buffer.is_empty() && self.lifetime_consumed_count == 0 {
            return None;
        }
        if self.lifetime_consumed_count >= 1 {
            let mut t = 1.0;
            let range = self.end_time_consumed - self.start_time_consumed;
            if range > SMALL_VALUE {
                t = geom::at_least((render_time - self.start_time_consumed) / range, 0.0);
                if t > self.max_interpolation_bound {
                    t = 1.0;
                }
            }
            let t = if self.lerp_unclamped { t } else { t.clamp(0.0, 1.0) };
            let target = self.interp_start_value.lerp(self.interp_end_value, t);
            let smoothing = (delta_time / self.maximum_interpolation_time).clamp(0.0, 1.0);
            self.current_interp_value = self.current_interp_value.lerp(target, smoothing);
        }
        self.nb_items_received_this_frame = 0;
        Some(self.current_interp_value)
    }

    /// `GetInterpolatedValue()`.
    pub fn value(&self) -> Vec2 {
        self.current_interp_value
    }

    /// The time of the value it is heading to (`m_EndTimeConsumed`).
    pub fn end_time(&self) -> f64 {
        self.end_time_consumed
    }
}

/// One NGO client following one `NetworkTransform`.
#[derive(Clone, Debug)]
pub struct Ngo {
    tick_interval: f64,
    sync_every: u64,
    time: TimeSystem,
    interpolator: Interpolator,
    started: bool,
}

impl Ngo {
    pub fn new(params: NgoParams, send_interval: f64) -> Self {
        let tick_rate = 1.0 / send_interval;
        Ngo {
            tick_interval: send_interval,
            sync_every: ((TIME_SYNC_FREQUENCY * tick_rate) as u64).max(1),
            time: TimeSystem::new(params.server_buffer_sec, params.hard_reset_threshold_sec, params.adjustment_ratio),
            interpolator: Interpolator::new(
                params.maximum_interpolation_time,
                params.max_interpolation_bound,
                params.lerp_unclamped,
            ),
            started: false,
        }
    }

    /// Whether the server sent a time sync with the snapshot of this tick (`Tick % m_TimeSyncFrequencyTicks == 0`).
    pub fn carries_time_sync(&self, server_time: f64) -> bool {
        let tick = geom::round_half_away(server_time / self.tick_interval);
        tick >= 0.0 && (tick as u64) % self.sync_every == 0
    }

    pub fn time_system(&self) -> &TimeSystem {
        &self.time
    }
}

impl Smoother for Ngo {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        if !self.started {
            self.started = true;
            self.time.connect(snapshot.server_time);
            self.interpolator.reset_to(snapshot.pos, self.time.server_time());
        } else if self.carries_time_sync(snapshot.server_time) {
            self.time.sync(snapshot.server_time);
        }
        if snapshot.teleport {
            self.interpolator.reset_to(snapshot.pos, snapshot.server_time);
        } else {
            self.interpolator.add_measurement(snapshot.pos, snapshot.server_time);
        }
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        if !self.started {
            return Shown::NOTHING;
        }
        self.time.advance(dt);
        let last = self.time.last_synced_server_time_sec;
        self.time.sync(last + dt);
        let server_time = self.time.server_time();
        let render_time = server_time - self.tick_interval;
        let Some(position) = self.interpolator.update(dt, render_time, server_time) else { return Shown::NOTHING };
        let mode = if render_time > self.interpolator.end_time() {
            if self.interpolator.lerp_unclamped {
                ShownMode::Extrapolated
            } else {
                ShownMode::Held
            }
        } else {
            ShownMode::Interpolated
        };
        Shown::at(position, render_time, mode)
    }
}
