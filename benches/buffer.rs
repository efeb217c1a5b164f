//! Cost of the jitter buffer's hot path at capacities 32, 128 and 1024:
//! - `insert_sample`: one in-order arrival (evicting the oldest of a full buffer) plus one full `sample` at a
//!   render time that moves forward like a real frame clock (the cursor path) — what the page's playback calls;
//! - `insert_reordered`: arrivals in swapped pairs (every other one out of order) plus one sample;
//! - `sample_scattered`: samples at scattered render times (the binary-search path), no insert;
//! - `ring_insert_sample`: the `insert_sample` workload on [`GoodRing`], peerbench's "goodjs" JavaScript buffer
//!   written again in Rust operation for operation (no outcomes, statuses, reasons or counters);
//! - `book_tick` / `goodjs_tick`: one server tick of peerbench's workload (a) — an in-order arrival and three
//!   frames (20 arrivals and 60 samples per simulated second), times in ms around 1.7e12 — on the core through
//!   `wasm-buffer/src/book.rs` (the very code peerbench times in wasm: `insert` + `sample_drawn`, the book's
//!   clamp and extrapolation) and on [`GoodRing`]. The goal is core ≤ 1.5 × ring here and in peerbench
//!   (`cargo xtask bench-page --only peer,native` prints both ratios).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use netcode_lab::buffer::{BufferParams, SnapshotBuffer};
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;
use std::hint::black_box;

#[path = "wasm-buffer/src/book.rs"]
mod book;
#[path = "wasm-buffer/src/good_ring.rs"]
mod good_ring;

use good_ring::GoodRing;

const CAPACITIES: [usize; 3] = [32, 128, 1024];
const INTERVAL: f64 = 0.05;

fn snapshot(tick: u64) -> Snapshot {
    Snapshot::moving(tick, tick as f64 * INTERVAL, Vec2::new(tick as f64, 0.0), Vec2::new(20.0, 0.0))
}

/// A full buffer of `capacity` snapshots, ticks 0..capacity.
fn full(capacity: usize) -> SnapshotBuffer {
    let mut buffer =
        SnapshotBuffer::with_params(BufferParams { capacity, ..BufferParams::default() }, INTERVAL).unwrap();
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

fn ring_insert_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("ring_insert_sample");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let mut ring = GoodRing::new(capacity, 0.25);
            let push = |ring: &mut GoodRing, tick: u64| {
                let s = snapshot(tick);
                ring.push(tick as f64, s.server_time, s.pos.x, s.pos.y, s.vel.x, s.vel.y);
            };
            for tick in 0..capacity as u64 {
                push(&mut ring, tick);
            }
            let mut tick = capacity as u64;
            b.iter(|| {
                push(&mut ring, tick);
                let render = (tick as f64 - capacity as f64 / 2.0) * INTERVAL + 0.01;
                let sample = ring.sample(render).copied();
                tick += 1;
                black_box(sample)
            });
        });
    }
    group.finish();
}

/// Server tick `k` of peerbench's trace (ms): time, position, velocity.
fn tick_ms(k: u64) -> (f64, f64, f64, f64, f64, f64) {
    let k = k as f64;
    (k, 1.7e12 + 50.0 * k, k, 0.5 * k, 20.0, 10.0)
}

/// One server tick of peerbench's workload (a) on `push`/`sample`: the arrival of tick `k`, then three frames
/// 50/3 ms apart, rendering ~100 ms behind it (the cursor path; every sample interpolates).
fn one_tick(k: u64, mut push: impl FnMut(f64, f64, f64, f64, f64, f64), mut sample: impl FnMut(f64) -> f64) -> f64 {
    let (tick, t, x, y, vx, vy) = tick_ms(k);
    push(tick, t, x, y, vx, vy);
    (0..3).map(|frame| sample(t - 97.0 + 50.0 / 3.0 * frame as f64)).sum()
}

/// Fills the buffer past its capacity (so evictions happen), then times one tick of workload (a) at a time.
fn warm_then_time(
    b: &mut criterion::Bencher,
    capacity: usize,
    push: impl Fn(f64, f64, f64, f64, f64, f64) + Copy,
    sample: impl Fn(f64) -> f64 + Copy,
) {
    let mut k = 0;
    while k < capacity as u64 + 20 {
        one_tick(k, push, sample);
        k += 1;
    }
    b.iter(|| {
        k += 1;
        black_box(one_tick(k, push, sample))
    });
}

fn book_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("book_tick");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let buffer = std::cell::RefCell::new(book::BookBuffer::new(capacity, 250.0));
            let push = |tick, t, x, y, vx, vy| buffer.borrow_mut().push(tick, t, x, y, vx, vy);
            let sample = |r| buffer.borrow_mut().sample(r).map_or(1.0, |p| p.x + p.y);
            warm_then_time(b, capacity, push, sample);
        });
    }
    group.finish();
}

fn goodjs_tick(c: &mut Criterion) {
    let mut group = c.benchmark_group("goodjs_tick");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let ring = std::cell::RefCell::new(GoodRing::new(capacity, 250.0));
            let push = |tick, t, x, y, vx, vy| ring.borrow_mut().push(tick, t, x, y, vx, vy);
            let sample = |r| ring.borrow_mut().sample(r).map_or(1.0, |p| p[0] + p[1]);
            warm_then_time(b, capacity, push, sample);
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    insert_sample,
    insert_reordered,
    sample_scattered,
    ring_insert_sample,
    book_tick,
    goodjs_tick
);
criterion_main!(benches);
