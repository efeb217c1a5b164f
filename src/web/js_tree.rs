//! Parameters from JavaScript, read in one pass: the JS object is copied into a small tree ([`JsTree`]) by a
//! plain (non-generic) walk, and serde reads the Rust types from that tree.
//!
//! Why not serde-wasm-bindgen's deserializer: it reads a JS object by asking it for the keys the Rust type
//! knows, so an unknown key (a typo: `{renderdelay: 0.2}`) passes unseen and an array reads as the fields in
//! order; catching both meant reading every group a second time as JSON — two monomorphised copies of every
//! parameter struct's deserializer in the wasm. The tree holds every key in the object's own order, so the
//! derive's `deny_unknown_fields` names an unknown key, and [`JsTree`] refuses an array where a struct belongs:
//! one copy, the same words (`` `network.downlink.loss`: expected a number, found the string "1" ``).
//!
//! The reader tracks where it is itself ([`TreeError::field`]: `remote.clock.renderDelay`, `script[2].time`), so
//! no generic path-tracking layer wraps every deserializer either.
//!
//! Numbers stay exactly what JS held (`NaN`, `-0`, `5e-324`): a float field gets the `f64` itself, so the core's
//! range checks name it; an integer field gets whole numbers as integers and anything else as the float serde
//! then refuses (`expected a whole number ≥ 0, found 2.5`). `undefined` reads as `null`, as JSON has it.

use js_sys::{Array, Object};
use serde::de::value::StringDeserializer;
use serde::de::{self, DeserializeSeed, Error as _, IntoDeserializer, Unexpected, Visitor};
use std::fmt;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Why a value did not read, and where: the path is collected from the inside out as the error returns.
#[derive(Debug)]
pub struct TreeError {
    /// Innermost first: `["renderDelay", "clock", "remote"]`.
    path: Vec<Step>,
    message: String,
}

#[derive(Debug)]
enum Step {
    Key(String),
    Index(usize),
}

impl TreeError {
    #[inline(never)]
    fn at(mut self, step: Step) -> Self {
        self.path.push(step);
        self
    }

    /// The field as the documents spell it (`snapshots[3].serverTime`); `None` for the value itself.
    pub fn field(&self) -> Option<String> {
        let mut out = String::new();
        for step in self.path.iter().rev() {
            match step {
                Step::Index(i) => out.push_str(&format!("[{i}]")),
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => out = format!("{out}.{k}"),
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// serde's words for what went wrong (the caller makes them plain).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TreeError {}

impl de::Error for TreeError {
    // Not inlined: serde's derive raises errors at every field of every parameter struct, and an inlined
    // `to_string` at each of them was a good part of the page build's wasm.
    #[inline(never)]
    fn custom<T: fmt::Display>(message: T) -> Self {
        TreeError { path: Vec::new(), message: message.to_string() }
    }
}

type Error = TreeError;

/// A JavaScript value as the parameter readers see it.
#[derive(Clone, Debug)]
pub enum JsTree {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<JsTree>),
    /// Own enumerable keys, in the object's order.
    Object(Vec<(String, JsTree)>),
}

/// How deep a walk goes; deeper values (or a cycle: `a.self = a`) read as `null`. Parameters nest 4 deep.
const MAX_DEPTH: usize = 16;

impl JsTree {
    /// The tree of `value` (functions, symbols and BigInts read as `null`).
    pub fn of(value: &JsValue) -> JsTree {
        Self::walk(value, 0)
    }

    fn walk(value: &JsValue, depth: usize) -> JsTree {
        if depth > MAX_DEPTH || value.is_null() || value.is_undefined() {
            return JsTree::Null;
        }
        if let Some(b) = value.as_bool() {
            return JsTree::Bool(b);
        }
        if let Some(n) = value.as_f64() {
            return JsTree::Number(n);
        }
        if let Some(s) = value.as_string() {
            return JsTree::Text(s);
        }
        if Array::is_array(value) {
            return JsTree::List(Array::from(value).iter().map(|v| Self::walk(&v, depth + 1)).collect());
        }
        match value.dyn_ref::<Object>() {
            Some(object) if value.is_object() => JsTree::Object(
                Object::entries(object)
                    .iter()
                    .map(|entry| {
                        let pair = Array::from(&entry);
                        (pair.get(0).as_string().unwrap_or_default(), Self::walk(&pair.get(1), depth + 1))
                    })
                    .collect(),
            ),
            _ => JsTree::Null,
        }
    }

    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            JsTree::Null => Unexpected::Unit,
            JsTree::Bool(b) => Unexpected::Bool(*b),
            JsTree::Number(n) => match whole(*n) {
                Some(Whole::Unsigned(u)) => Unexpected::Unsigned(u),
                Some(Whole::Signed(i)) => Unexpected::Signed(i),
                None => Unexpected::Float(*n),
            },
            JsTree::Text(s) => Unexpected::Str(s),
            JsTree::List(_) => Unexpected::Seq,
            JsTree::Object(_) => Unexpected::Map,
        }
    }

    fn refuse<'de, V: Visitor<'de>, T>(&self, visitor: &V) -> Result<T, Error> {
        Err(Error::invalid_type(self.unexpected(), visitor))
    }
}

enum Whole {
    Unsigned(u64),
    Signed(i64),
}

/// `n` as an integer when it is one JS holds exactly (|n| ≤ 2⁵³); `-0` is the integer 0.
fn whole(n: f64) -> Option<Whole> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !(n.is_finite() && n.trunc() == n && n.abs() <= EXACT) {
        return None;
    }
    Some(if n >= 0.0 { Whole::Unsigned(n as u64) } else { Whole::Signed(n as i64) })
}

impl<'de> IntoDeserializer<'de, Error> for JsTree {
    type Deserializer = JsTree;
    fn into_deserializer(self) -> JsTree {
        self
    }
}

impl<'de> de::Deserializer<'de> for JsTree {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::Null => visitor.visit_unit(),
            JsTree::Bool(b) => visitor.visit_bool(b),
            JsTree::Number(n) if n == 0.0 && n.is_sign_negative() => visitor.visit_f64(n),
            JsTree::Number(n) => match whole(n) {
                Some(Whole::Unsigned(u)) => visitor.visit_u64(u),
                Some(Whole::Signed(i)) => visitor.visit_i64(i),
                None => visitor.visit_f64(n),
            },
            JsTree::Text(s) => visitor.visit_string(s),
            JsTree::List(items) => visit_list(items, visitor),
            JsTree::Object(entries) => visit_object(entries, visitor),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::Number(n) => visitor.visit_f64(n),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::Number(n) => match whole(n) {
                Some(Whole::Unsigned(u)) => visitor.visit_u64(u),
                Some(Whole::Signed(i)) => visitor.visit_i64(i),
                None => visitor.visit_f64(n),
            },
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::Null => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::List(items) => visit_list(items, visitor),
            other => other.refuse(&visitor),
        }
    }

    /// An object only: serde's derive would read an array as the fields in order (`[5]` as `{seed: 5}`).
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            JsTree::Object(entries) => visit_object(entries, visitor),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    /// A name (a string) picks a unit variant; anything else is refused (the parameters have no data variants).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            JsTree::Text(name) => visitor.visit_enum(name.into_deserializer()),
            other => other.refuse(&visitor),
        }
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_u64(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 char str string bytes byte_buf unit unit_struct tuple tuple_struct identifier ignored_any
    }
}

fn visit_list<'de, V: Visitor<'de>>(items: Vec<JsTree>, visitor: V) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = List { items: items.into_iter(), index: 0 };
    let value = visitor.visit_seq(&mut seq)?;
    if !seq.items.as_slice().is_empty() {
        return Err(Error::invalid_length(len, &"fewer elements in the array"));
    }
    Ok(value)
}

fn visit_object<'de, V: Visitor<'de>>(entries: Vec<(String, JsTree)>, visitor: V) -> Result<V::Value, Error> {
    visitor.visit_map(&mut Entries { entries: entries.into_iter(), current: None })
}

/// An array's items, each error named with its index.
struct List {
    items: std::vec::IntoIter<JsTree>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for List {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.next() else { return Ok(None) };
        let index = self.index;
        self.index += 1;
        seed.deserialize(item).map(Some).map_err(|e| e.at(Step::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's entries, each error named with its key (an unknown key names itself).
struct Entries {
    entries: std::vec::IntoIter<(String, JsTree)>,
    current: Option<(String, JsTree)>,
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        let read = seed.deserialize(StringDeserializer::<Error>::new(key.clone()));
        let read = read.map_err(|e| e.at(Step::Key(key.clone())))?;
        self.current = Some((key, value));
        Ok(Some(read))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self.current.take().ok_or_else(|| Error::custom("a value without its key"))?;
        seed.deserialize(value).map_err(|e| e.at(Step::Key(key)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
