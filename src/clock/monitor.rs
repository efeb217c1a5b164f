//! Watching a render timeline from the outside: did it run backwards, did it jump?
//!
//! ```text
//!  frame k−1          frame k
//!  r(k−1) ──── dt ───► expected r(k−1) + dt
//!                      actual   r(k):  Δr < 0                 → a regression (seed 002 "RenderTimeRegressionCount")
//!                                      |Δr − dt| > threshold   → a jump (forward or back, seed 002 "时钟跳变")
//! ```
//! Every clock is watched the same way, so the page can compare `reanchor`'s resets with `smooth`'s slewing.

/// Counts regressions and jumps of a render timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineMonitor {
    jump_threshold: f64,
    last: Option<f64>,
    pub regressions: u64,
    pub jumps: u64,
    /// The largest |Δr − dt| seen, seconds.
    pub largest_jump: f64,
}

impl TimelineMonitor {
    pub fn new(jump_threshold: f64) -> Self {
        TimelineMonitor { jump_threshold, last: None, regressions: 0, jumps: 0, largest_jump: 0.0 }
    }

    /// Observes the render time of a frame `dt` seconds after the previous one; returns whether it was a jump.
    /// Non-finite times are skipped.
    pub fn observe(&mut self, render_time: f64, dt: f64) -> bool {
        if !render_time.is_finite() {
            return false;
        }
        let mut jumped = false;
        if let Some(last) = self.last {
            let step = render_time - last;
            let error = (step - dt).abs();
            self.regressions += u64::from(step < 0.0);
            jumped = error > self.jump_threshold;
            self.jumps += u64::from(jumped);
            if error.is_finite() {
                self.largest_jump = self.largest_jump.max(error);
            }
        }
        self.last = Some(render_time);
        jumped
    }

    pub fn last(&self) -> Option<f64> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_backward_steps_and_large_errors() {
        let mut m = TimelineMonitor::new(0.01);
        for r in [1.000, 1.016, 1.032, 1.020, 1.080, 1.096] {
            m.observe(r, 0.016);
        }
        // 1.032 → 1.020 regresses (error 28 ms), 1.020 → 1.080 jumps (error 44 ms).
        assert_eq!((m.regressions, m.jumps), (1, 2));
        assert!((m.largest_jump - 0.044).abs() < 1e-9);
    }
}
