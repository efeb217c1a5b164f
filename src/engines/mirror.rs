//! Mirror (Unity): snapshot interpolation V2 — a local timeline that runs 2 % fast or 4 % slow to keep about
//! `bufferTime` of snapshots buffered, with `bufferTime` itself sized from the measured delivery jitter — and the
//! `NetworkTransformUnreliable` that a game puts on an entity, sampling its own buffer at that timeline.
//!
//! Two strategies: `mirror` is Mirror as its users run it (`NetworkClient`'s timeline and a
//! `NetworkTransformUnreliable` with its defaults, [`Mirror::network_transform`]); `mirror-core` is
//! `SnapshotInterpolation` alone, the timeline sampling its own time snapshots ([`Mirror::new`]).
//!
//! ```text
//!  per delivery (NetworkClient.OnTimeSnapshot)
//!    dynamicAdjustment:  bufferTimeMultiplier = (sendInterval + deliveryTimeEma.StandardDeviation) / sendInterval
//!                                               + dynamicAdjustmentTolerance                      (DynamicAdjustment)
//!    bufferTime = sendInterval × bufferTimeMultiplier
//!    InsertAndAdjust:  first snapshot → localTimeline = remoteTime − bufferTime
//!                      InsertIfNotExists (sorted by remote time, at most bufferLimit, duplicates ignored)
//!                      deliveryTimeEma.Add(local arrival gap of the two newest)
//!                      localTimeline = clamp(localTimeline, latest − 2·bufferTime, latest)   (TimelineClamp)
//!                      driftEma.Add(latest remote time − localTimeline)
//!                      drift = driftEma.Value − bufferTime
//!                      localTimescale = 1 + catchupSpeed   if drift > catchupPositiveThreshold × sendInterval
//!                                       1 − slowdownSpeed  if drift < catchupNegativeThreshold × sendInterval
//!                                       1                  otherwise                              (Timescale)
//!  per frame (NetworkClient.UpdateTimeInterpolation, then NetworkTransform)
//!    localTimeline += deltaTime × localTimescale                                                  (StepTime)
//!    Sample: the pair around localTimeline (past the newest: the newest; before the oldest: the oldest), t
//!    remove every snapshot before `from`                                                           (StepInterpolation)
//!    position = Lerp(from, to, t)                                      never extrapolates: it holds the newest
//!
//!  mirror: the entity's own buffer (NetworkTransformUnreliable.OnServerToClientSync, UpdateClientInterpolation)
//!    per update, timestamp = the batch's remote timestamp (the time snapshot's remoteTime)
//!      onlySyncOnChange: newest key + bufferResetMultiplier × sendInterval < timestamp ─► clear   (ResetState)
//!      AddSnapshot: key = timestamp + timeStampAdjustment + offset     offset = sendInterval if timelineOffset
//!    per frame: StepInterpolation(entity buffer, NetworkTime.unscaledTime = NetworkClient.localTimeline)
//!      empty buffer: nothing applied, the entity keeps its place
//!    ⇒ the entity is drawn one send interval further back than mirror-core; a silence of more than
//!      (1 + bufferResetMultiplier) send intervals empties the buffer and the entity jumps to the new update
//! ```
//! Source: MirrorNetworking/Mirror, `Assets/Mirror/Core/SnapshotInterpolation/SnapshotInterpolation.cs`
//! (`Timescale`, `DynamicAdjustment`, `InsertIfNotExists`, `TimelineClamp`, `InsertAndAdjust`, `Sample`,
//! `StepTime`, `StepInterpolation`), `SnapshotInterpolationSettings.cs` (the defaults below),
//! `NetworkClient_TimeInterpolation.cs` (`InitTimeInterpolation`: EMA lengths `sendRate × duration`;
//! `OnTimeSnapshot`; `UpdateTimeInterpolation`), `Tools/ExponentialMovingAverage.cs`; the shipped tests
//! `Tests/Editor/SnapshotInterpolation/SnapshotInterpolationTests.cs` and
//! `Tests/Editor/Tools/ExponentialMovingAverageTests.cs` are reproduced in `tests/engines/mirror.rs`.
//!
//! `mirror` follows `Assets/Mirror/Components/NetworkTransform/NetworkTransformBase.cs` (`timelineOffset = true`,
//! `timeStampAdjustment`, `offset`, `AddSnapshot`, `ResetState`) and `NetworkTransformUnreliable.cs`
//! (`bufferResetMultiplier = 3`, `OnServerToClientSync`, `UpdateClientInterpolation`), MirrorNetworking/Mirror
//! master (August 2026). Its send interval is Mirror's `float NetworkServer.sendInterval` (the stream's, rounded
//! to a `float`), and `offset` and `timeIntervalCheck` are `float` products widened to `double`, as there.
//!
//! Simplified: the time snapshots (one per batch) and the `NetworkTransform`'s own snapshots are the same packets
//! here (one entity, one snapshot per packet, `syncInterval` = the server's send interval, so
//! `sendIntervalMultiplier` is 1 and `timeStampAdjustment` 0); they are still two buffers, as in Mirror, so a
//! teleport (`NetworkTransform.OnTeleport` → `ResetState`) clears only the entity's. The sender's skipping of
//! unchanged states (`onlySyncOnChange`) is the stream's business: here the flag only gates the receiver's reset.
//! Mirror's `sendRate` is an integer; the EMA lengths use the send rate rounded. `Time.unscaledDeltaTime` is a
//! `float` in Unity; the frame's `dt` is used as it is. Rotation and scale are not modelled.

use super::{Shown, ShownMode, Smoother};
use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// `SnapshotInterpolationSettings`, under Mirror's names and with Mirror's defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct MirrorParams {
    /// Buffer time = send interval × this: "By default, it should be around 2" (overwritten when
    /// `dynamicAdjustment`).
    #[param(range(0.0, 20.0), control(0.5, 10.0, 0.1, "×", 1.0))]
    pub buffer_time_multiplier: f64,
    /// "If a client can't process snapshots fast enough, don't store too many."
    #[param(range(1.0, 4096.0), unit = "snapshots", control(2.0, 64.0, 1.0, "", 1.0))]
    pub buffer_limit: usize,
    /// Drift below this many frames (send intervals) slows the timeline down: "This needs to be negative."
    #[param(range(-20.0, 0.0), unit = "frames", control(-5.0, 0.0, 0.25, "×", 1.0))]
    pub catchup_negative_threshold: f64,
    /// Drift above this many frames speeds it up: "This needs to be positive."
    #[param(range(0.0, 20.0), unit = "frames", control(0.0, 5.0, 0.25, "×", 1.0))]
    pub catchup_positive_threshold: f64,
    /// How much faster the timeline runs while catching up (`[Range(0, 1)]`).
    #[param(range(0.0, 1.0), control(0.0, 20.0, 0.5, "%", 100.0))]
    pub catchup_speed: f64,
    /// How much slower it runs while slowing down (`[Range(0, 1)]`).
    #[param(range(0.0, 1.0), control(0.0, 20.0, 0.5, "%", 100.0))]
    pub slowdown_speed: f64,
    /// The drift's moving average covers this many seconds of snapshots (an `int` in Mirror).
    #[param(range(1.0, 60.0), unit = "s", control(1.0, 10.0, 1.0, "s", 1.0))]
    pub drift_ema_duration: u32,
    /// Whether `bufferTimeMultiplier` follows the delivery jitter after every snapshot.
    pub dynamic_adjustment: bool,
    /// Added to the dynamic multiplier: "1 is realistically just fine, 2 is very very safe".
    #[param(range(0.0, 20.0), control(0.0, 5.0, 0.25, "×", 1.0))]
    pub dynamic_adjustment_tolerance: f64,
    /// The delivery time's moving average covers this many seconds (an `int` in Mirror).
    #[param(range(1.0, 60.0), unit = "s", control(1.0, 10.0, 1.0, "s", 1.0))]
    pub delivery_time_ema_duration: u32,
    /// `NetworkTransformBase.timelineOffset`: the entity's snapshots are keyed one send interval after their send
    /// time, "to account for decoupled arrival of NetworkTime and NetworkTransform snapshots" (`mirror` only).
    pub timeline_offset: bool,
    /// `NetworkTransformUnreliable.bufferResetMultiplier` (a `float`): an update stamped more than this many send
    /// intervals after the newest buffered key clears the entity's buffer (`mirror` only; "3 is recommended").
    #[param(range(0.0, 100.0), control(0.0, 10.0, 0.5, "×", 1.0))]
    pub buffer_reset_multiplier: f64,
    /// `NetworkTransformBase.onlySyncOnChange`: the sender skips unchanged states, and the receiver then resets
    /// its buffer after a silence (`bufferResetMultiplier`); off, it never does (`mirror` only).
    pub only_sync_on_change: bool,
}

impl Default for MirrorParams {
    fn default() -> Self {
        MirrorParams {
            buffer_time_multiplier: 2.0,
            buffer_limit: 32,
            catchup_negative_threshold: -1.0,
            catchup_positive_threshold: 1.0,
            catchup_speed: 0.02,
            slowdown_speed: 0.04,
            drift_ema_duration: 1,
            dynamic_adjustment: true,
            dynamic_adjustment_tolerance: 1.0,
            delivery_time_ema_duration: 2,
            timeline_offset: true,
            buffer_reset_multiplier: 3.0,
            only_sync_on_change: true,
        }
    }
}

impl MirrorParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// The settings `mirror-core` reads (`SnapshotInterpolationSettings`): the `NetworkTransform`'s at their
    /// defaults, so moving one of those does not re-run it.
    pub fn core(&self) -> MirrorParams {
        let d = MirrorParams::default();
        MirrorParams {
            timeline_offset: d.timeline_offset,
            buffer_reset_multiplier: d.buffer_reset_multiplier,
            only_sync_on_change: d.only_sync_on_change,
            ..self.clone()
        }
    }
}

/// `ExponentialMovingAverage`: value, and variance with its standard deviation, of the last ~n samples.
/// `Default` is C#'s `default` struct (alpha 0: the first sample stays the value forever).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ema {
    alpha: f64,
    initialized: bool,
    pub value: f64,
    pub variance: f64,
    pub standard_deviation: f64,
}

impl Ema {
    /// "standard N-day EMA alpha calculation": alpha = 2 / (n + 1).
    pub fn new(n: u32) -> Self {
        Ema { alpha: 2.0 / (f64::from(n) + 1.0), ..Ema::default() }
    }

    pub fn add(&mut self, new_value: f64) {
        if self.initialized {
            let delta = new_value - self.value;
            self.value += self.alpha * delta;
            self.variance = (1.0 - self.alpha) * (self.variance + self.alpha * delta * delta);
            self.standard_deviation = self.variance.sqrt();
        } else {
            self.value = new_value;
            self.initialized = true;
        }
    }

    pub fn reset(&mut self) {
        *self = Ema { alpha: self.alpha, ..Ema::default() };
    }
}

/// One buffered snapshot: `remoteTime` (server), `localTime` (arrival) and the entity's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub remote_time: f64,
    pub local_time: f64,
    pub pos: Vec2,
}

/// `SortedList<double, T>` keyed by remote time.
pub type Buffer = Vec<Entry>;

/// `Timescale`: 1 + catchup above the positive threshold, 1 − slowdown below the negative one, else 1.
pub fn timescale(drift: f64, catchup_speed: f64, slowdown_speed: f64, negative: f64, positive: f64) -> f64 {
    if drift > positive {
        1.0 + catchup_speed
    } else if drift < negative {
        1.0 - slowdown_speed
    } else {
        1.0
    }
}

/// `DynamicAdjustment`: how many send intervals one interval plus the jitter's standard deviation is, plus the
/// tolerance.
pub fn dynamic_adjustment(send_interval: f64, jitter_standard_deviation: f64, tolerance: f64) -> f64 {
    (send_interval + jitter_standard_deviation) / send_interval + tolerance
}

/// `InsertIfNotExists`: `false` when the buffer is full or the remote time is already there (overwritten).
pub fn insert_if_not_exists(buffer: &mut Buffer, buffer_limit: usize, entry: Entry) -> bool {
    if buffer.len() >= buffer_limit {
        return false;
    }
    match buffer.binary_search_by(|e| e.remote_time.total_cmp(&entry.remote_time)) {
        Ok(i) => {
            buffer[i] = entry;
            false
        }
        Err(i) => {
            buffer.insert(i, entry);
            true
        }
    }
}

/// `TimelineClamp`: keep the timeline within `bufferTime` of `latest − bufferTime`.
pub fn timeline_clamp(local_timeline: f64, buffer_time: f64, latest_remote_time: f64) -> f64 {
    let target = latest_remote_time - buffer_time;
    local_timeline.clamp(target - buffer_time, target + buffer_time)
}

/// The running state `InsertAndAdjust` and `StepTime` update (`ref` arguments in Mirror).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timeline {
    pub local_timeline: f64,
    pub local_timescale: f64,
    pub drift_ema: Ema,
    pub delivery_time_ema: Ema,
}

/// The thresholds and speeds `InsertAndAdjust` takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adjust {
    pub send_interval: f64,
    pub buffer_time: f64,
    pub catchup_speed: f64,
    pub slowdown_speed: f64,
    pub catchup_negative_threshold: f64,
    pub catchup_positive_threshold: f64,
}

/// `InsertAndAdjust`: initialise the timeline on the first snapshot, insert, then re-aim the timescale.
pub fn insert_and_adjust(buffer: &mut Buffer, buffer_limit: usize, entry: Entry, line: &mut Timeline, a: Adjust) {
    if buffer.is_empty() {
        line.local_timeline = entry.remote_time - a.buffer_time;
    }
    if !insert_if_not_exists(buffer, buffer_limit, entry) {
        return;
    }
    if buffer.len() >= 2 {
        let previous = buffer[buffer.len() - 2].local_time;
        let latest = buffer[buffer.len() - 1].local_time;
        line.delivery_time_ema.add(latest - previous);
    }
    let latest_remote_time = entry.remote_time;
    line.local_timeline = timeline_clamp(line.local_timeline, a.buffer_time, latest_remote_time);
    line.drift_ema.add(latest_remote_time - line.local_timeline);
    let drift = line.drift_ema.value - a.buffer_time;
    let negative = a.send_interval * a.catchup_negative_threshold;
    let positive = a.send_interval * a.catchup_positive_threshold;
    line.local_timescale = timescale(drift, a.catchup_speed, a.slowdown_speed, negative, positive);
}

/// `Sample`: the indices around `local_timeline` and the factor; clamped to the oldest or newest outside.
/// The buffer must not be empty.
pub fn sample(buffer: &Buffer, local_timeline: f64) -> (usize, usize, f64) {
    for i in 0..buffer.len().saturating_sub(1) {
        let (first, second) = (buffer[i], buffer[i + 1]);
        if local_timeline >= first.remote_time && local_timeline <= second.remote_time {
            return (i, i + 1, inverse_lerp(first.remote_time, second.remote_time, local_timeline));
        }
    }
    if buffer[0].remote_time > local_timeline {
        (0, 0, 0.0)
    } else {
        (buffer.len() - 1, buffer.len() - 1, 0.0)
    }
}

/// `Mathd.InverseLerp`: where `value` lies between `a` and `b`, clamped to 0..=1 (0 when `a == b`).
fn inverse_lerp(a: f64, b: f64, value: f64) -> f64 {
    if a != b {
        ((value - a) / (b - a)).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// `StepTime`.
pub fn step_time(delta_time: f64, local_timeline: &mut f64, local_timescale: f64) {
    *local_timeline += delta_time * local_timescale;
}

/// `StepInterpolation`: sample, then remove the snapshots before `from` (`RemoveRange(from)`).
pub fn step_interpolation(buffer: &mut Buffer, local_timeline: f64) -> (Entry, Entry, f64) {
    let (from, to, t) = sample(buffer, local_timeline);
    let pair = (buffer[from], buffer[to], t);
    buffer.drain(..from);
    pair
}

/// What the `NetworkTransformUnreliable` adds on top of the shared timeline: how it keys the entity's snapshots
/// and when it clears its buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    /// `timeStampAdjustment + offset` (seconds): added to each update's batch timestamp to key it.
    pub key_offset: f64,
    /// `timeIntervalCheck` (seconds): an update stamped later than the newest key plus this clears the buffer
    /// first; `None` when `onlySyncOnChange` is off.
    pub reset_after: Option<f64>,
    /// What the transform last applied: the entity keeps it while its buffer is empty.
    last_applied: Option<Vec2>,
}

impl Transform {
    /// `NetworkTransformUnreliable` sending every `send_interval` (Mirror's `float NetworkServer.sendInterval`):
    /// `sendIntervalMultiplier` 1, so `timeStampAdjustment = sendInterval × 0 = 0` and `offset = sendInterval × 1`;
    /// `timeIntervalCheck = bufferResetMultiplier × 1 × sendInterval`, each product a `float` widened to `double`.
    pub fn new(params: &MirrorParams, send_interval: f32) -> Self {
        let multiplier: u32 = 1;
        let time_stamp_adjustment = f64::from(send_interval * (multiplier - 1) as f32);
        let offset = if params.timeline_offset { f64::from(send_interval * multiplier as f32) } else { 0.0 };
        let check = f64::from(params.buffer_reset_multiplier as f32 * multiplier as f32 * send_interval);
        Transform {
            key_offset: time_stamp_adjustment + offset,
            reset_after: params.only_sync_on_change.then_some(check),
            last_applied: None,
        }
    }
}

/// One Mirror client following one networked entity.
#[derive(Clone, Debug)]
pub struct Mirror {
    params: MirrorParams,
    send_interval: f64,
    /// The `NetworkTransformUnreliable` (`mirror`); `None`: the timeline's own snapshots are the entity's
    /// (`mirror-core`, `SnapshotInterpolation` alone).
    transform: Option<Transform>,
    /// `NetworkClient.bufferTimeMultiplier`: starts at the setting, overwritten by the dynamic adjustment.
    buffer_time_multiplier: f64,
    /// `NetworkClient.snapshots` (time snapshots: the timeline).
    time_snapshots: Buffer,
    /// The `NetworkTransform`'s `clientSnapshots` — while `entity_is_time` holds, not kept: it is then the very
    /// same buffer as `time_snapshots`.
    entity_snapshots: Buffer,
    /// Both buffers have received the same inserts and been stepped at the same timeline, so they hold the same
    /// entries and `time_snapshots` stands for both (one insert and one step per frame rather than two). The first
    /// teleport, which clears only the entity's buffer, ends it for good.
    entity_is_time: bool,
    line: Timeline,
}

impl Mirror {
    pub fn new(params: MirrorParams, send_interval: f64) -> Self {
        let send_rate = (1.0 / send_interval).round().max(1.0) as u32;
        let line = Timeline {
            local_timeline: 0.0,
            local_timescale: 1.0,
            drift_ema: Ema::new(send_rate * params.drift_ema_duration),
            delivery_time_ema: Ema::new(send_rate * params.delivery_time_ema_duration),
        };
        Mirror {
            buffer_time_multiplier: params.buffer_time_multiplier,
            params,
            send_interval,
            transform: None,
            time_snapshots: Vec::new(),
            entity_snapshots: Vec::new(),
            entity_is_time: true,
            line,
        }
    }

    /// `mirror`: `NetworkClient`'s timeline with a `NetworkTransformUnreliable` on the entity, at the stream's
    /// `send_interval` read as Mirror's `float` `NetworkServer.sendInterval`.
    pub fn network_transform(params: MirrorParams, send_interval: f64) -> Self {
        let interval = send_interval as f32;
        let transform = Transform::new(&params, interval);
        Mirror { transform: Some(transform), entity_is_time: false, ..Mirror::new(params, f64::from(interval)) }
    }

    /// The `NetworkTransform`'s settings in force (`None` for `mirror-core`).
    pub fn transform(&self) -> Option<&Transform> {
        self.transform.as_ref()
    }

    /// The keys (remote times) the entity's buffer holds, oldest first.
    pub fn entity_keys(&self) -> Vec<f64> {
        let entity = if self.entity_is_time { &self.time_snapshots } else { &self.entity_snapshots };
        entity.iter().map(|e| e.remote_time).collect()
    }

    /// `NetworkClient.bufferTime`.
    pub fn buffer_time(&self) -> f64 {
        self.send_interval * self.buffer_time_multiplier
    }

    pub fn local_timeline(&self) -> f64 {
        self.line.local_timeline
    }

    pub fn local_timescale(&self) -> f64 {
        self.line.local_timescale
    }

    pub fn buffer_time_multiplier(&self) -> f64 {
        self.buffer_time_multiplier
    }
}

impl Smoother for Mirror {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        let p = &self.params;
        if p.dynamic_adjustment {
            self.buffer_time_multiplier = dynamic_adjustment(
                self.send_interval,
                self.line.delivery_time_ema.standard_deviation,
                p.dynamic_adjustment_tolerance,
            );
        }
        let adjust = Adjust {
            send_interval: self.send_interval,
            buffer_time: self.buffer_time(),
            catchup_speed: p.catchup_speed,
            slowdown_speed: p.slowdown_speed,
            catchup_negative_threshold: p.catchup_negative_threshold,
            catchup_positive_threshold: p.catchup_positive_threshold,
        };
        let entry = Entry { remote_time: snapshot.server_time, local_time: arrival, pos: snapshot.pos };
        insert_and_adjust(&mut self.time_snapshots, p.buffer_limit, entry, &mut self.line, adjust);
        if snapshot.teleport {
            self.entity_snapshots.clear();
            self.entity_is_time = false;
        }
        if let Some(transform) = &self.transform {
            // OnServerToClientSync: the batch's timestamp against the newest key, then AddSnapshot at
            // `timestamp + timeStampAdjustment + offset`.
            let timestamp = snapshot.server_time;
            if let (Some(check), Some(newest)) = (transform.reset_after, self.entity_snapshots.last()) {
                if newest.remote_time + check < timestamp {
                    self.entity_snapshots.clear();
                }
            }
            let keyed = Entry { remote_time: timestamp + transform.key_offset, ..entry };
            insert_if_not_exists(&mut self.entity_snapshots, p.buffer_limit, keyed);
        } else if !self.entity_is_time {
            insert_if_not_exists(&mut self.entity_snapshots, p.buffer_limit, entry);
        }
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        if self.time_snapshots.is_empty() {
            return Shown::NOTHING;
        }
        step_time(dt, &mut self.line.local_timeline, self.line.local_timescale);
        let timeline = self.line.local_timeline;
        let on_time = step_interpolation(&mut self.time_snapshots, timeline);
        if let Some(transform) = &mut self.transform {
            // UpdateClientInterpolation: nothing buffered, nothing applied (the entity keeps what it had).
            if self.entity_snapshots.is_empty() {
                let render = timeline - transform.key_offset;
                return transform.last_applied.map_or(Shown::NOTHING, |pos| Shown::at(pos, render, ShownMode::Held));
            }
            let (from, to, t) = step_interpolation(&mut self.entity_snapshots, timeline);
            let entity = &self.entity_snapshots;
            let (oldest, newest) = (entity[0].remote_time, entity.last().map_or(0.0, |e| e.remote_time));
            let pos = from.pos.lerp(to.pos, t);
            transform.last_applied = Some(pos);
            // Keys are send times plus the offset: what is shown was sent at the timeline minus it.
            return Shown::at(pos, timeline - transform.key_offset, mode_at(timeline, oldest, newest));
        }
        let (entity, (from, to, t)) = if self.entity_is_time {
            (&self.time_snapshots, on_time)
        } else if self.entity_snapshots.is_empty() {
            return Shown::NOTHING;
        } else {
            let pair = step_interpolation(&mut self.entity_snapshots, timeline);
            (&self.entity_snapshots, pair)
        };
        let (oldest, newest) = (entity[0].remote_time, entity.last().map_or(0.0, |e| e.remote_time));
        Shown::at(from.pos.lerp(to.pos, t), timeline, mode_at(timeline, oldest, newest))
    }
}

/// Past the newest key the entity holds it; before the oldest it waits at it; between two it interpolates.
fn mode_at(timeline: f64, oldest: f64, newest: f64) -> ShownMode {
    if timeline > newest {
        ShownMode::Held
    } else if timeline < oldest {
        ShownMode::Waiting
    } else {
        ShownMode::Interpolated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A jittery stream: late, reordered and duplicated packets, bursts that overflow a small `bufferLimit`, and
    /// (when `teleports`) a teleport now and then; frames of uneven length between them.
    fn drive(mirror: &mut Mirror, teleports: bool) -> Vec<(Option<[u64; 2]>, u64, ShownMode)> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut now, mut shown) = (0.0, Vec::new());
        let mut pending: Vec<(f64, Snapshot)> = Vec::new();
        for tick in 0..3000u64 {
            let server = tick as f64 / 20.0;
            let mut s = Snapshot::moving(tick, server, Vec2::new(server * 7.0, (server * 3.0).sin()), Vec2::ZERO);
            s.teleport = teleports && tick % 701 == 350;
            let late = if tick % 211 < 12 { 0.6 } else { uniform() * 0.12 };
            pending.push((server + 0.05 + late, s));
            if tick % 13 == 0 {
                pending.push((server + 0.09 + uniform() * 0.1, s));
            }
            pending.sort_by(|a, b| a.0.total_cmp(&b.0));
            while now < server {
                let dt = 1.0 / 60.0 + (uniform() - 0.5) * 0.004;
                now += dt;
                while pending.first().is_some_and(|(at, _)| *at <= now) {
                    let (at, s) = pending.remove(0);
                    mirror.on_snapshot(&s, at);
                }
                let f = mirror.frame(now, dt);
                shown.push((f.position.map(|p| [p.x.to_bits(), p.y.to_bits()]), f.render_time.to_bits(), f.mode));
            }
        }
        shown
    }

    /// While no teleport came, the entity's buffer is the time buffer (`entity_is_time`): every frame must be, bit
    /// for bit, what the two buffers kept apart give — with and without teleports, with a `bufferLimit` that
    /// refuses inserts. A buffer not kept once they part (or one insert or step skipped while they are one) turns
    /// it red.
    #[test]
    fn one_buffer_for_both_shows_what_two_show() {
        for (limit, teleports) in [(32, false), (32, true), (4, false), (4, true)] {
            let params = MirrorParams { buffer_limit: limit, ..MirrorParams::default() };
            let mut shared = Mirror::new(params.clone(), 0.05);
            let mut apart = Mirror { entity_is_time: false, ..Mirror::new(params, 0.05) };
            let (a, b) = (drive(&mut shared, teleports), drive(&mut apart, teleports));
            assert_eq!(a.len(), b.len());
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                assert_eq!(x, y, "frame {i}, limit {limit}, teleports {teleports}");
            }
            assert_eq!(shared.entity_is_time, !teleports);
            let held = a.iter().filter(|f| f.2 == ShownMode::Held).count();
            assert!(held > 10 && held < a.len() / 2, "held {held} of {}", a.len());
        }
    }
}
