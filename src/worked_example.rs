//! Seed 002's worked example as a scene you can scrub: three snapshots that arrive out of order.
//!
//! ```text
//!  tick  server time  x   arrives (local)
//!  100   10.0         0   10.08
//!  101   10.1         1   10.25   ← sent before 102, arrives after it
//!  102   10.2         2   10.23
//! ```
//! Server and local clocks agree here (offset 0). At local time `t` the buffer holds what has arrived by `t`
//! and is sampled at `t − render delay`. With the article's delay of 0.15 s, local 10.30 renders server time
//! 10.15, between ticks 101 and 102, at x = 1.5 (seed 002 "三个乱序到达的快照").

use crate::buffer::{BufferParams, Sample, SnapshotBuffer};
use crate::geom::Vec2;
use crate::param::{in_range, ParamError};
use crate::snapshot::Snapshot;

/// A snapshot and the local time it reached the client.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    pub snapshot: Snapshot,
    pub arrival: f64,
}

/// The scene: its arrivals and the render delay the user picked.
#[derive(Clone, Debug)]
pub struct JitterExample {
    arrivals: Vec<Arrival>,
    render_delay: f64,
}

/// The largest render delay the scene accepts, in seconds.
pub const MAX_RENDER_DELAY: f64 = 1.0;

impl JitterExample {
    /// The article's three snapshots with the article's delay (0.15 s).
    pub fn seed_002() -> Self {
        let arrival = |tick, server_time, x, arrival| Arrival {
            snapshot: Snapshot::moving(tick, server_time, Vec2::new(x, 0.0), Vec2::new(10.0, 0.0)),
            arrival,
        };
        JitterExample {
            arrivals: vec![
                arrival(100, 10.0, 0.0, 10.08),
                arrival(101, 10.1, 1.0, 10.25),
                arrival(102, 10.2, 2.0, 10.23),
            ],
            render_delay: 0.15,
        }
    }

    pub fn arrivals(&self) -> &[Arrival] {
        &self.arrivals
    }

    pub fn render_delay(&self) -> f64 {
        self.render_delay
    }

    /// Sets the render delay in seconds; a value outside `0..=MAX_RENDER_DELAY` is refused and the old one kept.
    pub fn set_render_delay(&mut self, seconds: f64) -> Result<(), ParamError> {
        self.render_delay = in_range("renderDelay", seconds, 0.0, MAX_RENDER_DELAY, "s")?;
        Ok(())
    }

    /// What the client shows at local time `local`: the buffer as it stood then, sampled `render_delay` back.
    pub fn sample_at(&self, local: f64) -> Sample {
        let mut buffer = SnapshotBuffer::with_params(scene_buffer_params(), SEND_INTERVAL)
            .expect("the scene's parameters are valid");
        for a in self.arrivals.iter().filter(|a| a.arrival <= local) {
            buffer.insert(a.snapshot, a.arrival);
        }
        let mut sample = buffer.sample(local - self.render_delay);
        // Seed 002 "缓冲欠载 … 必须报告 … 当前插值延迟": an Underrun names the delay in force.
        sample.reason = sample.reason.map(|r| r.with_delay(self.render_delay));
        sample
    }
}

/// The scene's stream: the article's snapshots are 0.1 s apart, so that is the send interval (a bracket over the
/// missing tick 101, 0.2 s wide, still interpolates; see `gapFactor` in [`BufferParams`]).
const SEND_INTERVAL: f64 = 0.1;

/// The scene's buffer.
fn scene_buffer_params() -> BufferParams {
    BufferParams { capacity: 8, ..BufferParams::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::SampleStatus;
    use approx::assert_relative_eq;

    #[test]
    fn local_ten_thirty_renders_one_and_a_half() {
        let example = JitterExample::seed_002();
        let sample = example.sample_at(10.30);
        assert_relative_eq!(sample.render_time, 10.15, epsilon = 1e-12);
        assert_eq!((sample.left, sample.right), (Some(101), Some(102)));
        assert_relative_eq!(sample.position.unwrap().x, 1.5, epsilon = 1e-9);
    }

    #[test]
    fn before_the_second_arrival_the_buffer_is_priming() {
        let example = JitterExample::seed_002();
        assert_eq!(example.sample_at(10.10).status, SampleStatus::Priming);
    }

    #[test]
    fn at_local_ten_twenty_four_tick_101_is_still_missing() {
        // 100 and 102 have arrived; render time 10.09 falls between them and interpolates across the hole.
        let example = JitterExample::seed_002();
        let sample = example.sample_at(10.24);
        assert_eq!(sample.status, SampleStatus::Ready);
        assert_eq!((sample.left, sample.right), (Some(100), Some(102)));
    }

    #[test]
    fn a_bad_delay_is_refused_and_the_old_one_kept() {
        let mut example = JitterExample::seed_002();
        for bad in [f64::NAN, -0.01, 5.0] {
            let err = example.set_render_delay(bad).unwrap_err();
            assert_eq!(err.field, "renderDelay");
        }
        assert_eq!(example.render_delay(), 0.15);
        example.set_render_delay(0.0).unwrap();
        assert_eq!(example.sample_at(10.30).status, SampleStatus::Underrun);
    }
}
