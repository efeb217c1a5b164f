//! Cost of the jitter buffer's hot path at capacities 32, 128 and 1024:
//! - `insert_sample`: one in-order arrival (evicting the oldest of a full buffer) plus one sample at a render time
//!   that moves forward like a real frame clock (the cursor path);
//! - `insert_reordered`: arrivals in swapped pairs (every other one out of order) plus one sample;
//! - `sample_scattered`: samples at scattered render times (the binary-search path), no insert;
//! - `ring_insert_sample`: the `insert_sample` workload on a plain ring buffer with a cursor and nothing else
//!   (no outcomes, statuses, reasons or counters) — the same algorithm as peerbench's JavaScript buffer. The
//!   core's insert + sample should stay within 1.5× of it (`cargo xtask bench-page` prints the ratio).

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

/// peerbench's "good JS" buffer in Rust: struct-of-arrays ring (power-of-two mask), binary-search insert for
/// late arrivals, a forward-moving cursor, clamp / damped extrapolation / linear interpolation.
struct Ring {
    mask: usize,
    head: usize,
    count: usize,
    capacity: usize,
    cursor: usize,
    t: Vec<f64>,
    x: Vec<f64>,
    y: Vec<f64>,
    vx: Vec<f64>,
    vy: Vec<f64>,
    cap: f64,
}

impl Ring {
    fn new(capacity: usize, cap: f64) -> Ring {
        let size = (capacity + 1).next_power_of_two();
        let v = || vec![0.0; size];
        Ring { mask: size - 1, head: 0, count: 0, capacity, cursor: 0, t: v(), x: v(), y: v(), vx: v(), vy: v(), cap }
    }

    fn at(&self, i: usize) -> usize {
        (self.head + i) & self.mask
    }

    fn push(&mut self, s: &Snapshot) {
        let mut pos = self.count;
        if self.count > 0 && self.t[self.at(self.count - 1)] > s.server_time {
            let (mut lo, mut hi) = (0, self.count - 1);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if self.t[self.at(mid)] > s.server_time {
                    hi = mid
                } else {
                    lo = mid + 1
                }
            }
            pos = lo;
            if pos == 0 && self.count >= self.capacity {
                return;
            }
            for i in (pos + 1..=self.count).rev() {
                let (d, f) = (self.at(i), self.at(i - 1));
                self.t[d] = self.t[f];
                self.x[d] = self.x[f];
                self.y[d] = self.y[f];
                self.vx[d] = self.vx[f];
                self.vy[d] = self.vy[f];
            }
            if pos <= self.cursor {
                self.cursor += 1;
            }
        }
        let j = self.at(pos);
        (self.t[j], self.x[j], self.y[j], self.vx[j], self.vy[j]) = (s.server_time, s.pos.x, s.pos.y, s.vel.x, s.vel.y);
        self.count += 1;
        if self.count > self.capacity {
            self.head = (self.head + 1) & self.mask;
            self.count -= 1;
            self.cursor = self.cursor.saturating_sub(1);
        }
    }

    fn sample(&mut self, r: f64) -> Option<Vec2> {
        let n = self.count;
        if n == 0 {
            return None;
        }
        let (first, last) = (self.at(0), self.at(n - 1));
        if r <= self.t[first] {
            return Some(Vec2::new(self.x[first], self.y[first]));
        }
        if r >= self.t[last] {
            let ahead = r - self.t[last];
            if ahead >= self.cap {
                return Some(Vec2::new(self.x[last], self.y[last]));
            }
            let k = ahead * (1.0 - ahead / self.cap);
            return Some(Vec2::new(self.x[last] + self.vx[last] * k, self.y[last] + self.vy[last] * k));
        }
        let mut i = self.cursor.min(n - 2);
        if self.t[self.at(i)] >= r {
            i = 0; // the render time went back: start over (binary search in the JS version)
        }
        while self.t[self.at(i + 1)] < r {
            i += 1;
        }
        self.cursor = i;
        let (a, b) = (self.at(i), self.at(i + 1));
        let f = (r - self.t[a]) / (self.t[b] - self.t[a]);
        Some(Vec2::new(self.x[a] + (self.x[b] - self.x[a]) * f, self.y[a] + (self.y[b] - self.y[a]) * f))
    }
}

fn ring_insert_sample(c: &mut Criterion) {
    let mut group = c.benchmark_group("ring_insert_sample");
    for capacity in CAPACITIES {
        group.bench_with_input(BenchmarkId::from_parameter(capacity), &capacity, |b, &capacity| {
            let mut ring = Ring::new(capacity, 0.25);
            for tick in 0..capacity as u64 {
                ring.push(&snapshot(tick));
            }
            let mut tick = capacity as u64;
            b.iter(|| {
                ring.push(&snapshot(tick));
                let render = (tick as f64 - capacity as f64 / 2.0) * INTERVAL + 0.01;
                let sample = ring.sample(render);
                tick += 1;
                black_box(sample)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, insert_sample, insert_reordered, sample_scattered, ring_insert_sample);
criterion_main!(benches);
