//! What a slider drag costs: the page re-simulates the whole window (and its metrics and the delay sweep)
//! whenever a parameter changes. Targets: 60 s at 60 fps ≤ 2 ms in wasm; 64-point sweep ≤ 50 ms.
//! (The engines' cost beside this run is in benches/engines.rs: this file is also copied into a baseline tree by
//! `cargo xtask bench-page --baseline`, so it uses only what every version of the core has.)

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::compare::sweep::sweep;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::run;
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

/// Sets one parameter to one of two values (`odd` picks which).
type Change = fn(&mut SimParams, bool);

/// Where a full re-run's time goes: a change that touches one pipeline re-simulates only that one and copies
/// the other columns from the previous run (`sim::rerun`). Each iteration alternates between two values.
fn partial_reruns(c: &mut Criterion) {
    let base = window(60.0);
    let mut sim = run(&base).unwrap();
    let changes: [(&str, Change); 4] = [
        ("rerun_60s_remote_only", |p, odd| p.remote.clock.render_delay = if odd { 0.12 } else { 0.1 }),
        ("rerun_60s_paths_only", |p, odd| p.paths.lerp.lerp_factor = if odd { 0.2 } else { 0.1 }),
        ("rerun_60s_local_only", |p, odd| p.local.max_pending_inputs = if odd { 30 } else { 31 }),
        ("rerun_60s_everything", |p, odd| p.seed = if odd { 2 } else { 1 }),
    ];
    for (name, change) in changes {
        let mut params = base.clone();
        let mut odd = false;
        c.bench_function(name, |b| {
            b.iter(|| {
                odd = !odd;
                change(&mut params, odd);
                sim.rerun(black_box(&params)).unwrap();
            })
        });
    }
    // The full re-simulation the page does on a change, with the metrics it shows (bench.html's "metrics of a
    // 60 s run"): the base of the engines' goal, that scoring all of them (benches/engines.rs
    // `engines_all_60s_scored`) adds at most 50 % to it.
    let mut params = base.clone();
    c.bench_function("rerun_60s_everything_metrics", |b| {
        b.iter(|| {
            params.seed = 3 - params.seed;
            sim.rerun(black_box(&params)).unwrap();
            black_box(sim.metrics()).frames
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = whole_runs, partial_reruns
}
criterion_main!(benches);
