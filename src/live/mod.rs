//! A live snapshot stream: what `netcode-lab serve` sends and how a recorder turns what arrived into a trace.
//!
//! The stream is the simulator's truth sent over a real network, so every recording has exact ground truth:
//!
//! ```text
//!  server (netcode-lab serve)                          client (the page's record worker, `netcode-lab record`)
//!   start {rate, seconds} ◄──────────────────────────── start
//!   hello {sendInterval, motion} ─────────────────────► (its local clock starts: arrival = now − start)
//!   snapshot k at serverTime k / rate ── the network ──► arrival stamped on receipt ─┐
//!     x, y, vx, vy = motion::truth(script, speed, serverTime)                           │
//!   pong {id, clientTime, serverTime} ◄─ ping {id, clientTime} (a few a second)         ├─► Recorder ─► trace
//!   end {sent} ────────────────────────────────────────────────────────────────────────┘   (rtt samples, the
//!                                                                                              clock offset)
//! ```
//! [`protocol`] is the messages and their checks, and [`Session`](protocol::Session), the server's side of one
//! stream as a state machine with time as an argument (the server's IO loop only moves bytes and sleeps until
//! [`Session::next_send`](protocol::Session::next_send)). [`recorder`] is the client's side: messages and their
//! local arrival times in, a `netcode-lab/trace@1` trace out. Both are pure: no socket, no clock.

pub mod protocol;
pub mod recorder;
