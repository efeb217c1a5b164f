//! Checked parameters: every value that comes from outside (the page, a trace, the URL) is checked here
//! and a bad one is refused with an error that names the field. The previous valid state stays untouched.
//!
//! Each parameter is stated once, in the group that holds it (`#[derive(Params)]`, the `netcode-lab-derive`
//! crate): its key, its doc, the range it must be in and its unit, how the page shows it. This module holds what
//! that statement becomes — a [`Param`] per field, the [`Schema`] every group walks — and the checks.
//!
//! ```text
//!  #[derive(Params)] struct ClockParams { /// doc  #[param(range(0.0, 1.0), unit = "s", control(…))] render_delay }
//!     ├─► ClockParams::RENDER_DELAY: Param { key "renderDelay", kind Number, unit "s", range, control }
//!     ├─► check_ranges(): in_range("renderDelay", …)            (the refusal names the key)
//!     ├─► crate::tree: the page's reader, key by key
//!     └─► Schema::walk: every parameter under its path (`remote.clock.renderDelay`), for the page's controls
//! ```

use crate::words::num;
use serde::Serialize;
use std::fmt;

pub use netcode_lab_derive::{Choice, Params};

/// What a parameter holds: how the page shows it and how its value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Kind {
    /// A number (`f64`).
    Number,
    /// A whole number.
    Whole,
    /// On or off.
    Flag,
    /// One of a few names ([`Param::options`]).
    Choice,
    /// A group of parameters of its own.
    Group,
    /// A list (the local player's script of keys).
    List,
}

/// How the page shows a parameter: a slider's range and step, in the unit it shows (the value × `scale`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Control {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub unit: &'static str,
    pub scale: f64,
}

/// One parameter, as its group states it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// Its key in the parameter object (`renderDelay`).
    pub key: &'static str,
    /// Its field in the Rust struct (`render_delay`).
    pub field: &'static str,
    pub kind: Kind,
    /// A choice's names.
    pub options: &'static [&'static str],
    /// The unit of its range (`s`, `Hz`; empty for a plain number).
    pub unit: &'static str,
    /// The range a value must be in, when it does not depend on another field.
    pub range: Option<&'static (f64, f64)>,
    /// How the page shows it, when the page has a control for it.
    pub control: Option<&'static Control>,
}

/// A parameter's value as the schema writes it (its default, in [`Entry`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Number(f64),
    Flag(bool),
    Name(&'static str),
    /// None (an optional value not set), or a value the schema does not write (a list).
    None,
}

/// What the visitor of a walk is handed for each parameter: its path, its [`Param`], its doc and its value.
pub type Visit<'a> = dyn FnMut(&str, &Param, &'static str, Value) + 'a;

/// What a value of a parameter is, for the schema: a leaf has a [`Value`], a group walks its fields.
pub trait Schema {
    const KIND: Kind;
    const OPTIONS: &'static [&'static str] = &[];
    /// A leaf's value.
    fn value(&self) -> Value {
        Value::None
    }
    /// Every parameter inside, each handed to `visit` with its path under `prefix`, its doc and its value.
    fn walk(&self, _prefix: &str, _visit: &mut Visit) {}
}

impl Schema for f64 {
    const KIND: Kind = Kind::Number;
    fn value(&self) -> Value {
        Value::Number(*self)
    }
}
macro_rules! schema_whole {
    ($($ty:ty),*) => {$(
        impl Schema for $ty {
            const KIND: Kind = Kind::Whole;
            fn value(&self) -> Value {
                Value::Number(*self as f64)
            }
        }
    )*};
}
schema_whole!(u64, u32, usize);
impl Schema for bool {
    const KIND: Kind = Kind::Flag;
    fn value(&self) -> Value {
        Value::Flag(*self)
    }
}
/// An optional value (`null`: none) is its value's kind.
impl<T: Schema> Schema for Option<T> {
    const KIND: Kind = T::KIND;
    const OPTIONS: &'static [&'static str] = T::OPTIONS;
    fn value(&self) -> Value {
        self.as_ref().map_or(Value::None, Schema::value)
    }
    fn walk(&self, prefix: &str, visit: &mut Visit) {
        if let Some(value) = self {
            value.walk(prefix, visit)
        }
    }
}

/// The path of `key` under `prefix` (`remote.clock` + `renderDelay`).
pub fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// A leaf under `prefix`, handed to `visit`. (A group's walk calls this for its leaves and walks into its groups;
/// one function, not one per type of value.)
#[inline(never)]
pub fn leaf(param: &Param, doc: &'static str, value: Value, prefix: &str, visit: &mut Visit) {
    visit(&join(prefix, param.key), param, doc, value);
}

/// One parameter under its path, as the schema lists it: what the page's controls, `netcode-lab schema` and a
/// game reading the parameters see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Entry {
    /// Where it sits in the parameter object (`remote.clock.renderDelay`).
    pub path: String,
    /// Its field in the Rust struct that holds it (`render_delay`).
    pub field: &'static str,
    pub kind: Kind,
    /// A choice's names (empty otherwise).
    pub options: &'static [&'static str],
    /// The unit of its range and default (empty for a plain number).
    pub unit: &'static str,
    /// `[min, max]`, when the range does not depend on another field.
    pub range: Option<[f64; 2]>,
    /// How the page shows it, when it has a control.
    pub control: Option<Control>,
    /// Its value in the default parameters.
    pub default: Value,
    /// Its doc comment: what it is, where its default comes from.
    pub doc: &'static str,
}

/// Every parameter of `T` (a whole parameter object) in declaration order, with its default.
pub fn entries<T: Schema + Default>() -> Vec<Entry> {
    let mut out = Vec::new();
    T::default().walk("", &mut |path, param, doc, default| {
        out.push(Entry {
            path: path.to_string(),
            field: param.field,
            kind: param.kind,
            options: param.options,
            unit: param.unit,
            range: param.range.map(|&(min, max)| [min, max]),
            control: param.control.copied(),
            default,
            doc,
        });
    });
    out
}

/// A value whose range a group checks (`#[param(range(…))]`): a number, a whole number, or an optional one
/// (checked when there is one).
pub trait Ranged {
    /// The value as the check reads it; `None`: nothing to check.
    fn ranged(&self) -> Option<f64>;

    /// Checks the value against `min..=max`; a refusal names `key`.
    #[inline]
    fn check(&self, key: &str, min: f64, max: f64, unit: &str) -> Result<(), ParamError> {
        match self.ranged() {
            Some(value) => in_range(key, value, min, max, unit).map(|_| ()),
            None => Ok(()),
        }
    }
}

impl Ranged for f64 {
    #[inline]
    fn ranged(&self) -> Option<f64> {
        Some(*self)
    }
}

macro_rules! ranged_whole {
    ($($ty:ty),*) => {$(
        impl Ranged for $ty {
            #[inline]
            fn ranged(&self) -> Option<f64> {
                Some(*self as f64)
            }
        }
    )*};
}
ranged_whole!(u64, u32, usize);

impl<T: Ranged> Ranged for Option<T> {
    #[inline]
    fn ranged(&self) -> Option<f64> {
        self.as_ref().and_then(Ranged::ranged)
    }
}

/// One ranged field of a group, as its `check_ranges` lists them.
pub struct Bound {
    pub key: &'static str,
    pub value: Option<f64>,
    pub min: f64,
    pub max: f64,
    pub unit: &'static str,
}

/// Checks a group's ranged fields in order; the first refusal names its key. One loop for every group: the
/// checks written out field by field were a good part of the first-frame wasm.
#[inline(never)]
pub fn check_bounds(bounds: &[Bound]) -> Result<(), ParamError> {
    for bound in bounds {
        if let Some(value) = bound.value {
            in_range(bound.key, value, bound.min, bound.max, bound.unit)?;
        }
    }
    Ok(())
}

/// A parameter that was refused, with the field's name as the outside world spells it (camelCase).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    pub field: String,
    pub message: String,
}

impl ParamError {
    /// An error at `field` — one line, shortened if huge (a field can be a key from a file).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError { field: crate::words::one_line(&field.into()), message: crate::words::one_line(&message.into()) }
    }
}

impl ParamError {
    /// The same error one level down: `loss` inside `network.downlink` becomes `network.downlink.loss`.
    #[inline(never)]
    pub fn within(self, group: &str) -> ParamError {
        ParamError::new(format!("{group}.{}", self.field), self.message)
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.field, self.message)
    }
}

impl std::error::Error for ParamError {}

/// `value` if it is a finite number in `min..=max`, otherwise an error naming `field` and the range.
#[inline]
pub fn in_range(field: &str, value: f64, min: f64, max: f64, unit: &str) -> Result<f64, ParamError> {
    if value.is_finite() && value >= min && value <= max {
        return Ok(value);
    }
    Err(out_of_range(field, value, min, max, unit))
}

/// The refusal of [`in_range`], out of line: every group checks dozens of fields, and words built in place at
/// each check would be a good part of the page's first-frame wasm.
#[cold]
#[inline(never)]
fn out_of_range(field: &str, value: f64, min: f64, max: f64, unit: &str) -> ParamError {
    if !value.is_finite() {
        return ParamError::new(field, format!("{} is not a finite number", num(value)));
    }
    ParamError::new(field, crate::words::outside(value, min, max, unit))
}

/// `value` if it is a whole number in `min..=max`, otherwise an error naming `field`.
pub fn whole(field: &str, value: f64, min: f64, max: f64) -> Result<f64, ParamError> {
    let value = in_range(field, value, min, max, "")?;
    if value.fract() != 0.0 {
        return Err(ParamError::new(field, format!("{} is not a whole number", num(value))));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_range_accepts_the_bounds_and_names_the_field_otherwise() {
        assert_eq!(in_range("renderDelay", 0.0, 0.0, 1.0, "s"), Ok(0.0));
        assert_eq!(in_range("renderDelay", 1.0, 0.0, 1.0, "s"), Ok(1.0));
        let err = in_range("renderDelay", -0.1, 0.0, 1.0, "s").unwrap_err();
        assert_eq!(err.field, "renderDelay");
        assert_eq!(err.to_string(), "`renderDelay`: -0.1 s is outside 0..=1 s");
        let err = in_range("renderDelay", f64::NAN, 0.0, 1.0, "s").unwrap_err();
        assert_eq!(err.to_string(), "`renderDelay`: NaN is not a finite number");
        let err = in_range("renderDelay", f64::INFINITY, 0.0, 1.0, "s").unwrap_err();
        assert_eq!(err.to_string(), "`renderDelay`: Infinity is not a finite number");
        assert_eq!(in_range("renderDelay", -0.0, 0.0, 1.0, "s").map(f64::to_bits), Ok((-0.0f64).to_bits()));
    }

    /// Found by the sim_params fuzz target: a key holding a newline made the CLI's error two lines.
    #[test]
    fn an_error_is_one_line_whatever_the_key() {
        let err = ParamError::new("seed\ndurnure", "unknown key \"seed\ndurnure\"");
        assert_eq!(err.to_string(), "`seed\\ndurnure`: unknown key \"seed\\ndurnure\"");
    }

    #[test]
    fn whole_numbers_are_whole_and_in_range() {
        assert_eq!(whole("points", 21.0, 2.0, 2000.0), Ok(21.0));
        assert_eq!(whole("points", 2.5, 2.0, 2000.0).unwrap_err().to_string(), "`points`: 2.5 is not a whole number");
        assert_eq!(whole("points", 1e308, 2.0, 2000.0).unwrap_err().to_string(), "`points`: 1e308 is outside 2..=2000");
    }
}
