//! Traces: recorded network input plus the local times to look at, as JSON — `netcode-lab/trace@1`.
//!
//! A trace is a contract other tools rely on (the replay CLI, the page's import and export, the simulator's
//! export). This doc is its specification; anything not written here is not promised.
//!
//! # The document
//!
//! ```text
//! {
//!   "format":    "netcode-lab/trace@1",          required, exactly this string
//!   "kind":      "snapshots" | "paths",           required
//!   "note":      "free text",                     optional; ignored by replay, kept by export
//!   "params":    { … },                           optional; every key optional (table below)
//!   "snapshots": [ snapshot … ],                  kind "snapshots": required; kind "paths": not allowed
//!   "rtt":       [ {"at": 10.0, "rtt": 0.08} … ], kind "snapshots": optional; kind "paths": not allowed
//!   "paths":     [ batch … ],                     kind "paths": required; kind "snapshots": not allowed
//!   "sampleAt":  [ local time … ]                 required (may be empty), non-decreasing
//! }
//! ```
//! Keys are camelCase; times are seconds unless the key ends in `Ms`. *Local* time is the client's clock,
//! *server* time the server's: `server = local + clockOffset`. An unknown key anywhere is an error (a typo
//! must not silently become a default); `null` is the same as leaving an optional key out. Every record
//! (`params`, a snapshot, a batch, a point, an rtt sample) is a JSON object — an array in its place is an error.
//! Numbers are read exactly (correctly rounded, as `JSON.parse` does), so an exported trace reads back equal
//! (`-0` stays `-0`). The text is UTF-8; a UTF-8 byte-order mark at the start is allowed and ignored; UTF-16
//! and invalid UTF-8 are refused. JSON has no `NaN` or `Infinity`: a file that writes them is refused at them.
//!
//! # Limits
//!
//! | what | at most | |
//! |---|---|---|
//! | the text | 40 MiB (41 943 040 bytes) | [`MAX_TRACE_BYTES`]: refused before anything is parsed |
//! | `snapshots` | 150 000 | [`MAX_SNAPSHOTS`] (42 minutes at 60 Hz) |
//! | `rtt` | 50 000 | [`limits::MAX_RTT_SAMPLES`] |
//! | `paths` | 50 000 batches, 400 000 points in all | [`limits::MAX_BATCHES`], [`limits::MAX_POINTS`] |
//! | `sampleAt` | 150 000 | [`MAX_SAMPLES`] (42 minutes at 60 fps) |
//! | `note` | 2 000 characters | [`limits::MAX_NOTE_CHARS`] |
//!
//! Arrays are counted while they are read, so memory stays bounded whatever the file holds (ten million
//! `sampleAt` entries stop at entry 150 001 — before the limits, they took 2.5 GB and 25 s). A trace at every
//! count limit, as [`Trace::to_json`] writes it, fits in the byte limit. The same limits hold for the CLI, the
//! page's import and the binding.
//!
//! **snapshot** `{tick, serverTime, arrival, x, y, vx, vy, generation?, teleport?}` — one server state of the
//! remote entity. `tick`: whole number ≥ 0; `serverTime`: when it was true (server clock, |t| ≤ 1e12);
//! `arrival`: when it reached the client (local clock, |t| ≤ 1e12) — it is visible from its arrival on;
//! `x`, `y`: position (|·| ≤ 1e9); `vx`, `vy`: velocity per second (|·| ≤ 1e9); `generation`: lifetime, a
//! whole number (default 0), bumped on respawn; `teleport`: the entity jumped here (default false).
//! Duplicates, conflicting copies, out-of-order arrivals and ticks whose order disagrees with their server
//! times are *not* errors: they are data, and the buffer counts them (`metrics`; the page's import notice
//! names them). With the `known` clock (which takes `server = local + clockOffset` as true) a snapshot may not
//! arrive more than [`MAX_EARLY_ARRIVAL`] (60 s) before its server time: that is a wrong `clockOffset`.
//!
//! **batch** `{arrival, seq?, points: [{x, y, offsetMs?} …], durationMs?}` — one path batch (seed 001
//! `moveList` + `moveInfo`). `arrival`: local time received; `seq`: whole number ≥ 0 (a batch whose seq is
//! not newer than the last accepted one is dropped and counted); `x`, `y`: |·| ≤ 1e9; `offsetMs`: the point's
//! time in the batch, 0..=3 600 000; `durationMs`: 0..=3 600 000. Batches without `offsetMs` play at `speed`
//! (V1); with offsets on every point, non-decreasing, they play on those times (V2). Empty batches, decreasing
//! or partly missing offsets and a `durationMs` before the last offset are data, counted by the player.
//!
//! **rtt** `{at, rtt}` — a round-trip time measured at local time `at` (|t| ≤ 1e12), `rtt` in 0..=10 s. The
//! `smooth` and `reanchor` clocks need them: without any they honestly report `clockUncertain`.
//!
//! **sampleAt** — the local times at which a frame is taken, non-decreasing, |t| ≤ 1e12. For kind `paths`
//! they may span at most [`MAX_LERP_FRAMES`] frames at `fps`.
//!
//! # params
//!
//! | key | kind | default | range | drives |
//! |---|---|---|---|---|
//! | `renderDelay` | snapshots | 0.1 s | 0..=1 s | render time = server now − delay |
//! | `clockOffset` | snapshots | 0 s | ±1e6 s | server = local + offset (what `known` knows) |
//! | `clock` | snapshots | `known` | `known` `reanchor` `smooth` `timescale` | `crate::clock` |
//! | `underrun` | snapshots | `hold` | `hold` `extrapolate-seed` `extrapolate-decay` `snap` `hide` | `crate::display` (hold: the newest snapshot on an Underrun, seed 000 §4.3.5) |
//! | `maxExtrapolation` | snapshots | 0.12 s | 0..=1 s | the extrapolation cap under `capRule: maxExtrapolation` |
//! | `capRule` | snapshots | `maxExtrapolation` | `maxExtrapolation` (seed 000 §4.3.5) `halfSendInterval` (seed 004 §3.4) | the cap in force |
//! | `interpolation` | snapshots | `linear` | `linear` `hermite` | `crate::interpolate` |
//! | `beforeOldest` | snapshots | `gap` | `gap` (seed 002) `oldest` (seed 000 §4.3.4: ready at the oldest snapshot) | a render time before the oldest snapshot held |
//! | `adaptiveDelay` | snapshots | `off` | `off` `jitter` `seed004` | `crate::clock` adaptive delay: `seed004` is seed 004 §4.2 as written |
//! | `addLatency` | snapshots | false | true, false | adds the latency the clock believes in to the adaptive target (the simulator's default is true) |
//! | `adaptiveSampleInterval` | snapshots | 0.2 s | 0.01..=5 s | seed004: RTT sampled on this grid of local time from the first frame |
//! | `adaptiveRttGain` | snapshots | 0.1 | 0.001..=1 | seed004: smoothedRtt = lerp(smoothedRtt, rtt, gain), from 0 |
//! | `adaptiveRttThreshold` | snapshots | 0.1 s | 0..=2 s | seed004: above it the delay heads for `adaptiveHighDelay` |
//! | `adaptiveHighDelay` | snapshots | 0.15 s | 0..=1 s | seed004 |
//! | `adaptiveLowDelay` | snapshots | 0.05 s | 0..=1 s | seed004 |
//! | `adaptiveDelayGain` | snapshots | 0.02 | 0.0001..=1 | seed004: delay = lerp(delay, target, gain) per sample; starts at `renderDelay` |
//! | `capacity` | snapshots | 32 | 2..=65536 | buffer size |
//! | `sendInterval` | snapshots | median spacing of the snapshots' distinct server times, clamped to 0.001..=1 s (0.05 s with fewer than two) | 0.001..=1 s | Gap detection, clocks |
//! | `minSnapshots` | snapshots | 2 | 1..=capacity | Priming |
//! | `gapFactor` | snapshots | 2.5 | 1..=100 | a bracket wider than gapFactor × sendInterval is a Gap |
//! | `speed` | paths | 120 px/s | 1..=100000 | V1 segment durations |
//! | `interpolationDelay` | paths | 0.12 s | 0..=2 s | a batch plays from arrival + delay |
//! | `staleGap` | paths | 0.5 s | 0..=60 s | hard snap condition 1 |
//! | `hardSnapDistance` | paths | 150 px | 0..=1e9 | hard snap condition 2 |
//! | `hardSnapTarget` | paths | `latestPoint` | `latestPoint` `batchStart` | where a hard snap goes |
//! | `lerpFactor` | paths | 0.1 | 0.000001..=1 | the chase: pos += (target − pos) · factor, once per frame |
//! | `fps` | paths | 60 | 1..=1000 | the chase's frame rate |
//!
//! Keys of the other kind are checked and otherwise ignored. Everything else takes the module's default
//! (clock filters, `minSamples` 3, the jitter controller's constants, `duplicatePoints: remove`,
//! `lerpMode: perFrame`). Older traces read as before: every key added since is optional and defaults to the
//! behaviour those traces had (a Gap before the oldest, the fixed cap, a fixed delay).
//!
//! The seed 004 controller (`adaptiveDelay: seed004`) runs exactly as the article writes it: at every point of a
//! grid of `adaptiveSampleInterval` local seconds that starts at the first frame (a frame that passes several
//! points takes each of them, in order), `currentRtt` is the latest `rtt` sample delivered (0 before the first),
//! `smoothedRtt += (currentRtt − smoothedRtt) · adaptiveRttGain` (from 0), and `delay += (target − delay) ·
//! adaptiveDelayGain` with `target = adaptiveHighDelay` while `smoothedRtt > adaptiveRttThreshold`, else
//! `adaptiveLowDelay` (plus the clock's latency when `addLatency`). The frame's render time uses the delay after
//! that frame's samples.
//!
//! # Replay (`replay/`; `netcode-lab replay TRACE.json`)
//!
//! Prints `{"samples": [...], "metrics": {...}}`, one sample per `sampleAt`, in order.
//!
//! **snapshots** — one [`RemotePlayback`](crate::playback::RemotePlayback):
//! 1. snapshots are taken in arrival order (ties: document order), RTT samples in `at` order (ties: document
//!    order);
//! 2. for each sample time `t`: every snapshot with `arrival ≤ t` and every RTT sample with `at ≤ t` not yet
//!    delivered is delivered in time order (snapshots first at equal times), then one frame is taken at `t`
//!    with `dt = t − previous sample` (0 for the first);
//! 3. after the last sample the rest is delivered (it only shows in `metrics`), and the metrics are taken at
//!    the latest time in the trace.
//!
//! A sample: `{local, renderTime, status, mode, x, y, left, right, factor, delay, generation, reason}` —
//! `renderTime` is null while the clock has no estimate; `status` one of `ready` `priming` `underrun` `gap`
//! `clockUncertain` `invalidInterval`; `mode` how x/y were obtained: `interpolated` `extrapolated` `held` `snapped`
//! `hidden`; `x`, `y` the displayed position after the underrun policy (null when hidden); `left`, `right` the
//! ticks of the bracket (null when none: an underrun has only `left`, a render time before the oldest snapshot
//! only `right` — or both the oldest under `beforeOldest: oldest`); `factor` where the render time sits between
//! them (null unless ready); `delay` the render delay in force; `generation` the lifetime generation of the
//! snapshot the sample stands on (null when none); `reason` why it is not ready, in English (null when ready; an
//! underrun names the interpolation delay in force).
//! Metrics: the buffer's counters and statistics flat (`received`, `inserted`, `duplicates` — of which
//! `lateDuplicates`, copies of a tick already pruned —, `conflicts`, `invalid`, `late`, `outOfOrder`, `evicted`,
//! `pruned`, …, `samples: {ready, …}`, `underruns`, `gaps`, …), `display: {interpolated, extrapolated, held,
//! snapped, hidden}` (samples per mode) and `clock: {…}` (with `offsetUncertainty`, `renderDelayError`,
//! `adaptiveRtt` and `jumpLog: [{at, oldOffset, newOffset, renderBefore, renderAfter, cause, estimator}]`).
//!
//! **paths** — a timed [`PathPlayer`](crate::path::player::PathPlayer) and a
//! [`LerpChase`](crate::path::lerp_chase::LerpChase) on the same batches, taken in arrival order (ties:
//! document order):
//! - timed: for each sample time `t`, every batch with `arrival ≤ t` is ingested at its `arrival`, then the
//!   player is sampled at `t`;
//! - lerp: frames run on the grid `f_k = sampleAt[0] + k / fps`, k = 0, 1, …. Before the sample at `t`, every
//!   frame with `f_k ≤ t` (within 1 ns) not yet run is run: the chase takes every batch with `arrival ≤ f_k`
//!   not yet taken (its target becomes the batch's last point; the first batch also places it at its first
//!   point), then steps once, `pos += (target − pos) · lerpFactor`. The sample shows the position after the
//!   last frame run (so the first sample already shows one step);
//! - after the last sample the rest of the batches go to both (counters only).
//!
//! A sample: `{local, timed: {x, y, state}, lerp: {x, y}}` — x/y null while there is no position; `state` the
//! player's `empty` `waiting` `playing` `idle`. Metrics: the player's counters flat (`batches`, `started`,
//! `queued`, `snaps`, `staleDropped`, `emptyBatches`, `v1Batches`, `v2Batches`, `v2Fallbacks`, …),
//! `lerp: {batches, retargets, …}` and `lerpFrames`.
//!
//! **snapshots through another strategy** (`replay TRACE --strategy NAME`, [`replay_strategy`]) — the same
//! deliveries and frames, through one of `crate::engines`' strategies instead; prints `{"strategy", "samples":
//! [{local, renderTime, mode, x, y}], "metrics": {frames, modes: {…}, underrunShare}}` (see
//! `replay/strategy.rs`). A `paths` trace is refused (`kind`).
//!
//! # Fit (`netcode-lab fit TRACE.json`)
//!
//! A snapshot trace's network as a model (`crate::fit`, whose doc defines every estimator): each snapshot copy is
//! an observation `(tick, serverTime, arrival + clockOffset)`, the `rtt` samples its RTTs; the other keys play no
//! part. [`Trace::fit_input`].
//!
//! # Examples
//!
//! The seeds' worked examples are built in ([`examples`]; `netcode-lab export --example NAME`, `export --list`);
//! `tests/traces/NAME.json` are those exports and `NAME.expected.json` their replays, compared byte for byte.
//! To write a trace from code (the simulator, the page), build a [`Trace`] — [`TraceSnapshot::delivered`] and
//! [`TraceBatch::from_batch`] convert the core's types — and call [`Trace::to_json`].
//!
//! # Errors
//!
//! A bad trace gives one [`TraceError`], printed as one line `field: message`, the field a path into the
//! document (`snapshots[3].serverTime`, `paths[2].points[0].offsetMs`, `params.renderDelay`, `sampleAt[4]`;
//! `trace` for the document itself). The checks, in order: the text (empty, not JSON, not an object); the
//! `format` (missing, wrong) — before anything else; then types and keys (wrong type, missing key, unknown
//! key, unknown name, number out of range of f64 or of a whole number); then meaning: the arrays present for the
//! `kind`, `params` ranges, every number's range (finite, within the limits above; `offsetMs` not negative),
//! `sampleAt` non-decreasing, and for `paths` the frame count. The CLI exits with code 2.

mod error;
pub mod examples;
pub mod export;
pub mod import;
pub mod limits;
mod objects;
mod output;
pub mod params;
mod parse;
pub mod replay;

pub use error::TraceError;
pub use limits::{MAX_SAMPLES, MAX_SNAPSHOTS, MAX_TRACE_BYTES};
pub use params::TraceParams;
pub use replay::{replay, replay_strategy, Replay, StrategyReplay};

use crate::fit::Observation;
use crate::geom::Vec2;
use crate::path::batch::{PathBatch, PathPoint};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// The format string of this version.
pub const FORMAT: &str = "netcode-lab/trace@1";
/// The largest |time| accepted (arrival, sampleAt, rtt.at), seconds — as for server times.
pub const MAX_TIME: f64 = crate::snapshot::MAX_SERVER_TIME;
/// With the `known` clock, how long before it was sent a snapshot may arrive (`serverTime − (arrival +
/// clockOffset)`), seconds: clock skew and jumps move it by seconds, a wrong `clockOffset` by hours.
pub const MAX_EARLY_ARRIVAL: f64 = 60.0;
/// The most lerp frames a `paths` replay runs (about 46 hours at 60 fps).
pub const MAX_LERP_FRAMES: f64 = 1e7;

/// Which data a trace holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TraceKind {
    Snapshots,
    Paths,
}

impl TraceKind {
    pub fn name(self) -> &'static str {
        match self {
            TraceKind::Snapshots => "snapshots",
            TraceKind::Paths => "paths",
        }
    }
}

/// A checked trace (build one in code, or with [`Trace::from_json`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub note: Option<String>,
    pub params: TraceParams,
    pub data: TraceData,
    /// Local times at which frames are taken, non-decreasing.
    pub sample_at: Vec<f64>,
}

/// The kind-specific arrays.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceData {
    Snapshots { snapshots: Vec<TraceSnapshot>, rtt: Vec<RttSample> },
    Paths { paths: Vec<TraceBatch> },
}

impl TraceData {
    pub fn kind(&self) -> TraceKind {
        match self {
            TraceData::Snapshots { .. } => TraceKind::Snapshots,
            TraceData::Paths { .. } => TraceKind::Paths,
        }
    }
}

/// One snapshot as the trace spells it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceSnapshot {
    pub tick: u64,
    pub server_time: f64,
    pub arrival: f64,
    pub x: f64,
    pub y: f64,
    pub vx: f64,
    pub vy: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teleport: Option<bool>,
}

impl TraceSnapshot {
    /// The core's snapshot (entity 0).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            entity: 0,
            tick: self.tick,
            server_time: self.server_time,
            pos: Vec2::new(self.x, self.y),
            vel: Vec2::new(self.vx, self.vy),
            generation: self.generation.unwrap_or(0),
            teleport: self.teleport.unwrap_or(false),
        }
    }

    /// A snapshot delivered at local time `arrival`; default generation and teleport are left out.
    pub fn delivered(s: &Snapshot, arrival: f64) -> Self {
        TraceSnapshot {
            tick: s.tick,
            server_time: s.server_time,
            arrival,
            x: s.pos.x,
            y: s.pos.y,
            vx: s.vel.x,
            vy: s.vel.y,
            generation: (s.generation != 0).then_some(s.generation),
            teleport: s.teleport.then_some(true),
        }
    }
}

/// One path batch as the trace spells it (the same shape as [`PathBatch`], with unknown keys refused).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceBatch {
    pub arrival: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    #[serde(deserialize_with = "limits::points")]
    pub points: Vec<TracePoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

/// One path point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TracePoint {
    pub x: f64,
    pub y: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_ms: Option<f64>,
}

impl TraceBatch {
    /// The path module's batch.
    pub fn batch(&self) -> PathBatch {
        let points = self.points.iter().map(|p| PathPoint { x: p.x, y: p.y, offset_ms: p.offset_ms }).collect();
        PathBatch { arrival: self.arrival, seq: self.seq, points, duration_ms: self.duration_ms }
    }

    pub fn from_batch(b: &PathBatch) -> Self {
        let points = b.points.iter().map(|p| TracePoint { x: p.x, y: p.y, offset_ms: p.offset_ms }).collect();
        TraceBatch { arrival: b.arrival, seq: b.seq, points, duration_ms: b.duration_ms }
    }
}

/// A round-trip time measured at local time `at`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RttSample {
    pub at: f64,
    pub rtt: f64,
}

impl Trace {
    /// Parses and checks a trace; the error names the first bad field.
    pub fn from_json(text: &str) -> Result<Trace, TraceError> {
        parse::parse(text)
    }

    /// As [`Trace::from_json`], for bytes that should be UTF-8 text.
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Trace, TraceError> {
        limits::check_size(bytes.len())?;
        if parse::looks_like_utf16(bytes) {
            return Err(parse::utf16());
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => parse::parse(text),
            Err(e) => Err(TraceError::document(format!("not UTF-8 text (byte {})", e.valid_up_to()))),
        }
    }

    /// The checks `from_json` makes after reading the types, for traces built in code.
    pub fn validate(&self) -> Result<(), TraceError> {
        parse::validate(self)
    }

    pub fn kind(&self) -> TraceKind {
        self.data.kind()
    }

    /// What [`crate::fit`] reads: one observation per snapshot copy, its arrival read on the server's clock
    /// (`arrival + clockOffset`, the `clockOffset` the trace states, 0 when it states none), and the RTT samples;
    /// a trace of kind `paths` is refused (`kind`).
    pub fn fit_input(&self) -> Result<(Vec<Observation>, Vec<f64>), TraceError> {
        let TraceData::Snapshots { snapshots, rtt } = &self.data else {
            return Err(TraceError::new("kind", "fit reads snapshot traces only; this trace is of kind \"paths\""));
        };
        let offset = self.params.clock_offset.unwrap_or(0.0);
        let observations = snapshots
            .iter()
            .map(|s| Observation { tick: s.tick, server_time: s.server_time, arrival: s.arrival + offset })
            .collect();
        Ok((observations, rtt.iter().map(|r| r.rtt).collect()))
    }

    /// The trace as JSON text: one key per line, one array element per line; `from_json` reads it back equal.
    pub fn to_json(&self) -> String {
        output::trace_json(self)
    }
}
