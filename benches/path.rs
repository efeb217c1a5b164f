//! Cost of the timed player and the lerp chase per simulated minute, and of one full comparison run.

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::path::compare::{run, CompareParams};
use netcode_lab::path::lerp_chase::{LerpChase, LerpParams};
use netcode_lab::path::params::PathParams;
use netcode_lab::path::player::PathPlayer;
use netcode_lab::path::truth::{batches_from_truth, BatchPlan, TruthPath};
use netcode_lab::path::PathBatch;
use std::hint::black_box;

/// Seed 001's staircase repeated for a minute at 120 px/s.
fn minute() -> (TruthPath, Vec<PathBatch>) {
    let mut points = vec![(0.0, 0.0)];
    for k in 0..45 {
        let (x, y) = (120.0 * k as f64, 40.0 * k as f64);
        points.extend([(x + 60.0, y), (x + 60.0, y + 40.0), (x + 120.0, y + 40.0)]);
    }
    let truth = TruthPath::at_speed(0.0, 120.0, &points).unwrap();
    let batches = batches_from_truth(&truth, &BatchPlan::default()).unwrap();
    (truth, batches)
}

fn player_minute(batches: &[PathBatch]) -> f64 {
    let mut player = PathPlayer::new(PathParams::default()).unwrap();
    let mut next = 0;
    let mut sum = 0.0;
    for k in 0..3600 {
        let now = k as f64 / 60.0;
        while next < batches.len() && batches[next].arrival <= now {
            player.ingest(&batches[next], batches[next].arrival);
            next += 1;
        }
        sum += player.sample(now).position.map_or(0.0, |p| p.x);
    }
    sum
}

fn lerp_minute(batches: &[PathBatch]) -> f64 {
    let mut lerp = LerpChase::new(LerpParams::default()).unwrap();
    let mut next = 0;
    let mut sum = 0.0;
    for k in 0..3600 {
        let now = k as f64 / 60.0;
        while next < batches.len() && batches[next].arrival <= now {
            lerp.ingest(&batches[next]);
            next += 1;
        }
        sum += lerp.step(1.0 / 60.0).map_or(0.0, |p| p.x);
    }
    sum
}

fn bench(c: &mut Criterion) {
    let (truth, batches) = minute();
    c.bench_function("timed player, 60 s at 60 fps", |b| b.iter(|| player_minute(black_box(&batches))));
    c.bench_function("lerp chase, 60 s at 60 fps", |b| b.iter(|| lerp_minute(black_box(&batches))));
    let searched = CompareParams { duration: 60.0, ..Default::default() };
    c.bench_function("compare, 60 s at 60 fps, delay searched", |b| {
        b.iter(|| run(black_box(&truth), black_box(&batches), &searched).unwrap())
    });
    let fixed = CompareParams { truth_delay: Some(1.17), ..searched };
    c.bench_function("compare, 60 s at 60 fps, fixed truthDelay", |b| {
        b.iter(|| run(black_box(&truth), black_box(&batches), &fixed).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
