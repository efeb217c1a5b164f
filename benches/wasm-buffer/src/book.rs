//! peerbench's contract on the core's `SnapshotBuffer`, in plain Rust: shared by the wasm build (`lib.rs`, behind
//! peerbench's `WASM_IMPL` slot) and the criterion bench (`benches/buffer.rs`, `book_insert_sample`), so the same
//! code is timed natively and in wasm. The book's semantics, which peerbench checks against its JavaScript ring
//! buffer: before the oldest → the oldest position; past the newest → seed 000 §4.3.5's damped extrapolation
//! (`UnderrunPolicy::ExtrapolateSeed`, the core's own formula); otherwise the buffer's linear interpolation.
//! Every push and sample goes through the real `insert` and `sample_drawn` (outcomes, statuses, reasons,
//! counters; `sample_drawn` is `sample` without building the full `Sample` of a plain interpolation or of a
//! render time exactly on a snapshot).

use netcode_lab::buffer::{BufferParams, Sample, SampleStatus, SnapshotBuffer};
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;

/// One entity's buffer; times come in milliseconds (peerbench's unit) and are kept in seconds (the core's).
pub struct BookBuffer {
    buffer: SnapshotBuffer,
    /// The extrapolation cap (seconds).
    cap: f64,
    /// The first server time pushed (ms): times are kept relative to it, or seconds since 1970 would leave
    /// f64 only ~0.2 µs of resolution and the positions would drift from the JavaScript buffer's by ~1e-5.
    /// Milliseconds become seconds by a multiplication by 1e-3 (a division would lie on every push's and every
    /// sample's critical path); the same monotone map for both keeps every comparison of a render time with a
    /// snapshot time, and the positions agree with goodjs within peerbench's 1e-9.
    epoch: Option<f64>,
}

impl BookBuffer {
    pub fn new(capacity: usize, max_extrapolate_ms: f64) -> BookBuffer {
        // One snapshot is enough to show something (the book clamps to it); no bracket is ever too wide.
        let params =
            BufferParams { capacity: capacity.max(2), min_snapshots: 1, gap_factor: 100.0, ..BufferParams::default() };
        // A send interval of 1 s (the widest a stream may have): with the gap factor, no bracket is too wide.
        let buffer = SnapshotBuffer::with_params(params, 1.0).expect("valid buffer parameters");
        BookBuffer { buffer, cap: max_extrapolate_ms / 1000.0, epoch: None }
    }

    /// One arrival (its arrival time is not part of the contract; the server time stands in for it).
    // Inlined into the binding (and the benches' closures), as the ring's `push` is.
    #[inline(always)]
    pub fn push(&mut self, tick: f64, server_time_ms: f64, x: f64, y: f64, vx: f64, vy: f64) {
        let t = (server_time_ms - *self.epoch.get_or_insert(server_time_ms)) * 1e-3;
        let snapshot = Snapshot::moving(tick as u64, t, Vec2::new(x, y), Vec2::new(vx, vy));
        self.buffer.insert(snapshot, t);
    }

    /// The position at `render_time_ms`; `None` when the buffer is empty.
    #[inline(always)]
    pub fn sample(&mut self, render_time_ms: f64) -> Option<Vec2> {
        match self.buffer.sample_drawn((render_time_ms - self.epoch.unwrap_or(0.0)) * 1e-3) {
            // The usual frame: inside a bracket, interpolated, or exactly on a snapshot — a third of peerbench's
            // frames, whose 60 Hz render times land on every third 20 Hz tick (counted as Ready like any sample).
            Ok(between) => Some(between.position),
            Err(sample) => self.outside(&sample),
        }
    }

    /// Every other sample: Ready on a snapshot, or the book's rules before the oldest and past the newest.
    #[cold]
    #[inline(never)]
    fn outside(&self, sample: &Sample) -> Option<Vec2> {
        match sample.status {
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
        }
    }
}
