//! The full build's results (cargo feature `full`): what the page shows only after its first frame — the run's
//! metrics (the metrics table, the plots, the comparison, the lessons' checks), the clock's jump log alone (the
//! status card's last jump), the render-delay sweep, the extrapolation and decay curves of the plots, a trace
//! prepared by the import worker, a trace file's size check, and the network presets (seed 004 §5.3) applied to
//! parameters.
//!
//! They are here to keep the first-frame wasm small: the first frame draws the views, the lanes, the status and the
//! counters from the timelines alone; the page asks for these only once the full build is in (main.js mounts the
//! plots and the comparison after it, the metrics table and the status card's last clock jump wait for it, saying
//! so; a preset picked before it is in is applied once it is). Out of the first-frame build they take ~62 KB with
//! them (the metrics' computation, the curves' trigonometry, their writers; `clockJumps` and `applyPreset` ~5 KB of
//! it). See ARCHITECTURE.md, "Three wasm builds".

use crate::compare::sweep::sweep;
use crate::extrapolate::UnderrunPolicy;
use crate::predict::decay::decay_curve;
use crate::predict::smoothing::SmoothingMode;
use crate::sim::presets::NetworkPreset;
use crate::trace::import as imported;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{js_error, to_js};
use super::playground::{import_id, params_from_js, trace_error, Imported, Playground};

#[wasm_bindgen]
impl Playground {
    /// Counters and quality metrics of the current run (computed once per run); for an imported trace,
    /// `{trace: {…replay metrics}}`.
    pub fn metrics(&mut self) -> Result<JsValue, JsError> {
        if let Some(imported) = &self.imported {
            return Ok(imported.metrics.clone());
        }
        let metrics = self.metrics.get_or_insert_with(|| self.sim.metrics());
        to_js(metrics)
    }

    /// The clock's last jumps in the current run, `[{at, oldOffset, newOffset, renderBefore, renderAfter, cause,
    /// estimator}]` (the `clock.jumpLog` of `metrics()`, without the rest of it); `[]` for an imported trace.
    #[wasm_bindgen(js_name = clockJumps)]
    pub fn clock_jumps(&self) -> Result<JsValue, JsError> {
        if self.imported.is_some() {
            return Ok(js_sys::Array::new().into());
        }
        to_js(&self.sim.clock_metrics().jump_log)
    }

    /// `params` with one of seed 004 §5.3's network presets applied (`lan`, `sameRegion`, `crossRegion`,
    /// `mobile`): send rate, render delay and both links.
    #[wasm_bindgen(js_name = applyPreset)]
    pub fn apply_preset(params: JsValue, preset: &str) -> Result<JsValue, JsError> {
        let mut params = params_from_js(params)?;
        let preset = NetworkPreset::from_name(preset)
            .ok_or_else(|| JsError::new(&format!("`preset`: unknown preset `{preset}`")))?;
        preset.apply(&mut params.sim);
        to_js(&params)
    }

    /// Shows what [`Playground::prepare_import`] returned (in a worker) in place of the simulation until the next
    /// `setParams`. Its shape is checked: whole rows of today's columns, no more rows than a trace may have.
    /// `bytes`, the file the worker read, is kept for the engines (`engineRows`, `engineMetrics`), which read it
    /// when first asked.
    #[wasm_bindgen(js_name = showImported)]
    pub fn show_imported(&mut self, prepared: JsValue, bytes: Option<Vec<u8>>) -> Result<JsValue, JsError> {
        let get = |key: &str| js_sys::Reflect::get(&prepared, &key.into()).unwrap_or(JsValue::UNDEFINED);
        let rows = |key: &str| -> Result<Vec<f64>, JsError> {
            get(key)
                .dyn_into::<Float64Array>()
                .map(|a| a.to_vec())
                .map_err(|_| JsError::new(&format!("`{key}`: expected a Float64Array")))
        };
        let (frames, snapshots) = (rows("frames")?, rows("snapshots")?);
        let (summary, metrics) = (get("summary"), get("metrics"));
        for (key, value) in [("summary", &summary), ("metrics", &metrics)] {
            if !value.is_object() {
                return Err(JsError::new(&format!("`{key}`: expected an object")));
            }
        }
        let recording = imported::adopt(frames, snapshots).map_err(js_error)?;
        self.imported = Some(Imported { trace: None, bytes, id: import_id(), metrics, recording });
        Ok(summary)
    }

    /// Refuses a trace file of `bytes` bytes before it is read, with the same words as the reader.
    #[wasm_bindgen(js_name = checkTraceSize)]
    pub fn check_trace_size(bytes: f64) -> Result<(), JsError> {
        if !(bytes.is_finite() && bytes >= 0.0) {
            return Err(JsError::new(&format!("`bytes`: {} is not a size in bytes", crate::words::num(bytes))));
        }
        crate::trace::limits::check_size(bytes.min(usize::MAX as f64) as usize).map_err(trace_error)
    }

    /// The render-delay trade-off: one `{delay, underrunShare, addedLatency, rmsError}` per delay (seconds).
    pub fn sweep(&self, delays: Vec<f64>) -> Result<JsValue, JsError> {
        to_js(&sweep(self.sim.params(), &delays).map_err(js_error)?)
    }

    /// Each underrun policy's offset against `ahead` for a speed and a cap: `{hold: [{ahead, offset}], …}`.
    #[wasm_bindgen(js_name = extrapolationCurves)]
    pub fn extrapolation_curves(velocity: f64, cap: f64, until: f64, points: f64) -> Result<JsValue, JsError> {
        crate::param::in_range("velocity", velocity, -1e6, 1e6, "units/s").map_err(js_error)?;
        crate::param::in_range("cap", cap, 0.0, 10.0, "s").map_err(js_error)?;
        crate::param::in_range("until", until, 0.0, 10.0, "s").map_err(js_error)?;
        let points = crate::param::whole("points", points, 2.0, 2000.0).map_err(js_error)? as usize;
        let curves: std::collections::BTreeMap<&str, _> =
            UnderrunPolicy::ALL.iter().map(|p| (p.name(), p.curve(velocity, cap, until, points))).collect();
        to_js(&curves)
    }

    /// Each smoothing mode's offset over time after one correction of size `initial`, with the current
    /// smoothing parameters: `{halfLife: [{time, offset}], …}`.
    #[wasm_bindgen(js_name = decayCurves)]
    pub fn decay_curves(&self, initial: f64, fps: f64, duration: f64) -> Result<JsValue, JsError> {
        let smoothing = self.sim.params().local.smoothing;
        let mut curves = std::collections::BTreeMap::new();
        for mode in SmoothingMode::ALL {
            let curve = decay_curve(mode, &smoothing, initial, fps, duration).map_err(js_error)?;
            curves.insert(mode.name(), curve);
        }
        to_js(&curves)
    }
}
