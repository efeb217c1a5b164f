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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArrivalStats {
    last: Option<(f64, f64)>,
    interval: Option<f64>,
    jitter: f64,
    transit_mean: Option<f64>,
    transit_var: f64,
}

impl ArrivalStats {
    /// Records one accepted arrival: a snapshot stamped `server_time` reached the client at local `arrival`.
    pub fn record(&mut self, server_time: f64, arrival: f64) {
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

    /// Average time between arrivals (seconds), once two snapshots have arrived.
    pub fn interval(&self) -> Option<f64> {
        self.interval
    }

    /// RFC 3550 interarrival jitter (seconds).
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// Exponentially weighted mean of transit time, arrival − server time (seconds; includes the clock offset).
    pub fn transit_mean(&self) -> Option<f64> {
        self.transit_mean
    }

    /// Exponentially weighted standard deviation of transit time (seconds).
    pub fn transit_std(&self) -> f64 {
        self.transit_var.sqrt()
    }

    /// Local time of the last accepted arrival.
    pub fn last_arrival(&self) -> Option<f64> {
        self.last.map(|(_, arrival)| arrival)
    }
}

/// Values this small are rounding noise; flushing them to zero keeps a perfectly steady stream from decaying
/// into subnormal numbers, whose arithmetic is two orders of magnitude slower.
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
