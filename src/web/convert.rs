//! Values crossing between JavaScript and Rust: errors out, serde values out, checked groups in.
//!
//! serde-wasm-bindgen reads a JS object by asking it for the keys the Rust type knows, so an unknown key (a
//! typo: `{renderdelay: 0.2}`) would pass unseen, and an array would read as the fields in order. Every group of
//! parameters is therefore also read as a plain JSON value ([`shape_of`]) and checked for both, with the key's path
//! in the error — as a JSON file is.

use crate::param::ParamError;
use crate::words::plain;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub fn js_error(e: ParamError) -> JsError {
    JsError::new(&e.to_string())
}

pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// The JS value as JSON (non-finite numbers become `null`): its keys and nesting, for the shape checks.
pub fn shape_of(value: &JsValue) -> Result<serde_json::Value, JsError> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| JsError::new(&format!("`params`: {e}")))
}

/// A group of parameters `T` from JS, named `group` in errors: its types, then (on its JSON shape) no unknown
/// key and no array in place of an object.
pub fn group_from_js<T: DeserializeOwned>(value: JsValue, group: &str) -> Result<T, JsError> {
    let named = |path: &serde_path_to_error::Path, message: String| {
        let field = crate::words::path(path).map_or_else(|| group.to_string(), |p| format!("{group}.{p}"));
        JsError::new(&crate::sim::params::named(field, message).to_string())
    };
    let typed: T = serde_path_to_error::deserialize(serde_wasm_bindgen::Deserializer::from(value.clone()))
        .map_err(|e| named(e.path(), plain(&e.inner().to_string())))?;
    let shape = shape_of(&value)?;
    if let Err(e) = serde_path_to_error::deserialize::<_, T>(&shape) {
        let message = plain(&e.inner().to_string());
        if message.starts_with("unknown key") || message.ends_with("found an array") {
            return Err(named(e.path(), message));
        }
    }
    Ok(typed)
}
