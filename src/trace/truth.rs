//! The truth of a `snapshots` trace, for scoring what a strategy showed against where the entity really was.
//!
//! ```text
//!  params.motion {script, speed} ─► crate::motion::truth(script, speed, serverTime)   the snapshots follow it
//!  no params.motion              ─► the polyline through the snapshots' own positions by serverTime
//!                                   (crate::run::TruthTrack::through; a teleport or a new generation is a jump)
//! ```
//! A recording of the project's stream server states its motion; an imported trace of a real game does not, and
//! then its snapshots are all that is known of the truth: between two of them the entity is taken to have moved in
//! a straight line. Duplicates of a server time keep the first in the file.
//!
//! The true server time of a frame at local time `t` is `t + clockOffset` (the trace's own statement of how its
//! clocks relate, `crate::trace`), so a strategy's lag and its best-fit shift are measured on that clock.

use super::{Trace, TraceData};
use crate::run::{TruthPoint, TruthTrack};

impl Trace {
    /// Where the remote entity was at each server time: `params.motion`, or the polyline through the snapshots;
    /// `None` for a `paths` trace.
    pub fn truth(&self) -> Option<TruthTrack> {
        let TraceData::Snapshots { snapshots, .. } = &self.data else {
            return None;
        };
        if let Some(motion) = self.params.motion {
            return Some(TruthTrack::new(motion.script, motion.speed));
        }
        let mut order: Vec<usize> = (0..snapshots.len()).collect();
        order.sort_by(|&a, &b| snapshots[a].server_time.total_cmp(&snapshots[b].server_time));
        order.dedup_by(|later, earlier| snapshots[*later].server_time == snapshots[*earlier].server_time);
        let mut generation = None;
        let points = order
            .into_iter()
            .map(|i| {
                let s = &snapshots[i];
                let g = s.generation.unwrap_or(0);
                let jump = s.teleport.unwrap_or(false) || generation.is_some_and(|previous| previous != g);
                generation = Some(g);
                TruthPoint { t: s.server_time, pos: crate::geom::Vec2::new(s.x, s.y), jump }
            })
            .collect();
        Some(TruthTrack::through(points))
    }
}

#[cfg(test)]
mod tests {
    use crate::geom::Vec2;
    use crate::motion::{truth, MotionScript};
    use crate::run::TruthTrack;
    use crate::trace::params::TraceMotion;
    use crate::trace::{Trace, TraceData, TraceParams, TraceSnapshot};

    fn trace(params: TraceParams, snapshots: Vec<TraceSnapshot>) -> Trace {
        Trace { note: None, params, data: TraceData::Snapshots { snapshots, rtt: vec![] }, sample_at: vec![] }
    }

    fn at(tick: u64, server_time: f64, x: f64, generation: Option<u32>) -> TraceSnapshot {
        TraceSnapshot { tick, server_time, arrival: server_time + 0.1, x, generation, ..TraceSnapshot::default() }
    }

    /// With `motion` the truth is the script's, wherever the snapshots are: at 1.3 s `circle` at 120 units/s is
    /// wherever `motion::truth` says, not (13, 0) on the snapshots' line. Without it, the polyline through the
    /// snapshots by server time, written out of order in the file: (0 s, x 0), (1 s, x 10), (2 s, x 30) → 1.3 s is
    /// 10 + 0.3 × 20 = 16; the third snapshot starts generation 1, so between 2 s and 3 s the truth stays at 30
    /// and jumps to −40 at 3 s. Red: `motion` ignored, the snapshots read in file order, or a respawn interpolated
    /// (2.5 s would read −5).
    #[test]
    fn motion_is_the_truth_when_stated_and_the_snapshots_otherwise() {
        let snaps =
            vec![at(2, 1.0, 10.0, None), at(1, 0.0, 0.0, None), at(3, 2.0, 30.0, None), at(4, 3.0, -40.0, Some(1))];
        let stated = TraceParams {
            motion: Some(TraceMotion { script: MotionScript::Circle, speed: 120.0 }),
            ..TraceParams::default()
        };
        let motion = trace(stated, snaps.clone()).truth().unwrap();
        assert_eq!(motion, TruthTrack::new(MotionScript::Circle, 120.0));
        assert_eq!(motion.at(1.3), truth(MotionScript::Circle, 120.0, 1.3).pos);
        let polyline = trace(TraceParams::default(), snaps).truth().unwrap();
        assert!((polyline.at(1.3) - Vec2::new(16.0, 0.0)).length() < 1e-12, "{:?}", polyline.at(1.3));
        assert_eq!(polyline.at(2.5), Vec2::new(30.0, 0.0));
        assert_eq!(polyline.at(3.0), Vec2::new(-40.0, 0.0));
    }
}
