use super::*;
use crate::link::{JitterModel, LossModel};

fn obs(tick: u64, server_time: f64, arrival: f64) -> Observation {
    Observation { tick, server_time, arrival }
}

/// Ten copies, given out of arrival order. A tick lasts 10 ms and the server sends every 2 ticks (20 ms).
///
/// | copy | tick | server | arrival | delay  | arrival order                    |
/// |------|------|--------|---------|--------|----------------------------------|
/// | A    | 0    | 0.00   | 0.050   | 50 ms  | 1st                              |
/// | B    | 2    | 0.02   | 0.080   | 60 ms  | 2nd                              |
/// | C    | 6    | 0.06   | 0.110   | 50 ms  | 3rd (tick 4 was lost)            |
/// | D    | 8    | 0.08   | 0.150   | 70 ms  | 4th                              |
/// | E    | 12   | 0.12   | 0.175   | 55 ms  | 5th                              |
/// | F    | 10   | 0.10   | 0.190   | 90 ms  | 6th: below 12, reordered         |
/// | G    | 8    | 0.08   | 0.200   | 120 ms | 7th: tick 8 again, a duplicate   |
/// | H    | 14   | 0.14   | 0.210   | 70 ms  | 8th (16, 18, 20 were lost)       |
/// | I    | 22   | 0.22   | 0.280   | 60 ms  | 9th                              |
/// | J    | 24   | 0.24   | 0.300   | 60 ms  | 10th                             |
fn ten() -> Vec<Observation> {
    vec![
        obs(12, 0.12, 0.175),
        obs(0, 0.00, 0.050),
        obs(8, 0.08, 0.200),
        obs(2, 0.02, 0.080),
        obs(24, 0.24, 0.300),
        obs(6, 0.06, 0.110),
        obs(8, 0.08, 0.150),
        obs(10, 0.10, 0.190),
        obs(14, 0.14, 0.210),
        obs(22, 0.22, 0.280),
    ]
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn ten_snapshots_worked_by_hand() {
    // Duplicates: G, 1 of 10 arrivals → 0.1. Reordered: F (10 after 12), 1 of 9 first copies → 1/9.
    // First copies' ticks 0 2 6 8 10 12 14 22 24: differences 2 4 2 2 2 2 8 2, most frequent 2 = the stride;
    // 4 hides 1 missing send, 8 hides 3: missing 4, bursts [1, 3], rate 4 / (4 + 9) = 4/13, mean burst 2.
    // Server time per tick 0.01 on every pair → send interval 2 × 0.01 = 0.02. Span 0.24 s < 3 s: no skew.
    // Delays (ms) 50 60 50 70 55 90 120 70 60 60 → base 50; excess sorted 0 0 5 10 10 10 20 20 40 70:
    // p50 at h = 4.5: 10 → 60 ms; p95 at h = 8.55: 40 + 0.55 · 30 = 56.5 → 106.5 ms; p99 at h = 8.91:
    // 40 + 0.91 · 30 = 67.3 → 117.3 ms. Jitter: median 10 ms, sigma = ln(56.5 / 10) / 1.6449 = 1.05277.
    let a = analyse(&ten(), &[]).unwrap();
    let f = &a.fit;
    assert!(close(f.duplicate.rate, 0.1), "{}", f.duplicate.rate);
    assert!(close(f.reorder.rate, 1.0 / 9.0), "{}", f.reorder.rate);
    assert_eq!(f.stream.tick_stride, 2);
    assert_eq!(a.bursts, vec![1, 3]);
    assert!(close(f.loss.rate, 4.0 / 13.0), "{}", f.loss.rate);
    assert_eq!(f.loss.mean_burst, Some(2.0));
    assert!(close(f.send_interval.unwrap(), 0.02));
    assert_eq!(f.clock_skew_ppm, None);
    assert!(close(f.latency.base, 0.05));
    assert!(close(f.latency.p50, 0.06), "{}", f.latency.p50);
    assert!(close(f.latency.p95, 0.1065), "{}", f.latency.p95);
    assert!(close(f.latency.p99, 0.1173), "{}", f.latency.p99);
    let Jitter::LogNormal { median, sigma } = f.jitter;
    assert!(close(median, 0.01));
    assert!((sigma - 1.0527718).abs() < 1e-6, "{sigma}");
    assert_eq!(f.stream.sends, 13);

    // As the simulator's network: 100 Hz ticks, a send every 2, 1 duplicate per 9 first copies.
    let net = f.network(None).unwrap();
    assert_eq!((net.tick_rate, net.send_rate, net.duration), (100.0, 50.0, 1.0));
    let d = net.downlink;
    assert_eq!((d.jitter_model, d.loss_model), (JitterModel::LogNormal, LossModel::Burst));
    assert!(close(d.latency, 0.05) && close(d.jitter, 0.01) && close(d.loss, 4.0 / 13.0));
    assert!(close(d.burst_length, 2.0) && close(d.duplicate, 1.0 / 9.0) && d.reorder == 0.0);
    net.playground().unwrap();
}

#[test]
fn the_order_given_does_not_matter_but_the_arrival_order_does() {
    let mut reversed = ten();
    reversed.reverse();
    assert_eq!(fit(&reversed, &[]).unwrap(), fit(&ten(), &[]).unwrap());
    // F arriving before E: nothing is reordered any more.
    let mut swapped = ten();
    swapped[7].arrival = 0.17;
    assert_eq!(fit(&swapped, &[]).unwrap().reorder.rate, 0.0);
}

#[test]
fn fewer_than_two_ticks_is_refused_by_name() {
    let none = fit(&[], &[]).unwrap_err();
    assert_eq!(
        none.to_string(),
        "snapshots: a fit needs snapshots of at least two distinct ticks; this trace has 0 snapshots of 0 ticks"
    );
    let one = fit(&[obs(3, 1.0, 1.1)], &[]).unwrap_err();
    assert_eq!(
        one.message,
        "a fit needs snapshots of at least two distinct ticks; this trace has 1 snapshot of 1 tick"
    );
    let same = fit(&[obs(3, 1.0, 1.1), obs(3, 1.0, 1.2)], &[]).unwrap_err();
    assert_eq!(
        same.message,
        "a fit needs snapshots of at least two distinct ticks; this trace has 2 snapshots of 1 tick"
    );
}

#[test]
fn two_snapshots_fit_with_nothing_lost_and_no_skew() {
    let f = fit(&[obs(5, 0.1, 0.15), obs(8, 0.16, 0.23)], &[0.2]).unwrap();
    // Stride 3 (the only difference), nothing missing; delays 50 and 70 ms.
    assert_eq!((f.loss.rate, f.loss.mean_burst, f.clock_skew_ppm), (0.0, None, None));
    assert!(close(f.send_interval.unwrap(), 0.06));
    assert!(close(f.latency.base, 0.05) && close(f.latency.p50, 0.06));
    assert_eq!(f.stream.min_rtt, Some(0.2));
}

#[test]
fn bad_numbers_are_refused_naming_the_copy() {
    let e = fit(&[obs(1, 0.0, 0.1), obs(2, f64::NAN, 0.2)], &[]).unwrap_err();
    assert_eq!(e.field, "snapshots[1].serverTime");
    let e = fit(&[obs(1, 0.0, 2e12), obs(2, 0.1, 0.2)], &[]).unwrap_err();
    assert_eq!(e.field, "snapshots[0].arrival");
    let e = fit(&[obs(1, 0.0, 0.1), obs(2, 0.1, 0.2)], &[0.1, -0.5]).unwrap_err();
    assert_eq!(e.field, "rtt[1].rtt");
}

#[test]
fn a_linear_skew_is_read_off_the_lower_envelope() {
    // 60 s at 60 Hz; delay 50 ms + 200 ppm × server time + a sawtooth of 0..9 ms that is 0 every tenth packet.
    // Every 1 s window holds 60 packets, so its smallest delay is its first zero-sawtooth packet, always the same
    // place in the window: the window minima lie exactly on a line of slope 200e−6.
    let observations: Vec<Observation> = (0..3600u64)
        .map(|k| {
            let s = k as f64 / 60.0;
            obs(k, s, s + 0.05 + 200e-6 * s + ((k * 7) % 10) as f64 * 0.001)
        })
        .collect();
    let f = fit(&observations, &[]).unwrap();
    let ppm = f.clock_skew_ppm.unwrap();
    assert!((ppm - 200.0).abs() < 0.01, "{ppm}");
    // Removing the skew leaves the floor at 50 ms and the sawtooth: p50 of 0..9 ms in equal shares is 4.5 ms.
    assert!((f.latency.base - 0.05).abs() < 1e-6, "{}", f.latency.base);
    assert!((f.latency.p50 - 0.0545).abs() < 1e-6, "{}", f.latency.p50);
    assert_eq!(f.network(None).unwrap().clock_skew, ppm * 1e-6);
}

#[test]
fn a_floor_that_cannot_be_a_latency_takes_half_the_smallest_rtt_or_is_refused() {
    // Arrivals on a clock 100 s behind the server's: the floor is −99.95 s.
    let skewed = [obs(0, 100.0, 0.05), obs(1, 100.05, 0.1)];
    let e = fit(&skewed, &[]).unwrap().network(None).unwrap_err();
    assert_eq!(e.field, "latency.base");
    let net = fit(&skewed, &[0.3, 0.12, 0.2]).unwrap().network(None).unwrap();
    assert!(close(net.downlink.latency, 0.06));
}

#[test]
fn the_figure_bins_the_recording_and_a_draw_of_the_model() {
    // Ticks 0–4 and 8–12 every 20 ms (5, 6, 7 lost: one burst of 3); delays (ms) 50 52 53 58 61 74 50 51 63 99,
    // each at least 1 ms from a bin edge. Excess sorted 0 0 1 2 3 8 11 13 24 49; p99.5 at h = 8.955:
    // 24 + 0.955 · 25 = 47.875 ms → 10 bins of 5 ms, up to 50 ms.
    let ticks = [0u64, 1, 2, 3, 4, 8, 9, 10, 11, 12];
    let delays = [50.0, 52.0, 53.0, 58.0, 61.0, 74.0, 50.0, 51.0, 63.0, 99.0];
    let observations: Vec<Observation> =
        ticks.iter().zip(delays).map(|(&t, d)| obs(t, t as f64 * 0.02, t as f64 * 0.02 + d / 1000.0)).collect();
    let fig = model::figure(&observations, &[], 7).unwrap();
    let r = &fig.recorded;
    assert_eq!(r.delay.counts, vec![5, 1, 2, 0, 1, 0, 0, 0, 0, 1]);
    assert_eq!(r.delay.over, 0);
    assert_eq!(r.bursts.counts, vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    // The draw: as many sends as the recording spans (13), each delivered once (no duplicates fitted) or lost.
    let f = &fig.fitted;
    assert_eq!(f.delay.counts.len(), 10);
    let delivered: u64 = f.delay.counts.iter().sum::<u64>() + f.delay.over;
    let lost: u64 = f.bursts.counts.iter().enumerate().map(|(i, n)| (i as u64 + 1) * n).sum();
    assert!(delivered + lost <= 13 && delivered + lost >= 13 - 9 && lost < 13, "{delivered} + {lost}");
    assert_eq!(model::figure(&observations, &[], 7).unwrap(), fig, "seeded");
    assert_ne!(model::figure(&observations, &[], 8).unwrap().fitted, fig.fitted, "another seed, another draw");
}
