//! wasm-bindgen-test: the exported API, called from Rust compiled to wasm, inside headless Chromium.
#![cfg(target_arch = "wasm32")]

use netcode_lab::web::{Playground, WorkedExample};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Copies a view over wasm memory into JS before Rust allocates (an allocation may grow memory and detach it).
fn copied(view: js_sys::Float64Array) -> Vec<f64> {
    js_sys::Float64Array::new(&view).to_vec()
}

fn message(error: wasm_bindgen::JsError) -> String {
    let value: JsValue = error.into();
    js_sys::Reflect::get(&value, &"message".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn the_worked_example_renders_one_and_a_half_at_ten_thirty() {
    let mut playground = WorkedExample::new();
    playground.seek(10.30).unwrap();
    let frame = copied(playground.frame_view());
    assert!((frame[1] - 10.15).abs() < 1e-9, "render time {}", frame[1]);
    assert_eq!(WorkedExample::status_name(frame[2]), "ready");
    assert!((frame[3] - 1.5).abs() < 1e-9, "x {}", frame[3]);
    assert_eq!((frame[4], frame[5]), (101.0, 102.0));
}

#[wasm_bindgen_test]
fn a_smaller_delay_underruns_at_the_same_local_time() {
    let mut playground = WorkedExample::new();
    playground.set_render_delay_ms(50.0).unwrap();
    playground.seek(10.30).unwrap();
    let frame = copied(playground.frame_view());
    assert_eq!(WorkedExample::status_name(frame[2]), "underrun");
    assert!(frame[3].is_nan(), "an underrun carries no position");
    assert!(playground.reason().contains("past the newest snapshot"));
}

#[wasm_bindgen_test]
fn bad_input_names_the_field_and_keeps_the_old_value() {
    let mut playground = WorkedExample::new();
    for bad in [f64::NAN, f64::INFINITY, -1.0, 5000.0] {
        let text = message(playground.set_render_delay_ms(bad).unwrap_err());
        assert!(text.contains("renderDelay"), "{text}");
    }
    assert_eq!(playground.render_delay_ms(), 150.0);
    assert!(message(playground.advance(f64::NAN).unwrap_err()).contains("dt"));
}

#[wasm_bindgen_test]
fn the_curve_view_covers_the_window() {
    let playground = WorkedExample::new();
    let curve = copied(playground.curve_view());
    assert_eq!(curve.len() % 3, 0);
    assert_eq!(curve[0], playground.window_start());
    assert!((curve[curve.len() - 3] - playground.window_end()).abs() < 1e-9);
    let ready = curve.chunks(3).filter(|row| WorkedExample::status_name(row[1]) == "ready").count();
    assert!(ready > 100, "{ready} ready samples");
}

fn get(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |v, key| js_sys::Reflect::get(&v, &(*key).into()).unwrap())
}

fn params(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

#[wasm_bindgen_test]
fn the_playground_runs_the_default_window_and_exposes_timelines() {
    let mut playground = Playground::new(JsValue::UNDEFINED).unwrap();
    let columns = playground.columns("frames").unwrap();
    let view = copied(playground.timeline("frames").unwrap());
    assert_eq!(view.len() % columns.len(), 0);
    assert_eq!(view.len() / columns.len(), 1201, "20 s at 60 fps, both ends");
    let metrics = playground.metrics().unwrap();
    let ready = get(&metrics, &["remote", "statusShare", "ready"]).as_f64().unwrap();
    assert!(ready > 0.5 && ready <= 1.0, "{ready}");
    assert!(playground.timeline("nonsense").is_err());
}

#[wasm_bindgen_test]
fn set_params_reruns_and_a_bad_field_is_named_and_changes_nothing() {
    let mut playground = Playground::new(params(r#"{"duration": 5}"#)).unwrap();
    let before = copied(playground.timeline("frames").unwrap());
    let err = playground.set_params(params(r#"{"duration": 5, "network": {"downlink": {"loss": "lots"}}}"#));
    assert!(message(err.unwrap_err()).contains("network.downlink.loss"));
    let err = playground.set_params(params(r#"{"remote": {"clock": {"renderDelay": -1}}}"#));
    assert!(message(err.unwrap_err()).contains("remote.clock.renderDelay"));
    assert_eq!(copied(playground.timeline("frames").unwrap()).len(), before.len(), "the old run is kept");
    playground.set_params(params(r#"{"duration": 2}"#)).unwrap();
    assert_eq!(get(&playground.params().unwrap(), &["duration"]).as_f64(), Some(2.0));
}

#[wasm_bindgen_test]
fn sweep_and_curves_cross_as_plain_objects() {
    let playground = Playground::new(params(r#"{"duration": 3}"#)).unwrap();
    let points = playground.sweep(vec![0.0, 0.1, 0.2]).unwrap();
    assert_eq!(js_sys::Array::from(&points).length(), 3);
    let curves = Playground::extrapolation_curves(3000.0, 0.1, 0.2, 21.0).unwrap();
    let seed = js_sys::Array::from(&get(&curves, &["extrapolate-seed"]));
    let peak = (0..seed.length()).filter_map(|i| get(&seed.get(i), &["offset"]).as_f64()).fold(0.0, f64::max);
    assert!((peak - 75.0).abs() < 1e-6, "seed 000 §4.3.5 peaks at 75: {peak}");
}

#[path = "bad-inputs/catalogue.rs"]
mod catalogue;

use netcode_lab::web::Lessons;

/// `+value` (ToNumber), as the generated glue converts a JS argument for an `f64` parameter.
fn number(value: &JsValue) -> f64 {
    value.unchecked_into_f64()
}

fn text(value: &JsValue) -> String {
    value.as_string().unwrap_or_else(|| panic!("a string argument, got {value:?}"))
}

fn numbers(value: &JsValue) -> Vec<f64> {
    js_sys::Array::from(value).iter().map(|v| number(&v)).collect()
}

fn stringify(value: &JsValue) -> String {
    js_sys::JSON::stringify(value).map(String::from).unwrap_or_default()
}

/// Calls the binding method `call` with `args`: the error's message, or `None`; `Err` when the handle changed
/// although the call was refused.
fn call(call: &str, args: &js_sys::Array) -> Result<Option<String>, String> {
    let arg = |i: u32| args.get(i);
    let refused = |r: Result<(), wasm_bindgen::JsError>| r.err().map(message);
    let ignore = |r: Result<JsValue, wasm_bindgen::JsError>| r.map(|_| ());
    let mut playground = Playground::new(params(r#"{"duration": 2}"#)).unwrap();
    let before = stringify(&playground.params().unwrap());
    let frames = copied(playground.timeline("frames").unwrap()).len();
    let out = match call {
        "new" => refused(Playground::new(arg(0)).map(|_| ())),
        "setParams" => refused(playground.set_params(arg(0)).map(|_| ())),
        "applyPreset" => refused(ignore(Playground::apply_preset(arg(0), &text(&arg(1))))),
        "extrapolationCurves" => refused(ignore(Playground::extrapolation_curves(
            number(&arg(0)),
            number(&arg(1)),
            number(&arg(2)),
            number(&arg(3)),
        ))),
        "decayCurves" => refused(ignore(playground.decay_curves(number(&arg(0)), number(&arg(1)), number(&arg(2))))),
        "sweep" => refused(ignore(playground.sweep(numbers(&arg(0))))),
        "timeline" => refused(playground.timeline(&text(&arg(0))).map(|_| ())),
        "columns" => refused(playground.columns(&text(&arg(0))).map(|_| ())),
        "exportTrace" => refused(playground.export_trace(&text(&arg(0))).map(|_| ())),
        "exampleTrace" => refused(Playground::example_trace(&text(&arg(0))).map(|_| ())),
        "checkTraceSize" => refused(Playground::check_trace_size(number(&arg(0)))),
        "showImported" => refused(ignore(playground.show_imported(arg(0), None))),
        "workedExample.setRenderDelayMs" => {
            let mut example = WorkedExample::new();
            let out = refused(example.set_render_delay_ms(number(&arg(0))));
            if out.is_some() && example.render_delay_ms() != 150.0 {
                return Err("the worked example's delay changed".into());
            }
            out
        }
        "workedExample.seek" => refused(WorkedExample::new().seek(number(&arg(0)))),
        "workedExample.advance" => refused(WorkedExample::new().advance(number(&arg(0)))),
        "lessons.walk" => refused(ignore(Lessons::walk(&text(&arg(0)), number(&arg(1)), number(&arg(2))))),
        "lessons.hardSnapTable" => refused(ignore(Lessons::hard_snap_table(arg(0)))),
        "lessons.correctionJumps" => {
            refused(ignore(Lessons::correction_jumps(arg(0), numbers(&arg(1)), number(&arg(2)) as usize)))
        }
        other => panic!("the catalogue calls an unknown method {other}"),
    };
    let kept = stringify(&playground.params().unwrap()) == before
        && !playground.imported()
        && copied(playground.timeline("frames").unwrap()).len() == frames;
    if out.is_some() && !kept {
        return Err("refused, but the run changed".into());
    }
    Ok(out)
}

#[wasm_bindgen_test]
fn every_binding_call_in_the_catalogue_is_refused_with_its_message_and_changes_nothing() {
    let catalogue = catalogue::load();
    let mut failures = Vec::new();
    for case in catalogue::list(&catalogue, "binding") {
        let id = catalogue::id(case);
        let args = js_sys::eval(&format!("({})", case["args"].as_str().expect("args"))).expect("the args evaluate");
        match call(case["call"].as_str().expect("call"), &js_sys::Array::from(&args)) {
            Err(problem) => failures.push(format!("{id}: {problem}")),
            Ok(got) if got.as_deref() != catalogue::error(case) => {
                failures.push(format!("{id}:\n  got      {got:?}\n  expected {:?}", catalogue::error(case)))
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} entries differ:\n{}", failures.len(), failures.join("\n"));
}

#[wasm_bindgen_test]
fn every_trace_in_the_catalogue_is_refused_by_the_binding_with_its_line() {
    let catalogue = catalogue::load();
    let mut failures = Vec::new();
    let mut playground = Playground::new(params(r#"{"duration": 2}"#)).unwrap();
    let frames = copied(playground.timeline("frames").unwrap()).len();
    for case in catalogue::list(&catalogue, "traces").iter().filter(|c| catalogue::at_door(c, "binding")) {
        let id = catalogue::id(case);
        let bytes = catalogue::bytes(case);
        let expected = catalogue::error_in_the_views(case);
        let mut attempts = vec![("importTraceBytes", playground.import_bytes(&bytes))];
        if case["encoding"].is_null() {
            if let Ok(text) = std::str::from_utf8(&bytes) {
                attempts.push(("importTrace", playground.import_trace(text)));
            }
        }
        for (method, result) in attempts {
            match (result, &expected) {
                (Err(e), Some(line)) => {
                    let got = message(e);
                    if &got != line {
                        failures.push(format!("{id} ({method}):\n  got      {got}\n  expected {line}"));
                    }
                }
                (Err(e), None) => failures.push(format!("{id} ({method}): refused: {}", message(e))),
                (Ok(_), Some(line)) => failures.push(format!("{id} ({method}): accepted, expected {line}")),
                (Ok(summary), None) => {
                    for (key, value) in case["summary"].as_object().into_iter().flatten() {
                        let got = get(&summary, &[key]).as_f64();
                        if got != value.as_f64() {
                            failures.push(format!("{id} ({method}): summary.{key} is {got:?}, expected {value}"));
                        }
                    }
                    playground.set_params(params(r#"{"duration": 2}"#)).unwrap();
                }
            }
        }
        if playground.imported() || copied(playground.timeline("frames").unwrap()).len() != frames {
            failures.push(format!("{id}: the run changed"));
            playground.set_params(params(r#"{"duration": 2}"#)).unwrap();
        }
    }
    assert!(failures.is_empty(), "{} entries differ:\n{}", failures.len(), failures.join("\n"));
}

/// The engines on an imported arrival log (20 Hz for 2 s, 80 ms late: 40 snapshots, frames every 1/60 s from
/// 0.08 to 2.03 s: 1.95 × 60 = 117 steps, 118 frames): every strategy's rows cover each frame, and the metrics
/// score against the standard motion. The same through the worker's path (`prepareImport`, then `showImported` with the file's
/// bytes); without the bytes the engines say the file was not kept.
#[wasm_bindgen_test]
fn the_engines_replay_an_imported_arrival_log() {
    let log: String = std::iter::once("seq,arrival\n".to_string())
        .chain((0..40).map(|k| format!("{k},{:.2}\n", f64::from(k) * 0.05 + 0.08)))
        .collect();
    let mut playground = Playground::new(params(r#"{"duration": 2}"#)).unwrap();
    let summary = playground.import_bytes(log.as_bytes()).unwrap();
    assert_eq!(get(&summary, &["samples"]).as_f64(), Some(118.0));
    for name in ["mirror", "playground", "latest"] {
        assert_eq!(playground.engine_rows(name).unwrap().to_vec().len(), 118 * 4, "{name}");
    }
    let metrics = playground.engine_metrics(vec!["mirror".into(), "latest".into()]).unwrap();
    assert!(get(&metrics, &["mirror", "shown"]).as_f64().unwrap() > 0.5);
    assert!(get(&metrics, &["latest", "rmsError"]).as_f64().unwrap().is_finite());
    let prepared = Playground::prepare_import(log.as_bytes()).unwrap();
    let mut worker_path = Playground::new(params(r#"{"duration": 2}"#)).unwrap();
    worker_path.show_imported(prepared.clone(), Some(log.as_bytes().to_vec())).unwrap();
    assert_eq!(worker_path.engine_rows("mirror").unwrap().to_vec(), playground.engine_rows("mirror").unwrap().to_vec());
    worker_path.show_imported(prepared, None).unwrap();
    assert_eq!(
        message(worker_path.engine_rows("mirror").unwrap_err()),
        "`strategy`: the imported trace's file was not kept (showImported without its bytes)"
    );
}

/// The engines through the binding: a drawn strategy's rows cover every frame; the league names a bad network.
#[wasm_bindgen_test]
fn the_engines_replay_the_run_and_the_league_refuses_an_unknown_network() {
    let mut playground = Playground::new(params(r#"{"duration": 4}"#)).unwrap();
    let frames = copied(playground.timeline("frames").unwrap()).len() / playground.columns("frames").unwrap().len();
    let rows = playground.engine_rows("source").unwrap().to_vec();
    assert_eq!(rows.len(), frames * Playground::engine_columns().len());
    assert!(rows.chunks(4).last().unwrap()[1].is_finite(), "Source shows the entity at the end");
    assert!(message(playground.engine_rows("unity").unwrap_err()).contains("`strategy`: unknown `unity`"));
    let bad = vec!["lan".to_string(), "wifi".to_string()];
    assert!(message(Playground::league(params(r#"{"duration": 4}"#), bad).unwrap_err())
        .contains("`networks[1]`: unknown `wifi`"));
}

/// `engineMetrics` answers `{name: metrics}` for the names asked, in their order, a name asked twice once, each
/// entry naming its strategy; an unknown name is refused by name. Red: the names sorted (the map it was before),
/// or keys other than the strategies' serde names (the keys are the strategies themselves, whose names
/// serde-wasm-bindgen caches).
#[wasm_bindgen_test]
fn engine_metrics_are_keyed_by_the_names_asked() {
    let mut playground = Playground::new(params(r#"{"duration": 4}"#)).unwrap();
    let asked = ["mirror", "latest", "mirror", "seed004"].map(String::from).to_vec();
    let out = playground.engine_metrics(asked).unwrap();
    let object: &js_sys::Object = out.unchecked_ref();
    let keys: Vec<String> = js_sys::Object::keys(object).iter().map(|k| k.as_string().unwrap()).collect();
    assert_eq!(keys, ["mirror", "latest", "seed004"]);
    for key in &keys {
        let entry = js_sys::Reflect::get(&out, &key.into()).unwrap();
        let name = js_sys::Reflect::get(&entry, &"strategy".into()).unwrap().as_string();
        assert_eq!(name.as_deref(), Some(key.as_str()));
        let rms = js_sys::Reflect::get(&entry, &"rmsError".into()).unwrap().as_f64().unwrap();
        assert!(rms.is_finite() && rms >= 0.0, "{key}: rmsError {rms}");
    }
    let unknown = vec!["mirror".to_string(), "unity".to_string()];
    assert!(message(playground.engine_metrics(unknown).unwrap_err()).contains("unknown `unity`"));
}

/// An engine's setting alone does not run the simulation again (setParams says so, the run's rows stay); a
/// setting of the simulation does. The send interval is the core's: the send rate rounded to whole server ticks
/// (60 Hz ticks, 25 Hz asked: 2.4 ticks → 2, so 1/30 s, not 1/25 s).
#[wasm_bindgen_test]
fn an_engine_setting_replays_the_engines_only_and_the_send_interval_is_whole_ticks() {
    let mut playground = Playground::new(params(r#"{"duration": 4}"#)).unwrap();
    assert!((playground.send_interval() - 0.05).abs() < 1e-12, "{}", playground.send_interval());
    let before = copied(playground.timeline("frames").unwrap());
    let engine_only = r#"{"duration": 4, "engines": {"mirror": {"bufferTimeMultiplier": 3}}}"#;
    assert!(!playground.set_params(params(engine_only)).unwrap(), "an engine's setting ran the simulation");
    // Bit for bit: the rows hold NaN where a column has no value, and NaN != NaN.
    let bits = |rows: Vec<f64>| rows.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    assert_eq!(bits(copied(playground.timeline("frames").unwrap())), bits(before));
    assert!(playground.set_params(params(r#"{"duration": 4, "scenario": {"sendRate": 25}}"#)).unwrap());
    assert!((playground.send_interval() - 1.0 / 30.0).abs() < 1e-12, "{}", playground.send_interval());
}

/// The schema through the binding: every parameter, with the field, the control and the doc the source states.
#[wasm_bindgen_test]
fn the_schema_lists_every_parameter_with_its_control_and_doc() {
    let schema = Playground::schema();
    assert!(schema.length() > 120, "{} parameters", schema.length());
    let path = |e: &JsValue| get(e, &["path"]).as_string();
    let render_delay = schema.iter().find(|e| path(e).as_deref() == Some("remote.clock.renderDelay"));
    let render_delay = render_delay.expect("remote.clock.renderDelay");
    assert_eq!(get(&render_delay, &["field"]).as_string().unwrap(), "render_delay");
    assert_eq!(get(&render_delay, &["default"]).as_f64(), Some(0.12));
    assert_eq!(get(&render_delay, &["control", "max"]).as_f64(), Some(400.0));
    assert!(get(&render_delay, &["doc"]).as_string().unwrap().contains("render time"));
}

#[wasm_bindgen_test]
fn fit_trace_fits_an_exported_run_and_refuses_a_paths_trace_by_name() {
    // The default run: 20 Hz snapshots through 50 ± 10 ms, nothing lost: the floor 40 ms, a send every 50 ms.
    let playground = Playground::new(params(r#"{"duration": 20}"#)).unwrap();
    let trace = playground.export_trace("snapshots").unwrap();
    let figure = Playground::fit_trace(trace.as_bytes()).unwrap();
    let base = number(&get(&figure, &["fit", "latency", "base"]));
    assert!((base - 0.04).abs() < 0.001, "{base}");
    let interval = number(&get(&figure, &["fit", "sendInterval"]));
    assert!((interval - 0.05).abs() < 1e-9, "{interval}");
    assert_eq!(number(&get(&figure, &["fit", "loss", "rate"])), 0.0);
    assert!(get(&figure, &["fit", "loss", "meanBurst"]).is_null());
    // Sends at server times 0, 0.05, …, 20 s, the last delivered after the last frame: 401 copies, every one of them
    // in the recording's delay bins.
    let recorded = numbers(&get(&figure, &["recorded", "delay", "counts"]));
    let over = number(&get(&figure, &["recorded", "delay", "over"]));
    assert_eq!(recorded.iter().sum::<f64>() + over, 401.0);
    let fitted = numbers(&get(&figure, &["fitted", "delay", "counts"]));
    assert_eq!(fitted.len(), recorded.len(), "the same bins");
    let paths = playground.export_trace("paths").unwrap();
    let refused = Playground::fit_trace(paths.as_bytes()).map(|_| ()).unwrap_err();
    assert_eq!(message(refused), "kind: fit reads snapshot traces only; this trace is of kind \"paths\"");
}

#[wasm_bindgen_test]
fn fit_trace_gives_the_fitted_network_in_the_pages_parameter_shape() {
    // The default run (20 Hz sends on 60 Hz ticks, 50 ± 10 ms, nothing lost), 20 s: the fitted downlink is the floor
    // (40 ms) with the log-normal jitter, burst loss at rate 0 in bursts of 1, no duplicates, no reorder hold-back;
    // the rates are the run's own; the duration the recording's span (sends 0 … 20 s).
    let playground = Playground::new(params(r#"{"duration": 20}"#)).unwrap();
    let trace = playground.export_trace("snapshots").unwrap();
    let figure = Playground::fit_trace(trace.as_bytes()).unwrap();
    let fitted = get(&figure, &["fittedParams"]);
    let down = |key: &str| get(&fitted, &["network", "downlink", key]);
    assert!((number(&down("latency")) - 0.04).abs() < 0.001, "{}", number(&down("latency")));
    assert_eq!(text(&down("jitterModel")), "logNormal");
    assert_eq!(text(&down("lossModel")), "burst");
    assert_eq!((number(&down("loss")), number(&down("burstLength"))), (0.0, 1.0));
    assert_eq!((number(&down("duplicate")), number(&down("reorder"))), (0.0, 0.0));
    assert_eq!(number(&get(&fitted, &["scenario", "sendRate"])), 20.0);
    assert_eq!(number(&get(&fitted, &["scenario", "tickRate"])), 60.0);
    assert!((number(&get(&fitted, &["duration"])) - 20.0).abs() < 1e-9);
    // The jitter is the fit's: the median excess, its sigma.
    assert_eq!(number(&down("jitter")), number(&get(&figure, &["fit", "jitter", "median"])));
    assert_eq!(number(&down("jitterSigma")), number(&get(&figure, &["fit", "jitter", "sigma"])));
    // Only the keys `fit --params` writes: the uplink and the rest are left to the page.
    assert!(get(&fitted, &["network", "uplink"]).is_undefined());
    assert!(get(&fitted, &["remote"]).is_undefined());
    // It is a parameters object the playground takes as it is.
    let mut other = Playground::new(params(r#"{"duration": 2}"#)).unwrap();
    other.set_params(fitted).unwrap();
    assert_eq!(text(&get(&other.params().unwrap(), &["network", "downlink", "jitterModel"])), "logNormal");
    assert!(get(&figure, &["paramsRefused"]).is_undefined());
}

#[wasm_bindgen_test]
fn fit_trace_says_why_it_makes_no_network_from_a_floor_that_is_no_latency() {
    // Arrivals 5 s before they were sent (the clocks' offset), no RTT samples: the fit is drawn, but its floor of
    // −5 s is no one-way latency and nothing else gives one.
    let snapshots: Vec<String> = (0..10)
        .map(|i| {
            format!(
                r#"{{"tick": {i}, "serverTime": {}, "arrival": {}, "x": 0, "y": 0, "vx": 0, "vy": 0}}"#,
                i as f64 * 0.05,
                i as f64 * 0.05 - 5.0
            )
        })
        .collect();
    let trace = format!(
        r#"{{"format": "netcode-lab/trace@1", "kind": "snapshots", "params": {{"sendInterval": 0.05}}, "snapshots": [{}], "sampleAt": []}}"#,
        snapshots.join(",")
    );
    let figure = Playground::fit_trace(trace.as_bytes()).unwrap();
    assert!(get(&figure, &["fittedParams"]).is_null());
    let refused = text(&get(&figure, &["paramsRefused"]));
    assert!(refused.starts_with("latency.base: -5"), "{refused}");
    assert!((number(&get(&figure, &["fit", "latency", "base"])) + 5.0).abs() < 1e-9);
}

#[wasm_bindgen_test]
fn league_trace_ranks_every_strategy_on_a_recording_with_the_engines_settings_given() {
    // The default run (20 Hz through 50 ± 10 ms) exported as a trace: one column, `trace`, with every strategy.
    let playground = Playground::new(params(r#"{"duration": 20}"#)).unwrap();
    let trace = playground.export_trace("snapshots").unwrap();
    let league = |engines: &str| Playground::league_trace(trace.as_bytes(), params(engines)).unwrap();
    let base = league(r#"{"engines": {"mirror": {"bufferTimeMultiplier": 2, "dynamicAdjustment": false}}}"#);
    assert_eq!(stringify(&get(&base, &["networks"])), r#"["trace"]"#);
    let cells = js_sys::Array::from(&get(&base, &["cells"]));
    let strategies: Vec<String> = cells.iter().map(|c| text(&get(&c, &["strategy"]))).collect();
    let known = js_sys::Array::from(&Playground::strategies().unwrap());
    assert_eq!(strategies.len() as u32, known.length(), "{strategies:?}");
    let mirror_latency = |league: &JsValue| {
        let cells = js_sys::Array::from(&get(league, &["cells"]));
        let mirror = cells.iter().find(|c| text(&get(c, &["strategy"])) == "mirror").unwrap();
        number(&get(&mirror, &["metrics", "addedLatency"]))
    };
    // Mirror without its dynamic adjustment keeps bufferTime = bufferTimeMultiplier × sendInterval behind its
    // timeline: 6 instead of 2 send intervals of 50 ms is 4 × 50 = 200 ms more latency on the same recording (the
    // settings reach the engines).
    let deeper = league(r#"{"engines": {"mirror": {"bufferTimeMultiplier": 6, "dynamicAdjustment": false}}}"#);
    let added = mirror_latency(&deeper) - mirror_latency(&base);
    assert!((added - 0.2).abs() < 0.02, "{added}");
    // Not a trace: refused by name.
    let refused = Playground::league_trace(b"{\"format\": 1}", JsValue::UNDEFINED).map(|_| ()).unwrap_err();
    assert!(message(refused).starts_with("format"), "refused by name");
}

#[wasm_bindgen_test]
fn an_engine_setting_keeps_an_imported_trace_and_a_network_setting_replaces_it() {
    let mut playground = Playground::new(params(r#"{"duration": 5}"#)).unwrap();
    let trace = playground.export_trace("snapshots").unwrap();
    playground.import_trace(&trace).unwrap();
    assert!(playground.imported());
    let simulated =
        playground.set_params(params(r#"{"duration": 5, "engines": {"mirror": {"bufferTimeMultiplier": 4}}}"#));
    assert!(!simulated.unwrap(), "an engine setting runs no simulation");
    assert!(playground.imported(), "and keeps the recording on screen");
    // The same parameters given again (a lesson, the sandbox): the simulation comes back.
    let again = params(r#"{"duration": 5, "engines": {"mirror": {"bufferTimeMultiplier": 4}}}"#);
    assert!(playground.set_params(again).unwrap());
    assert!(!playground.imported());
    playground.import_trace(&trace).unwrap();
    let simulated =
        playground.set_params(params(r#"{"duration": 6, "engines": {"mirror": {"bufferTimeMultiplier": 4}}}"#));
    assert!(simulated.unwrap());
    assert!(!playground.imported(), "a network setting makes a run of its own");
}

#[wasm_bindgen_test]
fn tune_answers_per_engine_on_the_run_and_on_a_recording_and_refuses_a_bad_target_by_name() {
    // A steady 20 Hz stream (50 ms one way, no jitter, no loss): geckos.io needs about one send interval of buffer.
    let steady = r#"{"duration": 20, "network": {"downlink": {"latency": 0.05, "jitter": 0, "loss": 0}}}"#;
    let tuned = Playground::tune(params(steady), 0.01, None, None).unwrap();
    let rows = js_sys::Array::from(&get(&tuned, &["rows"]));
    let geckos = rows.iter().find(|r| text(&get(r, &["strategy"])) == "geckos").unwrap();
    let buffer = number(&get(&geckos, &["settings", "interpolationBuffer"]));
    assert!((45.0..=55.0).contains(&buffer), "{buffer}");
    assert!(get(&geckos, &["met"]).as_bool().unwrap());
    // The same run exported and tuned as a recording: the same answer for geckos (its deliveries are the same),
    // and the page's own pipeline is left out (a trace plays it with the trace's settings).
    let playground = Playground::new(params(steady)).unwrap();
    let trace = playground.export_trace("snapshots").unwrap();
    let recorded = Playground::tune(JsValue::UNDEFINED, 0.01, Some(trace.into_bytes()), None).unwrap();
    let rows = js_sys::Array::from(&get(&recorded, &["rows"]));
    assert!(rows.iter().all(|r| text(&get(&r, &["strategy"])) != "playground"));
    assert_eq!(text(&get(&get(&recorded, &["skipped"]), &["0", "strategy"])), "playground");
    let refused = Playground::tune(JsValue::UNDEFINED, 0.9, None, None).map(|_| ()).unwrap_err();
    assert_eq!(message(refused), "`target`: 0.9 is outside 0.001–0.5 (a share of frames)");
    // Narrowed to two engines (a lesson's check): their rows only, the same geckos answer.
    let narrowed = Playground::tune(params(steady), 0.01, None, Some("geckos,source".into())).unwrap();
    let names: Vec<String> =
        js_sys::Array::from(&get(&narrowed, &["rows"])).iter().map(|r| text(&get(&r, &["strategy"]))).collect();
    assert_eq!(names.iter().filter(|n| *n == "geckos").count(), 1);
    assert!(names.iter().all(|n| n == "geckos" || n == "source"), "{names:?}");
    let unknown = Playground::tune(params(steady), 0.01, None, Some("geckos,unreal".into())).map(|_| ()).unwrap_err();
    assert!(message(unknown).starts_with("`strategies[1]`: unknown `unreal`"), "named");
}
