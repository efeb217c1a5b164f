//! How a number is spelt in a message ([`num`]): as people read it, not as Rust's `{}` writes it.
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
//!
//! The three writers are [`decimal`], [`exponent`] and [`fixed`], which say exactly what Rust's `{}`, `{:e}` and
//! `{:.N}` say (checked against them over a million numbers in the tests), from the shortest digits `ryu`
//! finds. Why not Rust's own: `core::fmt::float` keeps two algorithms (Grisu and Dragon, both shortest and
//! exact) and their tables, ~20 KB of the page's first-frame wasm for the odd refusal; `ryu` with its
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
        f.write_str(&Digits::of(v).shown())
    }
}

/// The number a message quotes as Rust's `{}` wrote it (serde's `floating point `1000000000000.0``: `{}`, and `.0`
/// when there is no point) or as serde_json writes it (`1e+308`), spelt as [`num`] spells it (`1e12`, `1e308`): read
/// from its digits, never parsed into an `f64`.
/// Parsing would bring in core's float parser (`dec2flt`) and its table of powers of five: 14 KB of the first-frame
/// wasm after brotli, for the words of a refusal. `{}` writes the shortest digits that read back, the
/// same digits [`num`] writes, so moving the point is all it takes. `None` for a text `{}` never writes.
pub fn num_of_decimal(text: &str) -> Option<String> {
    match text {
        "NaN" => Some("NaN".into()),
        "inf" => Some("Infinity".into()),
        "-inf" => Some("-Infinity".into()),
        _ => Digits::of_decimal(text).map(|d| d.shown()),
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
        // ryu writes `1.5e-7`, `1e308`, `0.0001`, `123.0`: read as a quoted number is (`of_decimal`; at most 17
        // digits, so never refused).
        let text = buffer.format_finite(v.abs());
        let zero = Digits { negative: false, digits: 0, count: 1, point: 1 };
        let mut out = Digits { negative: v.is_sign_negative(), ..Digits::of_decimal(text).unwrap_or(zero) };
        if out.digits == 0 {
            return out;
        }
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

    /// The digits of a finite number in the forms `{}`, `{:e}` and serde_json write (`-0.0005`, `1200`, `3.25`,
    /// `1.5e-7`, `1e+308`; at most 19 significant digits, the shortest ones have at most 17).
    fn of_decimal(text: &str) -> Option<Digits> {
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (unsigned, power) = match unsigned.split_once('e') {
            Some((mantissa, power)) => {
                let digits = power.strip_prefix(['-', '+']).unwrap_or(power);
                if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                let magnitude = digits.bytes().fold(0i32, |n, c| n * 10 + i32::from(c - b'0'));
                (mantissa, if power.starts_with('-') { -magnitude } else { magnitude })
            }
            None => (unsigned, 0),
        };
        let (whole, part) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let is_digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
        if whole.is_empty() || !is_digits(whole) || !is_digits(part) || (unsigned.contains('.') && part.is_empty()) {
            return None;
        }
        // |v| = 0.`significant` × 10^point: the digits between the first and the last that are not zero.
        let all = || whole.bytes().chain(part.bytes());
        let Some(first) = all().position(|c| c != b'0') else {
            return Some(Digits { negative, digits: 0, count: 1, point: 1 });
        };
        let last = all().enumerate().filter(|&(_, c)| c != b'0').last()?.0;
        let count = (last - first + 1) as i32;
        if count > 19 {
            return None;
        }
        let digits = all().skip(first).take(count as usize).fold(0u64, |n, c| n * 10 + u64::from(c - b'0'));
        Some(Digits { negative, digits, count, point: whole.len() as i32 - first as i32 + power })
    }

    /// As [`num`] writes it: the exponent form only when it saves at least four characters (1e6 but 100000,
    /// 3600000, 0.0001).
    fn shown(&self) -> String {
        let (plain, exponent) = (self.decimal(), self.exponent());
        if plain.len() >= exponent.len() + 4 {
            exponent
        } else {
            plain
        }
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
    /// [`numbers_to_write`]. Red: ryu's digits read off wrongly (a point moved, a zero lost),
    /// `fixed` rounding half up, its sign lost on `-0.0004`.
    #[test]
    fn numbers_are_written_as_rust_writes_them() {
        for v in numbers_to_write() {
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

    /// A number quoted as Rust's `{}` writes it (and as serde quotes it, with `.0`) is spelt as [`num`] spells the
    /// number itself, over the same numbers. Red, seen: a fraction's leading zeros counted as significant (1e-7 spelt
    /// 0.0000001), the point not moved past them (0.1 spelt 1), serde_json's `e+308` left unread (the words said
    /// "found 1e+308", tests/bad_inputs.rs). And what no writer writes is left alone.
    #[test]
    fn a_quoted_number_is_spelt_as_num_spells_it() {
        for v in numbers_to_write() {
            let spelt = Some(num(v).to_string());
            assert_eq!(num_of_decimal(&format!("{v}")), spelt, "{{}} of {v:?}");
            assert_eq!(num_of_decimal(&with_decimal_point(v)), spelt, "serde's words for {v:?}");
            let scientific = format!("{v:e}");
            assert_eq!(num_of_decimal(&scientific), spelt, "{{:e}} of {v:?}");
            if !scientific.contains("e-") {
                assert_eq!(num_of_decimal(&scientific.replace('e', "e+")), spelt, "serde_json's words for {v:?}");
            }
        }
        let quoted = |json: &str| serde_json::from_str::<u64>(json).unwrap_err().to_string();
        assert!(quoted("1e308").contains("floating point `1e+308`"), "serde_json writes the exponent's sign");
        for never in
            ["", "-", ".5", "5.", "1e", "1e+", "1e12345", "1ee5", "0x10", "+1", "1.2.3", "١", "123456789012345678901"]
        {
            assert_eq!(num_of_decimal(never), None, "{never}");
        }
        assert_eq!(num_of_decimal("0001200.000").as_deref(), Some("1200"));
    }

    /// Random bit patterns (every exponent, subnormals), numbers a page writes (k/1000, k × 10^j, halves at every
    /// decimal place: the ties) and the corners.
    fn numbers_to_write() -> Vec<f64> {
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
        values
    }
}
