//! NetEQ, WebRTC's audio jitter buffer, run on a game entity's snapshots: a target delay at a quantile of each
//! packet's delay relative to the fastest packet of the last two seconds, and a playout clock that speeds up
//! (accelerate) or slows down (preemptive expand) toward it, and stands still (expand) when it has nothing to play.
//!
//! ```text
//!  per delivery (DecisionLogic::PacketArrived)
//!    PacketArrivalHistory::Insert: refused when older than 2000 ms behind the newest, or already held (Contains)
//!    relative delay d = (now − p.arrival) − (ts − p.ts), ≥ 0, p the packet of the window that arrived fastest
//!                       (min of arrival − ts; reordered packets never become p)                  (GetDelayMs)
//!    DelayManager::Update(d, reordered)
//!      UnderrunOptimizer (in-order packets): the largest d of each resample interval (500 ms) goes into a
//!        histogram of 100 buckets × 20 ms that forgets by 0.983 per sample (Histogram::Add; at start the
//!        factor is 1 − 2 / (n + 1), n samples so far: start_forget_weight 2)
//!        target = (1 + bucket at the 0.95 quantile) × 20 ms            (80 ms before the first sample)
//!      ReorderOptimizer: reordered packets' d in a second histogram (forget 0.9993); the bucket that minimises
//!        extra delay + 20 ms per percent of late packets; target = max(both)
//!      clamps: ≥ minimum delay; ≤ maximum delay (0: none); ≤ 75 % of 200 packets
//!  every 10 ms tick (DecisionLogic::GetDecision; the tick timer is NetEQ's only clock)
//!    nothing to play the next 10 ms from                                   ─► Expand (the clock stands still)
//!    after an Expand, while the buffer holds < 50 % of the target            ─► Expand        (PostponeDecode)
//!    playout delay P = GetDelayMs(the timestamp being played);  low = target;  high = target + max d + 20 ms
//!      (not right after an Expand)  P ≥ 4 × high  ─► FastAccelerate
//!      at most one time-stretch per 5 ticks:  P ≥ high ─► Accelerate;  P < low ─► PreemptiveExpand
//!    otherwise                                                            ─► Normal        (ExpectedPacketAvailable)
//! ```
//! Source: webrtc `modules/audio_coding/neteq/`: `delay_manager.cc` (`DelayManager::Config`: quantile 0.95,
//! forget_factor 0.983, start_forget_weight 2, resample_interval_ms 500, use_reorder_optimizer, reorder_forget_factor
//! 0.9993, ms_per_loss_percent 20; `kStartDelayMs` 80; `Update`; the 75 % limit of `max_packets_in_buffer` 200),
//! `underrun_optimizer.cc` (`kDelayBuckets` 100, `kBucketSizeMs` 20, `Update`), `reorder_optimizer.cc`
//! (`MinimizeCostFunction`), `histogram.cc` (`Add`, `Quantile`, `Reset`: Q30 buckets, Q15 forget factor, the
//! rounding correction), `packet_arrival_history.cc` (`Insert`, `GetDelayMs`, `GetMaxDelayMs`,
//! `IsNewestRtpTimestamp`, the 2000 ms window `kPacketHistorySizeMs`), `decision_logic.cc` (`PacketArrived`,
//! `GetDecision`, `ExpectedPacketAvailable`: `kDelayAdjustmentGranularityMs` 20, fast accelerate at 4 × the high
//! limit; `PostponeDecode`: `kPostponeDecodingLevel` 50 %; `kMinTimescaleInterval` 5 ticks, 6 at start),
//! `time_stretch.cc` (a stretch works on a 30 ms block and moves it by one pitch period of at most 15 ms), and
//! `g3doc/index.md` (InsertPacket / GetAudio, the operations).
//!
//! Audio mapped to a game entity:
//! - a packet is a snapshot. An audio packet carries the audio from its timestamp on, for one packet length; a
//!   snapshot at server time s completes the entity's motion from the previous one, (s − interval, s]. So its RTP
//!   timestamp is s − the send interval, in whole milliseconds (a 1 kHz RTP clock, so NetEQ's sample →
//!   millisecond divisions are exact), and its length the send interval: the playable server time reaches the
//!   newest snapshot's s, and the playout timestamp is the render time itself;
//! - the tick timer counts 10 ms `GetAudio` calls on the client's clock: a packet is stamped with the tick it
//!   arrived in, and decisions are taken at each tick with the packets that had arrived by then;
//! - the playout timestamp is a render clock over server time. Normal plays 10 ms of server time per 10 ms tick
//!   (rate 1). A time-stretch has no pitch to find in a game's positions: it is taken at NetEQ's largest step, one
//!   15 ms period out of (accelerate) or into (preemptive expand) a 30 ms block, so the clock runs at rate 2 for
//!   15 ms or at rate 2/3 for 45 ms; fast accelerate is the same step without waiting out the 5 ticks;
//! - the shown position is the snapshots' polyline at the render clock (linear between the two around it); a
//!   snapshot lost between two held ones is interpolated across, as a game does: NetEQ's concealment of a missing
//!   frame between two present ones has nothing to conceal in a polyline. A missing packet is therefore only
//!   "nothing newer than the render clock": then Expand holds the clock at the newest snapshot — NetEQ's expand
//!   does not advance the timestamp — and the frame is `held` (an underrun). Held while the buffer refills
//!   (PostponeDecode) too. Frames before the first Normal (the start-up refill) are `waiting`;
//! - the buffer level is newest server time − render time.
//!
//! Simplified: no DTX / comfort noise, DTMF or codec PLC; PostponeDecode's mute-factor condition (an expand long
//! enough to have faded the audio) is taken as met; FuturePacketAvailable (waiting for a lost packet) does not
//! arise, see above; a packet older than the render clock is dropped from the playout buffer but still counted by
//! the statistics; the buffer-level filter, which this version's time-stretch decisions no longer read, is left
//! out; a full buffer (200 packets) is flushed, as upstream; teleports are not special.

use super::{Shown, ShownMode, Smoother};
use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

/// Milliseconds per tick of NetEQ's tick timer (one `GetAudio` call).
pub const TICK_MS: i64 = 10;
/// `kStartDelayMs`: the target before the histogram holds a sample.
pub const START_DELAY_MS: i64 = 80;
/// `kDelayBuckets`.
pub const DELAY_BUCKETS: usize = 100;
/// `kBucketSizeMs`.
pub const BUCKET_SIZE_MS: i64 = 20;
/// `kPacketHistorySizeMs`: the arrival history's window.
pub const PACKET_HISTORY_SIZE_MS: i64 = 2000;
/// `kDelayAdjustmentGranularityMs`: added to the high limit.
pub const DELAY_ADJUSTMENT_GRANULARITY_MS: i64 = 20;
/// `kPostponeDecodingLevel` (percent of the target).
pub const POSTPONE_DECODING_LEVEL: i64 = 50;
/// `kMinTimescaleInterval` (ticks between two time-stretches).
pub const MIN_TIMESCALE_INTERVAL: i64 = 5;
/// A time-stretch's block (`samples_30_ms`).
pub const STRETCH_BLOCK_MS: f64 = 30.0;
/// The largest pitch period a time-stretch removes or inserts (`fs_mult_120`, "corresponds to 15 ms").
pub const STRETCH_PERIOD_MS: f64 = 15.0;

/// `DelayManager::Config` and the client's delay settings, under NetEQ's names and with its defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct NeteqParams {
    /// The share of delays the target covers (`quantile`): the tune knob.
    #[param(range(0.5, 0.999), control(50.0, 99.9, 0.5, "%", 100.0))]
    pub quantile: f64,
    /// Each histogram sample keeps this much of the old ones (`forget_factor`).
    #[param(range(0.5, 0.9999), control(0.9, 0.999, 0.001, "", 1.0))]
    pub forget_factor: f64,
    /// Start-up forgetting: factor 1 − weight / (samples + 1) until it reaches `forgetFactor`
    /// (`start_forget_weight`; 0: the older rule, a quarter of the way each sample).
    #[param(range(0.0, 100.0), control(0.0, 10.0, 0.5, "", 1.0))]
    pub start_forget_weight: f64,
    /// The largest delay of each interval this long is the histogram's sample (`resample_interval_ms`; 0: every
    /// packet's delay).
    #[param(range(0.0, 10_000.0), unit = "ms", control(0.0, 2000.0, 10.0, "ms", 1.0))]
    pub resample_interval_ms: f64,
    /// Whether reordered packets' delays set a target of their own (`use_reorder_optimizer`).
    pub use_reorder_optimizer: bool,
    /// The reorder histogram's forget factor (`reorder_forget_factor`).
    #[param(range(0.5, 0.9999), control(0.99, 0.9999, 0.0001, "", 1.0))]
    pub reorder_forget_factor: f64,
    /// The delay worth one percent of late packets (`ms_per_loss_percent`).
    #[param(range(0.0, 1000.0), unit = "ms", control(0.0, 100.0, 1.0, "ms", 1.0))]
    pub ms_per_loss_percent: f64,
    /// The target is at least this (`SetMinimumDelay`; 0: none).
    #[param(range(0.0, 10_000.0), unit = "ms", control(0.0, 1000.0, 10.0, "ms", 1.0))]
    pub min_delay_ms: f64,
    /// The target is at most this (`SetMaximumDelay`; 0: none).
    #[param(range(0.0, 10_000.0), unit = "ms", control(0.0, 2000.0, 10.0, "ms", 1.0))]
    pub max_delay_ms: f64,
    /// Packets the buffer holds before it is flushed; the target stays below 75 % of them
    /// (`max_packets_in_buffer`).
    #[param(range(2.0, 10_000.0), unit = "packets", control(2.0, 400.0, 1.0, "", 1.0))]
    pub max_packets_in_buffer: usize,
}

impl Default for NeteqParams {
    fn default() -> Self {
        NeteqParams {
            quantile: 0.95,
            forget_factor: 0.983,
            start_forget_weight: 2.0,
            resample_interval_ms: 500.0,
            use_reorder_optimizer: true,
            reorder_forget_factor: 0.9993,
            ms_per_loss_percent: 20.0,
            min_delay_ms: 0.0,
            max_delay_ms: 0.0,
            max_packets_in_buffer: 200,
        }
    }
}

impl NeteqParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()?;
        if self.max_delay_ms > 0.0 && self.max_delay_ms < self.min_delay_ms {
            return Err(ParamError::new("maxDelayMs", "must be 0 (none) or at least minDelayMs"));
        }
        Ok(())
    }
}

/// `Histogram`: probabilities in Q30 that sum to 1 << 30, forgotten by a Q15 factor per sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    buckets: Vec<i32>,
    forget_factor: i32,
    base_forget_factor: i32,
    add_count: i32,
    start_forget_weight: Option<f64>,
}

impl Histogram {
    /// `Histogram(num_buckets, forget_factor, start_forget_weight)` followed by `Reset()` (the optimizers' owner
    /// resets them on construction).
    pub fn new(num_buckets: usize, forget_factor: i32, start_forget_weight: Option<f64>) -> Self {
        let mut h = Histogram {
            buckets: vec![0; num_buckets],
            forget_factor: 0,
            base_forget_factor: forget_factor,
            add_count: 0,
            start_forget_weight,
        };
        h.reset();
        h
    }

    pub fn buckets(&self) -> &[i32] {
        &self.buckets
    }

    pub fn forget_factor(&self) -> i32 {
        self.forget_factor
    }

    /// `Reset`: bucket i = 0.5^(i+1) in Q30 (from 0x4002 in Q14, halved each bucket), forget factor 0.
    pub fn reset(&mut self) {
        let mut temp_prob: u16 = 0x4002;
        for bucket in &mut self.buckets {
            temp_prob >>= 1;
            *bucket = i32::from(temp_prob) << 16;
        }
        self.forget_factor = 0;
        self.add_count = 0;
    }

    /// `Add`: every bucket × forget factor (Q15, truncated), `value`'s bucket + (1 − factor), the rounding error
    /// taken from the first buckets (1/16 of each at most), then the factor moves toward its base.
    pub fn add(&mut self, value: usize) {
        let mut vector_sum: i64 = 0;
        for bucket in &mut self.buckets {
            *bucket = ((i64::from(*bucket) * i64::from(self.forget_factor)) >> 15) as i32;
            vector_sum += i64::from(*bucket);
        }
        let increment = (32768 - self.forget_factor) << 15;
        self.buckets[value] += increment;
        vector_sum += i64::from(increment);
        vector_sum -= 1 << 30;
        if vector_sum != 0 {
            let flip_sign = if vector_sum > 0 { -1 } else { 1 };
            for bucket in &mut self.buckets {
                let correction = flip_sign * vector_sum.abs().min(i64::from(*bucket >> 4));
                *bucket += correction as i32;
                vector_sum += correction;
                if vector_sum == 0 {
                    break;
                }
            }
        }
        self.add_count += 1;
        match self.start_forget_weight {
            Some(weight) => {
                if self.forget_factor != self.base_forget_factor {
                    // (1 << 15) * (1 - w / (n + 1)) in double, then to int (toward zero).
                    let f = (32768.0 * (1.0 - weight / f64::from(self.add_count + 1))) as i32;
                    self.forget_factor = f.min(self.base_forget_factor).max(0);
                }
            }
            None => self.forget_factor += (self.base_forget_factor - self.forget_factor + 3) >> 2,
        }
    }

    /// `Quantile(probability)` (Q30): the first bucket where the probability left above it is no longer greater
    /// than 1 − probability.
    pub fn quantile(&self, probability: i32) -> usize {
        let inverse_probability = (1i64 << 30) - i64::from(probability);
        let mut index = 0;
        let mut sum: i64 = (1 << 30) - i64::from(self.buckets[0]);
        while sum > inverse_probability && index < self.buckets.len() - 1 {
            index += 1;
            sum -= i64::from(self.buckets[index]);
        }
        index
    }
}

/// `UnderrunOptimizer`: the histogram of (resampled) relative delays and the delay at its quantile.
#[derive(Clone, Debug, PartialEq)]
pub struct UnderrunOptimizer {
    histogram: Histogram,
    quantile: i32,
    resample_interval_ms: Option<i64>,
    /// The tick the resample stopwatch started at.
    resample_start: Option<i64>,
    max_delay_in_interval_ms: i64,
    optimal_delay_ms: Option<i64>,
}

impl UnderrunOptimizer {
    pub fn new(quantile: i32, forget_factor: i32, start_forget_weight: Option<f64>, resample: Option<i64>) -> Self {
        UnderrunOptimizer {
            histogram: Histogram::new(DELAY_BUCKETS, forget_factor, start_forget_weight),
            quantile,
            resample_interval_ms: resample,
            resample_start: None,
            max_delay_in_interval_ms: 0,
            optimal_delay_ms: None,
        }
    }

    /// `Update(relative_delay_ms)` at tick `tick`.
    pub fn update(&mut self, relative_delay_ms: i64, tick: i64) {
        let sample = match self.resample_interval_ms {
            Some(interval) => {
                let start = *self.resample_start.get_or_insert(tick);
                let mut sample = None;
                if (tick - start) * TICK_MS > interval {
                    sample = Some(self.max_delay_in_interval_ms);
                    self.resample_start = Some(tick);
                    self.max_delay_in_interval_ms = 0;
                }
                self.max_delay_in_interval_ms = self.max_delay_in_interval_ms.max(relative_delay_ms);
                sample
            }
            None => Some(relative_delay_ms),
        };
        let Some(sample) = sample else { return };
        let index = sample / BUCKET_SIZE_MS;
        if index < DELAY_BUCKETS as i64 {
            self.histogram.add(index as usize);
        }
        let bucket = self.histogram.quantile(self.quantile) as i64;
        self.optimal_delay_ms = Some((1 + bucket) * BUCKET_SIZE_MS);
    }

    pub fn optimal_delay_ms(&self) -> Option<i64> {
        self.optimal_delay_ms
    }

    pub fn histogram(&self) -> &Histogram {
        &self.histogram
    }
}

/// `ReorderOptimizer`: reordered packets' delays (in-order ones count in bucket 0) and the delay that minimises
/// extra delay plus `ms_per_loss_percent` per percent of packets later than it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReorderOptimizer {
    histogram: Histogram,
    ms_per_loss_percent: i64,
    optimal_delay_ms: Option<i64>,
}

impl ReorderOptimizer {
    pub fn new(forget_factor: i32, ms_per_loss_percent: i64, start_forget_weight: Option<f64>) -> Self {
        ReorderOptimizer {
            histogram: Histogram::new(DELAY_BUCKETS, forget_factor, start_forget_weight),
            ms_per_loss_percent,
            optimal_delay_ms: None,
        }
    }

    pub fn update(&mut self, relative_delay_ms: i64, reordered: bool, base_delay_ms: i64) {
        let index = if reordered { relative_delay_ms / BUCKET_SIZE_MS } else { 0 };
        if index < DELAY_BUCKETS as i64 {
            self.histogram.add(index as usize);
        }
        let bucket = self.minimize_cost_function(base_delay_ms);
        self.optimal_delay_ms = Some((1 + bucket) * BUCKET_SIZE_MS);
    }

    /// `MinimizeCostFunction` (Q30).
    fn minimize_cost_function(&self, base_delay_ms: i64) -> i64 {
        let mut loss_probability: i64 = 1 << 30;
        let mut min_cost = i64::MAX;
        let mut min_bucket = 0;
        for (i, bucket) in self.histogram.buckets().iter().enumerate() {
            loss_probability -= i64::from(*bucket);
            let delay_ms = (i as i64 * BUCKET_SIZE_MS - base_delay_ms).max(0) << 30;
            let cost = delay_ms + 100 * self.ms_per_loss_percent * loss_probability;
            if cost < min_cost {
                min_cost = cost;
                min_bucket = i as i64;
            }
            if loss_probability == 0 {
                break;
            }
        }
        min_bucket
    }

    pub fn optimal_delay_ms(&self) -> Option<i64> {
        self.optimal_delay_ms
    }
}

/// `DelayManager`: the target delay from both optimizers, clamped.
#[derive(Clone, Debug, PartialEq)]
pub struct DelayManager {
    underrun: UnderrunOptimizer,
    reorder: Option<ReorderOptimizer>,
    minimum_delay_ms: i64,
    maximum_delay_ms: i64,
    max_packets_in_buffer: i64,
    packet_len_ms: i64,
    target_level_ms: i64,
}

impl DelayManager {
    pub fn new(p: &NeteqParams) -> Self {
        let weight = (p.start_forget_weight > 0.0).then_some(p.start_forget_weight);
        let resample = (p.resample_interval_ms > 0.0).then_some(p.resample_interval_ms as i64);
        let q30 = |x: f64| (f64::from(1u32 << 30) * x) as i32;
        let q15 = |x: f64| (32768.0 * x) as i32;
        DelayManager {
            underrun: UnderrunOptimizer::new(q30(p.quantile), q15(p.forget_factor), weight, resample),
            // The reorder optimizer's start weight is an `optional<int>` upstream.
            reorder: p.use_reorder_optimizer.then(|| {
                ReorderOptimizer::new(
                    q15(p.reorder_forget_factor),
                    p.ms_per_loss_percent as i64,
                    weight.map(f64::trunc),
                )
            }),
            minimum_delay_ms: p.min_delay_ms as i64,
            maximum_delay_ms: p.max_delay_ms as i64,
            max_packets_in_buffer: p.max_packets_in_buffer as i64,
            packet_len_ms: 0,
            target_level_ms: START_DELAY_MS,
        }
    }

    pub fn set_packet_audio_length(&mut self, length_ms: i64) {
        if length_ms > 0 {
            self.packet_len_ms = length_ms;
        }
    }

    /// `Update(arrival_delay_ms, reordered)` at tick `tick`.
    pub fn update(&mut self, arrival_delay_ms: i64, reordered: bool, tick: i64) {
        if self.reorder.is_none() || !reordered {
            self.underrun.update(arrival_delay_ms, tick);
        }
        self.target_level_ms = self.underrun.optimal_delay_ms().unwrap_or(START_DELAY_MS);
        if let Some(reorder) = &mut self.reorder {
            reorder.update(arrival_delay_ms, reordered, self.target_level_ms);
            self.target_level_ms = self.target_level_ms.max(reorder.optimal_delay_ms().unwrap_or(0));
        }
        self.target_level_ms = self.target_level_ms.max(self.minimum_delay_ms);
        if self.maximum_delay_ms > 0 {
            self.target_level_ms = self.target_level_ms.min(self.maximum_delay_ms);
        }
        if self.packet_len_ms > 0 {
            self.target_level_ms = self.target_level_ms.min(3 * self.max_packets_in_buffer * self.packet_len_ms / 4);
        }
    }

    /// `TargetDelayMs`.
    pub fn target_delay_ms(&self) -> i64 {
        self.target_level_ms
    }

    pub fn underrun(&self) -> &UnderrunOptimizer {
        &self.underrun
    }
}

/// One packet in the arrival history (milliseconds: a 1 kHz RTP clock, arrival on the tick grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arrival {
    rtp: i64,
    arrival: i64,
    length: i64,
}

impl Arrival {
    /// The order of `operator<=` / `>=`: arrival − timestamp.
    fn lateness(&self) -> i64 {
        self.arrival - self.rtp
    }

    fn contains(&self, other: &Arrival) -> bool {
        self.rtp <= other.rtp && self.rtp + self.length >= other.rtp + other.length
    }
}

/// `PacketArrivalHistory`: the packets of the last 2000 ms of timestamps, with the fastest and slowest in-order
/// arrivals kept in monotonic queues.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PacketArrivalHistory {
    history: BTreeMap<i64, Arrival>,
    min_arrivals: VecDeque<Arrival>,
    max_arrivals: VecDeque<Arrival>,
}

impl PacketArrivalHistory {
    fn is_obsolete(&self, p: &Arrival) -> bool {
        self.history.last_key_value().is_some_and(|(_, newest)| p.rtp + PACKET_HISTORY_SIZE_MS < newest.rtp)
    }

    /// `Insert`: `false` when the packet is obsolete or already held.
    pub fn insert(&mut self, rtp: i64, arrival: i64, length: i64) -> bool {
        let packet = Arrival { rtp, arrival, length };
        if self.is_obsolete(&packet) {
            return false;
        }
        if self.history.range(..=rtp).next_back().is_some_and(|(_, held)| held.contains(&packet)) {
            return false;
        }
        self.history.insert(rtp, packet);
        if self.history.last_key_value().map(|(_, p)| *p) != Some(packet) {
            return true; // reordered: kept, but never the fastest or slowest
        }
        while let Some((_, &oldest)) = self.history.first_key_value() {
            if !self.is_obsolete(&oldest) {
                break;
            }
            if self.min_arrivals.front() == Some(&oldest) {
                self.min_arrivals.pop_front();
            }
            if self.max_arrivals.front() == Some(&oldest) {
                self.max_arrivals.pop_front();
            }
            self.history.pop_first();
        }
        while self.min_arrivals.back().is_some_and(|b| packet.lateness() <= b.lateness()) {
            self.min_arrivals.pop_back();
        }
        while self.max_arrivals.back().is_some_and(|b| packet.lateness() >= b.lateness()) {
            self.max_arrivals.pop_back();
        }
        self.min_arrivals.push_back(packet);
        self.max_arrivals.push_back(packet);
        true
    }

    fn delay_of(&self, rtp: i64, at: i64) -> i64 {
        match self.min_arrivals.front() {
            Some(min) => ((at - min.arrival) - (rtp - min.rtp)).max(0),
            None => 0,
        }
    }

    /// `GetDelayMs(rtp)` at time `now` (ms).
    pub fn delay_ms(&self, rtp: i64, now: i64) -> i64 {
        self.delay_of(rtp, now)
    }

    /// `GetMaxDelayMs`.
    pub fn max_delay_ms(&self) -> i64 {
        self.max_arrivals.front().map_or(0, |p| self.delay_of(p.rtp, p.arrival))
    }

    /// `IsNewestRtpTimestamp`.
    pub fn is_newest(&self, rtp: i64) -> bool {
        self.history.last_key_value().is_none_or(|(_, p)| p.rtp == rtp)
    }

    pub fn len(&self) -> usize {
        self.history.len()
    }

    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }
}

/// What one tick does (`NetEq::Operation`, the ones that arise here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Normal,
    Accelerate,
    FastAccelerate,
    PreemptiveExpand,
    Expand,
}

/// A time-stretch in progress: the render clock's rate and the wall-clock milliseconds it has left.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Stretch {
    rate: f64,
    left_ms: f64,
}

/// The tick's clock arithmetic: where the render clock is `wall_ms` into the tick.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Interval {
    op: Operation,
    /// The render clock at the tick (ms of server time).
    start: f64,
    stretch: Stretch,
    /// The render clock may not pass this (the newest snapshot, or the clock itself while expand holds it).
    cap: f64,
}

impl Interval {
    fn at(&self, wall_ms: f64) -> (f64, Stretch) {
        let wall = wall_ms.clamp(0.0, TICK_MS as f64);
        let stretched = wall.min(self.stretch.left_ms);
        let render = self.start + stretched * self.stretch.rate + (wall - stretched);
        let stretch = Stretch { left_ms: self.stretch.left_ms - stretched, ..self.stretch };
        (render.min(self.cap).max(self.start), stretch)
    }
}

/// One NetEQ playing one entity's snapshots.
#[derive(Clone, Debug)]
pub struct Neteq {
    params: NeteqParams,
    packet_len_ms: i64,
    delay: DelayManager,
    history: PacketArrivalHistory,
    /// The playout buffer: server time (ms) and position, sorted by time.
    buffer: Vec<(f64, Vec2)>,
    /// The tick whose interval is running, and what it does.
    tick: Option<i64>,
    interval: Option<Interval>,
    last_op: Operation,
    /// The first tick a time-stretch may be decided at (`timescale_countdown_`).
    timescale_allowed_at: i64,
    /// Whether the render clock has played (a Normal tick); before it, frames wait.
    started: bool,
}

impl Neteq {
    pub fn new(params: NeteqParams, send_interval: f64) -> Self {
        let packet_len_ms = ((send_interval * 1000.0).round() as i64).max(1);
        let mut delay = DelayManager::new(&params);
        delay.set_packet_audio_length(packet_len_ms);
        Neteq {
            params,
            packet_len_ms,
            delay,
            history: PacketArrivalHistory::default(),
            buffer: Vec::new(),
            tick: None,
            interval: None,
            last_op: Operation::Expand,
            timescale_allowed_at: 0,
            started: false,
        }
    }

    /// The target delay (ms).
    pub fn target_delay_ms(&self) -> i64 {
        self.delay.target_delay_ms()
    }

    pub fn delay_manager(&self) -> &DelayManager {
        &self.delay
    }

    pub fn arrival_history(&self) -> &PacketArrivalHistory {
        &self.history
    }

    /// The operation of the running tick.
    pub fn operation(&self) -> Option<Operation> {
        self.interval.map(|i| i.op)
    }

    /// The render clock at the start of the running tick (ms of server time).
    pub fn render_ms(&self) -> Option<f64> {
        self.interval.map(|i| i.start)
    }

    fn newest(&self) -> Option<f64> {
        self.buffer.last().map(|e| e.0)
    }

    fn tick_of(t: f64) -> i64 {
        (t * 100.0 + 1e-9).floor() as i64
    }

    /// Runs the ticks up to the one at or before `t` (seconds on the client's clock).
    fn advance_to(&mut self, t: f64) {
        let Some(mut tick) = self.tick else { return };
        let last = Self::tick_of(t);
        while tick < last {
            let before = self.interval;
            tick += 1;
            self.decide(tick);
            // Expand at the newest snapshot, nothing arriving: every later tick is the same; skip to the last.
            if let (Some(b), Some(a)) = (before, self.interval) {
                if b.op == Operation::Expand && a.op == Operation::Expand && a.start == b.start {
                    tick = last;
                }
            }
        }
        self.tick = Some(tick);
    }

    /// `GetDecision` at tick `tick`: ends the previous tick's interval and decides this one's.
    fn decide(&mut self, tick: i64) {
        let Some(prev) = self.interval else { return };
        let Some(newest) = self.newest() else { return };
        let (render, stretch) = prev.at(TICK_MS as f64);
        let start = |op, stretch, cap| Interval { op, start: render, stretch, cap };
        if stretch.left_ms > 0.0 {
            self.interval = Some(start(prev.op, stretch, newest));
            return;
        }
        if matches!(prev.op, Operation::Accelerate | Operation::FastAccelerate | Operation::PreemptiveExpand) {
            self.timescale_allowed_at = tick + MIN_TIMESCALE_INTERVAL;
        }
        let target = self.delay.target_delay_ms();
        let level = newest - render;
        let op = if level < TICK_MS as f64
            || (self.last_op == Operation::Expand && level * 100.0 < (target * POSTPONE_DECODING_LEVEL) as f64)
        {
            Operation::Expand
        } else {
            self.expected_packet_available(render, tick)
        };
        let interval = match op {
            // Expand plays what is left of the last 10 ms (less than a tick), then holds.
            Operation::Expand => start(op, Stretch::default(), if level < TICK_MS as f64 { newest } else { render }),
            Operation::Accelerate | Operation::FastAccelerate => start(
                op,
                Stretch {
                    rate: STRETCH_BLOCK_MS / (STRETCH_BLOCK_MS - STRETCH_PERIOD_MS),
                    left_ms: STRETCH_BLOCK_MS - STRETCH_PERIOD_MS,
                },
                newest,
            ),
            Operation::PreemptiveExpand => start(
                op,
                Stretch {
                    rate: STRETCH_BLOCK_MS / (STRETCH_BLOCK_MS + STRETCH_PERIOD_MS),
                    left_ms: STRETCH_BLOCK_MS + STRETCH_PERIOD_MS,
                },
                newest,
            ),
            Operation::Normal => start(op, Stretch::default(), newest),
        };
        if op != Operation::Expand {
            self.started = true;
        }
        self.last_op = op;
        self.interval = Some(interval);
    }

    /// `ExpectedPacketAvailable`: time-stretch toward the target, judged by the playout delay.
    fn expected_packet_available(&self, render: f64, tick: i64) -> Operation {
        if self.last_op == Operation::Expand {
            return Operation::Normal;
        }
        let playout_delay = self.history.delay_ms(render.floor() as i64, tick * TICK_MS);
        let low_limit = self.delay.target_delay_ms();
        let high_limit = low_limit + self.history.max_delay_ms() + DELAY_ADJUSTMENT_GRANULARITY_MS;
        if playout_delay >= high_limit * 4 {
            return Operation::FastAccelerate;
        }
        if tick >= self.timescale_allowed_at {
            if playout_delay >= high_limit {
                return Operation::Accelerate;
            }
            if playout_delay < low_limit {
                return Operation::PreemptiveExpand;
            }
        }
        Operation::Normal
    }

    /// The snapshots' polyline at `render` (ms), and whether it lies within them.
    fn position_at(&self, render: f64) -> Option<Vec2> {
        let at = self.buffer.partition_point(|e| e.0 <= render);
        match (at.checked_sub(1).and_then(|i| self.buffer.get(i)), self.buffer.get(at)) {
            (Some(a), Some(b)) => Some(a.1.lerp(b.1, (render - a.0) / (b.0 - a.0))),
            (Some(a), None) => Some(a.1),
            (None, Some(b)) => Some(b.1),
            (None, None) => None,
        }
    }

    /// Drops the snapshots before the one at or before `render` (they can no longer be shown).
    fn prune(&mut self, render: f64) {
        let at = self.buffer.partition_point(|e| e.0 <= render);
        if at > 1 {
            self.buffer.drain(..at - 1);
        }
    }
}

impl Smoother for Neteq {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        if !snapshot.is_valid() || !arrival.is_finite() {
            return;
        }
        self.advance_to(arrival);
        let tick = Self::tick_of(arrival);
        let time = (snapshot.server_time * 1000.0).round();
        let rtp = time as i64 - self.packet_len_ms;
        // PacketArrived: the statistics.
        if self.history.insert(rtp, tick * TICK_MS, self.packet_len_ms) && self.history.len() >= 2 {
            let delay = self.history.delay_ms(rtp, tick * TICK_MS);
            let reordered = !self.history.is_newest(rtp);
            self.delay.update(delay, reordered, tick);
        }
        // InsertPacket: too late for playout, or already held, is dropped; a full buffer is flushed.
        if self.interval.is_some_and(|i| time < i.start) {
            return;
        }
        match self.buffer.binary_search_by(|e| e.0.total_cmp(&time)) {
            Ok(_) => return,
            Err(at) => {
                if self.buffer.len() >= self.params.max_packets_in_buffer {
                    self.buffer.clear();
                    self.buffer.push((time, snapshot.pos));
                } else {
                    self.buffer.insert(at, (time, snapshot.pos));
                }
            }
        }
        if self.tick.is_none() {
            // The first packet: playout starts at its timestamp; the first time-stretch waits 6 ticks.
            self.tick = Some(tick);
            self.timescale_allowed_at = tick + MIN_TIMESCALE_INTERVAL + 1;
            self.interval =
                Some(Interval { op: Operation::Expand, start: time, stretch: Stretch::default(), cap: time });
        } else if let Some(i) = &mut self.interval {
            // A flush can leave the clock before every snapshot: it restarts at the new one.
            if self.buffer.len() == 1 {
                *i = Interval { op: Operation::Expand, start: time, stretch: Stretch::default(), cap: time };
                self.last_op = Operation::Expand;
            }
        }
    }

    fn frame(&mut self, now: f64, _dt: f64) -> Shown {
        if !now.is_finite() {
            return Shown::NOTHING;
        }
        self.advance_to(now);
        let (Some(tick), Some(interval)) = (self.tick, self.interval) else { return Shown::NOTHING };
        let (render, _) = interval.at(now * 1000.0 - (tick * TICK_MS) as f64);
        self.prune(interval.start);
        let Some(pos) = self.position_at(render) else { return Shown::NOTHING };
        let mode = if !self.started {
            ShownMode::Waiting
        } else if interval.op == Operation::Expand {
            ShownMode::Held
        } else {
            ShownMode::Interpolated
        };
        Shown::at(pos, render / 1000.0, mode)
    }
}
