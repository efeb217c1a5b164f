//! Remote movement from path batches: chasing the newest point versus playing a timeline (seed 001).
//!
//! A remote player's server sends, now and then, a batch of points it walked through (`moveList`). The client
//! must turn those into continuous motion. Two ways, both here so they can run on the same packets:
//!
//! ```text
//!  server walks   (0,0) ─────► (60,0)                       batches every second, each ending where the
//!                                │                           next one begins; arrival = sent + latency
//!                              (60,40) ─────► (120,40)
//!
//!  lerp chase     target = newest batch's last point;  every frame  pos += (target − pos) · lerpFactor
//!  (lerp_chase)   ─ fast when far, slow when near: a sawtooth speed that restarts with each batch
//!                 ─ heads straight for the target: corners are cut
//!                 ─ depends on the frame rate (unless factor = 1 − e^(−dt/τ))
//!
//!  timed player   batch ─► clean (batch) ─► segments with start/end times (timeline) ─► queue (player)
//!  (player)       local time ─►  receivedAt ──+interpolationDelay──► [ path k ][ path k+1 ][ path k+2 ]
//!                 every frame: position = f(now) on the active path — constant speed per segment,
//!                 turning at the real corners, one path after the other (never overwritten)
//! ```
//!
//! Seed 001 in one line: "lerp 关心的是剩余距离，时间插值关心的是当前时刻" — the chase asks how far the target
//! still is, the player asks where the entity should be at this moment.
//!
//! Modules, in the order a batch goes through them:
//! * [`batch`] — the batch as it arrives (`{arrival, seq?, points: [{x, y, offsetMs?}], durationMs?}`), bad
//!   points dropped, V1/V2 detected, duplicates removed; every drop counted.
//! * [`timeline`] — steps 3–7: segments with start and end times (V1 `distance / speed`, V2 `offsetMs`), and
//!   `locate(t)`.
//! * [`player`] — the queue (`activePath` + `bufferedPaths`), interpolation delay, `seq`, hard snap, and the
//!   per-frame [`player::Frame`]. Its parameters are in [`params`].
//! * [`lerp_chase`] — the old way, per frame or with a time constant.
//! * [`truth`] — the server's true path with times, and the batches a server would send from it.
//! * [`compare`] + [`metrics`] — both models on the same batches, frame by frame, scored against the truth.
//!
//! Everything is pure: time is an argument (seconds), nothing reads a clock, every run is reproducible.

pub mod batch;
pub mod compare;
pub mod lerp_chase;
pub mod metrics;
pub mod params;
pub mod player;
pub mod timeline;
pub mod truth;

pub use batch::{PathBatch, PathPoint};
