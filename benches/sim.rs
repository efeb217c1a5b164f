//! What a slider drag costs: the page re-simulates the whole window (and its metrics and the delay sweep)
//! whenever a parameter changes. Targets (issue 6): 60 s at 60 fps ≤ 2 ms in wasm; 64-point sweep ≤ 50 ms.

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::run;
use netcode_lab::sim::sweep::sweep;
use std::hint::black_box;

fn window(duration: f64) -> SimParams {
    SimParams { duration, ..SimParams::default() }
}

fn whole_runs(c: &mut Criterion) {
    let long = window(60.0);
    c.bench_function("run_60s_60fps", |b| b.iter(|| run(black_box(&long)).unwrap().recording().frames.len()));
    let sim = run(&long).unwrap();
    c.bench_function("metrics_60s_60fps", |b| b.iter(|| black_box(sim.metrics()).frames));
    let page = window(20.0);
    let delays: Vec<f64> = (0..64).map(|i| i as f64 * 0.005).collect();
    c.bench_function("sweep_64_points_20s", |b| b.iter(|| sweep(black_box(&page), &delays).unwrap().len()));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = whole_runs
}
criterion_main!(benches);
