//! The two clocks of a run and the remote entity's truth along them.
//!
//! ```text
//!  server time  ts ───────────────────────────────►   the truth lives here (motion.rs)
//!  true local   tl = (ts − clockOffset)·(1 + clockSkew)   frames and packets are scheduled here
//!  client clock tl + kick (after kickAt)                  what the client's code reads and stamps arrivals with
//! ```
//! `TruthTrack` answers "where was the remote entity at server time ts?" (the metrics ask it thousands of
//! times per run, so the motion scripts are cheap closed forms). A recorded run that states no motion script has
//! only what its snapshots say: then the truth is the polyline through their positions by server time
//! ([`TruthTrack::through`]), a binary search per question.
//!
//! ```text
//!  polyline:  held ◄── p0 ──── p1 ──── p2 ┐      p3 (jump) ──── p4 ──► held
//!                      linear between      └ held until p3's time: a jump is never drawn as motion
//! ```

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
#[derive(Clone, Debug, PartialEq)]
pub enum TruthTrack {
    /// A motion script at a cruising speed (`crate::motion::truth`).
    Motion { script: MotionScript, speed: f64 },
    /// The polyline through known positions, in increasing server time ([`TruthTrack::through`]).
    Polyline(Vec<TruthPoint>),
}

/// A known position of the remote entity at server time `t`; `jump`: it got there by a jump (a teleport, a
/// respawn), not by moving from the point before.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TruthPoint {
    pub t: f64,
    pub pos: Vec2,
    pub jump: bool,
}

impl TruthTrack {
    pub fn new(script: MotionScript, speed: f64) -> Self {
        TruthTrack::Motion { script, speed }
    }

    /// The polyline through `points`: sorted by server time (stable), the first of equal times kept, points that
    /// are not finite left out. Between two points the truth moves linearly, unless the later one is a `jump`:
    /// then it stays at the earlier one until the jump's time. Before the first point and after the last it stays
    /// there; with no point at all it is the origin.
    pub fn through(mut points: Vec<TruthPoint>) -> Self {
        points.retain(|p| p.t.is_finite() && p.pos.is_finite());
        points.sort_by(|a, b| a.t.total_cmp(&b.t));
        points.dedup_by(|later, earlier| later.t == earlier.t);
        TruthTrack::Polyline(points)
    }

    /// The true position at server time `ts` (inlined, so the velocity the metrics never read is not computed).
    #[inline(always)]
    pub fn at(&self, ts: f64) -> Vec2 {
        match self {
            TruthTrack::Motion { script, speed } => truth(*script, *speed, ts).pos,
            TruthTrack::Polyline(points) => polyline_at(points, ts),
        }
    }
}

fn polyline_at(points: &[TruthPoint], ts: f64) -> Vec2 {
    // The first point later than `ts`: `ts` lies between `next − 1` and `next`.
    let next = points.partition_point(|p| p.t <= ts);
    match (next.checked_sub(1).and_then(|i| points.get(i)), points.get(next)) {
        (Some(a), Some(b)) if !b.jump => a.pos.lerp(b.pos, (ts - a.t) / (b.t - a.t)),
        (Some(a), _) => a.pos,
        (None, Some(b)) => b.pos,
        (None, None) => Vec2::ZERO,
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

    fn point(t: f64, x: f64, y: f64, jump: bool) -> TruthPoint {
        TruthPoint { t, pos: Vec2::new(x, y), jump }
    }

    /// The polyline by hand: (0 s, 0,0) → (1 s, 10,20) → (3 s, 30,20), then a jump to (−50,−50) at 4 s. At 0.25 s a
    /// quarter of the way: (2.5, 5); at 2 s half way from 1 s to 3 s: (20, 20); from 3 s until 4 s it stays at
    /// (30, 20) (no motion across a jump); before 0 s and after 4 s it holds the end. Red: interpolating across the
    /// jump (3.5 s would read (−10, −15)), an off-by-one in the search, or a sort that loses the duplicate's first.
    #[test]
    fn the_polyline_is_linear_between_points_and_holds_across_jumps() {
        let track = TruthTrack::through(vec![
            point(3.0, 30.0, 20.0, false),
            point(1.0, 10.0, 20.0, false),
            point(0.0, 0.0, 0.0, false),
            point(1.0, 99.0, 99.0, false),
            point(4.0, -50.0, -50.0, true),
            point(f64::NAN, 7.0, 7.0, false),
        ]);
        let at = |t: f64| track.at(t);
        assert_eq!(at(0.25), Vec2::new(2.5, 5.0));
        assert_eq!(at(1.0), Vec2::new(10.0, 20.0));
        assert_eq!(at(2.0), Vec2::new(20.0, 20.0));
        assert_eq!(at(3.5), Vec2::new(30.0, 20.0));
        assert_eq!(at(4.0), Vec2::new(-50.0, -50.0));
        assert_eq!(at(-1.0), Vec2::new(0.0, 0.0));
        assert_eq!(at(9.0), Vec2::new(-50.0, -50.0));
        assert_eq!(TruthTrack::through(Vec::new()).at(1.0), Vec2::ZERO);
    }

    #[test]
    fn the_track_is_the_truth() {
        let track = TruthTrack::new(MotionScript::Circle, 120.0);
        assert_eq!(track.at(2.5), truth(MotionScript::Circle, 120.0, 2.5).pos);
    }
}
