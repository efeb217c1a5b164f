//! Refusals in the project's words: a parameter object from a JSON file (the CLI's `--params FILE`, read by
//! serde's derive: its syntax errors carry their line and column) and from the tree reader (the page's objects),
//! both named by the field they are about.

use super::TreeError;
use crate::param::ParamError;
use crate::words;
use serde::de::DeserializeOwned;
use serde_json::error::Category;

/// `T` read from JSON `text` by serde's derive (a BOM allowed); a refusal names the field (`params` for the value
/// itself). Every group is a JSON object: an array in its place is refused (serde would otherwise read it as the
/// fields in order).
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, ParamError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut de = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = words::path(e.path()).unwrap_or_else(|| "params".into());
        let e = e.into_inner();
        let message = match e.classify() {
            Category::Syntax | Category::Eof => words::syntax(text, e.line(), e.column(), &e.to_string()),
            _ => words::plain(&e.to_string()),
        };
        named(field, message)
    })?;
    de.end().map_err(|e| ParamError::new("params", format!("not valid JSON ({e})")))?;
    let shape: serde_json::Value = serde_json::from_str(text).map_err(|e| ParamError::new("params", e.to_string()))?;
    objects_only(&shape)?;
    Ok(value)
}

/// Refuses an array where a group of parameters (an object) belongs: serde reads an array as the fields in
/// order, and `[5]` must not silently mean `{"seed": 5}`. The only array among the parameters is `script`.
fn objects_only(value: &serde_json::Value) -> Result<(), ParamError> {
    fn walk(value: &serde_json::Value, path: &str) -> Result<(), ParamError> {
        use serde_json::Value;
        let name = |key: &str| if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
        match value {
            Value::Object(map) => map.iter().try_for_each(|(k, v)| match (path, k.as_str(), v) {
                ("", "script", Value::Array(events)) => {
                    events.iter().enumerate().try_for_each(|(i, e)| walk(e, &format!("script[{i}]")))
                }
                _ => walk(v, &name(k)),
            }),
            Value::Array(_) => {
                let field = if path.is_empty() { "params" } else { path };
                Err(ParamError::new(field, "expected an object, found an array"))
            }
            _ => Ok(()),
        }
    }
    walk(value, "")
}

/// A reader's refusal in the project's words, under `top` (`params`, `player`): `` `player.speed`: expected a
/// number, found null ``, or `` `params`: … `` for the value itself.
#[inline(never)]
pub fn refusal(e: TreeError, top: &str) -> ParamError {
    let field = match (e.field(), top) {
        (None, _) => top.to_string(),
        (Some(field), "params") => field,
        (Some(field), _) => format!("{top}.{field}"),
    };
    named(field, words::plain(e.message()))
}

/// The error at `field`, unless the message is itself a checked value's error (`` `script[2].time`: … ``, from a
/// type that checks itself while it is read): then that one, which names the field more exactly.
pub fn named(field: String, message: String) -> ParamError {
    if let Some((inner, rest)) = message.strip_prefix('`').and_then(|m| m.split_once("`: ")) {
        let rest = match rest.rfind(" at line ") {
            Some(at) if rest[at..].contains(" column ") => &rest[..at],
            _ => rest,
        };
        return ParamError::new(inner, rest);
    }
    ParamError::new(field, message)
}
