//! `reanchor`: seed 000 §4.3.8's RemotePlayerView — advance by the frame's dt, reset on every snapshot.
//!
//! ```text
//!  pushSnapshot(s, serverNow):  renderTime = serverNow − delay        ◄── every arrival, in arrival order
//!  update(dt):                  renderTime += dt
//!
//!  render ▲            reset (estimate too late)          reset (a late packet: estimate too early)
//!         │        ╱│╲                                 ╱
//!         │      ╱  │ ╲ ╱ ╲                        ╱│ ╱         each reset moves the timeline by the estimate's
//!         │    ╱    jump  regression           ╱    │╱          error: forward jumps and regressions, which the
//!         └──────────────────────────────────────────────► local  monitor counts (seed 002 "时钟跳变")
//! ```
//! The seed takes `serverNow` from "1.3 的时钟估计", which it does not show. Two sources are offered:
//! - `packet` (default): the naive single-sample estimate `serverTime + RTT/2`, with the latest raw RTT — what
//!   seed 004 §2.1 warns against ("用一个动态变化的量去推算服务器当前时间推算出来的值每一毫秒都在跳");
//! - `known`: `arrival + clockOffset`, a perfect estimate; what remains are the errors of resetting at arrival
//!   time and then adding a whole frame's dt (up to one frame ahead).

use super::{Estimate, Uncertain};
use serde::{Deserialize, Serialize};

/// Where the reanchor clock's `serverNow` comes from at each arrival.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, crate::param::Choice)]
#[serde(rename_all = "camelCase")]
pub enum ReanchorEstimate {
    /// `serverTime + lastRtt / 2`, from the snapshot alone.
    #[default]
    Packet,
    /// `arrival + clockOffset`, the true offset.
    Known,
}

/// The reset-on-every-snapshot clock.
#[derive(Clone, Debug, PartialEq)]
pub struct ReanchorClock {
    estimate: ReanchorEstimate,
    offset: f64,
    render: Option<f64>,
    pub resets: u64,
}

impl ReanchorClock {
    pub fn new(estimate: ReanchorEstimate, offset: f64) -> Self {
        ReanchorClock { estimate, offset, render: None, resets: 0 }
    }

    /// `pushSnapshot`: the timeline is reset to `serverNow − delay`.
    pub fn on_snapshot(&mut self, server_time: f64, arrival: f64, last_rtt: Option<f64>, delay: f64) {
        let server_now = match self.estimate {
            ReanchorEstimate::Packet => server_time + last_rtt.unwrap_or(0.0) / 2.0,
            ReanchorEstimate::Known => arrival + self.offset,
        };
        if server_now.is_finite() {
            self.render = Some(server_now - delay);
            self.resets += 1;
        }
    }

    /// The render time [`ReanchorClock::advance`] would give, when it would give it as certain (a snapshot seen,
    /// and an RTT sample if the estimate needs one); nothing changes. [`ReanchorClock::set_render`] then takes it.
    #[inline(always)]
    pub fn peek_certain(&self, dt: f64, last_rtt: Option<f64>) -> Option<f64> {
        let render = self.render?;
        if self.estimate == ReanchorEstimate::Packet && last_rtt.is_none() {
            return None;
        }
        Some(if dt.is_finite() { render + dt } else { render })
    }

    /// Takes the render time [`ReanchorClock::peek_certain`] gave: the state `advance` leaves.
    #[inline(always)]
    pub fn set_render(&mut self, render: f64) {
        self.render = Some(render);
    }

    /// `update(dt)`: the timeline advances by the frame's dt.
    pub fn advance(&mut self, dt: f64, last_rtt: Option<f64>) -> Estimate {
        let Some(render) = self.render else {
            return Estimate::uncertain(f64::NAN, Uncertain::NoAnchor);
        };
        let render = if dt.is_finite() { render + dt } else { render };
        self.render = Some(render);
        if self.estimate == ReanchorEstimate::Packet && last_rtt.is_none() {
            return Estimate::uncertain(render, Uncertain::NoRttForServerNow);
        }
        Estimate::certain(render)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn a_late_packet_pulls_the_timeline_back() {
        let mut clock = ReanchorClock::new(ReanchorEstimate::Packet, 0.0);
        let rtt = Some(0.1);
        clock.on_snapshot(10.0, 10.05, rtt, 0.1); // on time: serverNow 10.05, render 9.95
        assert_relative_eq!(clock.advance(0.016, rtt).render_time, 9.966, epsilon = 1e-12);
        assert_relative_eq!(clock.advance(0.016, rtt).render_time, 9.982, epsilon = 1e-12);
        // Sent at 9.99 but delayed: serverNow looks like 10.04 while the truth is ~10.082.
        clock.on_snapshot(9.99, 10.08, rtt, 0.1);
        let back = clock.advance(0.016, rtt).render_time;
        assert_relative_eq!(back, 9.956, epsilon = 1e-12);
        assert!(back < 9.982, "a regression");
        assert_eq!(clock.resets, 2);
    }

    #[test]
    fn it_is_uncertain_until_a_snapshot_and_an_rtt() {
        let mut clock = ReanchorClock::new(ReanchorEstimate::Packet, 0.0);
        assert!(clock.advance(0.016, None).render_time.is_nan());
        clock.on_snapshot(10.0, 10.05, None, 0.1);
        assert!(clock.advance(0.016, None).uncertain.is_some());
        assert_eq!(clock.advance(0.016, Some(0.1)).uncertain, None);
    }

    #[test]
    fn the_known_estimate_uses_the_arrival_and_the_true_offset() {
        let mut clock = ReanchorClock::new(ReanchorEstimate::Known, 5.0);
        clock.on_snapshot(14.9, 10.0, None, 0.1);
        assert_relative_eq!(clock.advance(0.02, None).render_time, 14.92, epsilon = 1e-12);
    }
}
