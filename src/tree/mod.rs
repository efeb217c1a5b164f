//! A parameter object from JavaScript as a plain tree, and the reader of the parameter types from it.
//!
//! ```text
//!  JS object ──(src/web/js_tree.rs: one non-generic walk)──► Tree ──(Read, this module)──► SimParams, …
//!                                                               │ refused: TreeError { path, serde's words }
//!                                                               ▼
//!                                      convert.rs: `field`: plain words (crate::words::plain)
//! ```
//!
//! Why not serde's derive: reading the whole parameter tree through `Deserialize` puts ~90 KB of monomorphised
//! visitors into the page's first-frame wasm, more than the simulation's largest loop. Here each group is a `match`
//! on its keys ([`Group`], written by `#[derive(Params)]` from the group's own statement: `crate::param`), each
//! choice a table of names (`#[derive(Choice)]`), and everything else one non-generic function per kind of value
//! (`read.rs`). A file (`--params FILE.json`, a trace's settings) is read by serde's derive (`json.rs`).
//!
//! The words are serde's, exactly: every refusal is built with serde's own `de::Error` constructors and
//! `Unexpected` values, at the same place in the same order as the derive would raise it, so the page, the URL and
//! the bad-input catalogue read the same messages either way (checked against the derive over the same trees by
//! `tests/params_reader.rs`). That includes the corners: a number read where `-0` is a float, an integer field
//! given `2.5` or `5e9`, `local`'s flattened smoothing part (serde buffers it and names the group, not the key).

mod json;
pub mod read;

pub use json::{from_json, named, refusal};
pub use read::{Group, Read};

use serde::de::{self, Unexpected};
use std::fmt;

/// A JavaScript value as the parameter readers see it.
#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Tree>),
    /// Own enumerable keys, in the object's order.
    Object(Vec<(String, Tree)>),
}

/// A whole number as JS holds it exactly.
pub enum Whole {
    Unsigned(u64),
    Signed(i64),
}

/// `n` as an integer when it is one JS holds exactly (|n| ≤ 2⁵³); `-0` is the integer 0.
pub fn whole(n: f64) -> Option<Whole> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !(n.is_finite() && n.trunc() == n && n.abs() <= EXACT) {
        return None;
    }
    Some(if n >= 0.0 { Whole::Unsigned(n as u64) } else { Whole::Signed(n as i64) })
}

impl Tree {
    /// What serde's messages call this value when a type refuses it outright (`-0` is the integer 0).
    pub fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Tree::Number(n) if n.is_sign_negative() && *n == 0.0 => Unexpected::Unsigned(0),
            _ => self.unexpected_as_read(),
        }
    }

    /// What serde's messages call this value once a visitor was handed it (`-0` stays the float `-0.0`).
    pub fn unexpected_as_read(&self) -> Unexpected<'_> {
        match self {
            Tree::Null => Unexpected::Unit,
            Tree::Bool(b) => Unexpected::Bool(*b),
            Tree::Number(n) if *n == 0.0 && n.is_sign_negative() => Unexpected::Float(*n),
            Tree::Number(n) => match whole(*n) {
                Some(Whole::Unsigned(u)) => Unexpected::Unsigned(u),
                Some(Whole::Signed(i)) => Unexpected::Signed(i),
                None => Unexpected::Float(*n),
            },
            Tree::Text(s) => Unexpected::Str(s),
            Tree::List(_) => Unexpected::Seq,
            Tree::Object(_) => Unexpected::Map,
        }
    }
}

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
    /// The error with one more step of its path (the key or index it was read under).
    #[inline(never)]
    pub fn at_key(mut self, key: &str) -> Self {
        self.path.push(Step::Key(key.to_string()));
        self
    }

    #[inline(never)]
    pub fn at_index(mut self, index: usize) -> Self {
        self.path.push(Step::Index(index));
        self
    }

    /// The field as the documents spell it (`script[3].time`); `None` for the value itself.
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

impl TreeError {
    /// serde's `invalid type: …, expected …` in serde's very words, with a float written by `crate::words`
    /// (serde's `Unexpected` display would bring Rust's float formatting into the page's first-frame wasm).
    #[inline(never)]
    pub fn invalid_type(found: Unexpected<'_>, expected: &str) -> Self {
        de::Error::custom(format_args!("invalid type: {}, expected {expected}", found_words(&found)))
    }

    /// serde's `invalid value: …, expected …`, as [`TreeError::invalid_type`].
    #[inline(never)]
    pub fn invalid_value(found: Unexpected<'_>, expected: &str) -> Self {
        de::Error::custom(format_args!("invalid value: {}, expected {expected}", found_words(&found)))
    }
}

/// serde's words for a value it quotes (`Unexpected`'s `Display`), a float through `crate::words`.
fn found_words(found: &Unexpected<'_>) -> String {
    match *found {
        Unexpected::Float(f) => format!("floating point `{}`", crate::words::with_decimal_point(f)),
        Unexpected::Bool(b) => format!("boolean `{b}`"),
        Unexpected::Unsigned(i) => format!("integer `{i}`"),
        Unexpected::Signed(i) => format!("integer `{i}`"),
        Unexpected::Str(s) => format!("string {s:?}"),
        Unexpected::Unit => "unit value".into(),
        Unexpected::Seq => "sequence".into(),
        Unexpected::Map => "map".into(),
        Unexpected::Other(other) => other.into(),
        Unexpected::Char(c) => format!("character `{c}`"),
        Unexpected::Bytes(_) => "byte array".into(),
        Unexpected::Option => "Option value".into(),
        Unexpected::NewtypeStruct => "newtype struct".into(),
        Unexpected::Enum => "enum".into(),
        Unexpected::UnitVariant => "unit variant".into(),
        Unexpected::NewtypeVariant => "newtype variant".into(),
        Unexpected::TupleVariant => "tuple variant".into(),
        Unexpected::StructVariant => "struct variant".into(),
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TreeError {}

impl de::Error for TreeError {
    #[inline(never)]
    fn custom<T: fmt::Display>(message: T) -> Self {
        TreeError { path: Vec::new(), message: message.to_string() }
    }
}
