//! `Playground`: the page's handle on one simulated run.
//!
//! JS hands over parameters (plain objects, serde-wasm-bindgen); Rust re-runs the whole window and keeps the
//! timelines. JS reads them through `timeline(kind)`, a `Float64Array` view over wasm memory whose rows are
//! laid out as `columns(kind)` says. Rebuild views after every call into wasm: a growing memory detaches them.

use crate::extrapolate::UnderrunPolicy;
use crate::param::ParamError;
use crate::predict::decay::decay_curve;
use crate::predict::input::InputScript;
use crate::predict::smoothing::SmoothingMode;
use crate::sim::params::{deserialize_named, SimParams};
use crate::sim::presets::NetworkPreset;
use crate::sim::record::{BATCH_OUTCOMES, KINDS, RTT_VERDICTS, SNAPSHOT_OUTCOMES};
use crate::sim::sweep::sweep;
use crate::sim::{run, SimMetrics, Simulation};
use js_sys::Float64Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn js_error(e: ParamError) -> JsError {
    JsError::new(&e.to_string())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// Parameters from JS: `undefined`/`null` mean the defaults; otherwise every field is checked by name.
fn params_from_js(value: JsValue) -> Result<SimParams, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(SimParams::default());
    }
    let params = deserialize_named(serde_wasm_bindgen::Deserializer::from(value)).map_err(js_error)?;
    params.validate().map_err(js_error)?;
    Ok(params)
}

/// The page's handle: the current run and its cached metrics.
#[wasm_bindgen]
pub struct Playground {
    sim: Simulation,
    metrics: Option<SimMetrics>,
}

#[wasm_bindgen]
impl Playground {
    /// Runs the whole window of `params` (defaults when omitted).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Playground, JsError> {
        let params = params_from_js(params)?;
        Ok(Playground { sim: run(&params).map_err(js_error)?, metrics: None })
    }

    /// Re-runs the whole window with `params`. On error nothing changes and the message names the field.
    #[wasm_bindgen(js_name = setParams)]
    pub fn set_params(&mut self, params: JsValue) -> Result<(), JsError> {
        let params = params_from_js(params)?;
        self.sim = run(&params).map_err(js_error)?;
        self.metrics = None;
        Ok(())
    }

    /// The parameters of the current run, every field filled in.
    pub fn params(&self) -> Result<JsValue, JsError> {
        to_js(self.sim.params())
    }

    /// The default parameters.
    #[wasm_bindgen(js_name = defaultParams)]
    pub fn default_params() -> Result<JsValue, JsError> {
        to_js(&SimParams::default())
    }

    /// All rows of timeline `kind` (`frames`, `snapshots`, `batches`, `corrections`, `rtt`), oldest first.
    pub fn timeline(&mut self, kind: &str) -> Result<Float64Array, JsError> {
        let t = self.sim.recording_mut().get_mut(kind).ok_or_else(|| unknown_kind(kind))?;
        let rows = t.rows();
        // SAFETY: the view aliases the timeline; JS uses it before the next call into wasm.
        Ok(unsafe { Float64Array::view(rows) })
    }

    /// Column names of timeline `kind`, in row order.
    pub fn columns(&self, kind: &str) -> Result<Vec<String>, JsError> {
        let t = self.sim.recording().get(kind).ok_or_else(|| unknown_kind(kind))?;
        Ok(t.names().iter().map(|s| s.to_string()).collect())
    }

    /// Counters and quality metrics of the current run (computed once per run).
    pub fn metrics(&mut self) -> Result<JsValue, JsError> {
        let metrics = self.metrics.get_or_insert_with(|| self.sim.metrics());
        to_js(metrics)
    }

    /// The render-delay trade-off: one `{delay, underrunPct, addedLatency, rmsError}` per delay (seconds).
    pub fn sweep(&self, delays: Vec<f64>) -> Result<JsValue, JsError> {
        to_js(&sweep(self.sim.params(), &delays).map_err(js_error)?)
    }

    /// Each underrun policy's offset against `ahead` for a speed and a cap: `{hold: [{ahead, offset}], …}`.
    #[wasm_bindgen(js_name = extrapolationCurves)]
    pub fn extrapolation_curves(velocity: f64, cap: f64, until: f64, points: usize) -> Result<JsValue, JsError> {
        crate::param::in_range("velocity", velocity, -1e6, 1e6, "units/s").map_err(js_error)?;
        crate::param::in_range("cap", cap, 0.0, 10.0, "s").map_err(js_error)?;
        crate::param::in_range("until", until, 0.0, 10.0, "s").map_err(js_error)?;
        let points = points.clamp(2, 2000);
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

    /// `params` with one of seed 004 §5.3's network presets applied (`lan`, `sameRegion`, `crossRegion`,
    /// `mobile`): send rate, render delay and both links.
    #[wasm_bindgen(js_name = applyPreset)]
    pub fn apply_preset(params: JsValue, preset: &str) -> Result<JsValue, JsError> {
        let mut params = params_from_js(params)?;
        let preset: NetworkPreset = serde_json::from_value(serde_json::Value::String(preset.to_string()))
            .map_err(|_| JsError::new(&format!("`preset`: unknown preset `{preset}`")))?;
        preset.apply(&mut params);
        to_js(&params)
    }

    /// The key events of the built-in demo script up to `duration` seconds (the page's starting point for
    /// live keys).
    #[wasm_bindgen(js_name = demoScript)]
    pub fn demo_script(duration: f64) -> Result<JsValue, JsError> {
        to_js(&InputScript::demo(duration))
    }

    /// The names behind the numeric codes found in timelines.
    pub fn codes() -> Result<JsValue, JsError> {
        let codes = serde_json::json!({
            "status": crate::buffer::SampleStatus::ALL.iter().map(|s| s.name()).collect::<Vec<_>>(),
            "mode": crate::display::DisplayMode::ALL.iter().map(|m| m.name()).collect::<Vec<_>>(),
            "snapshotOutcome": SNAPSHOT_OUTCOMES,
            "batchOutcome": BATCH_OUTCOMES,
            "rttVerdict": RTT_VERDICTS,
            "policies": UnderrunPolicy::ALL.iter().map(|p| p.name()).collect::<Vec<_>>(),
            "smoothing": SmoothingMode::ALL.iter().map(|m| m.name()).collect::<Vec<_>>(),
            "kinds": KINDS,
        });
        to_js(&codes)
    }
}

fn unknown_kind(kind: &str) -> JsError {
    JsError::new(&format!("`kind`: unknown timeline `{kind}`; expected one of {}", KINDS.join(", ")))
}
