//! wasm-bindgen-test: the exported API, called from Rust compiled to wasm, inside headless Chromium.
#![cfg(target_arch = "wasm32")]

use netcode_lab::web::{Playground, WorkedExample};
use wasm_bindgen::JsValue;
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
    let curves = Playground::extrapolation_curves(3000.0, 0.1, 0.2, 21).unwrap();
    let seed = js_sys::Array::from(&get(&curves, &["extrapolate-seed"]));
    let peak = (0..seed.length()).filter_map(|i| get(&seed.get(i), &["offset"]).as_f64()).fold(0.0, f64::max);
    assert!((peak - 75.0).abs() < 1e-6, "seed 000 §4.3.5 peaks at 75: {peak}");
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
