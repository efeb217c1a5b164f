//! wasm-bindgen-test: the exported API, called from Rust compiled to wasm, inside headless Chromium.
#![cfg(target_arch = "wasm32")]

use netcode_lab::web::Playground;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn message(error: wasm_bindgen::JsError) -> String {
    let value: JsValue = error.into();
    js_sys::Reflect::get(&value, &"message".into()).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn the_worked_example_renders_one_and_a_half_at_ten_thirty() {
    let mut playground = Playground::new();
    playground.seek(10.30).unwrap();
    let frame = playground.frame_view().to_vec();
    assert!((frame[1] - 10.15).abs() < 1e-9, "render time {}", frame[1]);
    assert_eq!(Playground::status_name(frame[2]), "ready");
    assert!((frame[3] - 1.5).abs() < 1e-9, "x {}", frame[3]);
    assert_eq!((frame[4], frame[5]), (101.0, 102.0));
}

#[wasm_bindgen_test]
fn a_smaller_delay_underruns_at_the_same_local_time() {
    let mut playground = Playground::new();
    playground.set_render_delay_ms(50.0).unwrap();
    playground.seek(10.30).unwrap();
    let frame = playground.frame_view().to_vec();
    assert_eq!(Playground::status_name(frame[2]), "underrun");
    assert!(frame[3].is_nan(), "an underrun carries no position");
    assert!(playground.reason().contains("past the newest snapshot"));
}

#[wasm_bindgen_test]
fn bad_input_names_the_field_and_keeps_the_old_value() {
    let mut playground = Playground::new();
    for bad in [f64::NAN, f64::INFINITY, -1.0, 5000.0] {
        let text = message(playground.set_render_delay_ms(bad).unwrap_err());
        assert!(text.contains("renderDelay"), "{text}");
    }
    assert_eq!(playground.render_delay_ms(), 150.0);
    assert!(message(playground.advance(f64::NAN).unwrap_err()).contains("dt"));
}

#[wasm_bindgen_test]
fn the_curve_view_covers_the_window() {
    let playground = Playground::new();
    let curve = playground.curve_view().to_vec();
    assert_eq!(curve.len() % 3, 0);
    assert_eq!(curve[0], playground.window_start());
    assert!((curve[curve.len() - 3] - playground.window_end()).abs() < 1e-9);
    let ready = curve.chunks(3).filter(|row| Playground::status_name(row[1]) == "ready").count();
    assert!(ready > 100, "{ready} ready samples");
}
