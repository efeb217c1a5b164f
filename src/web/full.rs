//! The full build's part of `Playground` (cargo feature `full`): what the first frame does not need — traces in
//! and out, the engines and their league table, the lessons' built-in examples and replays, the capacity sweep.
//! The page loads it after the first frame (see ARCHITECTURE.md, "Three wasm builds"); the workers load only it.

use crate::compare::league::{league, setup, trace_league, Network};
use crate::compare::own::{rows_from_frames, score_all, OwnRun};
use crate::compare::sweep::capacity_sweep;
use crate::engines::score::{StrategyMetrics, COLUMNS as ENGINE_COLUMNS};
use crate::engines::StrategyKind;
use crate::trace::import::{self as imported, ImportedTrace};
use crate::trace::{export, Trace, TraceRun};
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

use super::convert::{js_error, to_js};
use super::playground::{import_id, params_from_js, trace_error, Imported, Playground};

fn strategy(name: &str) -> Result<StrategyKind, JsError> {
    StrategyKind::from_name(name)
        .ok_or_else(|| JsError::new(&format!("`strategy`: unknown `{name}` (known: {})", StrategyKind::names())))
}

/// The trace or arrival log in `bytes` (UTF-8 text; told by content, `trace::arrivals::read`), read and made
/// ready for the views.
fn read_import(bytes: &[u8]) -> Result<(Trace, ImportedTrace), JsError> {
    let trace = crate::trace::arrivals::read(bytes).map_err(trace_error)?;
    let imported = imported::import(&trace).map_err(trace_error)?;
    Ok((trace, imported))
}

fn metrics_of(imported: &ImportedTrace) -> Result<JsValue, JsError> {
    to_js(&serde_json::json!({ "trace": imported.metrics }))
}

#[wasm_bindgen]
impl Playground {
    /// Every parameter: `[{path, field, kind, options, unit, range, control, default, doc}]`, in the parameter
    /// object's order (`crate::param::Entry`). The page's rail is built from the same statement before this
    /// build arrives (`pkg/params-schema.js`, written by the build from `netcode-lab schema`); from here it takes
    /// the docs.
    pub fn schema() -> js_sys::Array {
        crate::compare::PlaygroundParams::schema().iter().map(super::schema::entry).collect()
    }

    /// Replays a trace (`netcode-lab/trace@1` JSON, or a game's arrival log: `crate::trace::arrivals`) and shows it in place of the simulation until the next
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
        self.imported =
            Some(Imported { trace: Some(trace), bytes: None, id: import_id(), metrics, recording: imported.recording });
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
    /// or their own parameters changed. On an imported trace every strategy replays the trace's deliveries
    /// (`crate::trace::TraceRun`; `playground` with the trace's own settings), one row per `sampleAt`.
    #[wasm_bindgen(js_name = engineRows)]
    pub fn engine_rows(&mut self, name: &str) -> Result<Float64Array, JsError> {
        let kind = strategy(name)?;
        if let Some(imported) = &mut self.imported {
            let run = trace_run(imported, &self.engine_params)?;
            let made = self.engines.get(&run.setup, kind, imported.id, &run.inputs, &run.truth).map_err(js_error)?;
            return Ok(Float64Array::from(&made.rows[..]));
        }
        if kind == StrategyKind::Playground {
            return Ok(Float64Array::from(&rows_from_frames(&self.sim.recording().frames)[..]));
        }
        let (id, inputs) = self.sim.client_inputs();
        let s = setup(self.sim.params(), &self.engine_params, None);
        let made = self.engines.get(&s, kind, id, inputs, self.sim.truth()).map_err(js_error)?;
        Ok(Float64Array::from(&made.rows[..]))
    }

    /// The listed strategies scored on the current run (the league table's custom column for them):
    /// `{name: {rmsError, addedLatency, stalls, snaps, jerk, underrunShare, …}}`.
    #[wasm_bindgen(js_name = engineMetrics)]
    pub fn engine_metrics(&mut self, names: Vec<String>) -> Result<JsValue, JsError> {
        let kinds = names.iter().map(|name| strategy(name)).collect::<Result<Vec<_>, _>>()?;
        if let Some(imported) = &mut self.imported {
            let run = trace_run(imported, &self.engine_params)?;
            let scored = score_all(&run.setup, &kinds, &run.inputs, &run.truth, None).map_err(js_error)?;
            return to_js(&ByStrategy(&kinds, &scored));
        }
        // The run's metrics, cached for the page's metrics table too: `playground` is this run's own pipeline,
        // so its row is the run's own remote metrics — neither replayed nor scored again (`compare::own`).
        let metrics = self.metrics.get_or_insert_with(|| self.sim.metrics());
        let (_, inputs) = self.sim.client_inputs();
        let s = setup(self.sim.params(), &self.engine_params, None);
        let own = OwnRun { frames: &self.sim.recording().frames, metrics: Some(&metrics.remote) };
        let scored = score_all(&s, &kinds, inputs, self.sim.truth(), Some(own)).map_err(js_error)?;
        to_js(&ByStrategy(&kinds, &scored))
    }

    /// The league table (`crate::compare::league`): every strategy on each of `networks` (`lan`, `sameRegion`,
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

    /// The league table of a recorded or imported trace (`bytes`: a `netcode-lab/trace@1` snapshot trace or a
    /// game's arrival log) — every strategy on its one network `trace`, the engines built with `params.engines`
    /// (`crate::compare::league::trace_league`, what `netcode-lab compare --trace` prints). Heavy: the page calls
    /// it from a Web Worker. A trace it cannot score is refused naming the field.
    #[wasm_bindgen(js_name = leagueTrace)]
    pub fn league_trace(bytes: &[u8], params: JsValue) -> Result<JsValue, JsError> {
        let params = params_from_js(params)?;
        let trace = crate::trace::arrivals::read(bytes).map_err(trace_error)?;
        to_js(&trace_league(&trace, "trace", &params, &StrategyKind::ALL).map_err(trace_error)?)
    }

    /// What to set (`crate::tune`): per engine, the smallest setting in its own terms that keeps the underrun share
    /// at or under `target`, on the network of `params` as given — or, with `trace` (a snapshot trace or an arrival
    /// log's bytes), on that recording with `params.engines`. `{target, network, rows, skipped}`; a target out of
    /// range or a run too short to judge it is refused by name. `strategies` (`"mirror,geckos"`, as `tune
    /// --strategies`) narrows it to those engines, light enough for a lesson's check; without it every engine with
    /// a setting to tune, heavy: the page's panel calls it from a Web Worker.
    pub fn tune(
        params: JsValue,
        target: f64,
        trace: Option<Vec<u8>>,
        strategies: Option<String>,
    ) -> Result<JsValue, JsError> {
        use crate::tune::{tunable, tune, Subject};
        let params = params_from_js(params)?;
        let refused = |e: crate::tune::TuneError| JsError::new(&format!("`{}`: {}", e.field, e.message));
        let strategies = match strategies {
            Some(list) => StrategyKind::parse_list(&list).map_err(|e| refused(e.into()))?,
            None => tunable(),
        };
        let tuned = match trace {
            Some(bytes) => {
                let trace = crate::trace::arrivals::read(&bytes).map_err(trace_error)?;
                tune(&Subject::Trace { trace: &trace, label: "trace", params: &params }, target, &strategies)
            }
            None => {
                let network = Network::custom("custom");
                tune(&Subject::Scenario { params: &params, network: &network }, target, &strategies)
            }
        };
        to_js(&tuned.map_err(refused)?)
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

    /// A network model fitted to the snapshot trace in `bytes` (`netcode-lab fit`): `{fit, recorded, fitted,
    /// fittedParams}`, the fit as the CLI prints it, the figure's histograms — `{delay: {binWidth, counts, over},
    /// bursts: {…}}` for the recording and for a draw of the fitted model seeded with 1
    /// (`crate::fit::model::figure`) — and the fitted network in the page's parameter shape, the keys
    /// `netcode-lab fit --params` prints (`{duration, scenario: {tickRate, sendRate}, network: {downlink,
    /// clockSkew}}`). When the fit makes no network (`crate::fit::model::FittedNetwork`: a latency floor that is no
    /// one-way latency and no RTT samples), `fittedParams` is `null` and `paramsRefused` says why. A bad trace is
    /// refused naming field and index.
    #[wasm_bindgen(js_name = fitTrace)]
    pub fn fit_trace(bytes: &[u8]) -> Result<JsValue, JsError> {
        let trace = Trace::from_json_bytes(bytes).map_err(trace_error)?;
        let (observations, rtt) = crate::fit::input::of_trace(&trace).map_err(trace_error)?;
        let figure = crate::fit::model::figure(&observations, &rtt, 1).map_err(|e| JsError::new(&e.to_string()))?;
        let mut out = serde_json::to_value(&figure).map_err(|e| JsError::new(&e.to_string()))?;
        let network = figure.fit.network(None).and_then(|network| network.playground().map(|_| network));
        match network {
            Ok(network) => {
                let params: serde_json::Value =
                    serde_json::from_str(&network.to_json()).map_err(|e| JsError::new(&e.to_string()))?;
                out["fittedParams"] = params;
            }
            Err(refused) => {
                out["fittedParams"] = serde_json::Value::Null;
                out["paramsRefused"] = refused.to_string().into();
            }
        }
        to_js(&out)
    }

    /// Replays a trace without showing it: `{samples: […], metrics: {…}}`, as the CLI prints it.
    #[wasm_bindgen(js_name = replayTrace)]
    pub fn replay_trace(text: &str) -> Result<JsValue, JsError> {
        let trace = crate::trace::arrivals::read_text(text).map_err(trace_error)?;
        let replay = crate::trace::replay(&trace).map_err(trace_error)?;
        let value: serde_json::Value =
            serde_json::from_str(&replay.to_json()).map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&value)
    }

    /// The same client replayed with other buffer capacities (seed 004 §3.3): one point per capacity, with
    /// `readyShare`, `gapShare`, `underrunShare` and `capacity`.
    #[wasm_bindgen(js_name = sweepCapacity)]
    pub fn sweep_capacity(&self, capacities: Vec<usize>) -> Result<JsValue, JsError> {
        to_js(&capacity_sweep(self.sim.params(), &capacities).map_err(js_error)?)
    }
}

/// The imported trace as a run for the engines, built with `engines`: read from the kept bytes first when a worker
/// read it (the trace is then kept too).
fn trace_run(imported: &mut Imported, engines: &crate::engines::EngineParams) -> Result<TraceRun, JsError> {
    if imported.trace.is_none() {
        let bytes = imported.bytes.take().ok_or_else(|| {
            JsError::new("`strategy`: the imported trace's file was not kept (showImported without its bytes)")
        })?;
        imported.trace = Some(crate::trace::arrivals::read(&bytes).map_err(trace_error)?);
    }
    let trace = imported.trace.as_ref().expect("read above");
    TraceRun::of(trace, engines, "the engines").map_err(trace_error)
}

/// `{name: metrics}`, in the order asked (a name asked twice: its last), each key a strategy's serde name: a unit
/// variant's name becomes a JS string once, cached by serde-wasm-bindgen, where a `&str` key was decoded from wasm
/// memory on every call (TextDecoder: a visible share of `engineMetrics` in Chromium's profile).
struct ByStrategy<'a>(&'a [StrategyKind], &'a [StrategyMetrics]);

impl serde::Serialize for ByStrategy<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().zip(self.1))
    }
}
