//! How a refusal is worded: numbers as people read them, and serde's error texts in plain words.
//!
//! Every message that quotes a value from outside (a trace, the page, the URL, the CLI) goes through here, so
//! that the four doors speak alike:
//!
//! ```text
//!  value            Rust's `{}`                               num(value)
//!  1e308            1000000000000000000000…0 (309 digits)     1e308
//!  5e-324           0.000…0005 (324 zeros)                    5e-324
//!  1e12             1000000000000                             1e12
//!  1234567890.5     1234567890.5                              1234567890.5
//!  0.05, 120, -0    as is                                     as is
//!  NaN, ±∞          NaN, inf, -inf                            NaN, Infinity, -Infinity  (what JavaScript says)
//! ```
//! serde's texts (`invalid type: string "10.0", expected f64 at line 1 column 79`) become
//! `expected a number, found the string "10.0"`; the caller names the field.
//!
//! Numbers are written by [`decimal`], [`exponent`] and [`fixed`], which say exactly what Rust's `{}`, `{:e}` and
//! `{:.N}` say (checked against them over a million numbers in the tests), from the shortest digits `ryu`
//! finds. Why not Rust's own: `core::fmt::float` keeps two algorithms (Grisu and Dragon, both shortest and
//! exact) and their tables, ~20 KB of the page's first-frame wasm for the odd refusal (issue 14); `ryu` with its
//! small tables is a fraction of it. Every message of the page build writes its numbers through here.

use std::fmt;

/// A number formatted for a message: the shortest text that reads back to the same `f64`, in exponent form
/// when that is much shorter (`1e308`, `5e-324`, `2e9`), and `NaN` / `Infinity` / `-Infinity` as JavaScript
/// spells them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

/// `format!("{}", num(x))`: see [`Num`].
pub fn num(value: f64) -> Num {
    Num(value)
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v.is_nan() {
            return f.write_str("NaN");
        }
        if v.is_infinite() {
            return f.write_str(if v > 0.0 { "Infinity" } else { "-Infinity" });
        }
        let digits = Digits::of(v);
        let plain = digits.decimal();
        let exponent = digits.exponent();
        // Exponent form only when it saves at least four characters: 1e6 but 100000, 3600000, 0.0001.
        f.write_str(if plain.len() >= exponent.len() + 4 { &exponent } else { &plain })
    }
}

/// `v` as Rust's `{}` writes it (`0.05`, `1e308` in all its 309 digits, `-0`, `NaN`, `inf`), without
/// `core::fmt::float`.
pub fn decimal(v: f64) -> String {
    match special(v) {
        Some(text) => text.to_string(),
        None => Digits::of(v).decimal(),
    }
}

/// `v` as Rust's `{:e}` writes it (`1e308`, `1.5e-7`, `0e0`).
pub fn exponent(v: f64) -> String {
    match special(v) {
        Some(text) => text.to_string(),
        None => Digits::of(v).exponent(),
    }
}

/// `v` as serde writes a float it quotes (`floating point `2.0``): `{}` with `.0` added to a finite number
/// without a decimal point.
pub fn with_decimal_point(v: f64) -> String {
    let text = decimal(v);
    if v.is_finite() && !text.contains('.') {
        return text + ".0";
    }
    text
}

/// `v` as Rust's `{:.N}` writes it with `decimals` ≤ 3 places (exactly rounded, ties to even: `0.0005` is
/// `0.001` only because its binary value is a little above), for |v| < 2⁵³; beyond (whole numbers), the
/// shortest digits with zeros after the point (Rust writes the exact binary value; no message quotes such a time).
pub fn fixed(v: f64, decimals: u32) -> String {
    debug_assert!(decimals <= 3);
    if let Some(text) = special(v) {
        return text.to_string();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    let zeros = "000"[..decimals as usize].to_string();
    if v.abs() >= 9_007_199_254_740_992.0 {
        let dot = if decimals > 0 { "." } else { "" };
        return format!("{}{dot}{zeros}", Digits::of(v).decimal());
    }
    let (mantissa, power) = binary(v.abs());
    // |v| × 10^decimals = mantissa × 10^decimals × 2^power, rounded half to even (power ≤ 0 below 2⁵³).
    let scaled = u128::from(mantissa) * u128::from(10u32.pow(decimals));
    let shift = power.unsigned_abs();
    let units = if shift >= 127 {
        0 // below 2⁶³ / 2¹²⁷: less than half a unit
    } else if shift == 0 {
        scaled
    } else {
        let (quotient, rest, half) = (scaled >> shift, scaled & ((1 << shift) - 1), 1u128 << (shift - 1));
        quotient + u128::from(rest > half || (rest == half && quotient % 2 == 1))
    };
    // Below 2⁵³ × 10³: a u64.
    let text = (units as u64).to_string();
    if decimals == 0 {
        return format!("{sign}{text}");
    }
    let text = format!("{zeros}{text}");
    let text = &text[(text.len() - decimals as usize - 1).min(zeros.len())..];
    let (whole, part) = text.split_at(text.len() - decimals as usize);
    format!("{sign}{whole}.{part}")
}

/// Finite |v| as mantissa × 2^power exactly (mantissa < 2⁵³).
fn binary(v: f64) -> (u64, i32) {
    let bits = v.to_bits();
    let (biased, fraction) = ((bits >> 52) as i32 & 0x7ff, bits & ((1 << 52) - 1));
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// What Rust writes for NaN and the infinities (`None` for a finite number).
fn special(v: f64) -> Option<&'static str> {
    match v {
        _ if v.is_nan() => Some("NaN"),
        f64::INFINITY => Some("inf"),
        f64::NEG_INFINITY => Some("-inf"),
        _ => None,
    }
}

/// A finite number as its shortest round-trip digits: |v| = 0.`digits` × 10^`point`, `digits` written out in
/// `count` decimal digits, no trailing zero (zero is `0`, one digit, point 1).
struct Digits {
    negative: bool,
    digits: u64,
    count: i32,
    point: i32,
}

impl Digits {
    fn of(v: f64) -> Digits {
        let mut buffer = ryu::Buffer::new();
        // ryu writes `1.5e-7`, `1e308`, `0.0001`, `123.0`: its digits and where the point goes.
        let text = buffer.format_finite(v.abs()).as_bytes();
        let (mut digits, mut power, mut after_point, mut in_fraction) = (0u64, 0i32, 0i32, false);
        let mut at = 0;
        while at < text.len() {
            match text[at] {
                b'.' => in_fraction = true,
                b'e' => {
                    let (negative, mut exponent) = (text.get(at + 1) == Some(&b'-'), 0i32);
                    for &c in &text[at + 1 + usize::from(negative)..] {
                        exponent = exponent * 10 + i32::from(c - b'0');
                    }
                    power = if negative { -exponent } else { exponent };
                    break;
                }
                c => {
                    digits = digits * 10 + u64::from(c - b'0');
                    after_point += i32::from(in_fraction);
                }
            }
            at += 1;
        }
        let negative = v.is_sign_negative();
        if digits == 0 {
            return Digits { negative, digits: 0, count: 1, point: 1 };
        }
        // |v| = digits × 10^exponent.
        let mut exponent = power - after_point;
        while digits % 10 == 0 {
            digits /= 10;
            exponent += 1;
        }
        let count = digits.ilog10() as i32 + 1;
        let mut out = Digits { negative, digits, count, point: count + exponent };
        // Two shortest texts, the value exactly between them: ryu takes the even last digit, Rust the one above.
        if out.is_exactly_above_half(v.abs()) {
            out.digits += 1;
            while out.digits % 10 == 0 {
                out.digits /= 10;
            }
            let count = out.digits.ilog10() as i32 + 1;
            out.point += count - out.count; // 99.95 → 100: one digit more before the point
            out.count = count;
        }
        out
    }

    /// Whether |v| is exactly `digits` followed by a 5 (at this point): the tie between two shortest texts. Only
    /// a value with one significant digit more than the text can be, and it is checked exactly in integers
    /// (|v| < 10³⁸, which is where such ties are found: a wider one needs 5^k in a 53-bit mantissa).
    fn is_exactly_above_half(&self, v: f64) -> bool {
        let stem = u128::from(self.digits) * 10 + 5;
        let (mantissa, power) = binary(v);
        // |v| × 10^places against stem, both integers.
        let places = self.count + 1 - self.point;
        let scaled = match places {
            0..=22 => u128::from(mantissa) * 10u128.pow(places as u32),
            // A whole number: stem × 10^-places against mantissa × 2^power.
            -20..=-1 => {
                let Some(whole) = stem.checked_mul(10u128.pow(-places as u32)) else { return false };
                return (0..75).contains(&power)
                    && whole & ((1u128 << power) - 1) == 0
                    && whole >> power == u128::from(mantissa);
            }
            _ => return false,
        };
        if power >= 0 {
            power < 75 && (scaled << power) >> power == scaled && scaled << power == stem
        } else {
            let shift = -power as u32;
            shift < 128 && scaled & ((1u128 << shift) - 1) == 0 && scaled >> shift == stem
        }
    }

    fn sign(&self) -> &'static str {
        if self.negative {
            "-"
        } else {
            ""
        }
    }

    /// Rust's `{}`: every digit before the point written out.
    fn decimal(&self) -> String {
        let (digits, point, length, sign) = (self.digits, self.point, self.count, self.sign());
        if point <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat(-point as usize))
        } else if point >= length {
            format!("{sign}{digits}{}", "0".repeat((point - length) as usize))
        } else {
            let scale = 10u64.pow((length - point) as u32);
            let part = digits % scale;
            format!("{sign}{}.{part:0width$}", digits / scale, width = (length - point) as usize)
        }
    }

    /// Rust's `{:e}`: `d.ddde±x` without a `+`.
    fn exponent(&self) -> String {
        let power = if self.digits == 0 { 0 } else { self.point - 1 };
        let scale = 10u64.pow((self.count - 1) as u32);
        let (first, rest) = (self.digits / scale, self.digits % scale);
        match self.count {
            1 => format!("{}{first}e{power}", self.sign()),
            _ => format!("{}{first}.{rest:0width$}e{power}", self.sign(), width = (self.count - 1) as usize),
        }
    }
}

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
        return n.parse::<f64>().map_or_else(|_| n.to_string(), |v| num(v).to_string());
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
    fn numbers_read_as_numbers() {
        let cases = [
            (1e308, "1e308"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e308"),
            (1e12, "1e12"),
            (2e9, "2e9"),
            (1234567890.5, "1234567890.5"),
            (3_600_000.0, "3600000"),
            (100_000.0, "100000"),
            (1e6, "1e6"),
            (0.0001, "0.0001"),
            (1e-6, "1e-6"),
            (0.05, "0.05"),
            (-0.0, "-0"),
            (120.0, "120"),
            (-2.5, "-2.5"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
        ];
        for (value, text) in cases {
            assert_eq!(num(value).to_string(), text, "{value:?}");
            if value.is_finite() {
                assert_eq!(text.parse::<f64>().unwrap().to_bits(), value.to_bits(), "{text} reads back");
            }
        }
    }

    /// `decimal`, `exponent`, `with_decimal_point` and `fixed` against Rust's own `{}`, `{:e}` and `{:.N}` over
    /// random bit patterns (every exponent, subnormals), numbers a page writes (k/1000, k × 10^j, halves at every
    /// decimal place: the ties) and the corners. Red: ryu's digits read off wrongly (a point moved, a zero lost),
    /// `fixed` rounding half up, its sign lost on `-0.0004`.
    #[test]
    fn numbers_are_written_as_rust_writes_them() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            1.5,
            2.5,
            0.0005,
            0.0015,
            0.00049999,
            1e-7,
            1e16,
            1e21,
            1e22,
            1e23,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            9007199254740993.0,
            18446744073709549568.0,
            1.8446744073709552e19,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0004,
            -0.4,
            123456789.125,
            0.3 - 0.1,
            -1618162129551699.2, // exactly …699.25: a tie between two shortest texts
            2.5e22,
            9.5e21,
            0.125,
        ];
        for _ in 0..150_000 {
            values.push(f64::from_bits(next()));
            let k = (next() % 2_000_001) as f64 - 1_000_000.0;
            values.push(k / 1000.0);
            values.push(k * 10f64.powi((next() % 40) as i32 - 20));
            values.push((k + 0.5) / 10f64.powi((next() % 4) as i32));
        }
        for v in values {
            assert_eq!(decimal(v), format!("{v}"), "{{}} of {v:?}");
            assert_eq!(exponent(v), format!("{v:e}"), "{{:e}} of {v:?}");
            let serde = serde::de::Unexpected::Float(v).to_string();
            assert_eq!(format!("floating point `{}`", with_decimal_point(v)), serde, "serde's words for {v:?}");
            if v.abs() < 9.007e15 || !v.is_finite() {
                assert_eq!(fixed(v, 0), format!("{v:.0}"), "{{:.0}} of {v:?}");
                assert_eq!(fixed(v, 1), format!("{v:.1}"), "{{:.1}} of {v:?}");
                assert_eq!(fixed(v, 3), format!("{v:.3}"), "{{:.3}} of {v:?}");
            }
        }
    }

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
