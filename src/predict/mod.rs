//! Your own player: predicted at once, corrected by the server, the correction smoothed (seed 003).
//!
//! Seed 000 §4.3.9 puts it in one line: "自己预测，别人插值" — predict yourself, interpolate others. Remote
//! players are shown late but smooth from a snapshot buffer (`crate::buffer`); the local player must answer
//! the keyboard *now*, so the client simulates it itself and lets the server correct it later.
//!
//! ```text
//!  client time ─►  0    1    2    3    4    5    6    7        one input per physics step (input.rs)
//!  inputs          ▲0   ▲1   ▲2   ▲3   ▲4   ▲5   ▲6   ▲7      predicted at once, kept as "pending"
//!                    ╲uplinkDelay
//!  server             ▼0 step  ▼1 step  ▼2 step …             one step per input, in id order (server.rs)
//!                           ╲ snapshot {pos, lastProcessedInputId = 2}, copied when sent
//!                            ╲downlinkDelay
//!  client                     ▼ reconcile: restore pos, drop 0‥2, replay 3‥7 (client.rs)
//!                               correction = before − after  →  visual offset (smoothing.rs)
//!  screen            rendered = lerp(lastPos, pos, alpha) + offset;  offset *= 0.5^(dt / halfLife)
//! ```
//!
//! The modules, in the order a frame uses them:
//! - [`input`]: keys, numbered inputs, scripted or live key sources;
//! - [`physics`]: the one fixed step everybody runs (move, then clamp to the arena);
//! - [`server`]: the input queue, gaps and duplicates, `lastProcessedInputId`, epochs, the mismatch bug;
//! - [`pending`]: the bounded list of unacknowledged inputs and its policy when the server goes quiet;
//! - [`client`]: the accumulator, one input per step, the article's four reconcile steps;
//! - [`smoothing`]: half-life offset, snap, the article's first version, linear (`cl_smoothtime`), resets;
//! - [`decay`]: the offset-decay curve of each mode, for the page's plot;
//! - [`params`]: every parameter with its default and range;
//! - [`session`]: all of it wired over two [`crate::channel::Channel`]s, stepped frame by frame, recorded.
//!
//! When client and server run the same steps on the same inputs in the same order, every correction is
//! exactly zero and the offset never moves; the `mismatch` switch breaks that on purpose, as the article's
//! code did, and the corrections never stop.

pub mod client;
pub mod decay;
pub mod input;
pub mod params;
pub mod pending;
pub mod physics;
pub mod server;
pub mod session;
pub mod smoothing;
