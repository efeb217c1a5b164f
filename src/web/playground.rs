//! `Playground`: the page's handle on one simulated run.
//!
//! JS hands over parameters (plain objects, serde-wasm-bindgen); Rust re-runs the whole window and keeps the
//! timelines. JS reads them through `timeline(kind)`, a `Float64Array` view over wasm memory whose rows are
//! laid out as `columns(kind)` says. Rebuild views after every call into wasm: a growing memory detaches them.

use crate::engines::run::{rows_from_frames, score_all, Bank, COLUMNS as ENGINE_COLUMNS};
use crate::engines::{ShownMode, StrategyKind};
use crate::extrapolate::UnderrunPolicy;
use crate::predict::decay::decay_curve;
use crate::predict::input::InputScript;
use crate::predict::smoothing::SmoothingMode;
use crate::sim::imported::ImportedTrace;
use crate::sim::league::{league, setup, Network};
use crate::sim::params::{check_shape, deserialize_named, SimParams};
use crate::sim::presets::NetworkPreset;
use crate::sim::record::{Recording, BATCH_OUTCOMES, KINDS, RTT_VERDICTS, SNAPSHOT_OUTCOMES};
use crate::sim::sweep::{capacity_sweep, sweep};
use crate::sim::{export, imported};
use crate::sim::{run, SimMetrics, Simulation};
use crate::trace::Trace;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{js_error, shape_of, to_js};

/// Parameters from JS: `undefined`/`null` mean the defaults; otherwise every field is checked by name — its
/// type, its range, and (serde-wasm-bindgen reads only the keys it knows) no unknown key and no array where an
/// object belongs.
fn params_from_js(value: JsValue) -> Result<SimParams, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(SimParams::default());
    }
    let params = deserialize_named(serde_wasm_bindgen::Deserializer::from(value.clone())).map_err(js_error)?;
    params.validate().map_err(js_error)?;
    check_shape(&shape_of(&value)?).map_err(js_error)?;
    Ok(params)
}

/// The page's handle: the current run and its cached metrics, or an imported trace being shown instead.
#[wasm_bindgen]
pub struct Playground {
    sim: Simulation,
    metrics: Option<SimMetrics>,
    imported: Option<Imported>,
    /// The engines' strategies the page draws, replayed on this run's client inputs (re-run only on change).
    engines: Bank,
}

fn strategy(name: &str) -> Result<StrategyKind, JsError> {
    StrategyKind::from_name(name)
        .ok_or_else(|| JsError::new(&format!("`strategy`: unknown `{name}` (known: {})", StrategyKind::names())))
}

/// A trace the user dropped on the page: replayed once, shown through the same timelines as a run. The trace
/// itself is kept when it was read here (lessons), not when a worker read it (the page keeps that file).
struct Imported {
    trace: Option<Trace>,
    metrics: JsValue,
    recording: Recording,
}

fn trace_error(e: crate::trace::TraceError) -> JsError {
    JsError::new(&e.to_string())
}

/// The trace in `bytes` (UTF-8 text), read and made ready for the views.
fn read_import(bytes: &[u8]) -> Result<(Trace, ImportedTrace), JsError> {
    let trace = Trace::from_json_bytes(bytes).map_err(trace_error)?;
    let imported = imported::import(&trace).map_err(trace_error)?;
    Ok((trace, imported))
}

fn metrics_of(imported: &ImportedTrace) -> Result<JsValue, JsError> {
    to_js(&serde_json::json!({ "trace": imported.metrics }))
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

    /// Replays a trace (`netcode-lab/trace@1` JSON) and shows it in place of the simulation until the next
    /// `setParams`. Returns the summary `{kind, snapshots, samples, sendInterval, note, counts}` (`counts`: what
    /// the buffer counted and did not play); a bad trace is refused naming field and index, and nothing changes.
    #[wasm_bindgen(js_name = importTrace)]
    pub fn import_trace(&mut self, text: &str) -> Result<JsValue, JsError> {
        self.import_bytes(text.as_bytes())
    }

    /// [`Playground::import_trace`] for the file's bytes (so that UTF-16 and invalid UTF-8 are named).
    #[wasm_bindgen(js_name = importTraceBytes)]
    pub fn import_bytes(&mut self, bytes: &[u8]) -> Result<JsValue, JsError> {
        let (trace, imported) = read_import(bytes)?;
        let summary = to_js(&imported.summary)?;
        let metrics = metrics_of(&imported)?;
        self.imported = Some(Imported { trace: Some(trace), metrics, recording: imported.recording });
        Ok(summary)
    }

    /// For the page's import worker (its own core): reads and replays the trace in `bytes` and returns
    /// `{summary, metrics, frames, snapshots}` — the two timelines' rows as `Float64Array`s of their own (they can
    /// be transferred) — for [`Playground::show_imported`] on the page's core.
    #[wasm_bindgen(js_name = prepareImport)]
    pub fn prepare_import(bytes: &[u8]) -> Result<JsValue, JsError> {
        let (_, mut imported) = read_import(bytes)?;
        let out = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| js_sys::Reflect::set(&out, &key.into(), value).map(|_| ());
        let failed = |_| JsError::new("cannot build the import's result object");
        set("summary", &to_js(&imported.summary)?).map_err(failed)?;
        set("metrics", &metrics_of(&imported)?).map_err(failed)?;
        set("frames", &Float64Array::from(imported.recording.frames.rows())).map_err(failed)?;
        set("snapshots", &Float64Array::from(imported.recording.snapshots.rows())).map_err(failed)?;
        Ok(out.into())
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

    /// The current run as a trace of `kind` (`snapshots` or `paths`), or the imported trace itself.
    #[wasm_bindgen(js_name = exportTrace)]
    pub fn export_trace(&self, kind: &str) -> Result<String, JsError> {
        if let Some(imported) = &self.imported {
            return match &imported.trace {
                Some(trace) => Ok(trace.to_json()),
                None => Err(JsError::new("`kind`: this trace was read by the import worker; export the file itself")),
            };
        }
        match kind {
            "snapshots" => Ok(export::snapshot_trace(&self.sim).to_json()),
            "paths" => Ok(export::path_trace(&self.sim).to_json()),
            other => Err(JsError::new(&format!("`kind`: unknown trace kind `{other}` (snapshots, paths)"))),
        }
    }

    /// Every strategy of `crate::engines`, in table order: `[{name, buffered}]` (`buffered`: it renders behind
    /// its data and can run dry — all but `latest`).
    pub fn strategies() -> Result<JsValue, JsError> {
        let list: Vec<_> =
            StrategyKind::ALL.iter().map(|k| serde_json::json!({"name": k.name(), "buffered": k.buffered()})).collect();
        to_js(&list)
    }

    /// Column names of a strategy's rows (`engineRows`).
    #[wasm_bindgen(js_name = engineColumns)]
    pub fn engine_columns() -> Vec<String> {
        ENGINE_COLUMNS.iter().map(|s| s.to_string()).collect()
    }

    /// Strategy `name` replayed on the current run: one row per frame (`engineColumns`), a copy JS may keep.
    /// `playground` is read from the run's own frames; the others are re-run only when the run's client inputs
    /// or their own parameters changed.
    #[wasm_bindgen(js_name = engineRows)]
    pub fn engine_rows(&mut self, name: &str) -> Result<Float64Array, JsError> {
        let kind = strategy(name)?;
        if self.imported.is_some() {
            return Err(JsError::new("`strategy`: the engines replay simulated runs, not an imported trace"));
        }
        if kind == StrategyKind::Playground {
            return Ok(Float64Array::from(&rows_from_frames(&self.sim.recording().frames)[..]));
        }
        let (id, inputs) = self.sim.client_inputs();
        let s = setup(self.sim.params(), None);
        let made = self.engines.get(&s, kind, id, inputs, self.sim.time_map(), self.sim.truth()).map_err(js_error)?;
        Ok(Float64Array::from(&made.rows[..]))
    }

    /// The listed strategies scored on the current run (the league table's custom column for them):
    /// `{name: {rmsError, addedLatency, stalls, snaps, jerk, underrunShare, …}}`.
    #[wasm_bindgen(js_name = engineMetrics)]
    pub fn engine_metrics(&self, names: Vec<String>) -> Result<JsValue, JsError> {
        let (_, inputs) = self.sim.client_inputs();
        let s = setup(self.sim.params(), None);
        let kinds = names.iter().map(|name| strategy(name)).collect::<Result<Vec<_>, _>>()?;
        let frames = Some(&self.sim.recording().frames);
        let scored = score_all(&s, &kinds, inputs, self.sim.time_map(), self.sim.truth(), frames).map_err(js_error)?;
        let out: std::collections::BTreeMap<_, _> = kinds.iter().map(|k| k.name()).zip(scored).collect();
        to_js(&out)
    }

    /// The league table (`crate::sim::league`): every strategy on each of `networks` (`lan`, `sameRegion`,
    /// `crossRegion`, `mobile`, `custom` = `params` as given). Heavy: the page calls it from a Web Worker.
    pub fn league(params: JsValue, networks: Vec<String>) -> Result<JsValue, JsError> {
        let params = params_from_js(params)?;
        let networks = networks
            .iter()
            .enumerate()
            .map(|(i, n)| {
                Network::parse(n).ok_or_else(|| {
                    JsError::new(&format!(
                        "`networks[{i}]`: unknown `{n}` (known: lan, sameRegion, crossRegion, mobile, custom)"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        to_js(&league(&params, &networks, &StrategyKind::ALL).map_err(js_error)?)
    }

    /// Names of the built-in traces (the seeds' worked examples).
    #[wasm_bindgen(js_name = exampleNames)]
    pub fn example_names() -> Vec<String> {
        crate::trace::examples::EXAMPLES.iter().map(|e| e.name.to_string()).collect()
    }

    /// A built-in trace as JSON.
    #[wasm_bindgen(js_name = exampleTrace)]
    pub fn example_trace(name: &str) -> Result<String, JsError> {
        crate::trace::examples::example(name)
            .map(|t| t.to_json())
            .ok_or_else(|| JsError::new(&format!("`name`: unknown example `{name}`")))
    }

    /// The most a trace may hold: `{bytes, snapshots, rtt, batches, points, sampleAt, noteChars}`.
    #[wasm_bindgen(js_name = traceLimits)]
    pub fn trace_limits() -> Result<JsValue, JsError> {
        use crate::trace::limits::*;
        to_js(&serde_json::json!({
            "bytes": MAX_TRACE_BYTES, "snapshots": MAX_SNAPSHOTS, "rtt": MAX_RTT_SAMPLES, "batches": MAX_BATCHES,
            "points": MAX_POINTS, "sampleAt": MAX_SAMPLES, "noteChars": MAX_NOTE_CHARS,
        }))
    }

    /// Refuses a trace file of `bytes` bytes before it is read, with the same words as the reader.
    #[wasm_bindgen(js_name = checkTraceSize)]
    pub fn check_trace_size(bytes: f64) -> Result<(), JsError> {
        if !(bytes.is_finite() && bytes >= 0.0) {
            return Err(JsError::new(&format!("`bytes`: {} is not a size in bytes", crate::words::num(bytes))));
        }
        crate::trace::limits::check_size(bytes.min(usize::MAX as f64) as usize).map_err(trace_error)
    }

    /// Replays a trace without showing it: `{samples: […], metrics: {…}}`, as the CLI prints it.
    #[wasm_bindgen(js_name = replayTrace)]
    pub fn replay_trace(text: &str) -> Result<JsValue, JsError> {
        let trace = Trace::from_json(text).map_err(trace_error)?;
        let replay = crate::trace::replay(&trace).map_err(trace_error)?;
        let value: serde_json::Value =
            serde_json::from_str(&replay.to_json()).map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&value)
    }

    /// The render-delay trade-off: one `{delay, underrunShare, addedLatency, rmsError}` per delay (seconds).
    pub fn sweep(&self, delays: Vec<f64>) -> Result<JsValue, JsError> {
        to_js(&sweep(self.sim.params(), &delays).map_err(js_error)?)
    }

    /// The same client replayed with other buffer capacities (seed 004 §3.3): one point per capacity, with
    /// `readyShare`, `gapShare`, `underrunShare` and `capacity`.
    #[wasm_bindgen(js_name = sweepCapacity)]
    pub fn sweep_capacity(&self, capacities: Vec<usize>) -> Result<JsValue, JsError> {
        to_js(&capacity_sweep(self.sim.params(), &capacities).map_err(js_error)?)
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
            "shown": ShownMode::ALL.iter().map(|m| m.name()).collect::<Vec<_>>(),
        });
        to_js(&codes)
    }
}

fn unknown_kind(kind: &str) -> JsError {
    JsError::new(&format!("`kind`: unknown timeline `{kind}`; expected one of {}", KINDS.join(", ")))
}
