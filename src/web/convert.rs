//! Values crossing between JavaScript and Rust: errors out, serde values out, checked groups in (copied into a
//! [`crate::tree::Tree`] and read by `crate::tree::Read`, which refuses unknown keys and arrays in place of
//! objects, naming the key's path as a JSON file's reader does).

use crate::param::ParamError;
use crate::tree::{Read, Tree, TreeError};
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub fn js_error(e: ParamError) -> JsError {
    JsError::new(&e.to_string())
}

pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

/// A value `T` read from JS through a [`crate::tree::Tree`]; errors name the field under `top` (`params`, `player`):
/// `` `player.speed`: expected a number, found null ``, or `` `params`: … `` for the value itself.
#[cfg(feature = "full")]
pub fn tree_read<T: Read + Default>(value: &JsValue, top: &str) -> Result<T, JsError> {
    read_tree(super::js_tree::tree_of(value), top)
}

/// [`tree_read`] of a tree already made.
pub fn read_tree<T: Read + Default>(tree: Tree, top: &str) -> Result<T, JsError> {
    T::read(tree).map_err(|e| refusal(e, top))
}

/// The refusal in the project's words, under `top` (one copy, whatever was read).
#[inline(never)]
fn refusal(e: TreeError, top: &str) -> JsError {
    js_error(crate::tree::refusal(e, top))
}

/// A group of parameters `T` from JS, named `group` in errors: its types, no unknown key, no array in place of
/// an object.
#[cfg(feature = "full")]
pub fn group_from_js<T: Read + Default>(value: JsValue, group: &str) -> Result<T, JsError> {
    tree_read(&value, group)
}
