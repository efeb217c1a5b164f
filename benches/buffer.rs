//! Cost of the jitter buffer's hot path at capacities 32, 128 and 1024:
//! - `insert_sample`: one in-order arrival (evicting the oldest of a full buffer) plus one full `sample` at a
//!   render time that moves forward like a real frame clock (the cursor path) — what the page's playback calls;
//! - `insert_reordered`: arrivals in swapped pairs (every other one out of order) plus one sample;
//! - `sample_scattered`: samples at scattered render times (the binary-search path), no insert;
//! - `ring_insert_sample`: the `insert_sample` workload on [`GoodRing`], peerbench's "goodjs" JavaScript buffer
//!   written again in Rust operation for operation (no outcomes, statuses, reasons or counters);
//! - `book_tick` / `goodjs_tick`: one server tick of peerbench's workload (a) — an in-order arrival and three
//!   frames (20 arrivals and 60 samples per simulated second), times in ms around 1.7e12 — on the core through
//!   `wasm-buffer/src/book.rs` (the very code peerbench times in wasm: `insert` + `sample_between`, the book's
//!   clamp and extrapolation) and on [`GoodRing`]. Issue 14 asks for core ≤ 1.5 × ring here and in peerbench
//!   (`cargo xtask bench-page --only peer,native` prints both ratios).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use netcode_lab::buffer::{BufferParams, SnapshotBuffer};
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;
use std::hint::black_box;

#[path = "wasm-buffer/src/book.rs"]
mod book;

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

/// peerbench's `GoodSnapshotBuffer` (../shared/peerbench/bench.mjs, "goodjs") in Rust, operation for operation:
/// six struct-of-arrays columns in a power-of-two ring, O(1) append, binary-search insert for late arrivals, a
/// forward-moving cursor with a binary-search fallback, clamp / damped extrapolation / linear interpolation, the
/// result written into a reused pair. Times in the caller's unit (ms in `*_tick`, as in peerbench).
struct GoodRing {
    capacity: usize,
    mask: usize,
    head: usize,
    count: usize,
    cur: usize,
    t: Vec<f64>,
    x: Vec<f64>,
    y: Vec<f64>,
    vx: Vec<f64>,
    vy: Vec<f64>,
    tick: Vec<f64>,
    max_extrapolate: f64,
    out: [f64; 2],
}

impl GoodRing {
    fn new(capacity: usize, max_extrapolate: f64) -> GoodRing {
        let size = (capacity + 1).next_power_of_two().max(2);
        let v = || vec![0.0; size];
        GoodRing {
            capacity,
            mask: size - 1,
            head: 0,
            count: 0,
            cur: 0,
            t: v(),
            x: v(),
            y: v(),
            vx: v(),
            vy: v(),
            tick: v(),
            max_extrapolate,
            out: [0.0; 2],
        }
    }

    fn push(&mut self, tick: f64, time: f64, x: f64, y: f64, vx: f64, vy: f64) {
        let (m, h) = (self.mask, self.head);
        let mut n = self.count;
        let mut pos = n;
        if n > 0 && self.t[(h + n - 1) & m] > time {
            let (mut lo, mut hi) = (0, n - 1);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.t[(h + mid) & m] > time {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            pos = lo;
            if pos == 0 && n >= self.capacity {
                return;
            }
            for i in (pos + 1..=n).rev() {
                let (d, s) = ((h + i) & m, (h + i - 1) & m);
                self.t[d] = self.t[s];
                self.x[d] = self.x[s];
                self.y[d] = self.y[s];
                self.vx[d] = self.vx[s];
                self.vy[d] = self.vy[s];
                self.tick[d] = self.tick[s];
            }
            if pos <= self.cur {
                self.cur += 1;
            }
        }
        let j = (h + pos) & m;
        (self.t[j], self.x[j], self.y[j], self.vx[j], self.vy[j], self.tick[j]) = (time, x, y, vx, vy, tick);
        n += 1;
        if n > self.capacity {
            self.head = (h + 1) & m;
            n -= 1;
            self.cur = self.cur.saturating_sub(1);
        }
        self.count = n;
    }

    fn sample(&mut self, r: f64) -> Option<&[f64; 2]> {
        let n = self.count;
        if n == 0 {
            return None;
        }
        let (m, h) = (self.mask, self.head);
        let (o, w) = (h, (h + n - 1) & m);
        if r <= self.t[o] {
            self.out = [self.x[o], self.y[o]];
            return Some(&self.out);
        }
        if r >= self.t[w] {
            let ahead = r - self.t[w];
            if ahead >= self.max_extrapolate {
                self.out = [self.x[w], self.y[w]];
                return Some(&self.out);
            }
            let (dt, damp) = (ahead / 1000.0, 1.0 - ahead / self.max_extrapolate);
            self.out = [self.x[w] + self.vx[w] * dt * damp, self.y[w] + self.vy[w] * dt * damp];
            return Some(&self.out);
        }
        let mut i = self.cur.min(n - 2);
        if i > 0 && self.t[(h + i) & m] >= r {
            let (mut lo, mut hi) = (1, n - 1);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.t[(h + mid) & m] >= r {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            i = lo - 1;
        } else {
            while self.t[(h + i + 1) & m] < r {
                i += 1;
            }
        }
        self.cur = i;
        let (a, b) = ((h + i) & m, (h + i + 1) & m);
        let span = self.t[b] - self.t[a];
        let f = if span > 0.0 { (r - self.t[a]) / span } else { 0.0 };
        self.out = [self.x[a] + (self.x[b] - self.x[a]) * f, self.y[a] + (self.y[b] - self.y[a]) * f];
        Some(&self.out)
    }
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
