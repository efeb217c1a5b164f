//! How a refusal is worded: numbers as people read them, and serde's error texts in plain words.
//!
//! Every message that quotes a value from outside (a trace, the page, the URL, the CLI) goes through here, so
//! that the four doors speak alike. Two ideas, a module each:
//! - [`number`]: how a number is spelt (`num`, and `decimal` / `exponent` / `fixed`, what Rust's `{}`, `{:e}`
//!   and `{:.N}` write, from ryu's shortest digits, without `core::fmt::float`);
//! - here: serde's texts (`invalid type: string "10.0", expected f64 at line 1 column 79`) become
//!   `expected a number, found the string "10.0"`; the caller names the field; long or odd inputs become one
//!   short line.

pub mod number;

pub use number::{decimal, exponent, fixed, num, with_decimal_point, Num};

/// How many characters of a field or a message are kept (the rest becomes `…`).
pub const MAX_PART: usize = 600;

/// Control characters escaped and the text shortened to [`MAX_PART`] characters (escapes included): whatever an
/// input held, the error that quotes it stays one short line.
pub fn one_line(text: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let piece: String = if c.is_control() { c.escape_default().collect() } else { c.to_string() };
        count += piece.chars().count();
        if count > MAX_PART {
            out.push('…');
            break;
        }
        out.push_str(&piece);
    }
    out
}

/// `5 s is outside 0..=1 s` (no unit: `2 is outside 0..=1`).
pub fn outside(value: f64, min: f64, max: f64, unit: &str) -> String {
    match unit {
        "" => format!("{} is outside {}..={}", num(value), num(min), num(max)),
        _ => format!("{} {unit} is outside {}..={} {unit}", num(value), num(min), num(max)),
    }
}

/// A JSON syntax error at `line`/`column` (1-based, as serde_json counts) of `text`, in words: a `NaN` or
/// `Infinity` written where a number goes (Python's `json` writes them; JSON has no such numbers), a value
/// where only a name (a string) is accepted (serde_json says "expected value" there), or serde's own words.
pub fn syntax(text: &str, line: usize, column: usize, message: &str) -> String {
    let Some(at) = offset(text, line, column) else { return format!("not valid JSON ({message})") };
    let rest = &text[at..];
    let negative = text[..at].ends_with('-');
    for word in ["NaN", "Infinity"] {
        if rest.starts_with(word) || rest.starts_with(&format!("-{word}")) {
            let sign = if negative || rest.starts_with('-') { "-" } else { "" };
            return format!("{sign}{word} is not a JSON number (at line {line} column {column})");
        }
    }
    let literal: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || "+-.".contains(*c)).collect();
    if message.starts_with("expected value") && !literal.is_empty() {
        let value: Option<serde_json::Value> = serde_json::from_str(&literal).ok();
        if let Some(value) = value {
            let found = match value {
                serde_json::Value::Number(n) => n.as_f64().map_or(literal.clone(), |v| num(v).to_string()),
                other => other.to_string(),
            };
            return format!("expected a name (a string), found {found}");
        }
    }
    if message.starts_with("expected value") && (rest.starts_with('[') || rest.starts_with('{')) {
        let found = if rest.starts_with('[') { "an array" } else { "an object" };
        return format!("expected a name (a string), found {found}");
    }
    format!("not valid JSON ({message})")
}

/// A serde path as the documents spell it: `snapshots[3].serverTime`; a key serde could not read (the
/// document ended inside it) names its object. `None` for the document itself.
pub fn path(path: &serde_path_to_error::Path) -> Option<String> {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } if out.is_empty() => out.push_str(key),
            Segment::Map { key } | Segment::Enum { variant: key } => out = format!("{out}.{key}"),
            Segment::Unknown => {}
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The byte offset of `line`/`column` (1-based) in `text`.
fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    let start: usize = text.split_inclusive('\n').take(line.checked_sub(1)?).map(str::len).sum();
    let at = start + column.checked_sub(1)?;
    text.is_char_boundary(at).then_some(at).filter(|&at| at <= text.len())
}

/// serde's message for a value that did not fit, in the project's words (the field is named by the caller):
/// `expected a number, found the string "5"`, `unknown key "sead" (known: seed, duration, …)`,
/// `the key "x" appears twice`. Positions (`at line 1 column 9`) are dropped when the message is about a value;
/// anything else is returned as serde said it.
pub fn plain(text: &str) -> String {
    // serde-wasm-bindgen's errors are JS `Error`s, and say so.
    let text = text.strip_prefix("Error: ").unwrap_or(text);
    let text = match text.rfind(" at line ") {
        Some(at) if text[at..].contains(" column ") && is_about_a_value(text) => &text[..at],
        _ => text,
    };
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some((found, expected)) = text.strip_prefix(prefix).and_then(|rest| rest.rsplit_once(", expected ")) {
            return format!("expected {}, found {}", expected_words(expected), found_words(found));
        }
    }
    if let Some(key) = between(text, "unknown field `", "`") {
        let known = text.split_once("expected ").map_or("", |(_, k)| k);
        let known = known.trim_start_matches("one of ").replace(" or ", ", ").replace('`', "");
        return match known.as_str() {
            "" | "there are no fields" => format!("unknown key \"{key}\""),
            _ => format!("unknown key \"{key}\" (known: {known})"),
        };
    }
    if let Some(name) = between(text, "unknown variant `", "`") {
        let known = text.split_once("expected ").map_or("", |(_, k)| k);
        let known = known.trim_start_matches("one of ").replace(" or ", ", ").replace('`', "");
        return format!("unknown name \"{name}\" (known: {known})");
    }
    if let Some(key) = between(text, "duplicate field `", "`") {
        return format!("the key \"{key}\" appears twice");
    }
    if let Some(key) = between(text, "missing field `", "`") {
        return format!("the key \"{key}\" is missing");
    }
    if text.starts_with("number out of range") {
        return "number out of range (beyond ±1.8e308)".into();
    }
    text.to_string()
}

fn is_about_a_value(text: &str) -> bool {
    [
        "invalid type: ",
        "invalid value: ",
        "unknown field `",
        "unknown variant `",
        "duplicate field `",
        "missing field `",
    ]
    .iter()
    .any(|p| text.starts_with(p))
}

/// The text between `start` (at the beginning) and the next `end`.
pub fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(start)?;
    rest.split_once(end).map(|(inside, _)| inside)
}

fn expected_words(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".into(),
        "u64" | "usize" => "a whole number ≥ 0".into(),
        "u32" => "a whole number in 0..=4294967295".into(),
        "a sequence" => "an array".into(),
        "a map" => "an object".into(),
        other if other.starts_with("struct ") => "an object".into(),
        other if other.starts_with("enum ") || other == "variant identifier" => "a name (a string)".into(),
        other => other.to_string(),
    }
}

fn found_words(found: &str) -> String {
    let literal = |prefix: &str| found.strip_prefix(prefix).and_then(|rest| rest.strip_suffix('`'));
    if let Some(n) = literal("integer `") {
        return n.to_string();
    }
    if let Some(n) = literal("floating point `") {
        return number::num_of_decimal(n).unwrap_or_else(|| n.to_string());
    }
    if let Some(b) = literal("boolean `") {
        return b.to_string();
    }
    if let Some(s) = found.strip_prefix("string ") {
        return format!("the string {s}");
    }
    match found {
        "map" => "an object".into(),
        "sequence" => "an array".into(),
        "unit value" | "null" => "null".into(),
        "Option value" => "a value".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_escapes_and_shortens() {
        assert_eq!(one_line("a\nb\tc"), "a\\nb\\tc");
        assert_eq!(one_line(&"x".repeat(1000)).chars().count(), MAX_PART + 1);
        // Found by the trace_parser fuzz target: 400 characters that each escape to six made a line of 2400.
        assert!(one_line(&"\u{7f}".repeat(1000)).chars().count() <= MAX_PART + 1);
    }

    #[test]
    fn ranges_read_with_and_without_a_unit() {
        assert_eq!(outside(5.0, 0.0, 1.0, "s"), "5 s is outside 0..=1 s");
        assert_eq!(outside(1e308, 0.0, 1.0, ""), "1e308 is outside 0..=1");
    }

    #[test]
    fn syntax_errors_say_what_was_written() {
        let text = r#"{"x": NaN, "y": -Infinity}"#;
        assert_eq!(syntax(text, 1, 7, "expected value"), "NaN is not a JSON number (at line 1 column 7)");
        assert_eq!(syntax(text, 1, 18, "invalid number"), "-Infinity is not a JSON number (at line 1 column 18)");
        let text = "{\n \"policy\": 3}";
        assert_eq!(syntax(text, 2, 12, "expected value at line 2 column 12"), "expected a name (a string), found 3");
        assert_eq!(syntax("{\"a\": [1]}", 1, 7, "expected value"), "expected a name (a string), found an array");
        assert_eq!(syntax("{", 1, 2, "EOF while parsing"), "not valid JSON (EOF while parsing)");
        assert_eq!(syntax("{", 9, 9, "x"), "not valid JSON (x)");
    }

    #[test]
    fn serde_words_become_plain_words() {
        assert_eq!(plain(r#"invalid type: string "a", expected f64"#), r#"expected a number, found the string "a""#);
        assert_eq!(
            plain(r#"invalid type: string "5", expected f64 at line 1 column 17"#),
            r#"expected a number, found the string "5""#
        );
        assert_eq!(plain("invalid value: integer `-1`, expected u64"), "expected a whole number ≥ 0, found -1");
        assert_eq!(
            plain("invalid type: floating point `1.5`, expected usize"),
            "expected a whole number ≥ 0, found 1.5"
        );
        let huge = format!("invalid type: floating point `{}`, expected u64", 1e308);
        assert_eq!(plain(&huge), "expected a whole number ≥ 0, found 1e308");
        assert_eq!(plain("invalid type: map, expected a sequence"), "expected an array, found an object");
        assert_eq!(plain("invalid type: null, expected f64"), "expected a number, found null");
        assert_eq!(plain("unknown field `foo`, expected one of `x`, `y`"), r#"unknown key "foo" (known: x, y)"#);
        assert_eq!(plain("unknown field `foo`, expected `x` or `y`"), r#"unknown key "foo" (known: x, y)"#);
        assert_eq!(plain("unknown field `foo`, there are no fields"), r#"unknown key "foo""#);
        assert_eq!(
            plain("unknown variant `moon`, expected one of `lan`, `mobile`"),
            r#"unknown name "moon" (known: lan, mobile)"#
        );
        assert_eq!(plain("duplicate field `seed` at line 1 column 20"), r#"the key "seed" appears twice"#);
        assert_eq!(plain("number out of range at line 1 column 20"), "number out of range (beyond ±1.8e308)");
        assert_eq!(plain("expected value at line 1 column 2"), "expected value at line 1 column 2", "syntax kept");
        assert_eq!(
            plain("Error: invalid type: floating point `3.0`, expected enum UnderrunPolicy"),
            "expected a name (a string), found 3",
            "serde-wasm-bindgen's words"
        );
    }
}
