//! Fixed traces for the engines: snapshots of a body moving along x at a known speed, delivered when we say,
//! and frames at a fixed rate.

use netcode_lab::engines::{Shown, Smoother};
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;

/// Units per second along x: the position at server time t is `SPEED · t`.
pub const SPEED: f64 = 100.0;

/// Snapshot `tick` of a 20 Hz stream (server time tick / 20), at x = SPEED · t.
pub fn snap(tick: u64) -> Snapshot {
    snap_at(tick, tick as f64 / 20.0)
}

/// A snapshot at server time `t`.
pub fn snap_at(tick: u64, t: f64) -> Snapshot {
    Snapshot::moving(tick, t, Vec2::new(SPEED * t, 0.0), Vec2::new(SPEED, 0.0))
}

/// One event of a fixed trace, in time order.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The snapshot arrives at local time `.1`.
    Deliver(Snapshot, f64),
    /// A frame at local time `.0`, `.1` after the previous one.
    Frame(f64, f64),
}

/// Frames every `dt` from `from` (exclusive) to `to` (inclusive), as events.
pub fn frames(from: f64, to: f64, dt: f64) -> Vec<Event> {
    let n = ((to - from) / dt).round() as usize;
    (1..=n).map(|i| Event::Frame(from + i as f64 * dt, dt)).collect()
}

/// Merges deliveries and frames in time order (deliveries first at equal times) and plays them; returns the
/// frames' results with their local times.
pub fn play(smoother: &mut dyn Smoother, mut events: Vec<Event>) -> Vec<(f64, Shown)> {
    let time = |e: &Event| match *e {
        Event::Deliver(_, at) => (at, 0),
        Event::Frame(at, _) => (at, 1),
    };
    events.sort_by(|a, b| time(a).partial_cmp(&time(b)).expect("finite times"));
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Deliver(s, at) => smoother.on_snapshot(&s, at),
            Event::Frame(at, dt) => out.push((at, smoother.frame(at, dt))),
        }
    }
    out
}

/// A 20 Hz stream from tick `from` to `to` (inclusive), each arriving `latency` after its server time.
pub fn stream(from: u64, to: u64, latency: f64) -> Vec<Event> {
    (from..=to).map(|k| Event::Deliver(snap(k), k as f64 / 20.0 + latency)).collect()
}
