//! geckos.io `@geckos.io/snapshot-interpolation`: a vault of received snapshots, a server-time offset measured
//! from the first snapshot (including its latency), and a render time `interpolationBuffer` milliseconds behind
//! — with nothing at all returned when that time is not between two snapshots of the vault.
//!
//! ```text
//!  per delivery (addSnapshot)
//!    first:                       timeOffset = Now() − snapshot.time            (client clock − server clock, ms)
//!    autoCorrectTimeOffset:       |timeOffset − (Now() − snapshot.time)| > 50 ms ─► timeOffset = that
//!    vault.add: push; beyond vaultSize the oldest is dropped
//!  construction (the README's client)
//!    new SnapshotInterpolation(serverFPS):  interpolationBuffer = (1000 / serverFPS) * 3   (150 ms at 20 Hz)
//!  per frame (calcInterpolation)
//!    serverTime = Now() − timeOffset − interpolationBuffer
//!    vault.get(serverTime): sorted newest first (a stable sort: equal times stay in the order added), the first
//!                           snapshot with time ≤ serverTime is `older`, the one before it `newer` — none ≤
//!                           serverTime, or no newer one ─► undefined (nothing)
//!    percentage = (serverTime − older.time) / (newer.time − older.time);  x = lerp(older.x, newer.x, percentage)
//!
//!    vault:    ■ ■ ■ ■ ■ ■ ■ ■ ■ ■
//!              └── serverTime here: interpolated ──┘   after the newest, or before the oldest: undefined
//! ```
//! The game keeps the last value it applied when `calcInterpolation` returns undefined (the README's client loop
//! applies `snapshot.state` only when there is one), so the entity stands still — that frame counts as `held`.
//!
//! Source: geckosio/snapshot-interpolation, `src/snapshot-interpolation.ts` (`constructor`, `addSnapshot`,
//! `calcInterpolation`, `_interpolate`), `src/vault.ts` (`get`, `add`, `_vaultSize = 120`), README ("How to use",
//! client.js: `new SnapshotInterpolation(serverFPS)`, three server frames; built with no FPS the buffer is
//! 100 ms). Its `test/snapshot.test.js` and `test/vault.test.js` cases are reproduced in
//! `tests/engines/geckos.rs`. Version 1.1.1.
//!
//! Simplified: `Date.now()` is whole milliseconds and an epoch time; here times are the simulator's clocks in
//! seconds × 1000, not rounded (so the library's "a number ≤ 1 is a percentage" branch never fires, as with real
//! epoch times). Only x and y are interpolated. The server's FPS is the stream's send rate.

use super::{Shown, ShownMode, Smoother};
use crate::buffer::window::Window;
use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// The time-offset correction threshold in `addSnapshot`, milliseconds (hard-coded in the library).
pub const AUTO_CORRECT_MS: f64 = 50.0;

/// The library's settings, under its names and with its defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct GeckosParams {
    /// The client is built as the README's is, `new SnapshotInterpolation(serverFPS)` with the stream's send rate:
    /// `interpolationBuffer = (1000 / serverFPS) * 3`, three server frames (150 ms at 20 Hz). Off: built with no
    /// FPS, or the buffer set (`interpolationBuffer.set`) to the value below.
    pub with_server_fps: bool,
    /// Render time = now − timeOffset − this, in milliseconds, when `withServerFps` is off (the library's
    /// `_interpolationBuffer = 100`, or the value given to `interpolationBuffer.set`).
    #[param(range(0.0, 2000.0), unit = "ms", control(0.0, 500.0, 5.0, "ms", 1.0))]
    pub interpolation_buffer: f64,
    /// Whether the time offset follows the snapshots (`config`).
    pub auto_correct_time_offset: bool,
    /// Snapshots the vault keeps (`Vault._vaultSize`, `setMaxSize`).
    #[param(range(2.0, 10_000.0), unit = "snapshots", control(2.0, 240.0, 1.0, "", 1.0))]
    pub vault_size: usize,
}

impl Default for GeckosParams {
    fn default() -> Self {
        GeckosParams {
            with_server_fps: true,
            interpolation_buffer: 100.0,
            auto_correct_time_offset: true,
            vault_size: 120,
        }
    }
}

impl GeckosParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// A client built with the buffer set to `milliseconds` (`withServerFps` off).
    pub fn buffered(milliseconds: f64) -> Self {
        GeckosParams { with_server_fps: false, interpolation_buffer: milliseconds, ..GeckosParams::default() }
    }

    /// The interpolation buffer in force (ms) on a stream sending every `send_interval` seconds: with
    /// `withServerFps`, the constructor's `(1000 / serverFPS) * 3`, else `interpolationBuffer`.
    pub fn interpolation_buffer_ms(&self, send_interval: f64) -> f64 {
        if self.with_server_fps {
            (1000.0 / server_fps(send_interval)) * 3.0
        } else {
            self.interpolation_buffer
        }
    }
}

/// The server's FPS a game passes for a stream sending every `send_interval` seconds: its send rate, read as the
/// whole number it is configured as when it is one (`1 / 0.05` is 20, not 19.999…).
pub fn server_fps(send_interval: f64) -> f64 {
    let rate = 1.0 / send_interval;
    let whole = rate.round();
    if (rate - whole).abs() <= 1e-9 * whole {
        whole
    } else {
        rate
    }
}

/// A snapshot in the vault: `time` (server clock, ms) and the entity's x, y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VaultEntry {
    pub time: f64,
    pub pos: Vec2,
}

/// `Vault`: kept sorted by time (oldest first) — the library sorts on every `get`, which finds the same pair.
#[derive(Clone, Debug)]
pub struct Vault {
    /// A window over a `Vec` (`buffer::window`, as the snapshot buffer keeps its entries): read as one slice, by
    /// plain index, where a `VecDeque` wraps every index (several per frame), and the oldest dropped by moving
    /// the window's start. Oldest first; snapshots with the same time are held last-added first. The library
    /// sorts its array newest first with a stable sort, which keeps equal times in the order added; read from
    /// the oldest end, that order is reversed. So of two snapshots with one time, `get` gives the first added as
    /// `older` (at and after that time) and the last added as `newer` (before it).
    entries: Window<VaultEntry, 0>,
    max_size: usize,
    /// Where the last [`Vault::get`] found its time (the count of entries at or before it): the next frame's time
    /// is almost always there or one entry on, so it is tried before a binary search. Only a shortcut: the sorted
    /// entries have one such place for a time, and it is checked before it is used.
    hint: Cell<usize>,
}

impl PartialEq for Vault {
    fn eq(&self, other: &Self) -> bool {
        (&self.entries[..], self.max_size) == (&other.entries[..], other.max_size)
    }
}

impl Vault {
    pub fn new(max_size: usize) -> Self {
        Vault { entries: Window::with_room(max_size.min(1024)), max_size, hint: Cell::new(0) }
    }

    /// The count of entries with `e.time ≤ time` (they come first: the entries are sorted by time).
    fn partition(&self, time: f64) -> usize {
        let at_or_before = |i: usize| self.entries.get(i).is_some_and(|e| e.time <= time);
        let is_place = |at: usize| at <= self.entries.len() && (at == 0 || at_or_before(at - 1)) && !at_or_before(at);
        let hint = self.hint.get();
        let at = if is_place(hint) {
            hint
        } else if is_place(hint + 1) {
            hint + 1
        } else {
            self.entries.partition_point(|e| e.time <= time)
        };
        self.hint.set(at);
        at
    }

    /// `add`: beyond the maximum the oldest goes first — of several with the oldest time, the first added (the
    /// library's stable ascending sort keeps them in the order added, and `shift` takes the first).
    pub fn add(&mut self, entry: VaultEntry) {
        if self.entries.len() > self.max_size.saturating_sub(1) {
            // Equal times are held newest-added first, so the first added of the oldest time ends their run.
            let oldest = self.entries[0].time;
            let run = self.entries.partition_point(|e| e.time <= oldest);
            if run <= 1 {
                self.entries.pop_front();
            } else {
                self.entries.remove(run - 1);
            }
            // The place the hint names moved one entry down with the rest.
            self.hint.set(self.hint.get().saturating_sub(1));
        }
        // The usual arrival is the newest: it goes last (where the search would put it) without a search. An equal
        // time goes before those already there (see `entries`).
        if self.entries.last().is_none_or(|newest| newest.time < entry.time) {
            self.entries.push_back(entry);
        } else {
            let at = self.entries.partition_point(|e| e.time < entry.time);
            self.entries.insert(at, entry);
        }
    }

    pub fn size(&self) -> usize {
        self.entries.len()
    }

    pub fn max_size(&self) -> usize {
        self.max_size
    }

    /// `get(time)`: `(older, newer)` around `time`, or `None` (no snapshot at or before it, or none after).
    pub fn get(&self, time: f64) -> Option<(VaultEntry, VaultEntry)> {
        // Newest first, the first with `time ≤ t` is `older`; the one just newer than it is `newer`.
        let at = self.partition(time);
        let older = *self.entries.get(at.checked_sub(1)?)?;
        let newer = *self.entries.get(at)?;
        Some((older, newer))
    }

    /// The newest snapshot (`get()`).
    pub fn latest(&self) -> Option<VaultEntry> {
        self.entries.last().copied()
    }
}

/// What `calcInterpolation` returns: the interpolated position, the percentage, and `serverTime` (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interpolated {
    pub pos: Vec2,
    pub percentage: f64,
    pub server_time: f64,
}

/// `_interpolate(newer, older, serverTime)`: the time path (`serverTime` is an epoch time, never ≤ 1).
pub fn interpolate(older: VaultEntry, newer: VaultEntry, server_time: f64) -> Interpolated {
    let percentage = (server_time - older.time) / (newer.time - older.time);
    Interpolated {
        pos: older.pos.lerp(newer.pos, percentage),
        percentage,
        server_time: older.time + (newer.time - older.time) * percentage,
    }
}

/// One geckos.io client.
#[derive(Clone, Debug)]
pub struct Geckos {
    params: GeckosParams,
    /// `_interpolationBuffer` (ms) in force.
    interpolation_buffer: f64,
    /// `_timeOffset` (ms), `None` for the library's −1.
    time_offset: Option<f64>,
    vault: Vault,
    last_applied: Option<Vec2>,
}

impl Geckos {
    /// A client on a stream sending every `send_interval` seconds (the server's FPS, when the client is built with
    /// it).
    pub fn new(params: GeckosParams, send_interval: f64) -> Self {
        let vault = Vault::new(params.vault_size);
        let interpolation_buffer = params.interpolation_buffer_ms(send_interval);
        Geckos { params, interpolation_buffer, time_offset: None, vault, last_applied: None }
    }

    /// `interpolationBuffer.get()` (ms).
    pub fn interpolation_buffer(&self) -> f64 {
        self.interpolation_buffer
    }

    /// `timeOffset` (ms): client clock minus server clock, latency included.
    pub fn time_offset(&self) -> Option<f64> {
        self.time_offset
    }

    pub fn vault(&self) -> &Vault {
        &self.vault
    }

    /// `addSnapshot` at client time `now_ms` of a snapshot stamped `time_ms` on the server.
    pub fn add_snapshot(&mut self, time_ms: f64, pos: Vec2, now_ms: f64) {
        let offset = now_ms - time_ms;
        let current = *self.time_offset.get_or_insert(offset);
        if self.params.auto_correct_time_offset && (current - offset).abs() > AUTO_CORRECT_MS {
            self.time_offset = Some(offset);
        }
        self.vault.add(VaultEntry { time: time_ms, pos });
    }

    /// `calcInterpolation` at client time `now_ms`: `None` is the library's `undefined`.
    pub fn calc_interpolation(&self, now_ms: f64) -> Option<Interpolated> {
        let offset = self.time_offset?;
        let server_time = now_ms - offset - self.interpolation_buffer;
        let (older, newer) = self.vault.get(server_time)?;
        Some(interpolate(older, newer, server_time))
    }
}

impl Smoother for Geckos {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.add_snapshot(snapshot.server_time * 1000.0, snapshot.pos, arrival * 1000.0);
    }

    fn frame(&mut self, now: f64, _dt: f64) -> Shown {
        match self.calc_interpolation(now * 1000.0) {
            Some(i) => {
                self.last_applied = Some(i.pos);
                Shown::at(i.pos, i.server_time / 1000.0, ShownMode::Interpolated)
            }
            None => match (self.last_applied, self.time_offset) {
                (Some(pos), Some(offset)) => {
                    let render = (now * 1000.0 - offset - self.interpolation_buffer) / 1000.0;
                    Shown::at(pos, render, ShownMode::Held)
                }
                _ => Shown::NOTHING,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `get` tries where the last one found its time before searching: it must answer what the plain search over
    /// the entries does, for times that step on, stand still, jump back and forth, fall before and after every
    /// entry, with entries added out of order, equal times, and the vault overflowing. A hint used without being
    /// checked (or checked one entry off) turns it red.
    #[test]
    fn the_hinted_get_is_the_plain_search() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut uniform = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for max in [2, 5, 120] {
            let mut vault = Vault::new(max);
            let plain = |v: &Vault, time: f64| {
                let at = v.entries.partition_point(|e| e.time <= time);
                Some((*v.entries.get(at.checked_sub(1)?)?, *v.entries.get(at)?))
            };
            let (mut hits, mut time) = (0, 0.0);
            for i in 0..4000 {
                let t = (i / 3) as f64 * 50.0 + if i % 7 == 0 { -120.0 * uniform() } else { 0.0 };
                vault.add(VaultEntry { time: t.round(), pos: Vec2::new(t, 0.0) });
                for _ in 0..3 {
                    time = match (uniform() * 10.0) as u32 {
                        0 => time - 400.0 * uniform(),
                        1 => time + 300.0 * uniform(),
                        2 => f64::NAN,
                        3 => vault.entries[0].time,
                        _ => time + 16.7,
                    };
                    if time.is_nan() {
                        time = t - 100.0;
                    }
                    assert_eq!(vault.get(time), plain(&vault, time), "max {max}, time {time}");
                    hits += usize::from(vault.get(time).is_some());
                }
            }
            assert!(hits > 1000, "max {max}: {hits}");
        }
    }
}
