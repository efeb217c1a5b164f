//! Values crossing between JavaScript and Rust: errors out, serde values out, checked groups in (read through
//! [`JsTree`], which refuses unknown keys and arrays in place of objects, naming the key's path as a JSON file's
//! reader does).

use super::js_tree::JsTree;
use crate::param::ParamError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub fn js_error(e: ParamError) -> JsError {
    JsError::new(&e.to_string())
}

pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// A value `T` read from JS through [`JsTree`]; errors name the field under `top` (`params`, `player`):
/// `` `player.speed`: expected a number, found null ``, or `` `params`: … `` for the value itself.
pub fn tree_read<T: serde::de::DeserializeOwned>(value: &JsValue, top: &str) -> Result<T, JsError> {
    T::deserialize(JsTree::of(value)).map_err(|e| {
        let field = match (e.field(), top) {
            (None, _) => top.to_string(),
            (Some(field), "params") => field,
            (Some(field), _) => format!("{top}.{field}"),
        };
        js_error(crate::sim::params::named(field, crate::words::plain(e.message())))
    })
}

/// A group of parameters `T` from JS, named `group` in errors: its types, no unknown key, no array in place of
/// an object.
#[cfg(feature = "full")]
pub fn group_from_js<T: serde::de::DeserializeOwned>(value: JsValue, group: &str) -> Result<T, JsError> {
    tree_read(&value, group)
}
