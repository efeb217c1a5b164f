//! peerbench's contract (`push(tick, serverTimeMs, x, y, vx, vy)`, `sample(renderTimeMs) → [x, y]`) on the core's
//! `SnapshotBuffer`, with the book's semantics that peerbench checks against its JavaScript ring buffer:
//! before the oldest → the oldest position; past the newest → seed 000 §4.3.5's damped extrapolation
//! (`UnderrunPolicy::ExtrapolateSeed`, the core's own formula); otherwise the buffer's linear interpolation.
//! Every push and sample goes through the real `insert` and `sample` (outcomes, statuses, reasons, counters).
//! The position is written into wasm memory (`out_ptr`) rather than returned as a new array: what crosses the
//! boundary per sample is one f64 in and a bool out.

use netcode_lab::buffer::{BufferParams, SampleStatus, SnapshotBuffer};
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;
use wasm_bindgen::prelude::*;

/// One entity's buffer; times cross in milliseconds (peerbench's unit) and are kept in seconds (the core's).
#[wasm_bindgen]
pub struct CoreBuffer {
    buffer: SnapshotBuffer,
    cap: f64,
    out: [f64; 2],
    /// The first server time pushed (ms): times are kept relative to it, or seconds since 1970 would leave
    /// f64 only ~0.2 µs of resolution and the positions would drift from the JavaScript buffer's by ~1e-5.
    epoch: Option<f64>,
}

#[wasm_bindgen]
impl CoreBuffer {
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: usize, max_extrapolate_ms: f64) -> CoreBuffer {
        // One snapshot is enough to show something (the book clamps to it); no bracket is ever too wide.
        let params = BufferParams {
            capacity: capacity.max(2),
            min_snapshots: 1,
            send_interval: 1.0,
            gap_factor: 100.0,
            ..BufferParams::default()
        };
        let buffer = SnapshotBuffer::with_params(params).expect("valid buffer parameters");
        CoreBuffer { buffer, cap: max_extrapolate_ms / 1000.0, out: [0.0; 2], epoch: None }
    }

    /// One arrival (its arrival time is not part of the contract; the server time stands in for it).
    pub fn push(&mut self, tick: f64, server_time_ms: f64, x: f64, y: f64, vx: f64, vy: f64) {
        let t = (server_time_ms - *self.epoch.get_or_insert(server_time_ms)) / 1000.0;
        let snapshot = Snapshot::moving(tick as u64, t, Vec2::new(x, y), Vec2::new(vx, vy));
        self.buffer.insert(snapshot, t);
    }

    /// Samples at `render_time_ms`; the position is at `out_ptr()`. `false` when the buffer is empty.
    pub fn sample_into(&mut self, render_time_ms: f64) -> bool {
        let sample = self.buffer.sample((render_time_ms - self.epoch.unwrap_or(0.0)) / 1000.0);
        let position = match sample.status {
            SampleStatus::Ready => sample.position,
            _ => match (sample.anchor, sample.newest, self.buffer.oldest()) {
                // Past the newest: the seed's damped extrapolation from it.
                (Some(anchor), Some(newest), _) if anchor.tick == newest.tick => {
                    let reach = UnderrunPolicy::ExtrapolateSeed.reach(sample.ahead().unwrap_or(0.0), self.cap);
                    reach.map(|r| anchor.pos + anchor.vel * r)
                }
                // Before the oldest: the oldest position.
                (None, Some(_), Some(oldest)) => Some(oldest.pos),
                _ => None,
            },
        };
        match position {
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
}

/// The module's memory, for a `Float64Array` view over `out_ptr()`.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
