//! Parameters from JavaScript, read in one pass: the JS object is copied into a [`Tree`] by a plain
//! (non-generic) walk, and the hand-written reader (`crate::tree`) reads the Rust types from that tree.
//!
//! Why not serde-wasm-bindgen's deserializer: it reads a JS object by asking it for the keys the Rust type
//! knows, so an unknown key (a typo: `{renderdelay: 0.2}`) passes unseen and an array reads as the fields in
//! order. The tree holds every key in the object's own order, so the reader names an unknown key, and refuses an
//! array where a group belongs. Why not serde's derive over the tree: its visitors for the whole parameter tree
//! are ~90 KB of the first-frame wasm; `crate::tree` says the same words in a fraction.
//!
//! Numbers stay exactly what JS held (`NaN`, `-0`, `5e-324`): a float field gets the `f64` itself, so the core's
//! range checks name it. `undefined` reads as `null`, as JSON has it.

use crate::tree::Tree;
use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How deep a walk goes; deeper values (or a cycle: `a.self = a`) read as `null`. Parameters nest 4 deep.
const MAX_DEPTH: usize = 16;

/// The tree of `value` (functions, symbols and BigInts read as `null`).
pub fn tree_of(value: &JsValue) -> Tree {
    walk(value, 0)
}

fn walk(value: &JsValue, depth: usize) -> Tree {
    if depth > MAX_DEPTH || value.is_null() || value.is_undefined() {
        return Tree::Null;
    }
    if let Some(b) = value.as_bool() {
        return Tree::Bool(b);
    }
    if let Some(n) = value.as_f64() {
        return Tree::Number(n);
    }
    if let Some(s) = value.as_string() {
        return Tree::Text(s);
    }
    if Array::is_array(value) {
        return Tree::List(Array::from(value).iter().map(|v| walk(&v, depth + 1)).collect());
    }
    match value.dyn_ref::<Object>() {
        Some(object) if value.is_object() => Tree::Object(
            Object::entries(object)
                .iter()
                .map(|entry| {
                    let pair = Array::from(&entry);
                    (pair.get(0).as_string().unwrap_or_default(), walk(&pair.get(1), depth + 1))
                })
                .collect(),
        ),
        _ => Tree::Null,
    }
}
