//! `Playground`: the page's handle on one simulated run.
//!
//! JS hands over parameters (plain objects, serde-wasm-bindgen); Rust re-runs the whole window and keeps the
//! timelines. JS reads them through `timeline(kind)`, a `Float64Array` view over wasm memory whose rows are
//! laid out as `columns(kind)` says. Rebuild views after every call into wasm: a growing memory detaches them.

use crate::compare::PlaygroundParams;
use crate::engines::bank::Bank;
use crate::engines::{EngineParams, ShownMode};
use crate::extrapolate::UnderrunPolicy;
use crate::predict::input::InputScript;
use crate::predict::smoothing::SmoothingMode;
use crate::sim::record::{Recording, BATCH_OUTCOMES, KINDS, RTT_VERDICTS, SNAPSHOT_OUTCOMES};
use crate::sim::{run, SimMetrics, Simulation};
use crate::trace::Trace;
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

use super::convert::{js_error, read_tree, to_js};
use super::js_tree::tree_of;
use crate::tree::Tree;

/// Parameters from JS (`crate::compare::PlaygroundParams`: the simulation's and the engines'): `undefined`/`null`
/// mean the defaults; otherwise every field is checked by name — its type, its range, no unknown key and no array
/// where an object belongs (see `crate::tree`).
pub(super) fn params_from_js(value: JsValue) -> Result<PlaygroundParams, JsError> {
    // `undefined`/`null` read as `{}` (one path to the defaults: each copy of them is ~1.5 KB of wasm).
    let tree = if value.is_undefined() || value.is_null() { Tree::Object(Vec::new()) } else { tree_of(&value) };
    let params: PlaygroundParams = read_tree(tree, "params")?;
    params.validate().map_err(js_error)?;
    Ok(params)
}

/// The page's handle: the current run and its cached metrics, or an imported trace being shown instead.
#[wasm_bindgen]
pub struct Playground {
    pub(super) sim: Simulation,
    /// The engines' settings: they replay the run's log (`engines`), never the simulation.
    pub(super) engine_params: EngineParams,
    /// The run's metrics, computed once per run by `metrics()` (the full build only: src/web/analysis.rs).
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
    /// The file a worker read (`showImported`), read here only when the engines are asked for (full build).
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) bytes: Option<Vec<u8>>,
    /// Which import this is, for the engines' cache (never a run's id: those count up from 0).
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) id: u64,
    /// What `metrics()` returns while the trace is shown (the full build only: src/web/analysis.rs).
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) metrics: JsValue,
    pub(super) recording: Recording,
}

/// A fresh id for an import (see [`Imported::id`]).
#[cfg_attr(not(feature = "full"), allow(dead_code))]
pub(super) fn import_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1 << 63);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[cfg_attr(not(feature = "full"), allow(dead_code))]
pub(super) fn trace_error(e: crate::trace::TraceError) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl Playground {
    /// Runs the whole window of `params` (defaults when omitted).
    #[wasm_bindgen(constructor)]
    pub fn new(params: JsValue) -> Result<Playground, JsError> {
        let PlaygroundParams { sim, engines } = params_from_js(params)?;
        Ok(Playground {
            sim: run(&sim).map_err(js_error)?,
            engine_params: engines,
            metrics: None,
            imported: None,
            engines: Bank::default(),
        })
    }

    /// Takes `params`: the window is re-run when the simulation's part changed (only the pipelines the change
    /// touches, `crate::sim::rerun`); the engines' part alone re-runs nothing here (the engines replay the current
    /// log — the run's or an imported trace's — when next asked). An imported trace stays on screen through a
    /// change of the engines' part alone; any other call (the network changed, or the parameters given again as
    /// they are: a lesson, the sandbox) brings the simulation back. Returns whether the simulation ran. On error
    /// nothing changes and the message names the field.
    #[wasm_bindgen(js_name = setParams)]
    pub fn set_params(&mut self, params: JsValue) -> Result<bool, JsError> {
        let PlaygroundParams { sim, engines } = params_from_js(params)?;
        let engines_only = &sim == self.sim.params() && engines != self.engine_params;
        let simulated = if self.imported.is_some() { !engines_only } else { &sim != self.sim.params() };
        if simulated {
            self.sim.rerun(&sim).map_err(js_error)?;
            self.metrics = None;
            self.imported = None;
        }
        self.engine_params = engines;
        Ok(simulated)
    }

    /// Seconds between the run's snapshots: its send rate rounded to whole server ticks (`SimParams::stream`).
    #[wasm_bindgen(getter, js_name = sendInterval)]
    pub fn send_interval(&self) -> f64 {
        self.sim.params().stream().send_interval
    }

    /// The parameters of the current run, every field filled in.
    pub fn params(&self) -> Result<JsValue, JsError> {
        to_js(&PlaygroundParams { sim: self.sim.params().clone(), engines: self.engine_params.clone() })
    }

    /// The default parameters.
    #[wasm_bindgen(js_name = defaultParams)]
    pub fn default_params() -> Result<JsValue, JsError> {
        to_js(&PlaygroundParams::default())
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
/// (serde_json stays out of the first-frame build).
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
