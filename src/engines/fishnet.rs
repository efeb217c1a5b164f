//! Fish-Networking (Unity, 4.7.x): `NetworkTransform` as shipped — a queue of goal data that starts moving once
//! `interpolation` (2) goals are buffered, and moves towards each goal at the rate its packet implies (distance
//! over the ticks between the two packets), one frame's `deltaTime` at a time; no clock, no render time, no
//! extrapolation.
//!
//! ```text
//!  per packet (ObserversUpdateClientAuthoritativeTransform → DataReceived; older or equal ticks are dropped)
//!    tickDifference = tick − last tick (the first: the send interval in ticks), at least 1   (GetTickDifference)
//!    timePassed = (float)(TickDelta × tickDifference)
//!    rate = |position − last position| / timePassed;  below 0.0001 or a teleport: −1 (snap)  (SetCalculatedRates)
//!    the goal's timeRemaining = timePassed
//!    no goal moving and the queue holds ≥ interpolation → the oldest goes current, this one queued
//!    otherwise queued;  more than interpolation + 3 queued → drop to interpolation, the next goes current, snap
//!  per frame (TimeManager.OnUpdate → MoveToTarget(Time.deltaTime))
//!    multiplier = 1.05 if the queue holds more than interpolation + 1, else 1
//!    position = MoveTowards(position, goal, rate × delta × multiplier)     (rate −1: position = goal)
//!    timeRemaining = max(timeRemaining − delta × multiplier, −delta)
//!    timeRemaining ≤ 0:  a queued goal → it goes current and moves on for the time left over
//!                        none → keep moving to the goal; once there the goal is dropped, and the next moves
//!                               only when the queue holds `interpolation` again
//! ```
//! So the delay is about `interpolation` send intervals plus the packets' latency, and it is not steered: a late
//! burst makes the queue longer (5 % faster while it is more than `interpolation + 1`), a burst of more than
//! `interpolation + 3` drops the oldest and snaps. What is shown past the newest goal is that goal, held.
//!
//! Source: FirstGearGames/FishNet at tag 4.7.2, `Assets/FishNet/Runtime/Generated/Component/NetworkTransform/
//! NetworkTransform.cs` (`_interpolation = 2`, `[Range(1, MAX_INTERPOLATION)]`; `_extrapolation = 2` marked
//! "Not in use" — `SetExtrapolatedData` always sets `ExtrapolateState.Disabled`; `_enableTeleport` false,
//! `_teleportThreshold` 1; `MoveToTarget`, `DataReceived`, `SetCalculatedRates`, `GetTickDifference`,
//! `SetInstantRates`, `HasChanged`, `ObserversUpdateClientAuthoritativeTransform`'s tick check),
//! `Managing/Timing/TimeManager.cs` (`_tickRate = 30`, `TicksToTime`). Adaptive interpolation
//! (`Component/TickSmoothing/AdaptiveInterpolationType.cs`) belongs to the tick smoothers
//! (`TransformTickSmoother`, `MovementSettings`), not to `NetworkTransform`; it is not modelled. A fresh goal's
//! `RateData` is reset (`LastUnalteredPositionRate = 0`), so the abnormal-rate correction in
//! `SetCalculatedRates` never applies.
//!
//! Simplified: every packet is unreliable (the server's "settled" reliable packet after movement stops is not
//! modelled; a snapshot whose position did not change keeps rate 0, as FishNet computes it). A snapshot's tick is
//! its server time over the stream's tick interval (FishNet's default tick rate is 30 Hz; the stream's is used).
//! Positions are `f32` as in Unity; only x and y. The entity appears at its first snapshot's position (spawn).

use super::{Shown, ShownMode, Smoother};
use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Goals queued at most before the oldest are dropped regardless (bounded memory; FishNet drops beyond
/// `interpolation + 3`, at most 253).
const QUEUE_LIMIT: usize = 1024;

/// `NetworkTransform`'s settings, under FishNet's names (without the underscore) and with its defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct FishnetParams {
    /// "How many ticks to interpolate" (`_interpolation = 2`): goals buffered before moving; in practice
    /// packets, so send intervals.
    #[param(range(1.0, 250.0), unit = "ticks", control(1.0, 10.0, 1.0, "", 1.0))]
    pub interpolation: u32,
    /// "True to enable teleport threshhold" (`_enableTeleport`, off).
    pub enable_teleport: bool,
    /// A move at least this long between two packets snaps (`_teleportThreshold = 1`).
    #[param(range(0.0, 1e6), unit = "u", control(0.0, 50.0, 0.5, "u", 1.0))]
    pub teleport_threshold: f64,
}

impl Default for FishnetParams {
    fn default() -> Self {
        FishnetParams { interpolation: 2, enable_teleport: false, teleport_threshold: 1.0 }
    }
}

impl FishnetParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// A position as Unity holds it.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct V {
    pub x: f32,
    pub y: f32,
}

impl V {
    fn of(p: Vec2) -> V {
        V { x: p.x as f32, y: p.y as f32 }
    }

    fn vec2(self) -> Vec2 {
        Vec2::new(f64::from(self.x), f64::from(self.y))
    }

    fn distance(self, o: V) -> f32 {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        (dx * dx + dy * dy).sqrt()
    }

    /// Unity's `Vector3 ==`: the squared distance below 1e-10.
    fn approx_eq(self, o: V) -> bool {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        dx * dx + dy * dy < 9.999_999_4e-11
    }

    /// `Vector3.MoveTowards`.
    pub fn move_towards(self, target: V, max_delta: f32) -> V {
        let (dx, dy) = (target.x - self.x, target.y - self.y);
        let sq = dx * dx + dy * dy;
        if sq == 0.0 || (max_delta >= 0.0 && sq <= max_delta * max_delta) {
            return target;
        }
        let dist = sq.sqrt();
        V { x: self.x + dx / dist * max_delta, y: self.y + dy / dist * max_delta }
    }
}

/// A `GoalData`: the transform it moves to and the `RateData` it moves at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    pub tick: u64,
    pub position: V,
    /// Units per second; −1 snaps.
    pub rate: f32,
    pub time_remaining: f32,
}

/// One FishNet client's view of one server-authoritative `NetworkTransform`.
#[derive(Clone, Debug)]
pub struct Fishnet {
    params: FishnetParams,
    /// `TimeManager.TickDelta` (seconds).
    tick_delta: f64,
    /// The send interval in ticks (`_interval`, used for the first packet's tick difference).
    interval_ticks: u64,
    /// `_lastReceivedServerTransformData`: tick and position.
    last_received: Option<(u64, V)>,
    queue: VecDeque<Goal>,
    current: Option<Goal>,
    /// The transform's position (`None` before the spawn).
    position: Option<V>,
    /// The server time of the current goal (for the render time).
    goal_time: f64,
}

impl Fishnet {
    pub fn new(params: FishnetParams, send_interval: f64, tick_interval: f64) -> Self {
        let interval_ticks = (send_interval / tick_interval).round().clamp(1.0, 255.0) as u64;
        Fishnet {
            params,
            tick_delta: tick_interval,
            interval_ticks,
            last_received: None,
            queue: VecDeque::new(),
            current: None,
            position: None,
            goal_time: f64::NAN,
        }
    }

    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    pub fn current(&self) -> Option<Goal> {
        self.current
    }

    pub fn position(&self) -> Option<Vec2> {
        self.position.map(V::vec2)
    }

    /// `DataReceived` for an unreliable packet of server tick `tick` holding `pos`.
    pub fn data_received(&mut self, tick: u64, pos: Vec2, teleport: bool) {
        let next = V::of(pos);
        if self.last_received.is_some_and(|(last, _)| tick <= last) {
            return;
        }
        // No data yet (tick 0): one send interval has passed, from where the entity spawned (here).
        let (tick_difference, last_pos) = match self.last_received {
            Some((last, pos)) => ((tick - last).max(1), pos),
            None => (self.interval_ticks, next),
        };
        let time_passed = (self.tick_delta * tick_difference as f64) as f32;
        let distance = last_pos.distance(next);
        let rate = if teleport || (self.params.enable_teleport && f64::from(distance) >= self.params.teleport_threshold)
        {
            -1.0
        } else if last_pos == next {
            // Position not in `ChangedFull`: the rate stays as a fresh `RateData` has it.
            0.0
        } else if distance < 0.0001 {
            -1.0
        } else {
            let r = distance / time_passed;
            if r <= 0.0 {
                -1.0
            } else {
                r
            }
        };
        // `SetInstantRates` and `SetCalculatedRates` both give the goal `timePassed` to play out.
        let goal = Goal { tick, position: next, rate, time_remaining: time_passed };
        self.last_received = Some((tick, next));
        if self.position.is_none() {
            self.position = Some(next);
        }
        let interpolation = self.params.interpolation as usize;
        if self.current.is_none() && self.queue.len() >= interpolation {
            match self.queue.pop_front() {
                Some(oldest) => {
                    self.set_current(oldest);
                    self.queue.push_back(goal);
                }
                None => self.set_current(goal),
            }
        } else {
            self.queue.push_back(goal);
        }
        if self.queue.len() > (interpolation + 3).min(QUEUE_LIMIT) {
            while self.queue.len() > interpolation.min(QUEUE_LIMIT - 1) {
                self.queue.pop_front();
            }
            if let Some(mut g) = self.queue.pop_front() {
                g.rate = -1.0;
                g.time_remaining = -1.0;
                self.position = Some(g.position);
                self.set_current(g);
            }
        }
    }

    fn set_current(&mut self, goal: Goal) {
        self.goal_time = goal.tick as f64 * self.tick_delta;
        self.current = Some(goal);
    }

    /// `MoveToTarget(delta)`, with its recursion into the next goal as a loop.
    pub fn move_to_target(&mut self, delta: f32) {
        let mut delta = delta;
        // Each pass that continues takes a goal from the queue, so this ends; the bound is a guard only.
        for _ in 0..=QUEUE_LIMIT {
            let (Some(mut goal), Some(mut position)) = (self.current, self.position) else { return };
            let queue_count = self.queue.len();
            let multiplier = if queue_count > self.params.interpolation as usize + 1 { 1.05f32 } else { 1.0 };
            position = if goal.rate == -1.0 {
                goal.position
            } else {
                position.move_towards(goal.position, goal.rate * delta * multiplier)
            };
            self.position = Some(position);
            goal.time_remaining = (goal.time_remaining - delta * multiplier).max(-delta);
            self.current = Some(goal);
            if goal.time_remaining > 0.0 {
                return;
            }
            let left_over = goal.time_remaining.abs();
            match self.queue.pop_front() {
                Some(next) => {
                    self.set_current(next);
                    if left_over <= 0.0 {
                        return;
                    }
                    delta = left_over;
                }
                None => {
                    if goal.position.approx_eq(position) {
                        self.current = None;
                    }
                    return;
                }
            }
        }
    }
}

impl Smoother for Fishnet {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        let tick = (snapshot.server_time / self.tick_delta).round();
        if !(snapshot.pos.x.is_finite() && snapshot.pos.y.is_finite() && (0.0..1e15).contains(&tick)) {
            return;
        }
        self.data_received(tick as u64, snapshot.pos, snapshot.teleport);
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        let dt = if dt.is_finite() && dt > 0.0 { dt as f32 } else { 0.0 };
        self.move_to_target(dt);
        let Some(position) = self.position else { return Shown::NOTHING };
        match self.current {
            Some(goal) if goal.time_remaining > 0.0 => {
                let render = self.goal_time - f64::from(goal.time_remaining);
                Shown::at(position.vec2(), render, ShownMode::Interpolated)
            }
            Some(_) => Shown::at(position.vec2(), self.goal_time, ShownMode::Held),
            // Before the first goal moves, or after the last was reached: standing at the spawn or the goal.
            None if self.goal_time.is_nan() => Shown::at(position.vec2(), f64::NAN, ShownMode::Waiting),
            None => Shown::at(position.vec2(), self.goal_time, ShownMode::Held),
        }
    }
}
