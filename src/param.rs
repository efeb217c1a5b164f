//! Checked parameters: every value that comes from outside (the page, a trace, the URL) is checked here
//! and a bad one is refused with an error that names the field. The previous valid state stays untouched.

use std::fmt;

/// A parameter that was refused, with the field's name as the outside world spells it (camelCase).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamError {
    pub field: String,
    pub message: String,
}

impl ParamError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ParamError { field: field.into(), message: message.into() }
    }
}

impl ParamError {
    /// The same error one level down: `loss` inside `network.downlink` becomes `network.downlink.loss`.
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
pub fn in_range(field: &str, value: f64, min: f64, max: f64, unit: &str) -> Result<f64, ParamError> {
    if !value.is_finite() {
        return Err(ParamError::new(field, format!("{value} is not a finite number")));
    }
    if value < min || value > max {
        return Err(ParamError::new(field, format!("{value} {unit} is outside {min}..={max} {unit}")));
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
    }
}
