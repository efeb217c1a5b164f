//! One line per bad trace: the field (with its index) and what is wrong with it.
//!
//! ```text
//!  snapshots[3].serverTime: expected a number, found the string "10.0"
//!  paths[2].points[0].offsetMs: -5 is negative
//!  params.renderDelay: 5 s is outside 0..=1 s
//!  trace: not valid JSON (EOF while parsing a value at line 1 column 0)
//! ```
//! `field` is a path in the document, camelCase as in the file, `[i]` for array indices; `trace` names the
//! document itself. serde's messages ("invalid type: string \"a\", expected f64 at line 1 column 79") are
//! rewritten into the same plain words; positions are kept only for syntax errors, where there is no field to
//! name. Whatever came from the file (an unknown key, an unknown name) is escaped and shortened, so the error is
//! always exactly one line.

use crate::param::ParamError;
use crate::words::{between, one_line, plain, syntax};
use std::fmt;

/// A trace that was refused: `field` names where (`snapshots[3].serverTime`), `message` what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    pub field: String,
    pub message: String,
}

impl TraceError {
    /// An error at `field` (one line, shortened if huge).
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        TraceError { field: one_line(&field.into()), message: one_line(&message.into()) }
    }

    /// An error about the whole document.
    pub fn document(message: impl Into<String>) -> Self {
        TraceError::new("trace", message)
    }

    /// A parameter refused by its module's check, named under `params.`.
    pub fn param(e: ParamError) -> Self {
        TraceError::new(format!("params.{}", e.field), e.message)
    }

    /// serde_json's error at `path`, in plain words.
    pub(super) fn from_serde(path: &serde_path_to_error::Path, e: &serde_json::Error, source: &str) -> Self {
        let field = field_path(path);
        let text = e.to_string();
        let text = match text.rfind(" at line ") {
            Some(at) if e.line() > 0 && !e.is_syntax() && !e.is_eof() => &text[..at],
            _ => &text[..],
        };
        if let Some(missing) = between(text, "missing field `", "`") {
            return TraceError::new(join(&field, missing), "missing");
        }
        if let Some(twice) = between(text, "duplicate field `", "`") {
            return TraceError::new(join(&field, twice), plain(text));
        }
        if e.is_syntax() || e.is_eof() {
            return match text.strip_prefix("number out of range") {
                Some(_) => TraceError::new(field, "number out of range (beyond ±1.8e308)"),
                None => TraceError::new(field, syntax(source, e.line(), e.column(), text)),
            };
        }
        TraceError::new(field, plain(text))
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for TraceError {}

/// `snapshots[3].serverTime`; the document itself is `trace`.
fn field_path(path: &serde_path_to_error::Path) -> String {
    crate::words::path(path).unwrap_or_else(|| "trace".into())
}

fn join(path: &str, key: &str) -> String {
    match path {
        "" | "trace" => key.to_string(),
        _ => format!("{path}.{key}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_one_line() {
        assert_eq!(TraceError::new("f\n", "m").to_string(), "f\\n: m");
    }

    #[test]
    fn params_are_named_under_params() {
        let e = TraceError::param(ParamError::new("renderDelay", "5 s is outside 0..=1 s"));
        assert_eq!(e.to_string(), "params.renderDelay: 5 s is outside 0..=1 s");
    }
}
