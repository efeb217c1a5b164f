//! Panics must never leave a silent canvas: the hook logs the message (console_error_panic_hook) and
//! dispatches a `netcode-lab-panic` DOM event whose `detail` is the message; the page shows it in a banner.

use wasm_bindgen::prelude::*;

/// The event the page listens to (see www/js/banner.js).
pub const PANIC_EVENT: &str = "netcode-lab-panic";

pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        dispatch_panic_event(&info.to_string());
    }));
}

fn dispatch_panic_event(message: &str) {
    let Some(window) = web_sys::window() else { return };
    let init = web_sys::CustomEventInit::new();
    init.set_detail(&JsValue::from_str(message));
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(PANIC_EVENT, &init) {
        let _ = window.dispatch_event(&event);
    }
}

/// Panics on purpose. It exists so the end-to-end tests can check that a panic reaches the banner.
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test(message: &str) {
    panic!("{message}");
}
