//! What a stream of snapshots is, as opposed to how a client plays it: the facts of a scenario, or of a trace —
//! how often the server sends, how long its tick is, how its clock relates to the client's. They are passed as
//! arguments to whatever needs them (the buffer's bracket, the clocks, the strategies), never kept as settings in a
//! group of parameters: a client cannot choose them.

/// The facts of one stream.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stream {
    /// Seconds between two snapshots (Mirror's `NetworkServer.sendInterval`, NGO's tick, Gambetta's update rate).
    pub send_interval: f64,
    /// Seconds per server simulation tick (Source's `TICK_INTERVAL`).
    pub tick_interval: f64,
    /// The true offset between the clocks: server time = local time + offset (seconds). Only the ideal `known`
    /// clock may read it (`crate::clock`).
    pub clock_offset: f64,
}

impl Default for Stream {
    /// Seed 000 §4.3.2's stream: 20 snapshots a second from a 60 Hz server whose clock agrees with the client's.
    fn default() -> Self {
        Stream { send_interval: 0.05, tick_interval: 1.0 / 60.0, clock_offset: 0.0 }
    }
}
