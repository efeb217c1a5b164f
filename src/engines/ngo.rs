//! Unity Netcode for GameObjects 2.x as a new `NetworkTransform` runs it (2.13.0): the `LegacyLerp` interpolator
//! sampled on the client's `LocalTime`, which runs ahead of the server by the local buffer, so the render time
//! sits past the newest state received and the first lerp holds at its end; the second lerp smooths towards it.
//!
//! ```text
//!  time (NetworkTimeSystem; LocalBufferSec = 1 / TickRate, ServerBufferSec = 0.05f, HardResetThresholdSec = 0.2)
//!    approval:     Reset(tick time, 0.15f) — a real client's clock is far off, so it hard-resets
//!    time sync:    TimeSyncMessage once a second (the snapshot on a whole second carries it): Sync(tick time, rtt)
//!    per frame:    Advance(dt): m_TimeSec += dt; TickLatency from the RTT (unused by LegacyLerp)
//!                  |desired − current| of the local or the server offset > 0.2 ─► hard reset, else 1 % slew
//!                  Sync(LastSyncedServerTimeSec + dt, GetCurrentRtt() / 1000)
//!                  desired server offset = sync − m_TimeSec − ServerBufferSec
//!                  desired local offset  = sync − m_TimeSec + rtt / 2 + LocalBufferSec
//!    LocalTime = m_TimeSec + local offset  ≈ the server's present + one tick (the sync's transit is ½ RTT)
//!  per frame (NetworkTransform.UpdateInterpolation, PositionInterpolationType = LegacyLerp)
//!    renderTime = LocalTime − (1 + InterpolationBufferTickOffset) ticks;   serverTime = LocalTime
//!  per state update (BufferedLinearInterpolator.AddMeasurement(position, tick time))
//!    kept if newer than the last one kept (a queue); more than 100 in one frame ─► teleport to the newest
//!  BufferedLinearInterpolator.Update(deltaTime, renderTime, serverTime)  (legacy lerp)
//!    TryConsumeFromBuffer: no target, or renderTime ≥ the target's time ─► dequeue every item sent ≤ serverTime
//!        and newer than the target: start ← the old target's time, from ← the last first-stage value, target ←
//!        the newest dequeued (the first ever: from = the current value, t = 1)
//!    unless the target is reached:
//!      t = clamp01((float)((renderTime − start) / (end − start)))      no extrapolation: t ≤ 1
//!      next = Lerp(from, target, t);  current = Lerp(current, next, deltaTime / PositionMaxInterpolationTime)
//!      reached = every axis within 0.005 of the target (Math.Round(|Δ|, 2) ≤ 1e-6 or 1e-10)
//!    reached, queue empty, renderTime − target time > 0.3 ─► forget the target (next item: t = 1 from current)
//! ```
//! The buffer margin this implies: a state sent at tick time T reaches the client at T + one-way delay, while
//! renderTime ≈ server now + 1 tick − (1 + offset) ticks = server now − offset ticks. With the default offset 0 the
//! render time is ½ RTT ahead of the newest state, so the first lerp runs to t = 1 and holds (`Held` frames); what
//! is drawn is the newest state received, eased by the second lerp (its time constant ≈ 0.1 s). Only an offset of
//! more ticks than the one-way delay brings the render time back behind the data. NGO 1.x rendered at
//! `ServerTime − 1 tick` (`ServerBufferSec` + 1 tick behind the data): that is `ngo-1x` (`ngo1x.rs`).
//!
//! Source: needle-mirror/com.unity.netcode.gameobjects at tag 2.13.0 (the released package):
//! `Runtime/Components/NetworkTransform.cs` (`InterpolationTypes`: `LegacyLerp` is the enum's first value and
//! `PositionInterpolationType` has no initializer, and the manual says "Legacy lerp … Selected by default";
//! `UpdateInterpolation` samples `m_CachedNetworkManager.LocalTime` since 2.7.0 — 2.3 used `ServerTime`, 2.4–2.6
//! `ServerTime` on a server and `LocalTime` on a client; `ticksAgo = 1 + InterpolationBufferTickOffset` for a
//! server-authoritative transform; `InterpolationBufferTickOffset` is a static int that stays 0 — its doc comment
//! says "The default value is 1 tick"; `PositionLerpSmoothing = true`, `PositionMaxInterpolationTime = 0.1f`;
//! `UseUnreliableDeltas = false`: state updates go with the message's default delivery, which
//! `Runtime/Messaging/MessageDelivery.cs` sets to `ReliableFragmentedSequenced` for every message),
//! `Runtime/Components/Interpolator/BufferedLinearInterpolator.cs` (`AddMeasurement`, `ResetTo`, the lerp
//! `TryConsumeFromBuffer(renderTime, serverTime)` and `Update(float, double, double)`),
//! `BufferedLinearInterpolatorVector3.cs` (`Interpolate` = `Vector3.Lerp`, `IsApproximately`),
//! `Runtime/Timing/NetworkTimeSystem.cs` (`Advance`, `Sync`, `Reset`, `TickLatency`), `NetworkTime.cs`
//! (`TimeTicksAgo`), `Runtime/Core/NetworkManager.cs` (`new NetworkTimeSystem(1.0 / TickRate)`),
//! `ConnectionApprovedMessage.cs` (`Reset(time, 0.15f)`), `TimeSyncMessage.cs`, `UnityTransport.GetCurrentRtt`
//! (whole milliseconds). Its `Tests/Editor/InterpolatorTests.cs` and `Tests/Editor/Timing/
//! ClientNetworkTimeSystemTests.cs` are reproduced in `tests/engines/ngo.rs`.
//!
//! Nothing extrapolates: the legacy lerp clamps t to [0, 1] and `Vector3.Lerp` clamps the second lerp. The `Lerp`
//! and `SmoothDampening` types (which read `TickLatency`) are not modelled: a new `NetworkTransform` does not use
//! them. `TickLatency` is kept by the time system as NGO computes it.
//!
//! Simplified: `TickRate` is the scenario's send rate (NGO sends a transform state per tick while it moves); the
//! time sync rides on the snapshot whose tick is a multiple of `(int)TickRate` and shares its fate; the first
//! snapshot plays the approval and the spawn (`ResetTo(position, ServerTime)`); the RTT is the log's latest RTT
//! sample, truncated to whole milliseconds (0 before the first, as a transport that has measured nothing says).
//! Reliable delivery: NGO would resend a lost state and hold the later ones behind it, so loss shows as delay; the
//! project's log drops a lost packet, so here a loss is a gap the first lerp spans (start = the previous target,
//! end = the next state), which is what NGO draws when the resent state arrives no later than the next one. The
//! positions are doubles (Unity's are floats); t, the second lerp's ratio and the reached test are computed in
//! float as NGO does. x and y share one interpolator (NGO runs one `Vector3` interpolator).

use super::{Shown, ShownMode, Smoother};
use crate::geom::{self, Vec2};
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `k_BufferCountLimit`: more measurements than this in one frame and the interpolator teleports to the newest.
pub const BUFFER_COUNT_LIMIT: usize = 100;
/// `k_SmallValue` (from Vector3's equality).
const SMALL_VALUE: f64 = 9.999999439624929e-11;
/// `k_ApproximateLowPrecision` (items left in the queue) and `k_ApproximateHighPrecision` (queue empty).
const LOW_PRECISION: f32 = 0.000001;
const HIGH_PRECISION: f32 = 1e-10;
/// `Update`: "If we haven't recevied anything within 300ms, assume we stopped motion" (a float literal).
const STOPPED_MOTION_SEC: f32 = 0.3;
/// `k_TimeSyncFrequency`: one time sync per second.
pub const TIME_SYNC_FREQUENCY: f64 = 1.0;
/// `ConnectionApprovedMessage`: "Start with a constant RTT of 150 until we receive values from the transport."
pub const APPROVAL_RTT_SEC: f32 = 0.15;

/// NGO 2.x's settings, under NGO's names, with the defaults a new `NetworkTransform` and `NetworkManager` get.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "PascalCase", deny_unknown_fields)]
pub struct NgoParams {
    /// Render time = LocalTime − (1 + this) ticks (`NetworkTransform.InterpolationBufferTickOffset`, 0).
    #[param(range(0.0, 30.0), unit = "ticks", control(0.0, 10.0, 1.0, "", 1.0))]
    pub interpolation_buffer_tick_offset: usize,
    /// The second lerp (`PositionLerpSmoothing`, on).
    pub position_lerp_smoothing: bool,
    /// The second lerp moves deltaTime / this of the way each frame (`PositionMaxInterpolationTime`, 0.1f).
    #[param(range(0.01, 1.0), unit = "s", control(10.0, 1000.0, 10.0, "ms", 1000.0))]
    pub position_max_interpolation_time: f64,
    /// Server time = the last time sync − this (`k_DefaultBufferSizeSec = 0.05f`).
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 300.0, 5.0, "ms", 1000.0))]
    pub server_buffer_sec: f64,
    /// An offset further off than this snaps the clock (`k_HardResetThresholdSeconds`).
    #[param(range(0.001, 10.0), unit = "s", control(10.0, 1000.0, 10.0, "ms", 1000.0))]
    pub hard_reset_threshold_sec: f64,
    /// How fast a smaller difference is slewed (`k_DefaultAdjustmentRatio`).
    #[param(range(0.0, 1.0), control(0.0, 10.0, 0.5, "%", 100.0))]
    pub adjustment_ratio: f64,
}

impl Default for NgoParams {
    fn default() -> Self {
        NgoParams {
            interpolation_buffer_tick_offset: 0,
            position_lerp_smoothing: true,
            position_max_interpolation_time: f64::from(0.1f32),
            server_buffer_sec: f64::from(0.05f32),
            hard_reset_threshold_sec: 0.2,
            adjustment_ratio: 0.01,
        }
    }
}

impl NgoParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// `Mathf.Lerp`: `a + (b − a) · Clamp01(t)`, in float.
fn mathf_lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t.clamp(0.0, 1.0)
}

/// `Vector3.Lerp`: t clamped to [0, 1].
fn vector3_lerp(a: Vec2, b: Vec2, t: f32) -> Vec2 {
    a.lerp(b, f64::from(t.clamp(0.0, 1.0)))
}

/// `BufferedLinearInterpolatorVector3.IsApproximately`: `Math.Round(Mathf.Abs(a − b), 2) ≤ precision` per axis
/// (the float difference, rounded half to even at two decimals).
pub fn is_approximately(a: Vec2, b: Vec2, precision: f32) -> bool {
    let axis = |p: f64, q: f64| {
        let d = f64::from((p as f32 - q as f32).abs());
        (d * 100.0).round_ties_even() / 100.0 <= f64::from(precision)
    };
    axis(a.x, b.x) && axis(a.y, b.y)
}

/// The client's `NetworkTimeSystem` (2.x: local and server time, the RTT, `TickLatency`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeSystem {
    pub local_buffer_sec: f64,
    pub server_buffer_sec: f64,
    pub hard_reset_threshold_sec: f64,
    pub adjustment_ratio: f64,
    tick_frequency: f64,
    time_sec: f64,
    current_local_time_offset: f64,
    desired_local_time_offset: f64,
    current_server_time_offset: f64,
    desired_server_time_offset: f64,
    /// `LastSyncedServerTimeSec`.
    pub last_synced_server_time_sec: f64,
    /// `LastSyncedRttSec`.
    pub last_synced_rtt_sec: f64,
    tick_latency_average: f32,
    /// `TickLatency`: the averaged RTT in ticks, at least 2 once an RTT is known (1 before).
    pub tick_latency: i32,
    /// Hard resets so far.
    pub resets: u64,
}

impl TimeSystem {
    /// `new NetworkTimeSystem(localBufferSec, serverBufferSec, hardResetThresholdSec, adjustmentRatio)` of a game
    /// ticking every `tick_interval` seconds.
    pub fn new(
        local_buffer_sec: f64,
        server_buffer_sec: f64,
        hard_reset_threshold_sec: f64,
        adjustment_ratio: f64,
        tick_interval: f64,
    ) -> Self {
        TimeSystem {
            local_buffer_sec,
            server_buffer_sec,
            hard_reset_threshold_sec,
            adjustment_ratio,
            tick_frequency: tick_interval,
            time_sec: 0.0,
            current_local_time_offset: 0.0,
            desired_local_time_offset: 0.0,
            current_server_time_offset: 0.0,
            desired_server_time_offset: 0.0,
            last_synced_server_time_sec: 0.0,
            last_synced_rtt_sec: 0.0,
            tick_latency_average: 2.0,
            tick_latency: 1,
            resets: 0,
        }
    }

    /// `LocalTime` = `m_TimeSec + m_CurrentLocalTimeOffset`.
    pub fn local_time(&self) -> f64 {
        self.time_sec + self.current_local_time_offset
    }

    /// `ServerTime` = `m_TimeSec + m_CurrentServerTimeOffset`.
    pub fn server_time(&self) -> f64 {
        self.time_sec + self.current_server_time_offset
    }

    /// `Sync(serverTimeSec, rttSec)`: aims both offsets, changes no time.
    pub fn sync(&mut self, server_time_sec: f64, rtt_sec: f64) {
        self.last_synced_rtt_sec = rtt_sec;
        let half_rtt = rtt_sec * 0.5;
        self.last_synced_server_time_sec = server_time_sec;
        let time_dif = server_time_sec - self.time_sec;
        self.desired_server_time_offset = time_dif - self.server_buffer_sec;
        self.desired_local_time_offset = time_dif + half_rtt + self.local_buffer_sec;
    }

    /// `Advance(deltaTimeSec)`: `true` when it hard-reset.
    pub fn advance(&mut self, delta_time_sec: f64) -> bool {
        self.time_sec += delta_time_sec;
        if self.last_synced_rtt_sec > 0.0 {
            let ticks = ((self.last_synced_rtt_sec + delta_time_sec) / self.tick_frequency) as f32;
            self.tick_latency_average = mathf_lerp(self.tick_latency_average, ticks, delta_time_sec as f32);
            self.tick_latency = self.tick_latency_average.round_ties_even().max(2.0) as i32;
        }
        if (self.desired_local_time_offset - self.current_local_time_offset).abs() > self.hard_reset_threshold_sec
            || (self.desired_server_time_offset - self.current_server_time_offset).abs() > self.hard_reset_threshold_sec
        {
            self.hard_reset();
            return true;
        }
        let toward = |desired: f64, current: f64| if desired > current { 1.0 } else { -1.0 };
        let local = toward(self.desired_local_time_offset, self.current_local_time_offset);
        self.current_local_time_offset += delta_time_sec * (local * self.adjustment_ratio);
        let server = toward(self.desired_server_time_offset, self.current_server_time_offset);
        self.current_server_time_offset += delta_time_sec * (server * self.adjustment_ratio);
        false
    }

    fn hard_reset(&mut self) {
        self.time_sec += self.desired_server_time_offset;
        self.desired_local_time_offset -= self.desired_server_time_offset;
        self.current_local_time_offset = self.desired_local_time_offset;
        self.desired_server_time_offset = 0.0;
        self.current_server_time_offset = 0.0;
        self.resets += 1;
    }

    /// `Reset(serverTimeSec, rttSec)`: `Sync` then `Advance(0)`.
    pub fn reset(&mut self, server_time_sec: f64, rtt_sec: f64) -> bool {
        self.sync(server_time_sec, rtt_sec);
        self.advance(0.0)
    }

    /// The connection approval's `Reset(time, 0.15f)` as it happens in a real session: the client's clock starts
    /// at 0 while the server has been up for a while, so it always hard-resets. The simulator's server clock
    /// starts near 0, so this forces that reset.
    pub fn connect(&mut self, server_time_sec: f64) {
        if !self.reset(server_time_sec, f64::from(APPROVAL_RTT_SEC)) {
            self.hard_reset();
        }
    }
}

/// One queued state: its value and the tick time it was sent at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Item {
    pub value: Vec2,
    pub time_sent: f64,
}

/// `BufferedLinearInterpolator<Vector3>` of NGO 2.x, its legacy-lerp path.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpolator {
    /// `LerpSmoothEnabled` (off on a bare interpolator; `NetworkTransform` sets `PositionLerpSmoothing`).
    pub lerp_smooth_enabled: bool,
    /// `MaximumInterpolationTime` (float).
    pub maximum_interpolation_time: f32,
    queue: VecDeque<Item>,
    target: Option<Item>,
    start_time: f64,
    end_time: f64,
    time_to_target_value: f64,
    lerp_t: f32,
    target_reached: bool,
    current_value: Vec2,
    previous_value: Vec2,
    next_value: Vec2,
    last_measurement_added_time: f64,
    buffer_count: u64,
    nb_items_received_this_frame: usize,
    last_buffered_item_received: Item,
}

impl Interpolator {
    pub fn new(lerp_smooth_enabled: bool, maximum_interpolation_time: f32) -> Self {
        Interpolator {
            lerp_smooth_enabled,
            maximum_interpolation_time,
            queue: VecDeque::new(),
            target: None,
            start_time: 0.0,
            end_time: 0.0,
            time_to_target_value: 0.0,
            lerp_t: 0.0,
            target_reached: false,
            current_value: Vec2::ZERO,
            previous_value: Vec2::ZERO,
            next_value: Vec2::ZERO,
            last_measurement_added_time: 0.0,
            buffer_count: 0,
            nb_items_received_this_frame: 0,
            last_buffered_item_received: Item { value: Vec2::ZERO, time_sent: 0.0 },
        }
    }

    /// `CurrentState.Reset(currentValue)`.
    fn reset_state(&mut self, value: Vec2) {
        self.target = None;
        self.current_value = value;
        self.next_value = value;
        self.previous_value = value;
        self.target_reached = false;
        self.lerp_t = 0.0;
        self.end_time = 0.0;
        self.start_time = 0.0;
        self.time_to_target_value = 0.0;
    }

    /// `Clear()`.
    fn clear(&mut self) {
        self.queue.clear();
        self.buffer_count = 0;
        self.last_measurement_added_time = 0.0;
        self.reset_state(Vec2::ZERO);
    }

    /// `ResetTo(targetValue, serverTime)`: teleport there, the value queued as the baseline.
    pub fn reset_to(&mut self, target: Vec2, server_time: f64) {
        self.clear();
        self.reset_state(target);
        self.add_measurement(target, server_time);
    }

    /// `AddMeasurement(newMeasurement, sentTime)`.
    pub fn add_measurement(&mut self, value: Vec2, sent_time: f64) {
        self.nb_items_received_this_frame += 1;
        if self.nb_items_received_this_frame > BUFFER_COUNT_LIMIT {
            if self.last_buffered_item_received.time_sent < sent_time {
                self.clear();
                self.reset_state(value);
                self.last_measurement_added_time = sent_time;
                self.last_buffered_item_received = Item { value, time_sent: sent_time };
                self.queue.push_back(self.last_buffered_item_received);
            }
            return;
        }
        if sent_time > self.last_measurement_added_time || self.buffer_count == 0 {
            self.buffer_count += 1;
            self.last_buffered_item_received = Item { value, time_sent: sent_time };
            self.queue.push_back(self.last_buffered_item_received);
            self.last_measurement_added_time = sent_time;
        }
    }

    /// `TryConsumeFromBuffer(renderTime, serverTime)`, the lerp version.
    fn try_consume_from_buffer(&mut self, render_time: f64, server_time: f64) {
        if self.target.is_some_and(|t| t.time_sent > render_time) {
            return;
        }
        let mut previous_item: Option<f64> = None;
        let mut already_has_buffer_item = false;
        while let Some(&potential) = self.queue.front() {
            if previous_item == Some(potential.time_sent) {
                break;
            }
            if potential.time_sent <= server_time && self.target.is_none_or(|t| potential.time_sent > t.time_sent) {
                self.queue.pop_front();
                match self.target {
                    None => {
                        self.target = Some(potential);
                        already_has_buffer_item = true;
                        self.next_value = self.current_value;
                        self.previous_value = self.current_value;
                        self.start_time = potential.time_sent;
                        self.end_time = potential.time_sent;
                    }
                    Some(old) => {
                        if !already_has_buffer_item {
                            already_has_buffer_item = true;
                            self.start_time = old.time_sent;
                            self.previous_value = self.next_value;
                            self.target_reached = false;
                        }
                        self.end_time = potential.time_sent;
                        self.time_to_target_value = self.end_time - self.start_time;
                        self.target = Some(potential);
                    }
                }
            }
            if self.target.is_none() {
                break;
            }
            previous_item = Some(potential.time_sent);
        }
    }

    fn precision(&self) -> f32 {
        if self.queue.is_empty() {
            HIGH_PRECISION
        } else {
            LOW_PRECISION
        }
    }

    /// `Update(deltaTime, renderTime, serverTime)`: the value to show.
    pub fn update(&mut self, delta_time: f32, render_time: f64, server_time: f64) -> Vec2 {
        self.try_consume_from_buffer(render_time, server_time);
        match self.target {
            Some(target) if !self.target_reached => {
                self.lerp_t = 1.0;
                if self.time_to_target_value > SMALL_VALUE {
                    let t = ((render_time - self.start_time) / self.time_to_target_value) as f32;
                    self.lerp_t = t.clamp(0.0, 1.0);
                }
                self.next_value = vector3_lerp(self.previous_value, target.value, self.lerp_t);
                self.current_value = if self.lerp_smooth_enabled {
                    vector3_lerp(self.current_value, self.next_value, delta_time / self.maximum_interpolation_time)
                } else {
                    self.next_value
                };
                self.target_reached = is_approximately(self.current_value, target.value, self.precision());
            }
            // Reached, nothing queued, and nothing new for 0.3 s: "assume we stopped motion".
            Some(target) if self.queue.is_empty() && render_time - target.time_sent > f64::from(STOPPED_MOTION_SEC) => {
                self.reset_state(self.current_value);
            }
            _ => {}
        }
        self.nb_items_received_this_frame = 0;
        self.current_value
    }

    /// `GetInterpolatedValue()`.
    pub fn value(&self) -> Vec2 {
        self.current_value
    }

    /// The time of the state it is heading to, if any (`InterpolateState.Target.TimeSent`).
    pub fn target_time(&self) -> Option<f64> {
        self.target.map(|t| t.time_sent)
    }

    /// The first-stage t of the last update (`InterpolateState.LerpT`).
    pub fn lerp_t(&self) -> f32 {
        self.lerp_t
    }

    /// Whether the value has come within NGO's tolerance of the target (`TargetReached`).
    pub fn target_reached(&self) -> bool {
        self.target_reached
    }

    /// States queued, not yet consumed.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }
}

/// One NGO 2.x client following one server-authoritative `NetworkTransform`.
#[derive(Clone, Debug)]
pub struct Ngo {
    tick_interval: f64,
    sync_every: u64,
    ticks_ago: f64,
    time: TimeSystem,
    interpolator: Interpolator,
    /// `UnityTransport.GetCurrentRtt` in seconds (whole milliseconds).
    rtt: f64,
    started: bool,
}

impl Ngo {
    pub fn new(params: NgoParams, send_interval: f64) -> Self {
        let tick_rate = 1.0 / send_interval;
        Ngo {
            tick_interval: send_interval,
            sync_every: ((TIME_SYNC_FREQUENCY * tick_rate) as u64).max(1),
            ticks_ago: (1 + params.interpolation_buffer_tick_offset) as f64,
            time: TimeSystem::new(
                send_interval,
                params.server_buffer_sec,
                params.hard_reset_threshold_sec,
                params.adjustment_ratio,
                send_interval,
            ),
            interpolator: Interpolator::new(
                params.position_lerp_smoothing,
                params.position_max_interpolation_time as f32,
            ),
            rtt: 0.0,
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

    pub fn interpolator(&self) -> &Interpolator {
        &self.interpolator
    }
}

impl Smoother for Ngo {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        if !self.started {
            self.started = true;
            self.time.connect(snapshot.server_time);
            self.interpolator.reset_to(snapshot.pos, self.time.server_time());
        } else if self.carries_time_sync(snapshot.server_time) {
            self.time.sync(snapshot.server_time, self.rtt);
        }
        if snapshot.teleport {
            self.interpolator.reset_to(snapshot.pos, snapshot.server_time);
        } else {
            self.interpolator.add_measurement(snapshot.pos, snapshot.server_time);
        }
    }

    fn on_rtt(&mut self, _now: f64, rtt: f64) {
        if rtt.is_finite() && rtt >= 0.0 {
            self.rtt = (rtt * 1000.0).trunc() / 1000.0;
        }
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        if !self.started {
            return Shown::NOTHING;
        }
        self.time.advance(dt);
        let last = self.time.last_synced_server_time_sec;
        self.time.sync(last + dt, self.rtt);
        let local_time = self.time.local_time();
        let render_time = local_time - self.ticks_ago * self.tick_interval;
        let position = self.interpolator.update(dt as f32, render_time, local_time);
        let mode = match self.interpolator.target_time() {
            Some(end) if render_time <= end => ShownMode::Interpolated,
            _ => ShownMode::Held,
        };
        Shown::at(position, render_time, mode)
    }
}
