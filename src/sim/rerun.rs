//! Re-running after a parameter change, reusing what the change cannot affect.
//!
//! Given the frame schedule (duration, fps, events, the clocks' relation), the three pipelines are independent:
//! the remote view never reads the path batches, the local player never reads the remote snapshots, and each
//! draws from its own random streams. So when the render delay moves, only the remote pipeline has to run again;
//! the path and local columns of every frame are copied from the previous run. The result is bit-identical to a
//! full run (`tests/sim.rs` checks it), only cheaper — a slider drag stays inside one frame.

use crate::param::ParamError;
use crate::sim::params::SimParams;
use crate::sim::record::{frame, Recording};
use crate::sim::Simulation;
use std::ops::Range;

/// Frame columns each pipeline writes (the layout keeps them contiguous).
pub const REMOTE_COLUMNS: Range<usize> = frame::SERVER_NOW..frame::TIMED_X;
pub const PATH_COLUMNS: Range<usize> = frame::TIMED_X..frame::PREDICTED_X;
pub const LOCAL_COLUMNS: Range<usize> = frame::PREDICTED_X..frame::STRIDE;

/// Which pipelines of the previous run can be kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    pub remote: bool,
    pub paths: bool,
    pub local: bool,
}

fn same_schedule(a: &SimParams, b: &SimParams) -> bool {
    (a.duration, a.fps, a.events, a.network.clock_offset, a.network.clock_skew)
        == (b.duration, b.fps, b.events, b.network.clock_offset, b.network.clock_skew)
}

/// What `next` can keep of a run made with `previous`.
pub fn reusable(previous: &SimParams, next: &SimParams) -> Reuse {
    if !same_schedule(previous, next) || previous.seed != next.seed {
        return Reuse::default();
    }
    let (p, n) = (previous, next);
    let downlink = p.network.downlink == n.network.downlink;
    let uplink = p.network.uplink == n.network.uplink;
    Reuse {
        remote: downlink && uplink && p.scenario == n.scenario && p.remote == n.remote,
        paths: downlink
            && (p.scenario.motion, p.scenario.speed) == (n.scenario.motion, n.scenario.speed)
            && p.paths == n.paths,
        local: downlink
            && uplink
            && p.scenario.send_rate == n.scenario.send_rate
            && p.local == n.local
            && p.script == n.script,
    }
}

impl Simulation {
    /// Replaces this run by the whole window of `params`, keeping the pipelines `params` cannot affect.
    /// On error (bad params) nothing changes.
    pub fn rerun(&mut self, params: &SimParams) -> Result<(), ParamError> {
        let reuse = reusable(self.params(), params);
        let previous = std::mem::replace(self, Simulation::new(params)?);
        if reuse != Reuse::default() {
            self.adopt(previous, reuse);
        }
        self.run_to_end();
        Ok(())
    }

    /// Takes over the finished pipelines (and their own timelines) that `reuse` keeps.
    fn adopt(&mut self, old: Simulation, reuse: Reuse) {
        let Simulation { remote, paths, local, recording, .. } = old;
        let Recording { frames, snapshots, batches, corrections, rtt } = recording;
        if reuse.remote {
            self.remote = remote;
            self.recording.snapshots = snapshots;
            self.recording.rtt = rtt;
        }
        if reuse.paths {
            self.paths = paths;
            self.recording.batches = batches;
        }
        if reuse.local {
            self.local = local;
            self.recording.corrections = corrections;
        }
        self.reused = Some((reuse, frames));
    }
}
