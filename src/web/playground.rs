//! `Playground`: the page's handle on one simulated run.
//!
//! JS hands over parameters (plain objects, serde-wasm-bindgen); Rust re-runs the whole window and keeps the
//! timelines. JS reads them through `timeline(kind)`, a `Float64Array` view over wasm memory whose rows are
//! laid out as `columns(kind)` says. Rebuild views after every call into wasm: a growing memory detaches them.

use crate::engines::run::Bank;
use crate::engines::ShownMode;
use crate::extrapolate::UnderrunPolicy;
use crate::predict::decay::decay_curve;
use crate::predict::input::InputScript;
use crate::predict::smoothing::SmoothingMode;
use crate::sim::imported;
use crate::sim::params::SimParams;
use crate::sim::presets::NetworkPreset;
use crate::sim::record::{Recording, BATCH_OUTCOMES, KINDS, RTT_VERDICTS, SNAPSHOT_OUTCOMES};
use crate::sim::sweep::sweep;
use crate::sim::{run, SimMetrics, Simulation};
use crate::trace::Trace;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{js_error, read_tree, to_js};
use super::js_tree::tree_of;
use crate::tree::Tree;

/// Parameters from JS: `undefined`/`null` mean the defaults; otherwise every field is checked by name — its
/// type, its range, no unknown key and no array where an object belongs (see `crate::tree`).
pub(super) fn params_from_js(value: JsValue) -> Result<SimParams, JsError> {
    // `undefined`/`null` read as `{}` (one path to the defaults: each copy of them is ~1.5 KB of wasm).
    let tree = if value.is_undefined() || value.is_null() { Tree::Object(Vec::new()) } else { tree_of(&value) };
    let params: SimParams = read_tree(tree, "params")?;
    params.validate().map_err(js_error)?;
    Ok(params)
}

/// The page's handle: the current run and its cached metrics, or an imported trace being shown instead.
#[wasm_bindgen]
pub struct Playground {
    pub(super) sim: Simulation,
    pub(super) metrics: Option<SimMetrics>,
    pub(super) imported: Option<Imported>,
    /// The engines' strategies the page draws, replayed on this run's client inputs (re-run only on change; the
    /// full build only).
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) engines: Bank,
}

/// A trace the user dropped on the page: replayed once, shown through the same timelines as a run. The trace
/// itself is kept when it was read here (lessons), not when a worker read it (the page keeps that file).
pub(super) struct Imported {
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) trace: Option<Trace>,
    pub(super) metrics: JsValue,
    pub(super) recording: Recording,
}

pub(super) fn trace_error(e: crate::trace::TraceError) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl Playground {
    /// Runs the whole window of `params` (defaults when omitted).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Playground, JsError> {
        let params = params_from_js(params)?;
        Ok(Playground { sim: run(&params).map_err(js_error)?, metrics: None, imported: None, engines: Bank::default() })
    }

    /// Re-runs the whole window with `params`. On error nothing changes and the message names the field.
    #[wasm_bindgen(js_name = setParams)]
    pub fn set_params(&mut self, params: JsValue) -> Result<(), JsError> {
        let params = params_from_js(params)?;
        self.sim.rerun(&params).map_err(js_error)?;
        self.metrics = None;
        self.imported = None;
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
        let recording = match &mut self.imported {
            Some(imported) => &mut imported.recording,
            None => self.sim.recording_mut(),
        };
        let t = recording.get_mut(kind).ok_or_else(|| unknown_kind(kind))?;
        let rows = t.rows();
        // SAFETY: the view aliases the timeline; JS uses it before the next call into wasm.
        Ok(unsafe { Float64Array::view(rows) })
    }

    /// Column names of timeline `kind`, in row order.
    pub fn columns(&self, kind: &str) -> Result<Vec<String>, JsError> {
        let recording = self.imported.as_ref().map_or(self.sim.recording(), |i| &i.recording);
        let t = recording.get(kind).ok_or_else(|| unknown_kind(kind))?;
        Ok(t.names().iter().map(|s| s.to_string()).collect())
    }

    /// Counters and quality metrics of the current run (computed once per run); for an imported trace,
    /// `{trace: {…replay metrics}}`.
    pub fn metrics(&mut self) -> Result<JsValue, JsError> {
        if let Some(imported) = &self.imported {
            return Ok(imported.metrics.clone());
        }
        let metrics = self.metrics.get_or_insert_with(|| self.sim.metrics());
        to_js(metrics)
    }

    /// Shows what [`Playground::prepare_import`] returned (in a worker) in place of the simulation until the next
    /// `setParams`. Its shape is checked: whole rows of today's columns, no more rows than a trace may have.
    #[wasm_bindgen(js_name = showImported)]
    pub fn show_imported(&mut self, prepared: JsValue) -> Result<JsValue, JsError> {
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
        self.imported = Some(Imported { trace: None, metrics, recording });
        Ok(summary)
    }

    /// Whether an imported trace is being shown.
    #[wasm_bindgen(getter)]
    pub fn imported(&self) -> bool {
        self.imported.is_some()
    }

    /// The most a trace may hold: `{bytes, snapshots, rtt, batches, points, sampleAt, noteChars}`.
    #[wasm_bindgen(js_name = traceLimits)]
    pub fn trace_limits() -> Result<JsValue, JsError> {
        use crate::trace::limits::*;
        to_js(&TraceLimits {
            batches: MAX_BATCHES,
            bytes: MAX_TRACE_BYTES,
            note_chars: MAX_NOTE_CHARS,
            points: MAX_POINTS,
            rtt: MAX_RTT_SAMPLES,
            sample_at: MAX_SAMPLES,
            snapshots: MAX_SNAPSHOTS,
        })
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

    /// `params` with one of seed 004 §5.3's network presets applied (`lan`, `sameRegion`, `crossRegion`,
    /// `mobile`): send rate, render delay and both links.
    #[wasm_bindgen(js_name = applyPreset)]
    pub fn apply_preset(params: JsValue, preset: &str) -> Result<JsValue, JsError> {
        let mut params = params_from_js(params)?;
        let preset = NetworkPreset::from_name(preset)
            .ok_or_else(|| JsError::new(&format!("`preset`: unknown preset `{preset}`")))?;
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
        to_js(&Codes {
            batch_outcome: &BATCH_OUTCOMES,
            kinds: &KINDS,
            mode: crate::display::DisplayMode::ALL.iter().map(|m| m.name()).collect(),
            policies: UnderrunPolicy::ALL.iter().map(|p| p.name()).collect(),
            rtt_verdict: &RTT_VERDICTS,
            shown: ShownMode::ALL.iter().map(|m| m.name()).collect(),
            smoothing: SmoothingMode::ALL.iter().map(|m| m.name()).collect(),
            snapshot_outcome: &SNAPSHOT_OUTCOMES,
            status: crate::buffer::SampleStatus::ALL.iter().map(|s| s.name()).collect(),
        })
    }
}

/// `Playground.codes()`: keys in alphabetical order, as the `serde_json::json!` object they replace had them
/// (serde_json out of the first-frame build: issue 14).
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Codes {
    batch_outcome: &'static [&'static str],
    kinds: &'static [&'static str],
    mode: Vec<&'static str>,
    policies: Vec<&'static str>,
    rtt_verdict: &'static [&'static str],
    shown: Vec<&'static str>,
    smoothing: Vec<&'static str>,
    snapshot_outcome: &'static [&'static str],
    status: Vec<&'static str>,
}

/// `Playground.traceLimits()`, keys in alphabetical order as before.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct TraceLimits {
    batches: usize,
    bytes: usize,
    note_chars: usize,
    points: usize,
    rtt: usize,
    sample_at: usize,
    snapshots: usize,
}

fn unknown_kind(kind: &str) -> JsError {
    JsError::new(&format!("`kind`: unknown timeline `{kind}`; expected one of {}", KINDS.join(", ")))
}
