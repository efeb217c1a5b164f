//! What a run leaves behind for drawing: one bounded timeline per kind of event, with named columns.
//!
//! Codes inside rows: `status` is the index in `SampleStatus::ALL` (priming, ready, underrun, gap,
//! clockUncertain, invalidInterval); `mode` the index in `DisplayMode::ALL` (interpolated, extrapolated, held,
//! snapped, hidden); snapshot `outcome` the index in [`SNAPSHOT_OUTCOMES`], batch `outcome` in
//! [`BATCH_OUTCOMES`]. Absent values are NaN (a lost packet's arrival, a hidden entity's position).

use crate::layout;
use crate::run::Timeline;

layout!(
    /// One row per client frame: the remote render, all underrun policies, both path models, the local player.
    frame {
        LOCAL = "local", DT = "dt", SERVER_NOW = "serverNow", RENDER_TIME = "renderTime", STATUS = "status",
        MODE = "mode", X = "x", Y = "y", AHEAD = "ahead", TRUTH_X = "truthX", TRUTH_Y = "truthY",
        TARGET_X = "targetX", TARGET_Y = "targetY", DEPTH = "bufferDepth", BUFFERED = "buffered",
        CLOCK_ERROR = "clockError", DELAY = "delay", NEWEST = "newestServerTime", GENERATION = "generation",
        DELAY_TARGET = "delayTarget", ADAPTIVE_RTT = "adaptiveRtt", DELAY_ERROR = "renderDelayError",
        OFFSET_UNCERTAINTY = "offsetUncertainty", HOLD_X = "holdX", HOLD_Y = "holdY", SEED_X = "seedX", SEED_Y = "seedY", DECAY_X = "decayX",
        DECAY_Y = "decayY", SNAP_X = "snapX", SNAP_Y = "snapY", HIDE_X = "hideX", HIDE_Y = "hideY",
        TIMED_X = "timedX", TIMED_Y = "timedY", LERP_X = "lerpX", LERP_Y = "lerpY", TIMED_SPEED = "timedSpeed",
        LERP_SPEED = "lerpSpeed", PATH_QUEUE = "pathQueue", PATH_MOVING = "pathMoving",
        PREDICTED_X = "predictedX", PREDICTED_Y = "predictedY", AUTH_X = "authX", AUTH_Y = "authY",
        ACK_X = "ackX", ACK_Y = "ackY", RENDERED_X = "renderedX", RENDERED_Y = "renderedY", OFFSET = "offset",
        PENDING = "pending", LOCAL_HALF_LIFE_X = "localHalfLifeX", LOCAL_HALF_LIFE_Y = "localHalfLifeY",
        LOCAL_SNAP_X = "localSnapX", LOCAL_SNAP_Y = "localSnapY", LOCAL_FIRST_X = "localFirstX",
        LOCAL_FIRST_Y = "localFirstY", LOCAL_LINEAR_X = "localLinearX", LOCAL_LINEAR_Y = "localLinearY",
    }
);

layout!(
    /// One row per snapshot the server sent (filled in when its copies arrive).
    snapshot {
        TICK = "tick", SERVER_TIME = "serverTime", SENT = "sent", ARRIVAL = "arrival",
        DUPLICATE_ARRIVAL = "duplicateArrival", HELD_BACK = "heldBack", OUT_OF_ORDER = "outOfOrder",
        OUTCOME = "outcome", X = "x", Y = "y", VX = "vx", VY = "vy", GENERATION = "generation", TELEPORT = "teleport",
        DUPLICATE_OUTCOME = "duplicateOutcome",
    }
);

layout!(
    /// One row per path batch (seed 001's moveList) the server sent.
    batch { SENT = "sent", ARRIVAL = "arrival", SEQ = "seq", POINTS = "points", OUTCOME = "outcome" }
);

layout!(
    /// One row per reconciliation of the local player.
    correction {
        LOCAL = "local", SIZE = "size", OFFSET_ADDED = "offsetAdded", RESET = "reset", BEFORE_X = "beforeX",
        BEFORE_Y = "beforeY", AFTER_X = "afterX", AFTER_Y = "afterY",
    }
);

layout!(
    /// One row per RTT sample the render clock saw (for the clock plot: raw, smoothed, verdict).
    rtt { AT = "at", RTT = "rtt", SMOOTHED = "smoothed", VERDICT = "verdict" }
);

/// Snapshot outcome codes, in order (`-1`/NaN: not delivered yet or lost).
pub const SNAPSHOT_OUTCOMES: [&str; 6] = ["inserted", "duplicate", "conflict", "invalid", "late", "lateDuplicate"];
/// Batch outcome codes, in order.
pub const BATCH_OUTCOMES: [&str; 5] = ["started", "queued", "hardSnapped", "droppedStale", "rejected"];
/// RTT verdict codes, in order.
pub const RTT_VERDICTS: [&str; 4] = ["accepted", "rejected", "reseeded", "invalid"];

/// Every timeline of one run.
#[derive(Clone, Debug)]
pub struct Recording {
    pub frames: Timeline,
    pub snapshots: Timeline,
    pub batches: Timeline,
    pub corrections: Timeline,
    pub rtt: Timeline,
}

/// The kinds of timeline, as the page names them.
pub const KINDS: [&str; 5] = ["frames", "snapshots", "batches", "corrections", "rtt"];

impl Recording {
    /// Timelines sized for `frames` frames and `snapshots` snapshots; other kinds get proportional room.
    pub fn with_capacity(frames: usize, snapshots: usize) -> Self {
        Recording {
            frames: Timeline::new(frame::NAMES, frames),
            snapshots: Timeline::new(snapshot::NAMES, snapshots),
            batches: Timeline::new(batch::NAMES, snapshots / 4 + 16),
            corrections: Timeline::new(correction::NAMES, frames),
            rtt: Timeline::new(rtt::NAMES, 1024),
        }
    }

    /// The timeline called `kind` (one of [`KINDS`]).
    pub fn get_mut(&mut self, kind: &str) -> Option<&mut Timeline> {
        match kind {
            "frames" => Some(&mut self.frames),
            "snapshots" => Some(&mut self.snapshots),
            "batches" => Some(&mut self.batches),
            "corrections" => Some(&mut self.corrections),
            "rtt" => Some(&mut self.rtt),
            _ => None,
        }
    }

    pub fn get(&self, kind: &str) -> Option<&Timeline> {
        match kind {
            "frames" => Some(&self.frames),
            "snapshots" => Some(&self.snapshots),
            "batches" => Some(&self.batches),
            "corrections" => Some(&self.corrections),
            "rtt" => Some(&self.rtt),
            _ => None,
        }
    }
}
