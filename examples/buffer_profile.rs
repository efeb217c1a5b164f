//! Instruction counts of the core's buffer against peerbench's JavaScript ring buffer, for callgrind:
//! the workload of `benches/buffer.rs`'s `book_tick` / `goodjs_tick` (one in-order arrival, then three frames
//! rendering ~100 ms behind it; times in ms around 1.7e12, as in peerbench), each push and each sample behind a
//! function that is never inlined, so callgrind's inclusive count of that function is the cost of one call.
//!
//! ```text
//! cargo build --release --example buffer_profile
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out target/release/examples/buffer_profile book 100000
//! callgrind_annotate --inclusive=yes /tmp/cg.out | grep -E 'book_|ring_'     # ÷ calls (ticks, 3 × ticks)
//! ```
//! `book` drives `benches/wasm-buffer/src/book.rs` (the very code the wasm build runs), `ring` drives
//! [`GoodRing`], `reorder` drives the book with arrivals in swapped pairs (every other one out of order).
//! Those print the call counts and a checksum, never a time. `compare` is a quick A/B for a busy machine:
//! short runs of the book and the ring, interleaved, and the fastest run of each in ns per tick (a run that
//! was preempted is slower, never faster) — criterion (`cargo bench --bench buffer -- _tick`) is the benchmark.

#[path = "../benches/wasm-buffer/src/book.rs"]
mod book;
#[path = "../benches/wasm-buffer/src/good_ring.rs"]
mod good_ring;

use book::BookBuffer;
use good_ring::GoodRing;
use std::hint::black_box;

const CAPACITY: usize = 128;

/// Server tick `k` of peerbench's trace (ms): tick, time, position, velocity.
fn tick_ms(k: u64) -> [f64; 6] {
    let k = k as f64;
    [k, 1.7e12 + 50.0 * k, k, 0.5 * k, 20.0, 10.0]
}

#[inline(never)]
fn book_push(b: &mut BookBuffer, a: [f64; 6]) {
    b.push(a[0], a[1], a[2], a[3], a[4], a[5]);
}

#[inline(never)]
fn book_sample(b: &mut BookBuffer, r: f64) -> f64 {
    b.sample(r).map_or(1.0, |p| p.x + p.y)
}

#[inline(never)]
fn ring_push(g: &mut GoodRing, a: [f64; 6]) {
    g.push(a[0], a[1], a[2], a[3], a[4], a[5]);
}

#[inline(never)]
fn ring_sample(g: &mut GoodRing, r: f64) -> f64 {
    g.sample(r).map_or(1.0, |p| p[0] + p[1])
}

/// `runs` interleaved runs of `ticks` ticks on each, with the three frames (`frames`) or pushes only; the
/// fastest run of each, in ns per tick.
fn compare(runs: u64, ticks: u64, frames: bool) {
    let (mut book, mut ring) = (BookBuffer::new(CAPACITY, 250.0), GoodRing::new(CAPACITY, 250.0));
    let (mut best, mut k, mut checksum) = ([f64::INFINITY; 2], 0, 0.0);
    for _ in 0..runs {
        for (side, best) in best.iter_mut().enumerate() {
            let started = std::time::Instant::now();
            for j in k..k + ticks {
                let a = black_box(tick_ms(j));
                let renders = (0..3 * usize::from(frames)).map(|frame| a[1] - 97.0 + 50.0 / 3.0 * frame as f64);
                if side == 0 {
                    book.push(a[0], a[1], a[2], a[3], a[4], a[5]);
                    checksum += renders.map(|r| book.sample(r).map_or(1.0, |p| p.x + p.y)).sum::<f64>();
                } else {
                    ring.push(a[0], a[1], a[2], a[3], a[4], a[5]);
                    checksum += renders.map(|r| ring.sample(r).map_or(1.0, |p| p[0] + p[1])).sum::<f64>();
                }
            }
            *best = best.min(started.elapsed().as_nanos() as f64 / ticks as f64);
        }
        k += ticks;
    }
    let what = if frames { "ticks (a push, three samples)" } else { "pushes" };
    println!(
        "fastest of {runs} runs of {ticks} {what}: book {:.1} ns, ring {:.1} ns, ratio {:.2} (checksum {checksum})",
        best[0],
        best[1],
        best[0] / best[1]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("book", String::as_str);
    let ticks: u64 = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100_000);
    if which == "compare" || which == "compare-push" {
        return compare(args.get(3).and_then(|n| n.parse().ok()).unwrap_or(300), ticks, which == "compare");
    }
    let (mut book, mut ring) = (BookBuffer::new(CAPACITY, 250.0), GoodRing::new(CAPACITY, 250.0));
    let mut checksum = 0.0;
    for k in 0..ticks {
        // `reorder`: …, 1, 0, 3, 2, …; the frames follow the newer of each pair.
        let pushed = if which == "reorder" { k ^ 1 } else { k };
        let a = black_box(tick_ms(pushed));
        match which {
            "ring" => ring_push(&mut ring, a),
            _ => book_push(&mut book, a),
        }
        let t = tick_ms(k)[1];
        for frame in 0..3 {
            let r = black_box(t - 97.0 + 50.0 / 3.0 * frame as f64);
            checksum += match which {
                "ring" => ring_sample(&mut ring, r),
                _ => book_sample(&mut book, r),
            };
        }
    }
    println!("{which}: {ticks} pushes, {} samples, checksum {checksum}", 3 * ticks);
}
