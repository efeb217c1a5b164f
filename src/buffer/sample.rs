//! Sampling: find the bracket around the render time and say how good the result is.
//!
//! ```text
//!  server time ─►  ●────────●────────●        ●────────●
//!                  t0       t1       t2       t3       t4 (newest)
//!  render time  ▲                ▲         ▲         ▲                 ▲
//!            Gap (before     Ready      Gap (t3 − t2 >        InvalidInterval     Underrun (past the newest)
//!            the oldest)  (t1 ≤ r ≤ t2)  gapFactor × send)    (t4 teleports or is another generation)
//! ```
//! Order of the checks (seed 002 "缓冲区查询伪代码"): ClockUncertain (the caller says so), Priming (the buffer has
//! never held `minSnapshots`), left missing → Gap (or, with `beforeOldest: oldest`, seed 000 §4.3.4's rule: Ready at
//! the oldest snapshot), right missing → Underrun, discrete boundary → InvalidInterval,
//! bracket wider than `gapFactor × sendInterval` → Gap, otherwise Ready. A render time exactly on a snapshot is
//! Ready at that snapshot (left = right). Only Ready carries a position; every other status carries a reason.
//!
//! The bracket is found with a cursor: the index reached last time. A render time that moved forward a little
//! is found by walking a few entries from there (amortised O(1)); anything else falls back to a binary search.
//!
//! The common cases — primed, and strictly inside a bracket of one life, no teleport, not too wide, or exactly on
//! a snapshot (seed 002 "第五步": the render time equals a snapshot's server time) — are decided first, reading the
//! snapshots in place (`between`); `sample_between` returns them as a small [`Between`] and `sample` dresses it as
//! the full [`Sample`]. Everything else goes through every check above (`sample_explained`), off the hot path.
//! Both ways count the same (issue 14: what a sample costs is mostly what it builds). A render time on a snapshot
//! is common, not a corner: a 60 Hz frame clock over a 20 Hz tick lands on every third tick's server time when the
//! offsets are whole milliseconds (a third of peerbench's samples, each a 280-byte `Sample` built, moved with one
//! `memory.copy` in wasm, and read, until issue 14's stop 29).

use super::params::BeforeOldest;
use super::reason::Reason;
use super::{Entry, SnapshotBuffer};
use crate::geom::Vec2;
use crate::snapshot::Snapshot;
use serde::{Deserialize, Serialize};

/// How far the cursor walks before falling back to a binary search.
const CURSOR_WALK: usize = 4;

/// How trustworthy a sample is (seed 002 "缓冲区的关键状态").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SampleStatus {
    /// Fewer snapshots than the minimum have ever been held: still filling, nothing to interpolate.
    Priming,
    /// The render time is bracketed by two snapshots: the position is an interpolation.
    Ready,
    /// The render time is past the newest snapshot: the buffer ran dry.
    Underrun,
    /// The render time is before the oldest snapshot kept, or the bracket is wider than `gapFactor` send intervals.
    Gap,
    /// The render clock cannot be trusted (too few samples, just reset, or not a finite time).
    ClockUncertain,
    /// The bracket spans a generation change or a teleport: interpolating across it would be a lie.
    InvalidInterval,
}

impl SampleStatus {
    /// Every status, in the order of their numeric codes on the page.
    pub const ALL: [SampleStatus; 6] = [
        SampleStatus::Priming,
        SampleStatus::Ready,
        SampleStatus::Underrun,
        SampleStatus::Gap,
        SampleStatus::ClockUncertain,
        SampleStatus::InvalidInterval,
    ];

    /// The camelCase name used when the status leaves the core (trace output, the page).
    pub fn name(self) -> &'static str {
        match self {
            SampleStatus::Priming => "priming",
            SampleStatus::Ready => "ready",
            SampleStatus::Underrun => "underrun",
            SampleStatus::Gap => "gap",
            SampleStatus::ClockUncertain => "clockUncertain",
            SampleStatus::InvalidInterval => "invalidInterval",
        }
    }
}

/// The result of sampling the buffer at one render time.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sample {
    pub status: SampleStatus,
    /// Present only when `status` is `Ready`.
    pub position: Option<Vec2>,
    pub left: Option<u64>,
    pub right: Option<u64>,
    /// Where the render time sits between `left` (0) and `right` (1); only when Ready.
    pub factor: Option<f64>,
    /// The server time that was rendered.
    pub render_time: f64,
    /// Why the sample is not `Ready`.
    pub reason: Option<Reason>,
    /// The last snapshot at or before the render time: where an underrun policy continues from.
    /// `None` before the oldest snapshot and when the clock is uncertain.
    pub anchor: Option<Snapshot>,
    /// The newest snapshot held (what `snap` jumps to, and where `hold` freezes on an Underrun).
    pub newest: Option<Snapshot>,
    /// The lifetime generation of the snapshot the sample stands on (the left side of the bracket, or the anchor;
    /// seed 002 采样指标 "LifetimeGeneration"); `None` when there is none.
    pub generation: Option<u32>,
}

/// A Ready sample strictly inside a bracket or exactly on a snapshot (then `left == right` and `factor` is 0), as
/// [`SnapshotBuffer::sample_between`] returns it: the fields of the full [`Sample`] that a caller drawing the
/// entity needs (the same numbers, bit for bit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Between {
    pub position: Vec2,
    /// The ticks of the bracket's left and right snapshots.
    pub left: u64,
    pub right: u64,
    /// Where the render time sits between `left` (0) and `right` (1).
    pub factor: f64,
    /// The lifetime generation of the bracket (both sides share it): the full sample's `generation`.
    pub generation: u32,
}

impl Between {
    /// Ready exactly on `snapshot`: the bracket is the snapshot alone (left = right), factor 0, its own position —
    /// what `locate` gives for a render time equal to a snapshot's server time.
    #[inline(always)]
    fn on(snapshot: &Snapshot) -> Between {
        Between {
            position: snapshot.pos,
            left: snapshot.tick,
            right: snapshot.tick,
            factor: 0.0,
            generation: snapshot.generation,
        }
    }
}

impl Sample {
    fn not_ready(status: SampleStatus, render_time: f64, reason: Reason) -> Self {
        Sample {
            status,
            position: None,
            left: None,
            right: None,
            factor: None,
            render_time,
            reason: Some(reason),
            anchor: None,
            newest: None,
            generation: None,
        }
    }

    /// Seconds from the anchor to the render time (how far an underrun policy must reach), if there is an anchor.
    pub fn ahead(&self) -> Option<f64> {
        self.anchor.map(|a| (self.render_time - a.server_time).max(0.0))
    }
}

impl SnapshotBuffer {
    /// Samples at `render_time` (server seconds); the counters record the result.
    pub fn sample(&mut self, render_time: f64) -> Sample {
        match self.sample_between(render_time) {
            Ok(between) => self.explain_between(between, render_time),
            Err(sample) => sample,
        }
    }

    /// Samples at `render_time` like [`SnapshotBuffer::sample`] (same decision, same counters), but the common case
    /// — a Ready interpolation strictly inside a bracket, or Ready exactly on a snapshot — comes back as a
    /// [`Between`] (position, ticks, factor), without the snapshots, the newest one and the reason a full [`Sample`]
    /// carries: what a caller that only draws needs, at a fraction of the cost. Every other case (any other
    /// status; Ready before the oldest with `beforeOldest: oldest`) is the full `Sample` in `Err`.
    // The large `Err` is on purpose: it is built only off the hot path, in place; boxing it would allocate.
    #[allow(clippy::result_large_err)]
    #[inline]
    pub fn sample_between(&mut self, render_time: f64) -> Result<Between, Sample> {
        if let Some(between) = self.between(render_time) {
            self.record(SampleStatus::Ready, render_time);
            return Ok(between);
        }
        Err(self.sample_explained(render_time))
    }

    /// [`SnapshotBuffer::sample_between`] for a caller that only draws what it samples (`RemotePlayback`'s lean
    /// frame): the same decision, the same counts, the same fields, but a render time past the newest snapshot —
    /// an Underrun, the usual frame that is not a plain interpolation — comes back without its reason (the words
    /// are built for nobody there). Its anchor and newest snapshot, which an underrun policy reads, are in place.
    #[allow(clippy::result_large_err)]
    #[inline]
    pub fn sample_drawn(&mut self, render_time: f64) -> Result<Between, Sample> {
        if let Some(between) = self.between(render_time) {
            self.record(SampleStatus::Ready, render_time);
            return Ok(between);
        }
        // `between` looked the render time up (finite and primed): the cursor holds the count at or before it.
        if render_time.is_finite() && self.priming_time.is_some() && self.cursor == self.len() {
            if let Some(left) = self.entries.last().map(|e| e.snapshot) {
                if left.server_time != render_time {
                    self.record(SampleStatus::Underrun, render_time);
                    return Err(Sample {
                        status: SampleStatus::Underrun,
                        left: Some(left.tick),
                        anchor: Some(left),
                        newest: Some(left),
                        generation: Some(left.generation),
                        reason: None,
                        ..Sample::not_ready(SampleStatus::Underrun, render_time, Reason::NoSnapshot)
                    });
                }
            }
        }
        Err(self.sample_explained(render_time))
    }

    /// A sample explained and counted through every check of `locate`, without the short way (what every sample
    /// that is not a plain interpolation takes; kept out of the hot path's frame; the tests' reference).
    #[cold]
    #[inline(never)]
    pub(super) fn sample_explained(&mut self, render_time: f64) -> Sample {
        let sample = self.locate(render_time);
        self.record(sample.status, sample.render_time);
        sample
    }

    /// Records a `ClockUncertain` sample: the caller's clock cannot be trusted, so the buffer is not consulted.
    pub fn sample_uncertain(&mut self, render_time: f64, reason: impl Into<String>) -> Sample {
        let mut sample =
            Sample::not_ready(SampleStatus::ClockUncertain, render_time, Reason::Clock { text: reason.into() });
        sample.newest = self.newest();
        self.record(sample.status, sample.render_time);
        sample
    }

    fn locate(&mut self, render_time: f64) -> Sample {
        if !render_time.is_finite() {
            return self.sample_uncertain_unrecorded(render_time);
        }
        let newest = self.newest();
        let Some(newest_snapshot) = newest else {
            return Sample::not_ready(SampleStatus::Priming, render_time, Reason::NoSnapshot);
        };
        let at_or_before = self.count_at_or_before(render_time);
        let anchor = at_or_before.checked_sub(1).map(|i| self.entries[i].snapshot);
        let base = Sample {
            anchor,
            newest,
            left: anchor.map(|a| a.tick),
            generation: anchor.map(|a| a.generation),
            ..Sample::not_ready(SampleStatus::Ready, render_time, Reason::NoSnapshot)
        };
        if self.priming_time.is_none() {
            let reason = Reason::Priming { held: self.len(), needed: self.params.min_snapshots };
            return Sample { status: SampleStatus::Priming, reason: Some(reason), ..base };
        }
        let Some(left) = anchor else {
            let oldest = self.entries[0].snapshot;
            if self.params.before_oldest == BeforeOldest::Oldest {
                let base = Sample { generation: Some(oldest.generation), ..base };
                return ready(base, &oldest, &oldest, 0.0, oldest.pos);
            }
            let reason =
                Reason::BeforeOldest { render_time, oldest_tick: oldest.tick, oldest_time: oldest.server_time };
            let generation = Some(oldest.generation);
            return Sample {
                status: SampleStatus::Gap,
                right: Some(oldest.tick),
                reason: Some(reason),
                generation,
                ..base
            };
        };
        if left.server_time == render_time {
            return ready(base, &left, &left, 0.0, left.pos);
        }
        let Some(right) = self.entries.get(at_or_before).map(|e| e.snapshot) else {
            let reason = Reason::PastNewest {
                render_time,
                newest_tick: newest_snapshot.tick,
                newest_time: newest_snapshot.server_time,
                arrival_interval: self.arrivals.interval(),
                delay: None,
            };
            return Sample { status: SampleStatus::Underrun, reason: Some(reason), ..base };
        };
        let base = Sample { right: Some(right.tick), ..base };
        if let Some(reason) = boundary(&left, &right) {
            return Sample { status: SampleStatus::InvalidInterval, reason: Some(reason), ..base };
        }
        let span = right.server_time - left.server_time;
        if span > self.params.max_bracket() {
            let reason = Reason::WideBracket {
                left: left.tick,
                right: right.tick,
                span,
                gap_factor: self.params.gap_factor,
                send_interval: self.params.send_interval,
            };
            return Sample { status: SampleStatus::Gap, reason: Some(reason), ..base };
        }
        let factor = (render_time - left.server_time) / span;
        let position = self.params.interpolation.position(&left, &right, factor);
        ready(base, &left, &right, factor, position)
    }

    /// The common cases taken straight to their result: primed, and either exactly on a snapshot (Ready at it,
    /// whatever follows it) or a left and a right snapshot around the render time, the same life, no teleport, a
    /// bracket not too wide — exactly what the checks of `locate` conclude for them, read in place (a frame loop
    /// samples thousands of times per run). `None` sends every other case through them. The cursor is left at the
    /// bracket (`explain_between` reads its left snapshot, the anchor).
    #[inline(always)]
    fn between(&mut self, render_time: f64) -> Option<Between> {
        if !render_time.is_finite() || self.priming_time.is_none() {
            return None;
        }
        let at_or_before = self.count_at_or_before(render_time);
        let left = &self.entries.get(at_or_before.checked_sub(1)?)?.snapshot;
        if left.server_time == render_time {
            // Exactly on a snapshot: Ready at it, whatever follows (`locate` decides so before it looks right).
            return Some(Between::on(left));
        }
        let right = &self.entries.get(at_or_before)?.snapshot;
        let span = right.server_time - left.server_time;
        if left.generation != right.generation || right.teleport || span > self.params.max_bracket() {
            return None;
        }
        let factor = (render_time - left.server_time) / span;
        let position = self.params.interpolation.position(left, right, factor);
        Some(Between { position, left: left.tick, right: right.tick, factor, generation: left.generation })
    }

    /// The full Ready [`Sample`] of a `between` found at `render_time` just now (the cursor still at its bracket).
    fn explain_between(&self, between: Between, render_time: f64) -> Sample {
        let left = self.entries[self.cursor - 1].snapshot;
        Sample {
            status: SampleStatus::Ready,
            position: Some(between.position),
            left: Some(between.left),
            right: Some(between.right),
            factor: Some(between.factor),
            render_time,
            reason: None,
            anchor: Some(left),
            newest: self.newest(),
            generation: Some(left.generation),
        }
    }

    fn sample_uncertain_unrecorded(&self, render_time: f64) -> Sample {
        let reason = Reason::RenderTimeNotFinite { render_time };
        Sample { newest: self.newest(), ..Sample::not_ready(SampleStatus::ClockUncertain, render_time, reason) }
    }

    /// How many snapshots have a server time at or before `t` (`t` finite), starting from the cursor.
    #[inline]
    pub(super) fn count_at_or_before(&mut self, t: f64) -> usize {
        let entries: &[Entry] = &self.entries;
        let n = entries.len();
        let time = |i: usize| entries[i].snapshot.server_time;
        let mut i = self.cursor.min(n);
        let found = if i > 0 && time(i - 1) > t {
            None
        } else {
            let mut steps = 0;
            while i < n && time(i) <= t && steps < CURSOR_WALK {
                i += 1;
                steps += 1;
            }
            (i == n || time(i) > t).then_some(i)
        };
        let i = found.unwrap_or_else(|| entries.partition_point(|e| e.snapshot.server_time <= t));
        self.cursor = i;
        i
    }

    #[inline]
    fn record(&mut self, status: SampleStatus, render_time: f64) {
        let counts = &mut self.counts.samples;
        *match status {
            SampleStatus::Ready => &mut counts.ready,
            SampleStatus::Priming => &mut counts.priming,
            SampleStatus::Underrun => &mut counts.underrun,
            SampleStatus::Gap => &mut counts.gap,
            SampleStatus::ClockUncertain => &mut counts.clock_uncertain,
            SampleStatus::InvalidInterval => &mut counts.invalid_interval,
        } += 1;
        if self.last_status != Some(status) {
            self.counts.underruns += u64::from(status == SampleStatus::Underrun);
            self.counts.gaps += u64::from(status == SampleStatus::Gap);
        }
        self.last_status = Some(status);
        if render_time.is_finite() {
            if self.last_render_time.is_some_and(|last| render_time < last) {
                self.counts.render_regressions += 1;
            }
            self.last_render_time = Some(render_time);
        }
    }
}

/// A Ready sample between `left` and `right`.
fn ready(base: Sample, left: &Snapshot, right: &Snapshot, factor: f64, position: Vec2) -> Sample {
    Sample {
        status: SampleStatus::Ready,
        position: Some(position),
        left: Some(left.tick),
        right: Some(right.tick),
        factor: Some(factor),
        reason: None,
        ..base
    }
}

/// Why the interval from `left` to `right` must not be interpolated (seed 002 "第六步：验证插值区间"), if it must not.
fn boundary(left: &Snapshot, right: &Snapshot) -> Option<Reason> {
    if left.generation != right.generation {
        Some(Reason::Respawn {
            left: left.tick,
            right: right.tick,
            left_generation: left.generation,
            right_generation: right.generation,
        })
    } else if right.teleport {
        Some(Reason::Teleport { tick: right.tick })
    } else {
        None
    }
}
