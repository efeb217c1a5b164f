//! What a jitter buffer tells the outside: counters, arrival statistics and sample statistics
//! (seed 002 "可观测性": 包到达指标, 缓冲指标, 采样指标).
//!
//! ```text
//!  arrivals ──► received = inserted + duplicates + conflicts + invalid + late    (lateDuplicates ⊆ duplicates)
//!                          inserted = buffered + evicted + pruned          (outOfOrder ⊆ inserted)
//!  samples  ──► samples  = ready + priming + underrun + gap + clockUncertain + invalidInterval
//!               underruns / gaps count episodes: a run of consecutive Underrun (Gap) samples counts once
//! ```
//! Arrival statistics use the local arrival time of accepted snapshots, in arrival order:
//! `arrivalInterval` is an exponential average of the time between arrivals; `jitter` is RFC 3550's
//! interarrival jitter (J += (|D| − J) / 16 with D the change in transit time); `transitStd` is the exponentially
//! weighted standard deviation of transit time (arrival − server time), which is what the adaptive delay uses
//! (seed 004 §4.1: 抖动 = 到达间隔不再均匀). The clock offset drops out of both: only differences of transit
//! time are measured.

use serde::Serialize;

/// Weight of a new sample in the arrival averages (RFC 3550 uses 1/16 for jitter).
pub const ARRIVAL_GAIN: f64 = 1.0 / 16.0;

/// Running statistics of arrival times.
///
/// Kept as plain numbers and a count of the first arrivals (recorded on every accepted arrival, so the
/// usual one — the third and later — is one predictable branch and straight-line arithmetic, with no `Option`
/// taken apart and put back). The numbers are the same, operation for operation, as the textbook form:
/// `interval` starts at the second arrival's gap, `transit_mean` at the first transit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArrivalStats {
    /// How many arrivals were recorded, counted up to [`STEADY`] (and not further).
    seen: u8,
    /// The last arrival's local time and transit time (arrival − server time); valid once `seen ≥ 1`.
    last_arrival: f64,
    last_transit: f64,
    /// Valid once `seen ≥ 2`.
    interval: f64,
    jitter: f64,
    /// Valid once `seen ≥ 1`.
    transit_mean: f64,
    transit_var: f64,
}

/// From this many arrivals on, every statistic is running and a record is the plain update.
const STEADY: u8 = 2;

impl ArrivalStats {
    /// Records one accepted arrival: a snapshot stamped `server_time` reached the client at local `arrival`.
    #[inline]
    pub fn record(&mut self, server_time: f64, arrival: f64) {
        let transit = arrival - server_time;
        if self.seen >= STEADY {
            let gap = (arrival - self.last_arrival).max(0.0);
            self.interval += (gap - self.interval) * ARRIVAL_GAIN;
            self.update(transit);
        } else {
            self.record_start(transit, arrival);
        }
        self.last_arrival = arrival;
        self.last_transit = transit;
    }

    /// The first two arrivals: the first starts the transit mean, the second the interval (and the jitter).
    #[cold]
    #[inline(never)]
    fn record_start(&mut self, transit: f64, arrival: f64) {
        if self.seen == 0 {
            self.transit_mean = transit;
        } else {
            self.interval = (arrival - self.last_arrival).max(0.0);
            self.update(transit);
        }
        self.seen += 1;
    }

    /// The jitter (RFC 3550) and the transit mean and variance, from the second arrival on.
    #[inline(always)]
    fn update(&mut self, transit: f64) {
        let d = transit - self.last_transit;
        self.jitter = flush(self.jitter + (d.abs() - self.jitter) * ARRIVAL_GAIN);
        let diff = transit - self.transit_mean;
        self.transit_mean += diff * ARRIVAL_GAIN;
        self.transit_var = flush((1.0 - ARRIVAL_GAIN) * (self.transit_var + ARRIVAL_GAIN * diff * diff));
    }

    /// Average time between arrivals (seconds), once two snapshots have arrived.
    pub fn interval(&self) -> Option<f64> {
        (self.seen >= 2).then_some(self.interval)
    }

    /// RFC 3550 interarrival jitter (seconds).
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// Exponentially weighted mean of transit time, arrival − server time (seconds; includes the clock offset).
    pub fn transit_mean(&self) -> Option<f64> {
        (self.seen >= 1).then_some(self.transit_mean)
    }

    /// Exponentially weighted standard deviation of transit time (seconds).
    pub fn transit_std(&self) -> f64 {
        self.transit_var.sqrt()
    }

    /// Local time of the last accepted arrival.
    pub fn last_arrival(&self) -> Option<f64> {
        (self.seen >= 1).then_some(self.last_arrival)
    }
}

/// Values this small are rounding noise; flushing them to zero keeps a perfectly steady stream from decaying
/// into subnormal numbers, whose arithmetic is two orders of magnitude slower.
#[inline(always)]
fn flush(x: f64) -> f64 {
    if x.abs() < 1e-30 {
        0.0
    } else {
        x
    }
}

/// Counts of samples by status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SampleCounts {
    pub ready: u64,
    pub priming: u64,
    pub underrun: u64,
    pub gap: u64,
    pub clock_uncertain: u64,
    pub invalid_interval: u64,
}

impl SampleCounts {
    pub fn total(&self) -> u64 {
        self.ready + self.priming + self.underrun + self.gap + self.clock_uncertain + self.invalid_interval
    }
}

/// One buffer's metrics, as they leave the core (camelCase; times in seconds, `None` → `null` when unknown).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BufferMetrics {
    // Arrivals (seed 002 包到达指标).
    pub received: u64,
    pub inserted: u64,
    pub duplicates: u64,
    /// Duplicates of a tick already pruned or evicted (counted in `duplicates` too).
    pub late_duplicates: u64,
    pub conflicts: u64,
    pub invalid: u64,
    /// Arrived after its place in the timeline was pruned or evicted (or older than all of a full buffer).
    pub late: u64,
    /// Inserted snapshots older than the newest tick already accepted.
    pub out_of_order: u64,
    pub evicted: u64,
    pub pruned: u64,
    pub arrival_interval: Option<f64>,
    pub jitter: f64,
    pub transit_std: f64,
    // Buffer (seed 002 缓冲指标).
    pub buffered: usize,
    /// Newest server time minus the last render time: how much is buffered ahead of what is shown.
    pub buffer_depth: Option<f64>,
    /// Newest minus oldest server time held.
    pub buffer_span: Option<f64>,
    /// Local time since the oldest snapshot held arrived.
    pub oldest_age: Option<f64>,
    /// Local time since the newest snapshot held arrived.
    pub newest_age: Option<f64>,
    /// Local time from the first accepted arrival to the arrival that completed priming.
    pub priming_time: Option<f64>,
    // Samples (seed 002 采样指标).
    pub samples: SampleCounts,
    pub ready_samples: u64,
    /// Underrun episodes (entering Underrun from any other status).
    pub underruns: u64,
    /// Gap episodes.
    pub gaps: u64,
    /// Samples whose render time was earlier than the previous sample's.
    pub render_regressions: u64,
    pub last_render_time: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn a_steady_stream_has_no_jitter_and_the_send_interval() {
        let mut stats = ArrivalStats::default();
        for i in 0..50 {
            let server = 10.0 + 0.05 * i as f64;
            stats.record(server, server + 0.08);
        }
        assert_relative_eq!(stats.interval().unwrap(), 0.05, epsilon = 1e-9);
        assert!(stats.jitter() < 1e-12);
        assert!(stats.transit_std() < 1e-9);
    }

    /// The statistics as first written, with `Option`s (the textbook form): the reference the flat form must match
    /// bit for bit.
    #[derive(Default)]
    struct Reference {
        last: Option<(f64, f64)>,
        interval: Option<f64>,
        jitter: f64,
        transit_mean: Option<f64>,
        transit_var: f64,
    }

    impl Reference {
        fn record(&mut self, server_time: f64, arrival: f64) {
            let transit = arrival - server_time;
            if let Some((last_server, last_arrival)) = self.last {
                let gap = (arrival - last_arrival).max(0.0);
                self.interval = Some(self.interval.map_or(gap, |i| i + (gap - i) * ARRIVAL_GAIN));
                let d = transit - (last_arrival - last_server);
                self.jitter = flush(self.jitter + (d.abs() - self.jitter) * ARRIVAL_GAIN);
            }
            match self.transit_mean {
                None => self.transit_mean = Some(transit),
                Some(mean) => {
                    let diff = transit - mean;
                    self.transit_mean = Some(mean + diff * ARRIVAL_GAIN);
                    self.transit_var = flush((1.0 - ARRIVAL_GAIN) * (self.transit_var + ARRIVAL_GAIN * diff * diff));
                }
            }
            self.last = Some((server_time, arrival));
        }
    }

    /// Every statistic after every arrival, bit for bit, on streams with jitter, arrivals out of order (negative
    /// gaps), a steady stream (flushed to zero) and times around 1.7e9 s; before the first and second arrival too.
    #[test]
    fn the_flat_statistics_equal_the_textbook_form_bit_for_bit() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for (base, jitter) in [(0.0, 0.0), (10.0, 0.015), (1.7e9, 0.04), (3.0, 0.2)] {
            let (mut flat, mut reference) = (ArrivalStats::default(), Reference::default());
            for i in 0..500 {
                let same = |a: Option<f64>, b: Option<f64>| a.map(f64::to_bits) == b.map(f64::to_bits);
                assert!(same(flat.interval(), reference.interval), "interval at {i}");
                assert!(same(flat.transit_mean(), reference.transit_mean), "transit mean at {i}");
                assert_eq!(flat.jitter().to_bits(), reference.jitter.to_bits(), "jitter at {i}");
                assert_eq!(flat.transit_std().to_bits(), reference.transit_var.sqrt().to_bits(), "std at {i}");
                assert!(same(flat.last_arrival(), reference.last.map(|(_, a)| a)), "last arrival at {i}");
                let server = base + 0.05 * i as f64;
                let arrival = server + 0.08 + jitter * (2.0 * unit() - 1.0);
                flat.record(server, arrival);
                reference.record(server, arrival);
            }
        }
    }

    #[test]
    fn alternating_transit_shows_as_jitter_and_spread() {
        // Transit alternates 60 ms / 100 ms: |D| = 40 ms every time, std of transit → 20 ms.
        let mut stats = ArrivalStats::default();
        for i in 0..400 {
            let server = 0.05 * i as f64;
            let transit = if i % 2 == 0 { 0.06 } else { 0.10 };
            stats.record(server, server + transit);
        }
        assert_relative_eq!(stats.jitter(), 0.04, epsilon = 1e-6);
        assert_relative_eq!(stats.transit_std(), 0.02, epsilon = 2e-3);
    }

    #[test]
    fn metrics_serialize_in_camel_case() {
        let json = serde_json::to_value(BufferMetrics::default()).unwrap();
        for key in ["received", "duplicates", "conflicts", "outOfOrder", "invalid", "gaps", "underruns"] {
            assert!(json.get(key).is_some(), "missing {key}");
        }
        assert!(json["samples"].get("clockUncertain").is_some());
    }
}
