//! The seeds' worked examples as traces (`netcode-lab export --example NAME`; the golden files in
//! `tests/traces/` are exactly these, and their replays are checked in beside them).
//!
//! | name | seed | what it shows |
//! |---|---|---|
//! | `seed-002` | 002 "三个乱序到达的快照" | 102 overtakes 101; delay 0.15 s; local 10.30 → render 10.15 → x = 1.5 |
//! | `seed-000-jitter` | 000 §4.3.7 | ±15 ms on 20 Hz server times, samples every 10 ms: every step < 30 (max 20/3) |
//! | `seed-000-extrapolate-seed` | 000 §4.3.5, §4.3.7 | one snapshot at 3000 u/s, cap 0.1 s: peak 75 at 50 ms, back to 0 |
//! | `seed-000-extrapolate-decay` | (the alternative) | the same with the decaying velocity: monotone, frozen at 150 |
//! | `seed-001-staircase` | 001 "一个具体时刻的计算" | V1 at 120 px/s: (60, 18) at 650 ms into the path |
//! | `seed-001-v2` | 001 "第二阶段" | offsets 0/120/280/1000, a stale seq dropped, the next batch joins on |
//! | `buffer-arrivals` | 002 "重复快照" … "传送" | a duplicate, a late duplicate, a conflict, an out-of-order, an invalid, a late arrival, a teleport |
//! | `seed-002-minimal` | 002 "顺着最小代码走一遍" | left 10.05 (x 0), right 10.15 (x 10), render 10.20 − 0.10 = 10.10 → t 0.5, x 5 |
//! | `seed-000-hold` | 000 §4.3.4, §4.3.5 | before the oldest → the oldest (`beforeOldest: oldest`); after a skipped second, hold on the newest |
//! | `seed-004-half-tick` | 004 §3.4 | one snapshot at 3000 u/s, 30 Hz, cap half a send interval: frozen at 25 |
//! | `seed-004-adaptive` | 004 §4.2 | RTT 60 → 160 ms: the article's controller, smoothed RTT past 100 ms, delay 50 → 150 ms by 2 % |
//!
//! Times are written as exact decimals (`k / 100`), so the files read as the seeds do.

use super::params::TraceParams;
use super::{RttSample, Trace, TraceBatch, TraceData, TracePoint, TraceSnapshot};
use crate::buffer::BeforeOldest;
use crate::clock::AdaptiveMode;
use crate::extrapolate::{CapRule, UnderrunPolicy};

/// A built-in trace.
pub struct Example {
    pub name: &'static str,
    pub title: &'static str,
    build: fn() -> Trace,
}

impl Example {
    pub fn trace(&self) -> Trace {
        (self.build)()
    }
}

/// Every built-in trace, in the order of the table above.
pub const EXAMPLES: [Example; 11] = [
    Example { name: "seed-002", title: "three out-of-order snapshots, delay 0.15 s", build: seed_002 },
    Example { name: "seed-000-jitter", title: "±15 ms jitter at 20 Hz, sampled every 10 ms", build: seed_000_jitter },
    Example {
        name: "seed-000-extrapolate-seed",
        title: "one snapshot at 3000 u/s, the seed's extrapolation (peak 75)",
        build: || seed_000_extrapolation(UnderrunPolicy::ExtrapolateSeed),
    },
    Example {
        name: "seed-000-extrapolate-decay",
        title: "one snapshot at 3000 u/s, decaying velocity (frozen at 150)",
        build: || seed_000_extrapolation(UnderrunPolicy::ExtrapolateDecay),
    },
    Example {
        name: "seed-001-staircase",
        title: "V1 staircase at 120 px/s: (60, 18) at 650 ms",
        build: seed_001_staircase,
    },
    Example { name: "seed-001-v2", title: "V2 offsets 0/120/280/1000 and a stale seq", build: seed_001_v2 },
    Example {
        name: "buffer-arrivals",
        title: "duplicate, late duplicate, conflict, out-of-order, invalid, late, teleport",
        build: buffer_arrivals,
    },
    Example {
        name: "seed-002-minimal",
        title: "left 10.05 x 0, right 10.15 x 10: x 5 at 10.10",
        build: seed_002_minimal,
    },
    Example {
        name: "seed-000-hold",
        title: "the oldest before it; hold on the newest after a stall",
        build: seed_000_hold,
    },
    Example {
        name: "seed-004-half-tick",
        title: "one snapshot at 3000 u/s, cap half a 30 Hz tick (frozen at 25)",
        build: seed_004_half_tick,
    },
    Example {
        name: "seed-004-adaptive",
        title: "RTT 60 → 160 ms, the article's adaptive delay",
        build: seed_004_adaptive,
    },
];

/// The built-in trace called `name`.
pub fn example(name: &str) -> Option<Trace> {
    EXAMPLES.iter().find(|e| e.name == name).map(Example::trace)
}

/// `from..=to` in steps of `step`, each `k / scale` (exact decimals when `scale` is a power of ten).
fn grid(from: i64, to: i64, step: usize, scale: f64) -> Vec<f64> {
    (from..=to).step_by(step).map(|k| k as f64 / scale).collect()
}

fn snapshot(tick: u64, server_time: f64, x: f64, vx: f64, arrival: f64) -> TraceSnapshot {
    TraceSnapshot { tick, server_time, arrival, x, y: 0.0, vx, vy: 0.0, generation: None, teleport: None }
}

fn snapshots(snapshots: Vec<TraceSnapshot>) -> TraceData {
    TraceData::Snapshots { snapshots, rtt: Vec::new() }
}

fn seed_002() -> Trace {
    Trace {
        note: Some(
            "seed 002: ticks 100/101/102 at server 10.0/10.1/10.2 arrive at 10.08/10.25/10.23 (102 overtakes 101). \
             Delay 0.15 s, known clock, offset 0: at local 10.30 the render time is 10.15, between 101 and 102, \
             x = 1.5. sendInterval is derived (median spacing 0.1 s)."
                .into(),
        ),
        params: TraceParams { render_delay: Some(0.15), ..Default::default() },
        data: snapshots(vec![
            snapshot(100, 10.0, 0.0, 10.0, 10.08),
            snapshot(101, 10.1, 1.0, 10.0, 10.25),
            snapshot(102, 10.2, 2.0, 10.0, 10.23),
        ]),
        sample_at: grid(1000, 1040, 1, 100.0),
    }
}

fn seed_000_jitter() -> Trace {
    let jitter_ms = [0, 12, -8, 5, -15, 10, 0, -3];
    let snaps = jitter_ms
        .iter()
        .enumerate()
        .map(|(i, j)| {
            let sent_ms = 1000 + 50 * i as i64 + j;
            snapshot(i as u64, sent_ms as f64 / 1000.0, 20.0 * i as f64, 400.0, (sent_ms + 20) as f64 / 1000.0)
        })
        .collect();
    Trace {
        note: Some(
            "seed 000 §4.3.7: server times 1000 + 50i + jitter ms (jitter 0, 12, -8, 5, -15, 10, 0, -3), x = 20i, \
             arriving 20 ms later. Samples every 10 ms from render time 1.0 to 1.3: all ready, every step < 30 \
             (the largest is 20/3, over the 30 ms brackets)."
                .into(),
        ),
        params: TraceParams {
            render_delay: Some(0.1),
            send_interval: Some(0.05),
            underrun: Some(UnderrunPolicy::ExtrapolateSeed),
            max_extrapolation: Some(0.1),
            ..Default::default()
        },
        data: snapshots(snaps),
        sample_at: grid(1100, 1400, 10, 1000.0),
    }
}

fn seed_000_extrapolation(policy: UnderrunPolicy) -> Trace {
    let expected = match policy {
        UnderrunPolicy::ExtrapolateSeed => "peaks at 75 (0.25 · 3000 · 0.1) at 50 ms and is back at 0 from the cap on",
        _ => "rises monotonically and freezes at 150 (3000 · 0.1 / 2) from the cap on",
    };
    Trace {
        note: Some(format!(
            "seed 000 §4.3.7: a single snapshot (x 0, 3000 u/s at server 1.0) and nothing after, cap 0.1 s, \
             `{}`. Render times 1.0 to 1.2 every 10 ms, then 5.0: x {expected}.",
            policy.name()
        )),
        params: TraceParams {
            render_delay: Some(0.1),
            underrun: Some(policy),
            max_extrapolation: Some(0.1),
            ..Default::default()
        },
        data: snapshots(vec![snapshot(1, 1.0, 0.0, 3000.0, 1.05)]),
        sample_at: grid(110, 130, 1, 100.0).into_iter().chain([5.1]).collect(),
    }
}

fn batch(arrival: f64, seq: Option<u64>, points: &[(f64, f64, Option<f64>)], duration_ms: Option<f64>) -> TraceBatch {
    let points = points.iter().map(|&(x, y, offset_ms)| TracePoint { x, y, offset_ms }).collect();
    TraceBatch { arrival, seq, points, duration_ms }
}

fn seed_001_staircase() -> Trace {
    let points = [(0.0, 0.0, None), (60.0, 0.0, None), (60.0, 40.0, None), (120.0, 40.0, None)];
    Trace {
        note: Some(
            "seed 001: (0,0) → (60,0) → (60,40) → (120,40) at 120 px/s (S1 500 ms, S2 333 ms, S3 500 ms), received \
             at 0 and played from 0.12 (interpolationDelay). At local 0.77, 650 ms into the path: S2, progress \
             0.45, (60, 18). The lerp chase (0.1 per frame at 60 fps) heads straight for (120, 40)."
                .into(),
        ),
        params: TraceParams::default(),
        data: TraceData::Paths { paths: vec![batch(0.0, None, &points, None)] },
        sample_at: grid(0, 150, 1, 100.0),
    }
}

fn seed_001_v2() -> Trace {
    let v2 = [
        (100.0, 200.0, Some(0.0)),
        (112.0, 200.0, Some(120.0)),
        (130.0, 205.0, Some(280.0)),
        (160.0, 220.0, Some(1000.0)),
    ];
    let stale = [(90.0, 200.0, Some(0.0)), (100.0, 200.0, Some(500.0))];
    let next = [(160.0, 220.0, Some(0.0)), (220.0, 220.0, Some(1000.0))];
    Trace {
        note: Some(
            "seed 001 phase two: seq 12 with offsets 0/120/280/1000 ms (durationMs 1000) received at 0, played from \
             0.12: (112,200) at 0.24, (130,205) at 0.40, (160,220) at 1.12. seq 11 arrives late at 0.6 and is \
             dropped (staleDropped 1). seq 13 arrives at 1.0 and starts where seq 12 ends, at 1.12."
                .into(),
        ),
        params: TraceParams::default(),
        data: TraceData::Paths {
            paths: vec![
                batch(0.0, Some(12), &v2, Some(1000.0)),
                batch(0.6, Some(11), &stale, Some(500.0)),
                batch(1.0, Some(13), &next, Some(1000.0)),
            ],
        },
        sample_at: grid(0, 240, 2, 100.0),
    }
}

fn buffer_arrivals() -> Trace {
    // 20 Hz from server 1.00 at 100 u/s, each arriving 50 ms after it was sent, except where noted.
    let regular = |tick: u64| {
        let sent = 95 + 5 * tick as i64;
        snapshot(tick, sent as f64 / 100.0, 5.0 * (tick - 1) as f64, 100.0, (sent + 5) as f64 / 100.0)
    };
    let mut conflict = regular(5);
    (conflict.x, conflict.arrival) = (99.0, 1.26);
    let mut teleport = regular(7);
    (teleport.x, teleport.teleport) = (500.0, Some(true));
    let mut after_teleport = regular(8);
    after_teleport.x = 505.0;
    let mut out_of_order = regular(3);
    out_of_order.arrival = 1.22;
    let mut duplicate = regular(2);
    duplicate.arrival = 1.13;
    let mut late_duplicate = regular(1);
    late_duplicate.arrival = 1.5;
    let never_seen = snapshot(0, 0.95, -5.0, 100.0, 1.52);
    let tick_disagrees = snapshot(9, 1.02, 0.0, 100.0, 1.45);
    Trace {
        note: Some(
            "seed 002's arrival classes, each counted once: tick 2 twice (duplicate), tick 3 after tick 4 \
             (outOfOrder), tick 5 again with another x (conflict: the first is kept), tick 9 stamped before tick 8 \
             (invalid), tick 1 again after it was pruned (a late duplicate), tick 0, never seen, after tick 1 was \
             pruned (late). Tick 7 teleports to x 500: the bracket 6-7 is an invalidInterval and `hold` keeps the \
             last position until 7-8 is ready."
                .into(),
        ),
        params: TraceParams { send_interval: Some(0.05), ..Default::default() },
        data: snapshots(vec![
            regular(1),
            regular(2),
            duplicate,
            out_of_order,
            regular(4),
            regular(5),
            conflict,
            regular(6),
            teleport,
            after_teleport,
            tick_disagrees,
            late_duplicate,
            never_seen,
        ]),
        sample_at: grid(105, 160, 1, 100.0),
    }
}

fn seed_002_minimal() -> Trace {
    let still = |tick, server_time, x, arrival| snapshot(tick, server_time, x, 0.0, arrival);
    Trace {
        note: Some(
            "seed 002's minimal code: snapshots carry only time and position (velocity 0). Left 10.05 s at x 0, \
             right 10.15 s at x 10, interpolationDelay 0.10, known clock: at local 10.20 the render time is 10.10, \
             t = (10.10 - 10.05) / (10.15 - 10.05) = 0.5 and x = Lerp(0, 10, 0.5) = 5."
                .into(),
        ),
        params: TraceParams { render_delay: Some(0.1), ..Default::default() },
        data: snapshots(vec![still(1, 10.05, 0.0, 10.1), still(2, 10.15, 10.0, 10.18)]),
        sample_at: grid(1015, 1030, 1, 100.0),
    }
}

fn seed_000_hold() -> Trace {
    // 20 Hz from server 1.00, x = 10 · serverTime, each arriving 50 ms after it was sent; the link goes quiet
    // after server 1.80 (a hiccup), while the tab stalls from local 1.5 to 2.5.
    let snaps = (0..=16)
        .map(|k| {
            let sent = 100 + 5 * k;
            snapshot(k as u64 + 1, sent as f64 / 100.0, sent as f64 / 10.0, 10.0, (sent + 5) as f64 / 100.0)
        })
        .collect();
    Trace {
        note: Some(
            "seed 000 §4.3.4 and §4.3.5 as written: beforeOldest oldest, minSnapshots 1 (no priming), hold. Snapshots \
             every 50 ms from server 1.00 (x = 10 · serverTime) arrive 50 ms later, the last at server 1.80. Frames \
             every 10 ms from local 1.05 to 1.50, then none until 2.50 (a stalled second). Until local 1.10 the \
             render time (local - 0.1) is at or before the oldest: x 10, the oldest's. At 2.50 the render time 2.40 is \
             past the newest (1.80): hold stands on it, x 18, not on x 14 where the last frame before the stall drew \
             it."
            .into(),
        ),
        params: TraceParams {
            underrun: Some(UnderrunPolicy::Hold),
            before_oldest: Some(BeforeOldest::Oldest),
            min_snapshots: Some(1),
            ..Default::default()
        },
        data: snapshots(snaps),
        sample_at: grid(105, 150, 1, 100.0).into_iter().chain(grid(250, 260, 5, 100.0)).collect(),
    }
}

fn seed_004_half_tick() -> Trace {
    Trace {
        note: Some(
            "seed 004 §3.4 (\"外推时间不能超过一个tick的一半\"): a 30 Hz send interval (1/30 s), one snapshot (x 0, \
             3000 u/s at server 1.0) and nothing after, extrapolate-decay with capRule halfSendInterval: the cap is \
             1/60 s and x freezes at 3000 · (1/60) / 2 = 25 (seed 000's 120 ms cap would freeze it at 180)."
                .into(),
        ),
        params: TraceParams {
            render_delay: Some(0.1),
            send_interval: Some(1.0 / 30.0),
            underrun: Some(UnderrunPolicy::ExtrapolateDecay),
            cap_rule: Some(CapRule::HalfSendInterval),
            min_snapshots: Some(1),
            ..Default::default()
        },
        data: snapshots(vec![snapshot(1, 1.0, 0.0, 3000.0, 1.05)]),
        sample_at: grid(1100, 1140, 5, 1000.0),
    }
}

fn seed_004_adaptive() -> Trace {
    // Snapshots at 20 Hz, 30 ms one way, x = 100 · serverTime; RTT samples every 200 ms: 60 ms up to local 4.0,
    // 160 ms from 4.2 on (a route change, no jitter). Frames every 100 ms from 0.505 to 20.005.
    let snaps =
        (0..=400).map(|k| snapshot(k, k as f64 / 20.0, 5.0 * k as f64, 100.0, (k * 5 + 3) as f64 / 100.0)).collect();
    let rtt = (0..=100).map(|k| RttSample { at: k as f64 / 5.0, rtt: if k <= 20 { 0.06 } else { 0.16 } }).collect();
    Trace {
        note: Some(
            "seed 004 §4.2 as written (adaptiveDelay seed004, addLatency off, known clock): every 200 ms from the first \
             frame, smoothedRtt = lerp(smoothedRtt, rtt, 0.1) from 0, and the delay moves 2 % of the way to 0.15 s \
             while smoothedRtt > 100 ms, else to 0.05 s. The RTT steps from 60 to 160 ms at local 4.2; see the test \
             in tests/trace_cli.rs for the numbers worked by hand."
                .into(),
        ),
        params: TraceParams {
            render_delay: Some(0.05),
            adaptive_delay: Some(Some(AdaptiveMode::Seed004)),
            ..Default::default()
        },
        data: TraceData::Snapshots { snapshots: snaps, rtt },
        sample_at: grid(505, 20005, 100, 1000.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_valid_and_round_trips() {
        for e in &EXAMPLES {
            let trace = e.trace();
            assert_eq!(trace.validate(), Ok(()), "{}", e.name);
            assert_eq!(Trace::from_json(&trace.to_json()).as_ref(), Ok(&trace), "{}", e.name);
        }
        assert!(example("seed-002").is_some());
        assert!(example("nope").is_none());
    }

    #[test]
    fn grids_are_exact_decimals() {
        assert_eq!(grid(1000, 1003, 1, 100.0), [10.0, 10.01, 10.02, 10.03]);
        assert_eq!(grid(0, 10, 5, 1000.0), [0.0, 0.005, 0.01]);
    }
}
