//! The run contract: what a remote client is given, whoever makes it — the simulator, a trace, a recording — and
//! how what it showed is scored. The simulator's pipeline, every engine's strategy, the comparisons and the traces
//! all speak it; it speaks none of them.
//!
//! ```text
//!  a source of deliveries (sim: the remote pipeline; trace: its snapshots, RTT samples and sampleAt)
//!     │  one log, in the order the client saw it (ClientInput):
//!     │     Snapshot(snapshot, arrival)    a delivery, stamped with the client's clock
//!     │     Rtt(now, rtt)                  a round trip measured
//!     │     Frame(FrameTick)               a frame: true local time, dt, the client's reading, the true server time
//!     ▼
//!  any client (Receiver): the articles' playback, an engine's strategy ──► per frame, what it shows
//!     │
//!     ▼
//!  track/: what it showed against the truth (TruthTrack, on the TimeMap's clocks) ──► TrackMetrics
//! ```
//! Three clocks run through it (seed 002 "三条时间线"): server time (when a state was true), true local time (when
//! a frame or an arrival happens) and the client's clock reading (what the client's code sees; a kick moves it).
//! Every time is an argument, in seconds.

mod clocks;
mod timeline;
pub mod track;

pub use crate::stream::Stream;
pub use clocks::{TimeMap, TruthPoint, TruthTrack};
pub use timeline::Timeline;

use crate::snapshot::Snapshot;

/// One client frame: its index, when it happens (true local time), its length, what the client's clock reads
/// then, and the true server time then (worked out once by the source: the frame's row, the delay sweep and each
/// strategy scored on the log all read it; NaN where the source does not know it, as in a trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameTick {
    pub index: usize,
    pub local: f64,
    pub dt: f64,
    pub reading: f64,
    pub server_now: f64,
}

impl FrameTick {
    /// Frame `index` at true local time `local`, `dt` long, on the clocks of `map`.
    pub fn at(index: usize, local: f64, dt: f64, map: &TimeMap) -> FrameTick {
        FrameTick { index, local, dt, reading: map.reading(local), server_now: map.server_of_local(local) }
    }
}

/// What the client side receives, in order — enough to replay any client on the same packets (the delay sweep:
/// another render delay; the engines' strategies; a trace's replay).
///
/// `repr(u8)`: the variant is a byte of its own, so telling one input from another is one load and compare (every
/// strategy a league column scores matches each input of the log; without it the variant hid in a niche of
/// `Snapshot` and each match decoded it).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
pub enum ClientInput {
    /// `snapshot` reached the client when its clock read the second number.
    Snapshot(Snapshot, f64),
    /// A round trip of the second number's seconds measured when the client's clock read the first.
    Rtt(f64, f64),
    Frame(FrameTick),
}

/// A client a log is played to: told each delivery and RTT sample as it happens, asked once per frame what it
/// shows (`Shown`: whatever that client says of a frame).
pub trait Receiver {
    type Shown;
    fn snapshot(&mut self, snapshot: &Snapshot, arrival: f64);
    fn rtt(&mut self, now: f64, rtt: f64);
    fn frame(&mut self, tick: &FrameTick) -> Self::Shown;
}

/// Plays `inputs` to `receiver` in order, handing each frame's tick and what was shown to `on_frame`: the one
/// loop every replay of a log goes through.
#[inline(always)]
pub fn play<R: Receiver + ?Sized>(
    receiver: &mut R,
    inputs: &[ClientInput],
    mut on_frame: impl FnMut(&FrameTick, R::Shown),
) {
    for input in inputs {
        match input {
            ClientInput::Snapshot(snapshot, arrival) => receiver.snapshot(snapshot, *arrival),
            ClientInput::Rtt(now, rtt) => receiver.rtt(*now, *rtt),
            ClientInput::Frame(tick) => {
                let shown = receiver.frame(tick);
                on_frame(tick, shown)
            }
        }
    }
}
