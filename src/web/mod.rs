//! The binding layer: the only code that touches wasm-bindgen, web-sys, js-sys and console_error_panic_hook.
//!
//! It translates; it holds no simulation rules. Long-lived state stays in Rust behind the opaque
//! [`Playground`] handle; JavaScript calls small methods. Per-frame numbers cross as `Float64Array` views over
//! wasm memory (JS must rebuild a view each frame: when wasm memory grows, old views are detached).
//! Bad input returns `Err(JsError)` whose message names the field.

#[cfg(feature = "full")]
mod analysis;
mod convert;
#[cfg(feature = "full")]
mod full;
mod js_tree;
#[cfg(feature = "full")]
mod lessons;
mod panic;
mod playground;
#[cfg(feature = "full")]
mod schema;
#[cfg(feature = "example")]
mod worked_example;

#[cfg(feature = "full")]
pub use lessons::Lessons;
pub use playground::Playground;
#[cfg(feature = "example")]
pub use worked_example::WorkedExample;

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: panics become a console error plus a page event.
#[wasm_bindgen(start)]
pub fn start() {
    panic::install_hook();
}

/// The crate version, so the page can show what it runs.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
