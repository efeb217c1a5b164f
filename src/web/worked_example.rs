//! `WorkedExample`: a handle on seed 002's worked example (three out-of-order snapshots), scrubbable.

use crate::worked_example::JitterExample;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

/// Local time runs over this window and wraps around, so the cursor keeps sweeping the example.
const WINDOW_START: f64 = 9.95;
const WINDOW_END: f64 = 10.55;
/// Points in the curve of rendered x over local time.
const CURVE_POINTS: usize = 601;

/// Numbers in [`WorkedExample::frame_view`], in this order.
pub const FRAME_FIELDS: [&str; 8] = ["local", "renderTime", "status", "x", "left", "right", "factor", "delay"];

/// The handle: the scene, the current local time and the buffers JS reads through views.
#[wasm_bindgen]
pub struct WorkedExample {
    example: JitterExample,
    local: f64,
    /// `FRAME_FIELDS` for the current local time; NaN where there is no value.
    frame: [f64; 8],
    /// Rows of (local, status, x) over the window, x NaN where nothing is rendered.
    curve: Vec<f64>,
    /// Rows of (tick, serverTime, arrival, x).
    snapshots: Vec<f64>,
}

impl Default for WorkedExample {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl WorkedExample {
    #[wasm_bindgen(constructor)]
    pub fn new() -> WorkedExample {
        let example = JitterExample::seed_002();
        let snapshots = example
            .arrivals()
            .iter()
            .flat_map(|a| [a.snapshot.tick as f64, a.snapshot.server_time, a.arrival, a.snapshot.pos.x])
            .collect();
        let mut playground =
            WorkedExample { example, local: 10.30, frame: [f64::NAN; 8], curve: Vec::new(), snapshots };
        playground.recompute();
        playground
    }

    /// Sets the render delay; refuses NaN, infinities and values outside 0..=1000 ms, keeping the old delay.
    #[wasm_bindgen(js_name = setRenderDelayMs)]
    pub fn set_render_delay_ms(&mut self, ms: f64) -> Result<(), JsError> {
        self.example.set_render_delay(ms / 1000.0).map_err(|e| JsError::new(&e.to_string()))?;
        self.recompute();
        Ok(())
    }

    #[wasm_bindgen(getter, js_name = renderDelayMs)]
    pub fn render_delay_ms(&self) -> f64 {
        self.example.render_delay() * 1000.0
    }

    /// Moves local time forward by `dt` seconds, wrapping around the window.
    pub fn advance(&mut self, dt: f64) -> Result<(), JsError> {
        let dt = crate::param::in_range("dt", dt, 0.0, 1.0, "s").map_err(|e| JsError::new(&e.to_string()))?;
        let span = WINDOW_END - WINDOW_START;
        self.local = WINDOW_START + (self.local + dt - WINDOW_START).rem_euclid(span);
        self.update_frame();
        Ok(())
    }

    /// Jumps to local time `local` (seconds), clamped to the window.
    pub fn seek(&mut self, local: f64) -> Result<(), JsError> {
        let local = crate::param::in_range("local", local, f64::MIN, f64::MAX, "s")
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.local = crate::geom::clamp(local, WINDOW_START, WINDOW_END);
        self.update_frame();
        Ok(())
    }

    #[wasm_bindgen(getter, js_name = windowStart)]
    pub fn window_start(&self) -> f64 {
        WINDOW_START
    }

    #[wasm_bindgen(getter, js_name = windowEnd)]
    pub fn window_end(&self) -> f64 {
        WINDOW_END
    }

    /// The current frame, fields in the order of `frameFields()`. Rebuild the view after every call into wasm.
    #[wasm_bindgen(js_name = frameView)]
    pub fn frame_view(&self) -> Float64Array {
        // SAFETY: the view aliases `self.frame`; JS uses it before the next call that could move or grow memory.
        unsafe { Float64Array::view(&self.frame) }
    }

    #[wasm_bindgen(js_name = frameFields)]
    pub fn frame_fields() -> Vec<String> {
        FRAME_FIELDS.iter().map(|s| s.to_string()).collect()
    }

    /// Rows of (local, status, x) across the window; status codes as in `statusName`.
    #[wasm_bindgen(js_name = curveView)]
    pub fn curve_view(&self) -> Float64Array {
        // SAFETY: as for `frame_view`.
        unsafe { Float64Array::view(&self.curve) }
    }

    /// Rows of (tick, serverTime, arrival, x) for the scene's snapshots.
    #[wasm_bindgen(js_name = snapshotsView)]
    pub fn snapshots_view(&self) -> Float64Array {
        // SAFETY: as for `frame_view`.
        unsafe { Float64Array::view(&self.snapshots) }
    }

    /// The camelCase name of a status code found in the views.
    #[wasm_bindgen(js_name = statusName)]
    pub fn status_name(code: f64) -> String {
        status_from_code(code).map(|s| s.name()).unwrap_or("unknown").to_string()
    }

    /// Why the current sample is not ready (empty when it is).
    #[wasm_bindgen(getter)]
    pub fn reason(&self) -> String {
        self.example.sample_at(self.local).reason.map(|r| r.to_string()).unwrap_or_default()
    }
}

use crate::buffer::SampleStatus;

/// Status codes in the views: the index in `SampleStatus::ALL` (priming 0, ready 1, underrun 2, gap 3, …).
const STATUSES: [SampleStatus; 6] = SampleStatus::ALL;

fn status_code(status: SampleStatus) -> f64 {
    STATUSES.iter().position(|s| *s == status).unwrap_or(0) as f64
}

fn status_from_code(code: f64) -> Option<SampleStatus> {
    STATUSES.get(code as usize).copied()
}

impl WorkedExample {
    fn recompute(&mut self) {
        let span = WINDOW_END - WINDOW_START;
        self.curve.clear();
        for i in 0..CURVE_POINTS {
            let local = WINDOW_START + span * i as f64 / (CURVE_POINTS - 1) as f64;
            let sample = self.example.sample_at(local);
            let x = sample.position.map_or(f64::NAN, |p| p.x);
            self.curve.extend([local, status_code(sample.status), x]);
        }
        self.update_frame();
    }

    fn update_frame(&mut self) {
        let s = self.example.sample_at(self.local);
        let opt = |v: Option<f64>| v.unwrap_or(f64::NAN);
        self.frame = [
            self.local,
            s.render_time,
            status_code(s.status),
            opt(s.position.map(|p| p.x)),
            opt(s.left.map(|t| t as f64)),
            opt(s.right.map(|t| t as f64)),
            opt(s.factor),
            self.example.render_delay(),
        ];
    }
}
