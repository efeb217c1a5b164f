//! The two clocks of a run and the remote entity's truth along them.
//!
//! ```text
//!  server time  ts ───────────────────────────────►   the truth lives here (motion.rs)
//!  true local   tl = (ts − clockOffset)·(1 + clockSkew)   frames and packets are scheduled here
//!  client clock tl + kick (after kickAt)                  what the client's code reads and stamps arrivals with
//! ```
//! `TruthTrack` answers "where was the remote entity at server time ts?" (the metrics ask it thousands of
//! times per run, so the motion scripts are cheap closed forms).

use crate::geom::Vec2;
use crate::motion::{truth, MotionScript};

/// How true local time, server time and the client's clock reading relate in one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeMap {
    offset: f64,
    skew: f64,
    kick_at: Option<f64>,
    kick: f64,
}

impl TimeMap {
    /// Server time = true local time / (1 + `skew`) + `offset`; the client's clock reads true local time, moved by
    /// `kick` seconds from true local time `kick_at` on.
    pub fn new(offset: f64, skew: f64, kick_at: Option<f64>, kick: f64) -> Self {
        TimeMap { offset, skew, kick_at, kick }
    }

    /// True local time at which the server's clock reads `ts`.
    pub fn local_of_server(&self, ts: f64) -> f64 {
        (ts - self.offset) * (1.0 + self.skew)
    }

    /// What the server's clock reads at true local time `tl`.
    pub fn server_of_local(&self, tl: f64) -> f64 {
        tl / (1.0 + self.skew) + self.offset
    }

    /// What the client's clock reads at true local time `tl` (kicked after `kickAt`).
    pub fn reading(&self, tl: f64) -> f64 {
        match self.kick_at {
            Some(at) if tl >= at => tl + self.kick,
            _ => tl,
        }
    }
}

/// The remote truth of one run, asked "where was it at server time ts?" many times by the metrics.
#[derive(Clone, Copy, Debug)]
pub struct TruthTrack {
    script: MotionScript,
    speed: f64,
}

impl TruthTrack {
    pub fn new(script: MotionScript, speed: f64) -> Self {
        TruthTrack { script, speed }
    }

    /// The true position at server time `ts` (inlined, so the velocity the metrics never read is not computed).
    #[inline(always)]
    pub fn at(&self, ts: f64) -> Vec2 {
        truth(self.script, self.speed, ts).pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_server_time_invert_each_other() {
        let map = TimeMap::new(3.5, 0.01, None, 0.1);
        for tl in [0.0, 1.25, 19.0] {
            assert!((map.local_of_server(map.server_of_local(tl)) - tl).abs() < 1e-12);
        }
        assert!((map.server_of_local(0.0) - 3.5).abs() < 1e-12);
    }

    #[test]
    fn the_kick_moves_only_the_client_reading() {
        let map = TimeMap::new(0.0, 0.0, Some(2.0), -0.1);
        assert_eq!(map.reading(1.9), 1.9);
        assert!((map.reading(2.5) - 2.4).abs() < 1e-12);
        assert_eq!(map.server_of_local(2.5), 2.5);
    }

    #[test]
    fn the_track_is_the_truth() {
        let track = TruthTrack::new(MotionScript::Circle, 120.0);
        assert_eq!(track.at(2.5), truth(MotionScript::Circle, 120.0, 2.5).pos);
    }
}
