//! Values crossing between JavaScript and Rust: errors out, serde values out, checked groups in (read through
//! [`JsTree`], which refuses unknown keys and arrays in place of objects, naming the key's path as a JSON file's
//! reader does).

use crate::param::ParamError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub fn js_error(e: ParamError) -> JsError {
    JsError::new(&e.to_string())
}

pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// A group of parameters `T` from JS, named `group` in errors: its types, no unknown key, no array in place of
/// an object.
#[cfg(feature = "full")]
pub fn group_from_js<T: serde::de::DeserializeOwned>(value: JsValue, group: &str) -> Result<T, JsError> {
    use super::js_tree::JsTree;
    use crate::words::plain;
    let named = |path: &serde_path_to_error::Path, message: String| {
        let field = crate::words::path(path).map_or_else(|| group.to_string(), |p| format!("{group}.{p}"));
        JsError::new(&crate::sim::params::named(field, message).to_string())
    };
    serde_path_to_error::deserialize(JsTree::of(&value)).map_err(|e| named(e.path(), plain(&e.inner().to_string())))
}
