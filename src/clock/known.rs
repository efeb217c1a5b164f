//! `known`: the ideal reference — the true offset between the clocks is handed over, nothing is estimated.
//!
//! ```text
//!  server now  = local now + clockOffset          (server = local + offset)
//!  render time = server now − delay               (seed 000 §4.3.2, seed 002 "第五步")
//! ```
//! No real client has this; the simulator does, and every other clock is judged against it.

use super::Estimate;

/// The render clock with perfect knowledge of the offset.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownClock {
    offset: f64,
}

impl KnownClock {
    pub fn new(offset: f64) -> Self {
        KnownClock { offset }
    }

    pub fn advance(&mut self, now: f64, delay: f64) -> Estimate {
        Estimate::certain(now + self.offset - delay)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_time_is_local_plus_offset_minus_delay() {
        let mut clock = KnownClock::new(-2.5);
        let e = clock.advance(12.8, 0.15);
        assert!((e.render_time - 10.15).abs() < 1e-12);
        assert_eq!(e.uncertain, None);
    }
}
