//! How long a whole prediction run takes: the page re-runs a 60 s window whenever a parameter changes.

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::predict::input::InputScript;
use netcode_lab::predict::params::PredictParams;
use netcode_lab::predict::session::run;
use std::hint::black_box;

fn whole_runs(c: &mut Criterion) {
    let honest = PredictParams::default();
    let buggy = PredictParams { mismatch: true, ..PredictParams::default() };
    for (name, params, fps) in
        [("60s_60fps", honest, 60.0), ("60s_144fps", honest, 144.0), ("60s_60fps_mismatch", buggy, 60.0)]
    {
        c.bench_function(name, |b| {
            b.iter(|| run(black_box(params), 20.0, InputScript::demo(60.0), 60.0, fps).unwrap().frames.len())
        });
    }
}

criterion_group!(benches, whole_runs);
criterion_main!(benches);
