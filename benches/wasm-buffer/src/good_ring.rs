//! peerbench's "goodjs" buffer (`GoodSnapshotBuffer` in ../shared/peerbench/bench.mjs) written again in Rust,
//! operation for operation: the yardstick the core's buffer is measured against. Shared by the criterion
//! bench (`benches/buffer.rs`: `ring_insert_sample`, `goodjs_tick`), the instruction-count profile
//! (`examples/buffer_profile.rs`) and the wasm build (`lib.rs`: `GoodRing` in wasm, so peerbench shows what the
//! same algorithm costs behind the boundary).

/// peerbench's `GoodSnapshotBuffer` (../shared/peerbench/bench.mjs, "goodjs") in Rust, operation for operation:
/// six struct-of-arrays columns in a power-of-two ring, O(1) append, binary-search insert for late arrivals, a
/// forward-moving cursor with a binary-search fallback, clamp / damped extrapolation / linear interpolation, the
/// result written into a reused pair. Times in the caller's unit (ms in `*_tick`, as in peerbench).
pub struct GoodRing {
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
    pub fn new(capacity: usize, max_extrapolate: f64) -> GoodRing {
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

    #[inline]
    pub fn push(&mut self, tick: f64, time: f64, x: f64, y: f64, vx: f64, vy: f64) {
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

    #[inline]
    pub fn sample(&mut self, r: f64) -> Option<&[f64; 2]> {
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
