//! Source engine (Valve, 2004–): draw every entity a fixed lerp time in the past of the client's tick clock,
//! through its interpolated-variable history (Hermite when three samples allow), and when the history runs out,
//! extrapolate along the last two samples for at most `cl_extrapolate_amount` (0.25 s), then stand still there.
//!
//! ```text
//!  lerp     = max(cl_interp, cl_interp_ratio / cl_updaterate)                     GetClientInterpAmount
//!  interp   = TICK_INTERVAL × (TIME_TO_TICKS(lerp) + 1)                            C_BaseEntity::GetInterpolationAmount
//!  per packet: netchan drops out-of-order packets; the client clock is pulled toward the packet's server tick
//!              (CClockDriftMgr: snap if > cl_clockdrift_max_ms 150 ms off, else ≤ 20 %/s frame-time correction)
//!              history.AddToHead(changetime = simulation time, origin)             CInterpolatedVar::NoteChanged
//!  per frame:  targettime = curtime − interp                                       GetInterpolationInfo
//!     newest ≥ targettime ≥ oldest → frac between the pair around it; Hermite with the sample before (time fix-up)
//!     targettime past the newest   → cl_extrapolate: _Extrapolate(last two, min(ahead, cl_extrapolate_amount))
//!                                    else hold the newest
//!     targettime before the oldest → hold the oldest
//!
//!  extrapolated ▲        ____________________   frozen at newest + v·cl_extrapolate_amount
//!  displacement │      .'
//!               │    .'   linear along the last two samples
//!               └──────────┬───────────────────► how far targettime is past the newest sample
//!                        0.25 s
//! ```
//! Source: ValveSoftware/source-sdk-2013, `game/client/cdll_bounded_cvars.cpp` (`cl_interp` 0.1 bounded to
//! 0..=0.5, `cl_interp_ratio` 2 bounded by `sv_client_min/max_interp_ratio`, `GetClientInterpAmount`),
//! `game/client/c_baseentity.cpp` (`GetInterpolationAmount`, `cl_extrapolate` 1),
//! `game/client/interpolatedvar.h` (`GetInterpolationInfo`, `Interpolate`, `_Extrapolate`, `_Interpolate_Hermite`,
//! `TimeFixup2_Hermite`, `AddToHead`, `RemoveEntriesPreviousTo`), `interpolatedvar.cpp` (`cl_extrapolate_amount`
//! 0.25), `public/tier1/lerp_functions.h` (`Lerp_Hermite`), and the engine's `clockdriftmgr.cpp` (as ported in the
//! indexed C# rewrite `Source.Engine.Client.ClockDriftMgr`: 16 samples, 150 ms snap, 10/90 ms and 200 ms/s).
//! Valve ships no tests for this; `tests/engines/source.rs` checks the behaviour on fixed traces.
//!
//! Simplified: `cl_updaterate` only enters the lerp formula (in Source it also asks the server to send that
//! often; here the scenario's send rate decides); the server bounds of the cvars are their default values
//! (`sv_client_min_interp_ratio` 1, `sv_client_max_interp_ratio` 5) and are checked, not clamped; the client
//! clock is continuous, not a whole tick count plus a remainder; `changetime == 0` is not treated as "unset"
//! (the simulator's server clock starts at 0); the "is the server choking" test before extrapolating always holds
//! (one entity, updated by every packet); a teleport (`EF_NOINTERP`) resets the history to the new position.

use super::{Shown, ShownMode, Smoother};
use crate::geom::{self, Vec2};
use crate::param::{ParamError, Params};
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// `EXTRA_INTERPOLATION_HISTORY_STORED`: history kept beyond the interpolation window, seconds.
const EXTRA_INTERPOLATION_HISTORY_STORED: f64 = 0.05;
/// `CClockDriftMgr::NUM_CLOCKDRIFT_SAMPLES`.
const NUM_CLOCKDRIFT_SAMPLES: usize = 16;
/// `cl_clockdrift_max_ms`: further off than this and the client snaps its clock to the server's.
const CLOCKDRIFT_MAX: f64 = 0.150;
/// `cl_clock_correction_adjustment_min_offset` / `_max_offset` (ms) and `_max_amount` (ms per second).
const ADJUSTMENT_MIN_OFFSET_MS: f64 = 10.0;
const ADJUSTMENT_MAX_OFFSET_MS: f64 = 90.0;
const ADJUSTMENT_MAX_AMOUNT_MS: f64 = 200.0;

/// The cvars, under their own names and with Source's defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, deny_unknown_fields)]
pub struct SourceParams {
    /// The interpolation time, at least (`cdll_bounded_cvars.cpp`: `true, 0.0f, true, 0.5f`).
    #[param(range(0.0, 0.5), unit = "s", control(0.0, 500.0, 5.0, "ms", 1000.0))]
    pub cl_interp: f64,
    /// The interpolation time in update intervals, at least (bounded by `sv_client_min_interp_ratio` 1 ..
    /// `sv_client_max_interp_ratio` 5).
    #[param(range(1.0, 5.0), control(1.0, 5.0, 0.5, "", 1.0))]
    pub cl_interp_ratio: f64,
    /// Updates a second the client asks for (the engine's default; `sv_minupdaterate` 10).
    #[param(range(10.0, 128.0), unit = "/s", control(10.0, 128.0, 1.0, "/s", 1.0))]
    pub cl_updaterate: f64,
    /// Whether to extrapolate past the newest update (`c_baseentity.cpp`).
    pub cl_extrapolate: bool,
    /// How far, at most (`interpolatedvar.cpp`).
    #[param(range(0.0, 2.0), unit = "s", control(0.0, 1000.0, 10.0, "ms", 1000.0))]
    pub cl_extrapolate_amount: f64,
}

impl Default for SourceParams {
    fn default() -> Self {
        SourceParams {
            cl_interp: 0.1,
            cl_interp_ratio: 2.0,
            cl_updaterate: 20.0,
            cl_extrapolate: true,
            cl_extrapolate_amount: 0.25,
        }
    }
}

impl SourceParams {
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }

    /// `GetClientInterpAmount`: the larger of `cl_interp` and `cl_interp_ratio / cl_updaterate`.
    pub fn client_interp_amount(&self) -> f64 {
        self.cl_interp.max(self.cl_interp_ratio / self.cl_updaterate)
    }

    /// `GetInterpolationAmount`: the lerp rounded to whole ticks, plus one tick.
    pub fn interpolation_amount(&self, tick_interval: f64) -> f64 {
        let ticks = (0.5 + self.client_interp_amount() / tick_interval) as i64; // TIME_TO_TICKS truncates
        tick_interval * (ticks + 1) as f64
    }
}

/// The average of the drift samples, in order (`GetCurrentClockDifference`'s loop).
fn mean(offsets: &[f64; NUM_CLOCKDRIFT_SAMPLES]) -> f64 {
    offsets.iter().sum::<f64>() / NUM_CLOCKDRIFT_SAMPLES as f64
}

/// `CClockDriftMgr`, in seconds: keeps the client clock near the server tick of the packets it receives.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockDrift {
    pub client_time: Option<f64>,
    offsets: [f64; NUM_CLOCKDRIFT_SAMPLES],
    /// The mean of `offsets` ([`ClockDrift::difference`]), summed again whenever they change rather than per frame
    /// (they change on a packet, or when a frame scales them).
    difference: f64,
    current: usize,
    pub snaps: u64,
}

impl Default for ClockDrift {
    fn default() -> Self {
        let offsets = [0.0; NUM_CLOCKDRIFT_SAMPLES];
        ClockDrift { client_time: None, offsets, difference: mean(&offsets), current: 0, snaps: 0 }
    }
}

impl ClockDrift {
    /// `SetServerTick`: a packet stamped with the server's tick time arrived.
    pub fn set_server_tick(&mut self, server_time: f64) {
        let client = match self.client_time {
            Some(c) if (server_time - c).abs() <= CLOCKDRIFT_MAX => c,
            _ => {
                self.offsets = [0.0; NUM_CLOCKDRIFT_SAMPLES];
                self.snaps += 1;
                server_time
            }
        };
        self.client_time = Some(client);
        self.offsets[self.current] = client - server_time;
        self.difference = mean(&self.offsets);
        self.current = (self.current + 1) % NUM_CLOCKDRIFT_SAMPLES;
    }

    /// `GetCurrentClockDifference`: client minus server, averaged (seconds).
    pub fn difference(&self) -> f64 {
        self.difference
    }

    /// `GetClockAdjustmentAmount`: 0 at 10 ms off, rising to 0.2 s per second at 90 ms.
    fn adjustment_amount(diff_ms: f64) -> f64 {
        let d = diff_ms.clamp(ADJUSTMENT_MIN_OFFSET_MS, ADJUSTMENT_MAX_OFFSET_MS);
        (d - ADJUSTMENT_MIN_OFFSET_MS) / (ADJUSTMENT_MAX_OFFSET_MS - ADJUSTMENT_MIN_OFFSET_MS)
            * ADJUSTMENT_MAX_AMOUNT_MS
            / 1000.0
    }

    /// `AdjustFrameTime`: the frame time to advance the client clock by, stretched or shrunk toward the server.
    pub fn adjust_frame_time(&mut self, input_frame_time: f64, tick_interval: f64) -> f64 {
        let diff = self.difference();
        let diff_ms = diff * 1000.0;
        let mut adjustment = 0.0;
        if diff_ms > ADJUSTMENT_MIN_OFFSET_MS {
            adjustment = (input_frame_time * -Self::adjustment_amount(diff_ms)).max(-diff);
        } else if diff_ms < -ADJUSTMENT_MIN_OFFSET_MS {
            adjustment = (input_frame_time * Self::adjustment_amount(-diff_ms)).min(-diff);
        }
        // AdjustAverageDifferenceBy: "Don't adjust the average if it's already tiny" (c in ticks; negative c
        // returns early too, as in Valve's code).
        // With no adjustment the factor is exactly 1 (0 / c is ±0, 1 + ±0 is 1) and the samples would be multiplied
        // by 1, i.e. left as they are, and their mean summed again to the very same bits: skipped (most frames
        // of a steady clock, between 0.05 tick and 10 ms off).
        let c = diff / tick_interval;
        if c >= 0.05 && adjustment != 0.0 {
            let factor = 1.0 + (adjustment / tick_interval) / c;
            for offset in &mut self.offsets {
                *offset *= factor;
            }
            self.difference = mean(&self.offsets);
        }
        input_frame_time + adjustment
    }
}

/// One history entry: `changetime` (the snapshot's simulation time) and the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    changetime: f64,
    value: Vec2,
}

/// What `GetInterpolationInfo` found for a target time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Info {
    Empty,
    /// Between `older` and `newer` (history indices, newest first) at `frac`; `oldest` for Hermite.
    Between {
        older: usize,
        newer: usize,
        frac: f64,
        oldest: Option<usize>,
    },
    /// Past every entry (index 0 is the newest).
    Past,
    /// Before every entry: the oldest is shown.
    Before,
}

/// A few entries seen newest first (index 0 the newest), kept in a `Vec` the other way round: the history adds and
/// drops at its head (the `Vec`'s end) and cuts its tail (the `Vec`'s start), and is read by index on every frame,
/// which a plain slice does without the ring arithmetic of a `VecDeque`.
#[derive(Clone, Debug, Default, PartialEq)]
struct NewestFirst {
    oldest_first: Vec<Entry>,
}

impl NewestFirst {
    fn len(&self) -> usize {
        self.oldest_first.len()
    }

    fn is_empty(&self) -> bool {
        self.oldest_first.is_empty()
    }

    fn get(&self, i: usize) -> Option<&Entry> {
        let n = self.oldest_first.len();
        if i < n {
            Some(&self.oldest_first[n - 1 - i])
        } else {
            None
        }
    }

    fn front(&self) -> Option<&Entry> {
        self.oldest_first.last()
    }

    fn back(&self) -> Option<&Entry> {
        self.oldest_first.first()
    }

    fn push_front(&mut self, entry: Entry) {
        self.oldest_first.push(entry);
    }

    fn pop_front(&mut self) -> Option<Entry> {
        self.oldest_first.pop()
    }

    /// Keeps the `len` newest.
    fn truncate(&mut self, len: usize) {
        let n = self.oldest_first.len();
        if len < n {
            self.oldest_first.drain(..n - len);
        }
    }

    fn clear(&mut self) {
        self.oldest_first.clear();
    }

    fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.oldest_first.iter().rev()
    }
}

impl std::ops::Index<usize> for NewestFirst {
    type Output = Entry;

    fn index(&self, i: usize) -> &Entry {
        self.get(i).expect("a history index in range")
    }
}

/// `CInterpolatedVar<Vector>` for the origin: newest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    entries: NewestFirst,
}

impl History {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `AddToHead(changeTime, values, bFlushNewer = true)`.
    pub fn add_to_head(&mut self, changetime: f64, value: Vec2) {
        while self.entries.front().is_some_and(|e| e.changetime + 0.0001 > changetime) {
            self.entries.pop_front();
        }
        self.entries.push_front(Entry { changetime, value });
    }

    /// `RemoveEntriesPreviousTo(flTime)`: keep the first entry older than `time` and two more (Hermite).
    pub fn remove_entries_previous_to(&mut self, time: f64) {
        let first_older = self.entries.iter().position(|e| e.changetime < time);
        if let Some(i) = first_older {
            self.entries.truncate(i + 3);
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// `GetInterpolationInfo(currentTime − interpolation_amount)`.
    pub fn info(&self, target_time: f64) -> Info {
        let mut newer: Option<usize> = None;
        for (i, older) in self.entries.iter().enumerate() {
            if target_time < older.changetime {
                newer = Some(i);
                continue;
            }
            let Some(n) = newer else { return Info::Past };
            let newer_time = self.entries[n].changetime;
            let mut frac = 0.0;
            let mut oldest = None;
            if newer_time - older.changetime > 0.0001 {
                frac = geom::at_most((target_time - older.changetime) / (newer_time - older.changetime), 2.0);
                if let Some(o) = self.entries.get(i + 1) {
                    if older.changetime - o.changetime > 0.0001 {
                        oldest = Some(i + 1);
                    }
                }
            }
            return Info::Between { older: i, newer: n, frac, oldest };
        }
        if newer.is_some() {
            Info::Before
        } else {
            Info::Empty
        }
    }

    /// `Interpolate` for the linear/Hermite cases, `_Extrapolate` past the newest (when `max_extrapolation` is
    /// `Some`), else the newest or oldest value held. Returns the value and how it was obtained.
    pub fn interpolate(&self, target_time: f64, max_extrapolation: Option<f64>) -> Option<(Vec2, ShownMode)> {
        match self.info(target_time) {
            Info::Empty => None,
            Info::Before => self.entries.back().map(|e| (e.value, ShownMode::Waiting)),
            Info::Past => {
                let newest = self.entries[0];
                match (max_extrapolation, self.entries.get(1)) {
                    (Some(amount), Some(old)) => {
                        let value = extrapolate(old, &newest, target_time, amount);
                        let mode = if target_time - newest.changetime <= amount {
                            ShownMode::Extrapolated
                        } else {
                            ShownMode::Held
                        };
                        Some((value, mode))
                    }
                    _ => Some((newest.value, ShownMode::Held)),
                }
            }
            Info::Between { older, newer, frac, oldest } => {
                let (start, end) = (self.entries[older], self.entries[newer]);
                let value = match oldest {
                    Some(o) => interpolate_hermite(frac, self.entries[o], start, end),
                    None => start.value.lerp(end.value, frac),
                };
                Some((value, ShownMode::Interpolated))
            }
        }
    }
}

/// `_Extrapolate(pOut, pOld, pNew, flDestinationTime, flMaxExtrapolationAmount)`.
fn extrapolate(old: &Entry, new: &Entry, destination_time: f64, max_amount: f64) -> Vec2 {
    if (old.changetime - new.changetime).abs() < 0.001 || destination_time <= new.changetime {
        return new.value;
    }
    let amount = geom::at_most(destination_time - new.changetime, max_amount);
    let divisor = 1.0 / (new.changetime - old.changetime);
    // ExtrapolateInterpolatedVarType: Lerp(1 + amount·divisor, old, new).
    old.value.lerp(new.value, 1.0 + amount * divisor)
}

/// `_Interpolate_Hermite` with `TimeFixup_Hermite`: the sample before `start` is moved to the same spacing as
/// `start → end` (along `prev → start`) before `Lerp_Hermite`.
fn interpolate_hermite(frac: f64, prev: Entry, start: Entry, end: Entry) -> Vec2 {
    let dt1 = end.changetime - start.changetime;
    let dt2 = start.changetime - prev.changetime;
    let mut p0 = prev.value;
    if (dt1 - dt2).abs() > 0.0001 && dt2 > 0.0001 {
        p0 = prev.value.lerp(start.value, 1.0 - dt1 / dt2);
    }
    lerp_hermite(frac, p0, start.value, end.value)
}

/// `Lerp_Hermite(t, p0, p1, p2)` from `lerp_functions.h`.
pub fn lerp_hermite(t: f64, p0: Vec2, p1: Vec2, p2: Vec2) -> Vec2 {
    let d1 = p1 - p0;
    let d2 = p2 - p1;
    let t2 = t * t;
    let t3 = t * t2;
    p1 * (2.0 * t3 - 3.0 * t2 + 1.0) + p2 * (-2.0 * t3 + 3.0 * t2) + d1 * (t3 - 2.0 * t2 + t) + d2 * (t3 - t2)
}

/// One Source client drawing one remote entity.
#[derive(Clone, Debug)]
pub struct Source {
    params: SourceParams,
    tick_interval: f64,
    interp: f64,
    clock: ClockDrift,
    history: History,
    last_tick: Option<u64>,
    /// Packets the netchan dropped because they arrived after a newer one.
    pub dropped: u64,
}

impl Source {
    pub fn new(params: SourceParams, tick_interval: f64) -> Self {
        let interp = params.interpolation_amount(tick_interval);
        Source {
            params,
            tick_interval,
            interp,
            clock: ClockDrift::default(),
            history: History::default(),
            last_tick: None,
            dropped: 0,
        }
    }

    /// The interpolation amount in force (seconds).
    pub fn interpolation_amount(&self) -> f64 {
        self.interp
    }

    pub fn clock(&self) -> &ClockDrift {
        &self.clock
    }

    pub fn history(&self) -> &History {
        &self.history
    }
}

impl Smoother for Source {
    fn on_snapshot(&mut self, snapshot: &Snapshot, _arrival: f64) {
        if self.last_tick.is_some_and(|t| snapshot.tick <= t) {
            self.dropped += 1;
            return;
        }
        self.last_tick = Some(snapshot.tick);
        self.clock.set_server_tick(snapshot.server_time);
        if snapshot.teleport {
            self.history.clear();
        }
        self.history.add_to_head(snapshot.server_time, snapshot.pos);
        let curtime = self.clock.client_time.unwrap_or(snapshot.server_time);
        self.history.remove_entries_previous_to(curtime - self.interp - EXTRA_INTERPOLATION_HISTORY_STORED);
    }

    fn frame(&mut self, _now: f64, dt: f64) -> Shown {
        let Some(client_time) = self.clock.client_time else { return Shown::NOTHING };
        let curtime = client_time + self.clock.adjust_frame_time(dt, self.tick_interval);
        self.clock.client_time = Some(curtime);
        let target = curtime - self.interp;
        let extrapolate = self.params.cl_extrapolate.then_some(self.params.cl_extrapolate_amount);
        let shown = self.history.interpolate(target, extrapolate);
        self.history.remove_entries_previous_to(target - EXTRA_INTERPOLATION_HISTORY_STORED);
        match shown {
            Some((position, mode)) => Shown::at(position, target, mode),
            None => Shown::NOTHING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `AdjustFrameTime` as Valve writes it: the samples scaled whenever the clock is at least 0.05 tick ahead, by
    /// a factor of exactly 1 when there is no adjustment (what `adjust_frame_time` skips).
    fn plain_adjust_frame_time(clock: &mut ClockDrift, input_frame_time: f64, tick_interval: f64) -> f64 {
        let diff = mean(&clock.offsets);
        let diff_ms = diff * 1000.0;
        let mut adjustment = 0.0;
        if diff_ms > ADJUSTMENT_MIN_OFFSET_MS {
            adjustment = (input_frame_time * -ClockDrift::adjustment_amount(diff_ms)).max(-diff);
        } else if diff_ms < -ADJUSTMENT_MIN_OFFSET_MS {
            adjustment = (input_frame_time * ClockDrift::adjustment_amount(-diff_ms)).min(-diff);
        }
        let c = diff / tick_interval;
        if c >= 0.05 {
            let factor = 1.0 + (adjustment / tick_interval) / c;
            for offset in &mut clock.offsets {
                *offset *= factor;
            }
        }
        input_frame_time + adjustment
    }

    /// Skipping the scaling when there is no adjustment leaves the samples, the frame time and the kept mean bit for
    /// bit what the plain `AdjustFrameTime` gives, on a clock that is now and then a few ms ahead (the frames that
    /// skip), further ahead (the frames that scale) and behind. Skipping also when the adjustment is not 0 (drop
    /// `adjustment != 0.0`'s test for `true`) turns it red.
    #[test]
    fn skipping_a_factor_of_one_is_the_plain_adjustment() {
        let (tick, mut server) = (1.0 / 20.0, 0.0);
        let (mut clock, mut plain) = (ClockDrift::default(), ClockDrift::default());
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let (mut skipped, mut scaled) = (0, 0);
        for i in 0..3000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let jitter = ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.03;
            server += tick + if i % 50 < 10 { 0.006 } else { jitter };
            clock.set_server_tick(server);
            plain.set_server_tick(server);
            for _ in 0..3 {
                let (diff, before) = (clock.difference(), clock.offsets);
                let a = clock.adjust_frame_time(1.0 / 60.0, tick);
                let b = plain_adjust_frame_time(&mut plain, 1.0 / 60.0, tick);
                assert_eq!(a.to_bits(), b.to_bits(), "packet {i}");
                assert_eq!(clock.offsets.map(f64::to_bits), plain.offsets.map(f64::to_bits), "packet {i}");
                assert_eq!(clock.difference().to_bits(), mean(&plain.offsets).to_bits(), "packet {i}");
                if diff / tick >= 0.05 {
                    if before == clock.offsets {
                        skipped += 1
                    } else {
                        scaled += 1
                    }
                }
                plain.client_time = clock.client_time.map(|c| c + a);
                clock.client_time = plain.client_time;
            }
        }
        assert!(skipped > 100 && scaled > 100, "skipped {skipped}, scaled {scaled}");
    }

    /// The difference is kept rather than summed per frame: after every packet and every frame (which may scale the
    /// samples) it must be, bit for bit, the mean of the samples as `GetCurrentClockDifference` sums them. A sample
    /// changed without the mean being summed again (a packet, a snap that clears them, a frame that scales them)
    /// turns it red.
    #[test]
    fn the_kept_difference_is_the_mean_of_the_samples() {
        let mut clock = ClockDrift::default();
        assert_eq!(clock.difference().to_bits(), mean(&clock.offsets).to_bits());
        let (tick, mut server) = (1.0 / 20.0, 0.0);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut scaled = 0;
        for i in 0..2000 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let jitter = ((state >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 0.06;
            // A late packet now and then (the client ahead: the frames scale the samples down), a jump (a snap).
            server += tick + if i % 97 == 0 { 0.4 } else { jitter };
            clock.set_server_tick(server);
            assert_eq!(clock.difference().to_bits(), mean(&clock.offsets).to_bits(), "packet {i}");
            for _ in 0..3 {
                let before = clock.offsets;
                clock.client_time = clock.client_time.map(|c| c + clock.adjust_frame_time(1.0 / 60.0, tick));
                scaled += usize::from(before != clock.offsets);
                assert_eq!(clock.difference().to_bits(), mean(&clock.offsets).to_bits(), "frame after packet {i}");
            }
        }
        assert!(clock.snaps > 5, "snaps: {}", clock.snaps);
        assert!(scaled > 100, "frames that scaled the samples: {scaled}");
    }
}
