//! lightyear (Bevy, 0.29.0): interpolated entities sampled at an application-wide interpolation timeline that
//! trails the *estimated server time* (not the newest snapshot) by `max(send_interval × send_interval_ratio,
//! min_delay)` plus a jitter margin, kept there by a speed controller; past the newest state it holds it.
//!
//! ```text
//!  per ping (PingManager → RttEstimatorEwma)
//!    srtt = 11/12·srtt + 1/12·sample,  dev = 5/6·dev + 1/6·|sample − srtt_prev|   (first: srtt = s, dev = s/2)
//!    a sample above max(min(srtt + 3·dev, 3·srtt, srtt + 0.5 s), 1.2·srtt) is clamped to it (from the 3rd)
//!    rtt = srtt,  jitter = dev / 2
//!  per packet (RemoteTimeline::update; nothing before 3 pings, `handshake_pings`)
//!    tick ≥ the last one:  raw = tick + rtt/2 − remote.now      offset = raw (first) or EMA(offset, raw, α)
//!                          α = 0.10 − 0.08 · clamp((jitter_ms − 1) / 9, 0, 1)    estimate = remote.now + offset
//!  per frame
//!    PreUpdate   remote.now += dt;  interpolation.now += dt × relative_speed                 (ticks: dt / tick)
//!                the packets since the last frame: the remote estimate (above), the history (sorted by tick)
//!    Update      drain: while ≥ 3 entries and the 2nd's tick ≤ now.tick, drop the oldest
//!                sample: start = the last entry with tick ≤ now.tick (none → nothing shown)
//!                        no entry after it → start as it is (held: never extrapolates)
//!                        t = clamp((now.tick − start + overstep) / (end − start), 0, 1); lerp(start, end, t)
//!    PostUpdate  if a packet came this frame (and 3 pings):
//!                  objective = estimate − ticks(max(send_interval.mul_f32(ratio), min_delay))
//!                                       − ticks(4 · jitter + 1 tick)                    (SyncConfig::jitter_margin)
//!                  first: now = objective;  then error = now − objective (ticks):
//!                    |error| > 10           → now = objective                                 (max_error_margin)
//!                    |error| > 1, 3 in a row of one sign → speed = 1 ± 0.05 · 2 · |error| / 10 (slower if ahead)
//!                    otherwise              → speed += (1 − speed) · 0.1                       (back towards 1)
//! ```
//! With the library's own defaults the server's `ReplicationMetadata` interval is zero (it replicates every
//! tick), so `min_delay` (5 ms) governs; a server that sends every `send_interval` tells the client so
//! (`SenderMetadata`), and then `send_interval × 1.7` governs — 85 ms at 20 Hz. The stream's send interval is
//! what its server advertises here.
//!
//! Source: cBournhonesque/lightyear at tag 0.29.0 — `crates/replication/interpolation/src/timeline.rs`
//! (`InterpolationConfig` and its defaults, `to_duration`, `sync_objective`, `resync`,
//! `TimelinePlugin::advance_timeline`, `receive_sender_metadata`), `interpolate.rs` (`drain_old_history`,
//! `update_history_inner`), `registry.rs` (`sample_history_with_interpolation`: "Clamp rather than extrapolate
//! beyond the newest confirmed value"), `rules.rs` (`InterpolationSampleContext::from_ticks`),
//! `crates/core/sync/src/timeline/sync.rs` (`TimelineSync::sync`, `SyncConfig` defaults, `jitter_margin`,
//! `SyncContext::speed_adjustment`), `timeline/remote.rs` (`RemoteTimeline::update`, `ema_alpha`,
//! `current_estimate`), `ping/estimator.rs` (`RttEstimatorEwma`), `crates/core/core/src/time.rs` (ticks from
//! durations through `f32`, the overstep a 16-bit fraction), `crates/replication/replication/src/metadata.rs`
//! (`ReplicationMetadata::default`: a zero interval). The upstream tests reproduced below:
//! `interpolate.rs` (`update_confirmed_history_keeps_bracketing_pair_during_loss_gap`,
//! `…_waits_to_insert_component_until_start_tick`, `…_inserts_and_interpolates_when_start_tick_is_reached`,
//! `…_advances_to_latest_empty_mutate_tick_when_idle`) and `crates/tests/src/timeline/sync_tests.rs`
//! (`interpolation_timeline_objective_lags_remote_by_delay_margin`).
//!
//! Simplified: tick instants are `f64` ticks (lightyear keeps 32.32 fixed point; the conversions from durations
//! go through `f32` as upstream); positions are `f64` (Bevy's `f32`), `t` is computed in `f32`. A frame reads its
//! packets after the timelines advance (upstream leaves the order of `TimelineSystems::Advance` and the
//! transport's receive in `PreUpdate` unconstrained), so a packet read in the frame it arrives estimates the
//! server's time at that frame. A snapshot's tick is its server time over the stream's tick duration
//! (the server's tick; lightyear's default `TickDuration` is 1/60 s, the stream's here). Ping samples are the
//! run's RTT samples (one per pong): a log without any (a trace that recorded none) never completes the
//! handshake, and the unsynced timeline (from tick 0 at the frames' pace) shows nothing of a server far from
//! tick 0. Only the x, y of one entity are modelled; the history keeps at most [`HISTORY_LIMIT`] entries (the
//! upstream one is drained by the timeline only).

use super::{Shown, ShownMode, Smoother};
use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `SyncConfig::handshake_pings` (and `RemoteEstimate::handshake_pings`): pings before anything is synced.
pub const HANDSHAKE_PINGS: u32 = 3;
/// `SyncConfig::jitter_multiple`.
pub const JITTER_MULTIPLE: f64 = 4.0;
/// `SyncConfig::jitter_margin`, ticks.
pub const JITTER_MARGIN_TICKS: f32 = 1.0;
/// `SyncConfig::error_margin`, ticks.
pub const ERROR_MARGIN: f32 = 1.0;
/// `SyncConfig::max_error_margin`, ticks: beyond it the timeline snaps.
pub const MAX_ERROR_MARGIN: f32 = 10.0;
/// `SyncConfig::consecutive_errors_threshold`.
pub const CONSECUTIVE_ERRORS_THRESHOLD: u8 = 3;
/// `SyncConfig::speedup_factor`.
pub const SPEEDUP_FACTOR: f32 = 1.05;
/// Entries the modelled history keeps at most (bounded memory while the timeline is not yet synced).
pub const HISTORY_LIMIT: usize = 4096;

/// `InterpolationConfig`, under lightyear's names and with its defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, deny_unknown_fields)]
pub struct LightyearParams {
    /// The delay is at least this (`Duration::from_millis(5)`), seconds.
    #[param(range(0.0, 2.0), unit = "s", control(0.0, 300.0, 5.0, "ms", 1000.0))]
    pub min_delay: f64,
    /// The delay is this many server send intervals (`1.7`, an `f32`).
    #[param(range(0.0, 20.0), control(0.0, 6.0, 0.1, "×", 1.0))]
    pub send_interval_ratio: f64,
}

impl Default for LightyearParams {
    fn default() -> Self {
        LightyearParams { min_delay: 0.005, send_interval_ratio: 1.7 }
    }
}

impl LightyearParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// `InterpolationConfig::to_duration`: how far behind the estimated server time the timeline aims, seconds.
    pub fn to_duration(&self, server_send_interval: f64) -> f64 {
        mul_f32(server_send_interval, self.send_interval_ratio as f32).max(self.min_delay)
    }
}

/// `Duration::mul_f32`: the product taken in `f32`.
fn mul_f32(seconds: f64, factor: f32) -> f64 {
    f64::from(seconds as f32 * factor)
}

/// `TickDelta::from_duration`: `duration.as_secs_f32() / tick_duration.as_secs_f32()`.
pub fn ticks(duration: f64, tick_duration: f64) -> f64 {
    f64::from(duration as f32 / tick_duration as f32)
}

/// `RttEstimatorEwma`: the smoothed RTT and jitter (half the mean absolute deviation), seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RttEstimator {
    smoothed: Option<f64>,
    deviation: f64,
    samples: u32,
    pub rtt: f64,
    pub jitter: f64,
}

impl RttEstimator {
    /// `update_with_new_sample`.
    pub fn update(&mut self, sample: f64) {
        if !(sample.is_finite() && sample >= 0.0) {
            return;
        }
        self.samples = self.samples.saturating_add(1);
        let mut sample = sample;
        if let (Some(srtt), true) = (self.smoothed, self.samples > 2) {
            let bound = (srtt + 3.0 * self.deviation).min(srtt * 3.0).min(srtt + 0.5).max(srtt * 1.2);
            sample = sample.min(bound);
        }
        let (srtt, dev) = match self.smoothed {
            Some(prev) => {
                let error = (sample - prev).abs();
                const ALPHA: f64 = 1.0 / 12.0;
                const BETA: f64 = 1.0 / 6.0;
                ((1.0 - ALPHA) * prev + ALPHA * sample, (1.0 - BETA) * self.deviation + BETA * error)
            }
            None => (sample, sample / 2.0),
        };
        self.smoothed = Some(srtt);
        self.deviation = dev;
        self.rtt = srtt;
        self.jitter = dev / 2.0;
    }

    /// `latency_samples_recv`.
    pub fn samples(&self) -> u32 {
        self.samples
    }
}

/// `RemoteTimeline`: the client's estimate of the server's tick now (ticks).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RemoteTimeline {
    pub now: f64,
    pub offset: f64,
    last_tick: Option<u64>,
    estimated: bool,
    /// A packet updated the estimate this frame (`received_packet`, cleared in `Last`).
    pub received_packet: bool,
}

impl RemoteTimeline {
    /// `current_estimate`.
    pub fn estimate(&self) -> f64 {
        self.now + self.offset
    }

    /// `ema_alpha(jitter_ms)`: 0.10 at ≤ 1 ms of jitter down to 0.02 at ≥ 10 ms.
    pub fn ema_alpha(jitter_ms: f32) -> f32 {
        let normalized = ((jitter_ms - 1.0) / (10.0 - 1.0)).clamp(0.0, 1.0);
        0.10 - normalized * (0.10 - 0.02)
    }

    /// `update` for a packet stamped `tick`.
    pub fn update(&mut self, tick: u64, ping: &RttEstimator, tick_duration: f64) {
        if ping.samples() < HANDSHAKE_PINGS || self.last_tick.is_some_and(|last| tick < last) {
            return;
        }
        self.received_packet = true;
        self.last_tick = Some(tick);
        let raw = tick as f64 + ticks(ping.rtt / 2.0, tick_duration) - self.now;
        if self.estimated {
            // `Duration::as_millis` truncates, then `as f32`.
            let alpha = f64::from(Self::ema_alpha((ping.jitter * 1000.0).floor() as f32));
            self.offset = self.offset * (1.0 - alpha) + raw * alpha;
        } else {
            self.offset = raw;
            self.estimated = true;
        }
    }
}

/// What one sync sample did (`SyncAdjustment`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Adjustment {
    Resync,
    SpeedAdjust(f32),
    DoNothing,
}

/// `InterpolationTimeline` with its `InterpolationContext` and `SyncContext`.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpolationTimeline {
    /// Ticks.
    pub now: f64,
    pub synced: bool,
    pub relative_speed: f32,
    consecutive_errors: u8,
    previous_error_sign: bool,
}

impl Default for InterpolationTimeline {
    /// As `reset` leaves it on connection.
    fn default() -> Self {
        InterpolationTimeline {
            now: 0.0,
            synced: false,
            relative_speed: 1.0,
            consecutive_errors: 0,
            previous_error_sign: true,
        }
    }
}

impl InterpolationTimeline {
    /// `sync_objective`: the estimated server tick minus the delay and the jitter margin, in ticks.
    pub fn objective(
        params: &LightyearParams,
        estimate: f64,
        send_interval: f64,
        jitter: f64,
        tick_duration: f64,
    ) -> f64 {
        let delay = ticks(params.to_duration(send_interval), tick_duration);
        let margin = ticks(JITTER_MULTIPLE * jitter + mul_f32(tick_duration, JITTER_MARGIN_TICKS), tick_duration);
        estimate - (delay + margin)
    }

    /// `SyncContext::speed_adjustment` with `TimelineSync::speed_adjustment`'s speed updates.
    pub fn speed_adjustment(&mut self, offset: f32) -> Adjustment {
        let sign = offset.is_sign_positive();
        let previous = self.previous_error_sign;
        self.previous_error_sign = sign;
        let adjustment = if offset.abs() > MAX_ERROR_MARGIN {
            self.consecutive_errors = 0;
            Adjustment::Resync
        } else if offset.abs() > ERROR_MARGIN {
            self.consecutive_errors = self.consecutive_errors.saturating_add(1);
            if (sign ^ previous) || self.consecutive_errors < CONSECUTIVE_ERRORS_THRESHOLD {
                Adjustment::DoNothing
            } else {
                let ratio_of_max = (offset.abs() / MAX_ERROR_MARGIN).clamp(0.0, 1.0);
                let adjustment = 1.0 + (SPEEDUP_FACTOR - 1.0) * ratio_of_max * 2.0;
                Adjustment::SpeedAdjust(if offset > 0.0 { 1.0 / adjustment } else { adjustment })
            }
        } else {
            self.consecutive_errors = 0;
            Adjustment::DoNothing
        };
        match adjustment {
            Adjustment::SpeedAdjust(ratio) => self.relative_speed = ratio,
            Adjustment::DoNothing if (self.relative_speed - 1.0).abs() > 0.001 => {
                self.relative_speed += (1.0 - self.relative_speed) * 0.1;
            }
            _ => {}
        }
        adjustment
    }

    /// `TimelineSync::sync` towards `objective` (ticks).
    pub fn sync(&mut self, objective: f64) -> Adjustment {
        let error = (self.now - objective) as f32;
        let adjustment = if self.synced { self.speed_adjustment(error) } else { Adjustment::Resync };
        self.synced = true;
        if adjustment == Adjustment::Resync {
            self.now = objective;
        }
        adjustment
    }

    /// `advance_timeline`: a frame of `dt` seconds at the timeline's own speed.
    pub fn advance(&mut self, dt: f64, tick_duration: f64) {
        self.now += ticks(mul_f32(dt, self.relative_speed), tick_duration);
    }

    /// The tick and the overstep (`U0F16`: the fraction truncated to 16 bits) of `now`.
    pub fn tick_and_overstep(&self) -> (i64, f32) {
        let tick = self.now.floor();
        let fraction = ((self.now - tick) * 65536.0).floor() / 65536.0;
        (tick as i64, fraction as f32)
    }
}

/// `ConfirmedHistory` of the position: sorted by tick, one entry per tick.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    entries: VecDeque<(u64, Vec2)>,
}

/// What sampling the history gives (`sample_history_with_interpolation`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sample {
    /// No entry at or before the tick: the component is absent.
    Absent,
    /// Between two entries, at fraction `t`.
    Interpolated { pos: Vec2, t: f32 },
    /// At or past the newest entry: the newest as it is.
    Newest(Vec2),
}

impl History {
    pub fn from_entries(entries: &[(u64, Vec2)]) -> Self {
        let mut h = History::default();
        entries.iter().for_each(|&(tick, pos)| h.insert(tick, pos));
        h
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> impl Iterator<Item = &(u64, Vec2)> {
        self.entries.iter()
    }

    /// `insert_present`: in tick order; a second value for a tick replaces the first.
    pub fn insert(&mut self, tick: u64, pos: Vec2) {
        let at = self.entries.partition_point(|e| e.0 < tick);
        match self.entries.get_mut(at) {
            Some(e) if e.0 == tick => e.1 = pos,
            _ => self.entries.insert(at, (tick, pos)),
        }
        if self.entries.len() > HISTORY_LIMIT {
            self.entries.pop_front();
        }
    }

    /// `drain_old_history`: drop the oldest while 3 or more are kept and the second is at or before `tick`.
    pub fn drain(&mut self, tick: i64) {
        while self.entries.len() >= 3 && self.entries.get(1).is_some_and(|e| (e.0 as i64) <= tick) {
            self.entries.pop_front();
        }
    }

    /// `sample_history_with_interpolation` at `tick` + `overstep` with a linear interpolation.
    pub fn sample(&self, tick: i64, overstep: f32) -> Sample {
        let after = self.entries.partition_point(|e| (e.0 as i64) <= tick);
        let Some(&(start_tick, start)) = after.checked_sub(1).and_then(|i| self.entries.get(i)) else {
            return Sample::Absent;
        };
        let Some(&(end_tick, end)) = self.entries.get(after) else {
            return Sample::Newest(start);
        };
        let delta = end_tick as i64 - start_tick as i64;
        let t = (((tick - start_tick as i64) as f32 + overstep) / delta as f32).clamp(0.0, 1.0);
        Sample::Interpolated { pos: start.lerp(end, f64::from(t)), t }
    }
}

/// One lightyear client with one interpolated entity.
#[derive(Clone, Debug)]
pub struct Lightyear {
    params: LightyearParams,
    /// The server's advertised send interval (`SenderMetadata`), seconds.
    send_interval: f64,
    /// `TickDuration`, seconds.
    tick_duration: f64,
    ping: RttEstimator,
    remote: RemoteTimeline,
    timeline: InterpolationTimeline,
    history: History,
    /// Packets received since the last frame (tick, position).
    pending: Vec<(u64, Vec2)>,
}

impl Lightyear {
    pub fn new(params: LightyearParams, send_interval: f64, tick_duration: f64) -> Self {
        // The advertised interval goes through whole and fractional ticks (`TickDelta`) and back.
        let send_interval = mul_f32(tick_duration, ticks(send_interval, tick_duration) as f32);
        Lightyear {
            params,
            send_interval,
            tick_duration,
            ping: RttEstimator::default(),
            remote: RemoteTimeline::default(),
            timeline: InterpolationTimeline::default(),
            history: History::default(),
            pending: Vec::new(),
        }
    }

    pub fn timeline(&self) -> &InterpolationTimeline {
        &self.timeline
    }

    pub fn remote(&self) -> &RemoteTimeline {
        &self.remote
    }

    pub fn ping(&self) -> &RttEstimator {
        &self.ping
    }

    pub fn history(&self) -> &History {
        &self.history
    }
}

impl Smoother for Lightyear {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        if !(snapshot.pos.x.is_finite() && snapshot.pos.y.is_finite() && snapshot.server_time.is_finite()) {
            return;
        }
        // The server stamps its packets and its history with its tick: server time over the tick duration.
        let tick = (snapshot.server_time / self.tick_duration).round();
        if !(0.0..1e15).contains(&tick) {
            return;
        }
        // Read by the next frame, after the timelines advanced.
        if self.pending.len() < HISTORY_LIMIT {
            self.pending.push((tick as u64, snapshot.pos));
        }
    }

    fn on_rtt(&mut self, _now: f64, rtt: f64) {
        self.ping.update(rtt);
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        let dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
        // PreUpdate: both timelines advance.
        self.remote.now += ticks(dt, self.tick_duration);
        self.timeline.advance(dt, self.tick_duration);
        // The packets that came since the last frame: the remote estimate and the history.
        for (tick, pos) in self.pending.drain(..) {
            self.remote.update(tick, &self.ping, self.tick_duration);
            self.history.insert(tick, pos);
        }
        // Update: the history is drained and sampled at the timeline.
        let (tick, overstep) = self.timeline.tick_and_overstep();
        self.history.drain(tick);
        let render_time = self.timeline.now * self.tick_duration;
        let shown = match self.history.sample(tick, overstep) {
            Sample::Absent => Shown::NOTHING,
            Sample::Interpolated { pos, .. } => Shown::at(pos, render_time, ShownMode::Interpolated),
            Sample::Newest(pos) => Shown::at(pos, render_time, ShownMode::Held),
        };
        // PostUpdate: a frame that brought a packet syncs the timeline; `Last` clears the flag.
        if self.remote.received_packet && self.ping.samples() >= HANDSHAKE_PINGS {
            let objective = InterpolationTimeline::objective(
                &self.params,
                self.remote.estimate(),
                self.send_interval,
                self.ping.jitter,
                self.tick_duration,
            );
            self.timeline.sync(objective);
        }
        self.remote.received_packet = false;
        shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x(v: f64) -> Vec2 {
        Vec2::new(v, 0.0)
    }

    /// `interpolate.rs` `update_confirmed_history_keeps_bracketing_pair_during_loss_gap`: ticks 10, 20, 30 hold
    /// 0, 10, 20; at tick 25 the oldest goes (the second, 20, is passed), [20, 30] stays and the value is 15.
    /// Draining down to one entry, or not at all and sampling the wrong pair, turns it red.
    #[test]
    fn upstream_keeps_the_bracketing_pair_during_a_loss_gap() {
        let mut h = History::from_entries(&[(10, x(0.0)), (20, x(10.0)), (30, x(20.0))]);
        h.drain(25);
        assert_eq!(h.entries().copied().collect::<Vec<_>>(), [(20, x(10.0)), (30, x(20.0))]);
        assert_eq!(h.sample(25, 0.0), Sample::Interpolated { pos: x(15.0), t: 0.5 });
    }

    /// `…_waits_to_insert_component_until_start_tick` (tick 9: absent) and
    /// `…_inserts_and_interpolates_when_start_tick_is_reached` (tick 15: 5.0), history {10: 0, 20: 10}.
    #[test]
    fn upstream_absent_before_the_oldest_and_halfway_at_tick_15() {
        let h = History::from_entries(&[(10, x(0.0)), (20, x(10.0))]);
        assert_eq!(h.sample(9, 0.0), Sample::Absent);
        assert_eq!(h.sample(15, 0.0), Sample::Interpolated { pos: x(5.0), t: 0.5 });
        // The overstep counts: tick 15 and three quarters is 5.75 of 10 ticks' way.
        let Sample::Interpolated { pos, t } = h.sample(15, 0.75) else { panic!("not between two entries") };
        assert!((pos.x - 5.75).abs() < 1e-6 && (t - 0.575).abs() < 1e-6, "{pos:?} {t}");
    }

    /// `…_advances_to_latest_empty_mutate_tick_when_idle`: at tick 30, past the newest (20: 10), the value is the
    /// newest — clamped, not extrapolated to 20.
    #[test]
    fn upstream_past_the_newest_it_holds_the_newest() {
        let mut h = History::from_entries(&[(10, x(0.0)), (20, x(10.0))]);
        h.drain(30);
        assert_eq!(h.len(), 2, "two entries are never drained");
        assert_eq!(h.sample(30, 0.5), Sample::Newest(x(10.0)));
    }

    /// `sync_tests.rs` `interpolation_timeline_objective_lags_remote_by_delay_margin`: remote at tick 100, no
    /// jitter, min_delay 20 ms, ratio 0, 10 ms ticks → 100 − (2 + 1 tick of margin) = 97.
    #[test]
    fn upstream_objective_lags_remote_by_delay_and_margin() {
        let p = LightyearParams { min_delay: 0.020, send_interval_ratio: 0.0 };
        let o = InterpolationTimeline::objective(&p, 100.0, 0.0, 0.0, 0.010);
        assert!((o - 97.0).abs() < 1e-3, "{o}");
    }

    /// The defaults: 1.7 send intervals governs at 20 Hz (85 ms > 5 ms), 5 ms with the library's own zero
    /// interval. A jitter of 10 ms adds 4 × 10 ms; a 60 Hz tick adds one tick. At 20 Hz, 60 Hz ticks, 10 ms of
    /// jitter: 85 ms = 5.1 ticks, margin 40 ms + 1 tick = 3.4 ticks → 8.5 ticks behind the estimate.
    #[test]
    fn the_default_delay_and_the_margin() {
        let p = LightyearParams::default();
        assert!((p.to_duration(0.05) - 0.085).abs() < 1e-6);
        assert!((p.to_duration(0.0) - 0.005).abs() < 1e-9);
        let o = InterpolationTimeline::objective(&p, 100.0, 0.05, 0.010, 1.0 / 60.0);
        assert!((o - 91.5).abs() < 1e-4, "{o}");
    }

    /// The speed controller: an error inside 1 tick does nothing; beyond it, the third one of a sign in a row
    /// changes the speed by 2 × 5 % × |error| / 10 (slower when ahead: 3 ticks ahead → 1 / 1.03); a sign flip
    /// resets the run; beyond 10 ticks it resyncs. Back inside, the speed returns a tenth of the way to 1.
    #[test]
    fn the_speed_controller() {
        let mut t = InterpolationTimeline { synced: true, ..Default::default() };
        assert_eq!(t.speed_adjustment(0.5), Adjustment::DoNothing);
        assert_eq!(t.speed_adjustment(3.0), Adjustment::DoNothing);
        assert_eq!(t.speed_adjustment(3.0), Adjustment::DoNothing);
        let close = |a: Adjustment, want: f32| matches!(a, Adjustment::SpeedAdjust(r) if (r - want).abs() < 1e-6);
        assert!(close(t.speed_adjustment(3.0), 1.0 / 1.03));
        assert!((t.relative_speed - 1.0 / 1.03).abs() < 1e-6);
        // Behind by 5 ticks: the sign flipped, so nothing yet (and the speed recovers a tenth).
        assert_eq!(t.speed_adjustment(-5.0), Adjustment::DoNothing);
        let recovered = 1.0 / 1.03 + (1.0 - 1.0 / 1.03) * 0.1;
        assert!((t.relative_speed - recovered).abs() < 1e-6);
        assert!(close(t.speed_adjustment(-5.0), 1.05));
        assert_eq!(t.speed_adjustment(-10.5), Adjustment::Resync);
        let mut fresh = InterpolationTimeline::default();
        assert_eq!(fresh.sync(42.0), Adjustment::Resync, "the first sync snaps");
        assert_eq!(fresh.now, 42.0);
    }

    /// The RTT estimator on 100, 100, 400 ms: srtt 100, dev 50 → 100 − 1/12·0 … the third sample is clamped to
    /// max(min(100 + 3·41.67, 300, 600), 120) = 225 ms: srtt = 100 + 125/12 = 110.42 ms, dev = 41.67·5/6 +
    /// 125/6 = 55.56 ms, jitter 27.78 ms.
    #[test]
    fn the_rtt_estimator_clamps_an_outlier() {
        let mut e = RttEstimator::default();
        e.update(0.100);
        assert_eq!((e.rtt, e.jitter), (0.100, 0.025));
        e.update(0.100);
        let dev2 = 0.05 * 5.0 / 6.0;
        assert!((e.jitter - dev2 / 2.0).abs() < 1e-12);
        e.update(0.400);
        let clamped = 0.100 + 3.0 * dev2;
        assert!((clamped - 0.225).abs() < 1e-12);
        assert!((e.rtt - (0.100 + 0.125 / 12.0)).abs() < 1e-12, "{}", e.rtt);
        assert!((e.jitter - (dev2 * 5.0 / 6.0 + 0.125 / 6.0) / 2.0).abs() < 1e-12);
    }

    /// The remote estimate: alpha is 0.10 at ≤ 1 ms of jitter, 0.02 at ≥ 10 ms, 0.06 at 5.5 ms.
    #[test]
    fn the_remote_estimate_alpha() {
        assert_eq!(RemoteTimeline::ema_alpha(0.0), 0.10);
        assert!((RemoteTimeline::ema_alpha(25.0) - 0.02).abs() < 1e-7);
        assert!((RemoteTimeline::ema_alpha(5.5) - 0.06).abs() < 1e-7);
    }
}
