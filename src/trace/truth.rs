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
