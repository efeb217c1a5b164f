//! Cost of the jitter buffer's hot path at capacities 32, 128 and 1024:
//! - `insert_sample`: one in-order arrival (evicting the oldest of a full buffer) plus one sample at a render time
//!   that moves forward like a real frame clock (the cursor path);
//! - `insert_reordered`: arrivals in swapped pairs (every other one out of order) plus one sample;
//! - `sample_scattered`: samples at scattered render times (the binary-search path), no insert.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use netcode_lab::buffer::{BufferParams, SnapshotBuffer};
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;
use std::hint::black_box;

const CAPACITIES: [usize; 3] = [32, 128, 1024];
const INTERVAL: f64 = 0.05;

fn snapshot(tick: u64) -> Snapshot {
    Snapshot::moving(tick, tick as f64 * INTERVAL, Vec2::new(tick as f64, 0.0), Vec2::new(20.0, 0.0))
}

/// A full buffer of `capacity` snapshots, ticks 0..capacity.
fn full(capacity: usize) -> SnapshotBuffer {
    let mut buffer = SnapshotBuffer::with_params(BufferParams { capacity, ..BufferParams::default() }).unwrap();
    for tick in 0..capacity as u64 {
        buffer.insert(snapshot(tick), tick as f64 * INTERVAL + 0.1);
    }
    buffer
}

fn insert_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("insert_sample");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let mut buffer = full(capacity);
            let mut tick = capacity as u64;
            b.iter(|| {
                let outcome = buffer.insert(snapshot(tick), tick as f64 * INTERVAL + 0.1);
                // Render half the buffer behind the newest, moving one send interval per arrival.
                let render = (tick as f64 - capacity as f64 / 2.0) * INTERVAL + 0.01;
                let sample = buffer.sample(render);
                tick += 1;
                black_box((outcome, sample.position))
            });
        });
    }
    group.finish();
}

fn insert_reordered(c: &mut Criterion) {
    let mut group = c.benchmark_group("insert_reordered");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let mut buffer = full(capacity);
            let mut n = capacity as u64;
            b.iter(|| {
                let tick = n ^ 1; // …, 1, 0, 3, 2, 5, 4, …: every other arrival is out of order
                let outcome = buffer.insert(snapshot(tick), n as f64 * INTERVAL + 0.1);
                let sample = buffer.sample((n as f64 - capacity as f64 / 2.0) * INTERVAL + 0.01);
                n += 1;
                black_box((outcome, sample.position))
            });
        });
    }
    group.finish();
}

fn sample_scattered(c: &mut Criterion) {
    let mut group = c.benchmark_group("sample_scattered");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let mut buffer = full(capacity);
            let span = capacity as f64 * INTERVAL;
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            b.iter(|| {
                // A fixed xorshift sequence: deterministic, but jumps all over the buffer.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let render = (state % 1_000_000) as f64 / 1_000_000.0 * span;
                black_box(buffer.sample(render).position)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, insert_sample, insert_reordered, sample_scattered);
criterion_main!(benches);
