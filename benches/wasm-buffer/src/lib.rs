//! peerbench's contract (`push(tick, serverTimeMs, x, y, vx, vy)`, `sample(renderTimeMs) → [x, y]`) on the core's
//! `SnapshotBuffer` for wasm32 (the semantics and the calls into the core are in `book.rs`, shared with the
//! criterion bench). The position is written into `out`, read through a typed-array view over wasm memory: what
//! crosses the boundary per sample is one f64 in and a bool out.
//!
//! Two ways to call the core, two adapters: `adapter.cjs` calls `push` per arrival and `sample_into(t, 0)` per frame;
//! `adapter-queued.cjs` writes each arrival's six numbers into `queue` (a view over wasm memory, the project's
//! rule for bulk data) and the next `sample_into(t, queued)` files them, in order, before it samples — the same
//! calls into the core in the same order, one boundary crossing fewer per push. `adapter-ring.cjs` puts
//! [`RingBuffer`] (peerbench's own algorithm, in wasm) in the slot; `crossing.cjs` times the boundary alone.

mod book;
mod good_ring;

use book::BookBuffer;
use good_ring::GoodRing;
use wasm_bindgen::prelude::*;

/// How many arrivals the queue holds; a full queue is filed by `push_queued` (one call per 32 arrivals).
const QUEUE: usize = 32;
/// Numbers per queued arrival: tick, server time (ms), x, y, vx, vy.
const FIELDS: usize = 6;

/// One entity's buffer.
#[wasm_bindgen]
pub struct CoreBuffer {
    book: BookBuffer,
    out: [f64; 2],
    queue: Box<[f64; QUEUE * FIELDS]>,
}

#[wasm_bindgen]
impl CoreBuffer {
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: usize, max_extrapolate_ms: f64) -> CoreBuffer {
        let queue = Box::new([0.0; QUEUE * FIELDS]);
        CoreBuffer { book: BookBuffer::new(capacity, max_extrapolate_ms), out: [0.0; 2], queue }
    }

    /// One arrival, filed at once (one boundary crossing per push).
    pub fn push(&mut self, tick: f64, server_time_ms: f64, x: f64, y: f64, vx: f64, vy: f64) {
        self.book.push(tick, server_time_ms, x, y, vx, vy);
    }

    /// Files the first `queued` arrivals of the queue, in order.
    pub fn push_queued(&mut self, queued: usize) {
        for a in self.queue.chunks_exact(FIELDS).take(queued.min(QUEUE)) {
            self.book.push(a[0], a[1], a[2], a[3], a[4], a[5]);
        }
    }

    /// Files `queued` arrivals, then samples at `render_time_ms`; the position is at `out_ptr()`. `false` when
    /// the buffer is empty.
    pub fn sample_into(&mut self, render_time_ms: f64, queued: usize) -> bool {
        if queued > 0 {
            self.push_queued(queued);
        }
        match self.book.sample(render_time_ms) {
            Some(p) => {
                self.out = [p.x, p.y];
                true
            }
            None => false,
        }
    }

    pub fn out_ptr(&self) -> *const f64 {
        self.out.as_ptr()
    }

    pub fn queue_ptr(&self) -> *const f64 {
        self.queue.as_ptr()
    }

    /// How many arrivals fit in the queue.
    pub fn queue_len() -> usize {
        QUEUE
    }
}

/// Empty methods with `push`'s and `sample_into`'s signatures: what crossing the boundary costs alone
/// (`crossing.cjs` times them beside the real calls).
#[wasm_bindgen]
impl CoreBuffer {
    pub fn push_nothing(&mut self, _tick: f64, _server_time_ms: f64, _x: f64, _y: f64, _vx: f64, _vy: f64) {}

    pub fn sample_nothing(&mut self, _render_time_ms: f64, _queued: usize) -> bool {
        true
    }
}

/// peerbench's JavaScript ring buffer ([`GoodRing`], its algorithm operation for operation) behind the same
/// binding as [`CoreBuffer`] (`adapter-ring.cjs`): what wasm and the boundary cost the same algorithm, i.e. the
/// floor under the core's figure.
#[wasm_bindgen]
pub struct RingBuffer {
    ring: GoodRing,
    out: [f64; 2],
}

#[wasm_bindgen]
impl RingBuffer {
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: usize, max_extrapolate_ms: f64) -> RingBuffer {
        RingBuffer { ring: GoodRing::new(capacity.max(1), max_extrapolate_ms), out: [0.0; 2] }
    }

    pub fn push(&mut self, tick: f64, server_time_ms: f64, x: f64, y: f64, vx: f64, vy: f64) {
        self.ring.push(tick, server_time_ms, x, y, vx, vy);
    }

    pub fn sample_into(&mut self, render_time_ms: f64, _queued: usize) -> bool {
        match self.ring.sample(render_time_ms) {
            Some(p) => {
                self.out = *p;
                true
            }
            None => false,
        }
    }

    pub fn out_ptr(&self) -> *const f64 {
        self.out.as_ptr()
    }
}

/// The module's memory, for the views over `out_ptr()` and `queue_ptr()`.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
