//! Checked parameters: every value that comes from outside (the page, a trace, the URL) is checked here
//! and a bad one is refused with an error that names the field. The previous valid state stays untouched.

use crate::words::num;
use std::fmt;

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

/// The refusal of [`in_range`], out of line: every group's `validate` checks dozens of fields, and the words
/// built in place at each check were a good part of the page's wasm (issue 14).
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
