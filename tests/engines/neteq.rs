//! NetEQ (`engines::neteq`): the histogram's forgetting and quantile, the arrival history's relative delays,
//! the target's step response, and the playout clock's accelerate / preemptive expand / expand on fixed traces.
//! The expected numbers follow from the upstream formulas (webrtc `histogram.cc`, `underrun_optimizer.cc`,
//! `packet_arrival_history.cc`, `decision_logic.cc`), worked out in each comment.

use super::support::{snap, SPEED};
use netcode_lab::compare::league::{league, Network};
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::engines::neteq::{
    Histogram, Neteq, NeteqParams, Operation, PacketArrivalHistory, UnderrunOptimizer, DELAY_BUCKETS,
};
use netcode_lab::engines::{EngineParams, StrategyKind};
use netcode_lab::engines::{ShownMode, Smoother};
use netcode_lab::link::{JitterModel, LossModel};
use netcode_lab::sim::params::SimParams;
use proptest::prelude::*;

/// forget_factor 0.983 in Q15: 32768 × 0.983 = 32210.94, truncated.
const FORGET: i32 = 32210;
/// quantile 0.95 in Q30: 2^30 × 0.95 = 1020054732.8, truncated.
const Q95: i32 = 1_020_054_732;
const ONE: i32 = 1 << 30;

/// Start-up forgetting (start_forget_weight 2): after the n-th sample the factor is 32768 × (1 − 2 / (n + 1)),
/// truncated: 0 after the first (the first sample wipes the reset shape), then 10922 (1/3), 16384 (1/2), 19660
/// (3/5), 21845 (2/3). Adds 1, 3, 3, 0, 2:
///   1: all × 0, bucket 1 = (32768 − 0) << 15 = 2^30.
///   3: factor still 0: bucket 3 = 2^30.
///   3: bucket 3 = 2^30 × 10922 >> 15 = 357892096, + (32768 − 10922) << 15 = 715849728: 2^30.
///   0: bucket 3 = 2^30 × 16384 >> 15 = 2^29; bucket 0 = 16384 << 15 = 2^29.
///   2: buckets 0 and 3 = 2^29 × 19660 >> 15 = 322109440; bucket 2 = (32768 − 19660) << 15 = 429522944.
/// Quantile 0.95 (stop when the mass above is ≤ 2^30 − Q95 = 53687092): after the fourth add the mass above
/// bucket 0 is 2^29, above 1 and 2 still 2^29, above 3 zero: bucket 3. At 0.5 the mass above bucket 0 is 2^29 =
/// 2^30 − 2^29, not greater: bucket 0.
/// Red if the start-up factor follows the older quarter-step rule, if the first sample does not wipe, or if the
/// quantile walks one bucket too far or too short.
#[test]
fn histogram_forgets_fast_at_start_and_finds_the_quantile() {
    let mut h = Histogram::new(DELAY_BUCKETS, FORGET, Some(2.0));
    assert_eq!(h.buckets()[0], 8193 << 16, "Reset: 0x4002 >> 1 in Q14, shifted to Q30");
    let factors = [0, 10922, 16384, 19660, 21845];
    for (value, factor) in [1, 3, 3, 0, 2].into_iter().zip(factors) {
        h.add(value);
        assert_eq!(h.forget_factor(), factor, "after adding {value}");
        assert_eq!(h.buckets().iter().map(|b| i64::from(*b)).sum::<i64>(), i64::from(ONE));
        if value == 0 {
            assert_eq!(&h.buckets()[..4], &[1 << 29, 0, 0, 1 << 29]);
            assert_eq!(h.quantile(Q95), 3);
            assert_eq!(h.quantile(1 << 29), 0);
        }
    }
    assert_eq!(&h.buckets()[..4], &[322_109_440, 0, 429_522_944, 322_109_440]);
}

/// Without a start weight the factor moves a quarter of the way each sample: (32210 − f + 3) >> 2 → 8053, 14093,
/// 18623, 22020. The fourth sample is the first whose products are not exact (113490929 × 18623 >> 15 truncates):
/// the buckets then sum to 2^30 − 4, and the correction adds min(4, bucket >> 4) to bucket 0. Expected buckets
/// from the upstream formulas (a separate port of `Histogram::Add`): 64500171, 197953768, 347784525, 463503360.
/// Red if the rounding correction is skipped (the sum would not be 2^30) or applied to the wrong bucket.
#[test]
fn histogram_keeps_its_sum_with_the_rounding_correction() {
    let mut h = Histogram::new(8, FORGET, None);
    let mut factors = Vec::new();
    for value in [0, 1, 2, 3] {
        h.add(value);
        factors.push(h.forget_factor());
    }
    assert_eq!(factors, [8053, 14093, 18623, 22020]);
    assert_eq!(&h.buckets()[..4], &[64_500_171, 197_953_768, 347_784_525, 463_503_360]);
    assert_eq!(h.buckets().iter().map(|b| i64::from(*b)).sum::<i64>(), i64::from(ONE));
}

/// The target follows a step up in 3 samples and back down in 175. With the factor at its base f = 32210/32768 =
/// 0.98297 (after 200 samples of 0 ms), samples of 100 ms (bucket 5) put 1 − f^k above bucket 0: 0.0338 after two,
/// 0.0502 > 0.05 after three → target (1 + 5) × 20 = 120 ms. After 300 samples at 100 ms, bucket 5 holds
/// 1 − f^300 ≈ 0.9942; samples of 0 ms leave 0.9942 × f^k above bucket 0, ≤ 0.05 once k ≥ ln(0.0503) / ln(f) =
/// 174.1 → 175 samples → target 20 ms. Red if the forget factor, the bucket width or the quantile differ.
#[test]
fn the_target_rises_in_three_samples_and_falls_in_a_hundred_and_seventy_five() {
    let mut u = UnderrunOptimizer::new(Q95, FORGET, Some(2.0), None);
    assert_eq!(u.optimal_delay_ms(), None, "no sample yet: DelayManager uses kStartDelayMs");
    for _ in 0..200 {
        u.update(0, 0);
    }
    assert_eq!(u.optimal_delay_ms(), Some(20));
    assert_eq!(u.histogram().forget_factor(), FORGET);
    let mut up = 0;
    while u.optimal_delay_ms() != Some(120) {
        u.update(100, 0);
        up += 1;
    }
    assert_eq!(up, 3);
    for _ in up..300 {
        u.update(100, 0);
    }
    let mut down = 0;
    while u.optimal_delay_ms() != Some(20) {
        u.update(0, 0);
        down += 1;
        assert!(down < 1000);
    }
    assert_eq!(down, 175);
}

/// Resampling (500 ms): the histogram takes the largest delay of each interval, once more than 500 ms (51 ticks)
/// have passed, and the delay that closes the interval starts the next one. Delays 30 (tick 0), 100 (tick 50),
/// 10 (tick 51): the third closes the first interval with max(30, 100) = 100 → bucket 5 → 120 ms; the 10 ms is
/// not in it. Red if the interval closes at 500 ms, or the closing delay counts in the interval it closes.
#[test]
fn resampling_keeps_the_largest_delay_of_each_half_second() {
    let mut u = UnderrunOptimizer::new(Q95, FORGET, Some(2.0), Some(500));
    u.update(30, 0);
    u.update(100, 50);
    assert_eq!(u.optimal_delay_ms(), None);
    u.update(10, 51);
    assert_eq!(u.optimal_delay_ms(), Some(120));
    u.update(200, 101);
    assert_eq!(u.optimal_delay_ms(), Some(120), "10 and 200 wait for the interval that closes after tick 102");
}

/// Relative delays (ms, a 1 kHz clock): (ts 0, arrived 100), (50, 150): 50 − 50 = 0; (100, 230): 130 − 100 = 30;
/// (150, 240): lateness 90 < 100, the new fastest: 0, and the slowest (ts 100, lateness 130) now 40 behind it;
/// (125, 250) after 150 is reordered: (250 − 240) − (125 − 150) = 35, kept but never the fastest or slowest; a
/// repeat of 150 and a packet more than 2000 ms older than the newest are refused. Red if reordered packets become
/// the reference, or duplicates are counted twice.
#[test]
fn relative_delay_is_measured_from_the_fastest_packet_of_the_window() {
    let mut h = PacketArrivalHistory::default();
    let mut delays = Vec::new();
    for (ts, at) in [(0, 100), (50, 150), (100, 230), (150, 240)] {
        assert!(h.insert(ts, at, 50));
        delays.push(h.delay_ms(ts, at));
    }
    assert_eq!(delays, [0, 0, 30, 0]);
    assert_eq!(h.max_delay_ms(), 40);
    assert!(h.insert(125, 250, 50));
    assert!(!h.is_newest(125));
    assert_eq!(h.delay_ms(125, 250), 35);
    assert_eq!(h.max_delay_ms(), 40);
    assert!(!h.insert(150, 260, 50), "already held");
    assert!(h.insert(2200, 2300, 50));
    assert!(!h.insert(150, 2310, 50), "150 + 2000 < 2200: obsolete");
    assert_eq!(h.len(), 1, "0, 50, 100, 125 and 150 are older than 2200 − 2000: pruned");
}

/// Runs a 20 Hz stream (the ticks and arrival times given) with 60 Hz frames; returns per frame (local time, mode,
/// render time, the running operation, the target).
fn run(arrivals: &[(u64, f64)], until: f64) -> Vec<(f64, ShownMode, f64, Option<Operation>, i64)> {
    let mut neteq = Neteq::new(NeteqParams::default(), 0.05);
    let mut pending: Vec<(u64, f64)> = arrivals.to_vec();
    pending.sort_by(|a, b| a.1.total_cmp(&b.1));
    let mut out = Vec::new();
    let (mut next, dt) = (0, 1.0 / 60.0);
    for i in 1..=(until / dt).round() as usize {
        let now = i as f64 * dt;
        while next < pending.len() && pending[next].1 <= now {
            neteq.on_snapshot(&snap(pending[next].0), pending[next].1);
            next += 1;
        }
        let shown = neteq.frame(now, dt);
        if let Some(p) = shown.position {
            assert!((p.x - SPEED * shown.render_time).abs() < 1e-6, "the position is the polyline at the render time");
        }
        out.push((now, shown.mode, shown.render_time, neteq.operation(), neteq.target_delay_ms()));
    }
    out
}

/// How many times `op` starts in `frames`.
fn operations(frames: &[(f64, ShownMode, f64, Option<Operation>, i64)], op: Operation) -> usize {
    frames.windows(2).filter(|w| w[1].3 == Some(op) && w[0].3 != Some(op)).count()
}

/// A steady stream, every snapshot 100 ms in flight. The playout delay P = (now − fastest arrival) − (render − its
/// RTP timestamp), with RTP = server time − 50 ms, is now − 100 − 50 − render: the lag behind the true server time
/// is 150 + P. Playout starts once the second snapshot is in (0.15 s; P = 10, lag 160). Until the first half-second
/// sample the target is kStartDelayMs, 80: five preemptive expands of 15 ms each (30 ms of server time over 45 ms,
/// one per 45 ms + 5 ticks) take the lag to 235. The first sample (every relative delay is 0 → bucket 0) sets the
/// target to 20 ms (the reorder optimizer's is 20 too), and P = 85 ≥ 20 + 0 + 20 = 40, the high limit: accelerates
/// of 15 ms (30 ms over 15) take P to 70, 55, 40, 25 — four — and then Normal for good: the lag settles at 175, in
/// [170, 190), with no underrun. Red if the RTP timestamp is the server time itself (the lag would be 50 ms
/// shorter), if a stretch is not 15 ms or not spaced by 5 ticks, if accelerate fires below the high limit, or
/// expand without a gap.
#[test]
fn a_steady_stream_settles_at_the_target_and_never_runs_dry() {
    let arrivals: Vec<(u64, f64)> = (0..=400).map(|k| (k, k as f64 / 20.0 + 0.1)).collect();
    let frames = run(&arrivals, 20.0);
    let settled: Vec<_> = frames.iter().filter(|f| f.0 > 3.0).collect();
    assert!(settled.iter().all(|f| f.4 == 20), "target 20 ms");
    for f in &settled {
        let lag = f.0 - f.2;
        assert!((0.170 - 1e-9..0.190).contains(&lag), "lag {lag} at {}", f.0);
        assert_eq!(f.1, ShownMode::Interpolated);
    }
    assert_eq!(operations(&frames, Operation::PreemptiveExpand), 5);
    assert_eq!(operations(&frames, Operation::Accelerate), 4);
    assert_eq!(operations(&frames, Operation::FastAccelerate), 0);
    assert!(!frames.iter().any(|f| f.1 == ShownMode::Held));
    assert!(settled.iter().all(|f| (f.0 - f.2 - 0.175).abs() < 1e-9), "lag 175 ms");
}

/// The same stream with the snapshots of server times 5.00 … 5.45 held back and delivered, in order, at 5.60 (with
/// 5.50, on time). The clock plays on to 4.95 and stands there (Expand, frames `held`) until the burst arrives;
/// the burst's relative delays reach 5.60 − 5.00 − 0.10 = 500 ms. About ten half-second samples of 0 came before:
/// the start-up factor is then near 1 − 2 / 12 = 0.83, so the spike's sample weighs about 0.17 > 0.05 and the
/// target jumps to its bucket, (1 + 25) × 20 = 520 ms (25 = 500 / 20). Later samples (all 0) forget it and the
/// target returns to 20; NetEQ accelerates — one stretch per 15 ms + 5 ticks — until P is back under the high
/// limit (40): by 40 s P is in [20, 40) again, the lag in [170, 190). Red if the expand advances the clock, if
/// there is no start-up forgetting (the spike would weigh 0.017 and the target stay 20), or if accelerate never
/// fires.
#[test]
fn a_held_back_burst_expands_then_the_target_jumps_and_accelerate_brings_it_back() {
    let arrivals: Vec<(u64, f64)> = (0..=800)
        .map(|k| {
            let t = k as f64 / 20.0;
            (k, (t + 0.1).max(if k >= 100 { 5.6 } else { 0.0 }))
        })
        .collect();
    let frames = run(&arrivals, 40.0);
    let held: Vec<_> = frames.iter().filter(|f| f.1 == ShownMode::Held).collect();
    assert!(!held.is_empty());
    assert!(held.iter().all(|f| (f.2 - 4.95).abs() < 1e-9), "held at the newest snapshot, 4.95");
    assert!(held.iter().all(|f| f.0 > 5.0 && f.0 < 5.65), "only while the burst is held back");
    let peak = frames.iter().map(|f| f.4).max().unwrap();
    assert_eq!(peak, 520);
    let accelerated = operations(&frames, Operation::Accelerate);
    assert!(accelerated >= 10, "accelerates {accelerated}");
    let last = frames.last().unwrap();
    assert_eq!(last.4, 20);
    let lag = last.0 - last.2;
    assert!((0.170 - 1e-9..0.190).contains(&lag), "lag {lag}: P in [20, 40)");
}

/// Mirror's standard-deviation rule (`mirror-core`: SnapshotInterpolation with `dynamicAdjustment`, tolerance 1;
/// `mirror` adds its NetworkTransform's send interval on top) against NetEQ (quantile 0.95) on a bursty network: 60 ms
/// latency, exponential jitter of mean 20 ms, 5 % of packets lost in bursts of 4, 60 s, seeds 1–3. Measured
/// (underrun share, added latency): Mirror 4.2 / 1.8 / 2.8 % at 219 / 209 / 195 ms; NetEQ 3.0 / 1.5 / 1.8 % at
/// 284 / 246 / 271 ms. NetEQ runs dry less often on every seed and shows 37–76 ms later: its 95 % quantile of the
/// half-second maxima sits above Mirror's 1 + σ + 1 send intervals. With Mirror's tolerance at 2 (a buffer of
/// 3 + σ intervals, 244–268 ms) the underrun shares come within a few tenths of a percent of NetEQ's (3.3 / 1.2 /
/// 1.9 %): the gap is the latency each spends, not a better rule. Red if NetEQ's target fell to Mirror's (no
/// fewer underruns) or grew free (no later).
#[test]
fn on_a_bursty_network_neteq_runs_dry_less_than_mirror_and_shows_later() {
    for seed in 1..=3 {
        let mut sim = SimParams { seed, duration: 60.0, ..SimParams::default() };
        let link = &mut sim.network.downlink;
        (link.latency, link.jitter, link.jitter_model) = (0.06, 0.02, JitterModel::Exponential);
        (link.loss, link.loss_model, link.burst_length) = (0.05, LossModel::Burst, 4.0);
        let params = PlaygroundParams { sim, engines: EngineParams::default() };
        let table =
            league(&params, &[Network::custom("bursty")], &[StrategyKind::MirrorCore, StrategyKind::Neteq]).unwrap();
        let (mirror, neteq) = (&table.cells[0].metrics, &table.cells[1].metrics);
        let (m, n) = (mirror.underrun_share.unwrap(), neteq.underrun_share.unwrap());
        assert!(n < m, "seed {seed}: NetEQ dry {n}, Mirror {m}");
        let later = neteq.track.added_latency - mirror.track.added_latency;
        assert!((0.03..0.09).contains(&later), "seed {seed}: NetEQ {later} s later");
    }
}

proptest! {
    /// Duplicates, reordering, huge gaps and clock jumps: no panic, no NaN shown, the render time never goes back,
    /// and the buffer stays bounded.
    #[test]
    fn no_nan_or_panic_on_any_delivery_order(
        events in prop::collection::vec((0u64..400, prop::bool::ANY, 0.0f64..1.0), 1..300),
        gap in prop::sample::select(vec![0.0, 10.0, 1e6, 1e9]),
    ) {
        let mut neteq = Neteq::new(NeteqParams { max_packets_in_buffer: 16, ..NeteqParams::default() }, 0.05);
        let mut now = 0.0;
        let mut last_render = f64::NEG_INFINITY;
        for (i, (tick, dup, step)) in events.into_iter().enumerate() {
            now += step * 0.05 + if i == 150 { gap } else { 0.0 };
            let s = snap(tick);
            neteq.on_snapshot(&s, now);
            if dup {
                neteq.on_snapshot(&s, now);
            }
            let shown = neteq.frame(now, step);
            if let Some(p) = shown.position {
                prop_assert!(p.x.is_finite() && p.y.is_finite());
                prop_assert!(shown.render_time.is_finite());
                prop_assert!(shown.render_time >= last_render - 1e-9, "{} < {}", shown.render_time, last_render);
                last_render = shown.render_time;
            }
            prop_assert!(neteq.arrival_history().len() <= 2100);
        }
    }
}
