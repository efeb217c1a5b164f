//! What `netcode-lab fit` costs on a long recording: a 300 s trace at 60 Hz (about 18 000 copies, lossy, bursty,
//! reordered, duplicated, on a skewed clock), fitted; and the page's figure of the same trace (the fit, its
//! histograms and a draw of the fitted model).

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::fit::{self, Observation};
use netcode_lab::link::{JitterModel, Link, LinkParams, LossModel, PacketFate};
use std::hint::black_box;

/// 300 s of sends at 60 Hz through a log-normal, bursty, reordering, duplicating link, on a clock 100 ppm fast.
fn recording() -> Vec<Observation> {
    let params = LinkParams {
        latency: 0.04,
        jitter: 0.01,
        jitter_model: JitterModel::LogNormal,
        jitter_sigma: 0.7,
        loss: 0.05,
        loss_model: LossModel::Burst,
        burst_length: 3.0,
        reorder: 0.02,
        duplicate: 0.01,
        ..LinkParams::default()
    };
    let mut link: Link<()> = Link::new(params, 1, 0);
    let mut out = Vec::new();
    for tick in 0..18_000u64 {
        let sent = tick as f64 / 60.0;
        if let PacketFate::Delivered { arrival, duplicate, .. } = link.send_with_fate(sent, ()) {
            for a in std::iter::once(arrival).chain(duplicate) {
                out.push(Observation { tick, server_time: sent, arrival: a * (1.0 + 100e-6) });
            }
        }
    }
    out
}

fn fitting(c: &mut Criterion) {
    let trace = recording();
    let rtt = [0.09];
    c.bench_function("fit_300s_60hz", |b| b.iter(|| fit::fit(black_box(&trace), &rtt).unwrap().loss.rate));
    c.bench_function("fit_figure_300s_60hz", |b| {
        b.iter(|| fit::model::figure(black_box(&trace), &rtt, 1).unwrap().fitted.delay.counts.len())
    });
}

criterion_group!(benches, fitting);
criterion_main!(benches);
