//! The parameters' schema as JavaScript objects, built field by field: the same shape serde writes for
//! `netcode-lab schema` (`crate::param::Entry`), in a loop over plain data rather than a serializer per type.

use crate::param::{Control, Entry, Kind, Value};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

fn set(object: &Object, key: &str, value: JsValue) {
    // Setting a property on a plain object made here cannot fail.
    let _ = Reflect::set(object, &JsValue::from_str(key), &value);
}

fn strings(names: &[&str]) -> JsValue {
    names.iter().map(|name| JsValue::from_str(name)).collect::<Array>().into()
}

fn kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Number => "number",
        Kind::Whole => "whole",
        Kind::Flag => "flag",
        Kind::Choice => "choice",
        Kind::Group => "group",
        Kind::List => "list",
    }
}

fn value(value: Value) -> JsValue {
    match value {
        Value::Number(n) => JsValue::from_f64(n),
        Value::Flag(b) => JsValue::from_bool(b),
        Value::Name(name) => JsValue::from_str(name),
        Value::None => JsValue::NULL,
    }
}

fn control(control: &Control) -> JsValue {
    let out = Object::new();
    for (key, n) in [("min", control.min), ("max", control.max), ("step", control.step)] {
        set(&out, key, JsValue::from_f64(n));
    }
    set(&out, "unit", JsValue::from_str(control.unit));
    set(&out, "scale", JsValue::from_f64(control.scale));
    out.into()
}

/// One entry: `{path, field, kind, options, unit, range, control, default, doc}`.
pub fn entry(entry: &Entry) -> JsValue {
    let out = Object::new();
    set(&out, "path", JsValue::from_str(&entry.path));
    set(&out, "field", JsValue::from_str(entry.field));
    set(&out, "kind", JsValue::from_str(kind(entry.kind)));
    set(&out, "options", strings(entry.options));
    set(&out, "unit", JsValue::from_str(entry.unit));
    let range = entry
        .range
        .map_or(JsValue::NULL, |[min, max]| [min, max].iter().map(|n| JsValue::from_f64(*n)).collect::<Array>().into());
    set(&out, "range", range);
    set(&out, "control", entry.control.as_ref().map_or(JsValue::NULL, control));
    set(&out, "default", value(entry.default));
    set(&out, "doc", JsValue::from_str(entry.doc));
    out.into()
}
