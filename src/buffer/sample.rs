//! Sampling: find the bracket around the render time and say how good the result is.
//!
//! ```text
//!  server time ─►  ●────────●────────●        ●────────●
//!                  t0       t1       t2       t3       t4 (newest)
//!  render time  ▲                ▲         ▲         ▲                 ▲
//!            Gap (before     Ready      Gap (t3 − t2 >        InvalidInterval     Underrun (past the newest)
//!            the oldest)  (t1 ≤ r ≤ t2)  gapFactor × send)    (t4 teleports or is another generation)
//! ```
//! Order of the checks (seed 002 "缓冲区查询伪代码"): ClockUncertain (the caller says so, or the render time is not
//! finite), Priming (the buffer has never held `minSnapshots`), left missing → Gap (or, with `beforeOldest:
//! oldest`, seed 000 §4.3.4's rule: Ready at the oldest snapshot), a render time exactly on a snapshot → Ready at
//! that snapshot (left = right, seed 002 "第五步"), right missing → Underrun, discrete boundary → InvalidInterval,
//! bracket wider than `gapFactor × sendInterval` → Gap, otherwise Ready. Only Ready carries a position; every other
//! status carries a reason.
//!
//! The rule is written once (`locate`), each check in that order. What it decides comes in two dresses: `sample`
//! explains (a whole [`Sample`], every reason in words) and `sample_drawn` does not (a Ready sample as the small
//! [`Between`], the others without their reason) — for a caller that only draws, every frame. The common case is
//! decided reading the snapshots in place; every other outcome is built off the hot path. Both count the same.
//!
//! The bracket is found with a cursor: the index reached last time. A render time that moved forward a little
//! is found by walking a few entries from there (amortised O(1)); anything else falls back to a binary search.

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
/// [`SnapshotBuffer::sample_drawn`] returns it: the fields of the full [`Sample`] that a caller drawing the
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

/// A sample with nothing in it but its status, render time and reason.
fn not_ready(status: SampleStatus, render_time: f64, reason: Option<Reason>) -> Sample {
    Sample {
        status,
        position: None,
        left: None,
        right: None,
        factor: None,
        render_time,
        reason,
        anchor: None,
        newest: None,
        generation: None,
    }
}

impl Sample {
    /// Seconds from the anchor to the render time (how far an underrun policy must reach), if there is an anchor.
    pub fn ahead(&self) -> Option<f64> {
        self.anchor.map(|a| (self.render_time - a.server_time).max(0.0))
    }
}

impl SnapshotBuffer {
    /// Samples at `render_time` (server seconds), explained: every status but Ready carries its reason. The
    /// counters record the result.
    pub fn sample(&mut self, render_time: f64) -> Sample {
        match self.decide::<true>(render_time) {
            Ok(between) => self.dressed(between, render_time),
            Err(sample) => sample,
        }
    }

    /// The same sample (the same decision, the same counts, the same numbers) for a caller that only draws it: a
    /// Ready interpolation or a render time exactly on a snapshot — nearly every frame — as the small [`Between`];
    /// any other status as a [`Sample`] without its reason (the words are built for nobody there), its anchor and
    /// newest snapshot in place for an underrun policy. Ready before the oldest snapshot (`beforeOldest: oldest`)
    /// is a whole Ready `Sample`.
    // The large `Err` is on purpose: it is built only off the hot path, in place; boxing it would allocate.
    #[allow(clippy::result_large_err)]
    #[inline]
    pub fn sample_drawn(&mut self, render_time: f64) -> Result<Between, Sample> {
        self.decide::<false>(render_time)
    }

    /// Records a `ClockUncertain` sample: the caller's clock cannot be trusted, so the buffer is not consulted.
    /// `reason` is the clock's, in words (`None` when nobody reads it: the sample then carries no reason).
    pub fn sample_uncertain(&mut self, render_time: f64, reason: Option<String>) -> Sample {
        let mut sample = not_ready(SampleStatus::ClockUncertain, render_time, None);
        sample.reason = reason.map(|text| Reason::Clock { text });
        sample.newest = self.newest();
        self.record(sample.status, sample.render_time);
        sample
    }

    /// The one sampling rule (seed 002 "缓冲区查询伪代码"), each check once and in its order, counted. A Ready
    /// interpolation (or exactly on a snapshot) comes back as a [`Between`], decided in place; every other outcome
    /// is built off the hot path as a [`Sample`], with its reason only when `WHY`.
    #[allow(clippy::result_large_err)]
    #[inline(always)]
    fn decide<const WHY: bool>(&mut self, render_time: f64) -> Result<Between, Sample> {
        let decided = self.locate::<WHY>(render_time);
        let status = decided.as_ref().map_or_else(|s| s.status, |_| SampleStatus::Ready);
        self.record(status, render_time);
        decided
    }

    #[allow(clippy::result_large_err)]
    #[inline(always)]
    fn locate<const WHY: bool>(&mut self, render_time: f64) -> Result<Between, Sample> {
        if !render_time.is_finite() {
            return Err(self.render_time_not_finite(WHY, render_time));
        }
        if self.entries.is_empty() {
            return Err(not_ready(SampleStatus::Priming, render_time, WHY.then_some(Reason::NoSnapshot)));
        }
        let at_or_before = self.count_at_or_before(render_time);
        if self.priming_time.is_none() {
            return Err(self.priming(WHY, render_time, at_or_before));
        }
        let Some(left) = at_or_before.checked_sub(1).map(|i| &self.entries[i].snapshot) else {
            return Err(self.before_oldest(WHY, render_time));
        };
        if left.server_time == render_time {
            return Ok(Between::on(left));
        }
        let Some(right) = self.entries.get(at_or_before).map(|e| &e.snapshot) else {
            return Err(self.past_newest(WHY, render_time, at_or_before));
        };
        let span = right.server_time - left.server_time;
        if left.generation != right.generation || right.teleport {
            return Err(self.across_a_boundary(WHY, render_time, at_or_before));
        }
        if span > self.max_bracket {
            return Err(self.too_wide(WHY, render_time, at_or_before));
        }
        let factor = (render_time - left.server_time) / span;
        let position = self.params.interpolation.position(left, right, factor);
        Ok(Between { position, left: left.tick, right: right.tick, factor, generation: left.generation })
    }

    /// The full Ready [`Sample`] of a `Between` found at `render_time` just now (the cursor still at its bracket).
    fn dressed(&self, between: Between, render_time: f64) -> Sample {
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

    /// What every sample that is not Ready holds: the anchor (the last snapshot at or before the render time, the
    /// `at_or_before`-th), its tick and generation, and the newest snapshot.
    #[inline(always)]
    fn standing_on(&self, render_time: f64, at_or_before: usize) -> Sample {
        let anchor = at_or_before.checked_sub(1).map(|i| self.entries[i].snapshot);
        Sample {
            anchor,
            newest: self.newest(),
            left: anchor.map(|a| a.tick),
            generation: anchor.map(|a| a.generation),
            ..not_ready(SampleStatus::Ready, render_time, None)
        }
    }

    #[cold]
    #[inline(never)]
    fn render_time_not_finite(&self, why: bool, render_time: f64) -> Sample {
        let reason = why.then_some(Reason::RenderTimeNotFinite { render_time });
        Sample { newest: self.newest(), ..not_ready(SampleStatus::ClockUncertain, render_time, reason) }
    }

    /// Fewer than `minSnapshots` have ever been held.
    #[cold]
    #[inline(never)]
    fn priming(&self, why: bool, render_time: f64, at_or_before: usize) -> Sample {
        let reason = why.then(|| Reason::Priming { held: self.len(), needed: self.params.min_snapshots });
        Sample { status: SampleStatus::Priming, reason, ..self.standing_on(render_time, at_or_before) }
    }

    /// Before the oldest snapshot kept: seed 002's Gap, or seed 000 §4.3.4's Ready at the oldest.
    #[cold]
    #[inline(never)]
    fn before_oldest(&self, why: bool, render_time: f64) -> Sample {
        let oldest = self.entries[0].snapshot;
        let base = Sample { generation: Some(oldest.generation), ..self.standing_on(render_time, 0) };
        if self.params.before_oldest == BeforeOldest::Oldest {
            return ready(base, &oldest, &oldest, 0.0, oldest.pos);
        }
        let reason = why.then_some(Reason::BeforeOldest {
            render_time,
            oldest_tick: oldest.tick,
            oldest_time: oldest.server_time,
        });
        Sample { status: SampleStatus::Gap, right: Some(oldest.tick), reason, ..base }
    }

    /// Past the newest snapshot: the buffer ran dry. Not rare (a lossy network, an engine's reference with a short
    /// delay), so it is not kept off the hot path.
    #[inline]
    fn past_newest(&self, why: bool, render_time: f64, at_or_before: usize) -> Sample {
        let base = self.standing_on(render_time, at_or_before);
        let reason = why.then(|| {
            let newest = self.entries[self.len() - 1].snapshot;
            Reason::PastNewest {
                render_time,
                newest_tick: newest.tick,
                newest_time: newest.server_time,
                arrival_interval: self.arrivals.interval(),
                delay: None,
            }
        });
        Sample { status: SampleStatus::Underrun, reason, ..base }
    }

    /// The bracket spans a respawn or ends on a teleport (seed 002 "第六步：验证插值区间").
    #[cold]
    #[inline(never)]
    fn across_a_boundary(&self, why: bool, render_time: f64, at_or_before: usize) -> Sample {
        let (left, right) = (self.entries[at_or_before - 1].snapshot, self.entries[at_or_before].snapshot);
        let reason = if !why {
            None
        } else if left.generation != right.generation {
            Some(Reason::Respawn {
                left: left.tick,
                right: right.tick,
                left_generation: left.generation,
                right_generation: right.generation,
            })
        } else {
            Some(Reason::Teleport { tick: right.tick })
        };
        let base = self.standing_on(render_time, at_or_before);
        Sample { status: SampleStatus::InvalidInterval, right: Some(right.tick), reason, ..base }
    }

    /// The bracket is wider than `gapFactor` send intervals.
    #[cold]
    #[inline(never)]
    fn too_wide(&self, why: bool, render_time: f64, at_or_before: usize) -> Sample {
        let (left, right) = (self.entries[at_or_before - 1].snapshot, self.entries[at_or_before].snapshot);
        let reason = why.then_some(Reason::WideBracket {
            left: left.tick,
            right: right.tick,
            span: right.server_time - left.server_time,
            gap_factor: self.params.gap_factor,
            send_interval: self.send_interval,
        });
        let base = self.standing_on(render_time, at_or_before);
        Sample { status: SampleStatus::Gap, right: Some(right.tick), reason, ..base }
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
