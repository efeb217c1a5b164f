//! Inserting an arrival: every snapshot that reaches the buffer gets exactly one outcome, and one counter.
//!
//! ```text
//!  arrival ─► finite, sane?          no ─► Invalid   (field named: serverTime, x, …, arrival)
//!           ─► same entity?           no ─► Invalid   (field `entity`)
//!           ─► tick already held?    yes ─► Duplicate (same content) │ Conflict (first kept, both reported)
//!           ─► tick already passed?  yes ─► LateDuplicate (a copy of a snapshot already played and pruned)
//!                                           │ Conflict (the pruned copy differed)  │ Late (unknown tick, or too old)
//!           ─► tick order = time order?no ─► Invalid   (field `serverTime`, the disagreeing neighbour named)
//!           ─► buffer full, oldest?  yes ─► Late
//!           ─► Inserted { outOfOrder, evicted }   binary search by tick, which is also server-time order
//! ```
//! Seed 002 §"第三步"/"重复快照": a duplicate is counted and not inserted; a conflict is a protocol error, both
//! contents are reported and the first is kept — never "last arrival wins". A copy of a tick that was already
//! pruned is still a duplicate transmission ("可识别为重复传输 … 记录重复计数"): the last [`DROPPED_MEMORY`] dropped
//! snapshots are remembered, so such a copy is reported as a *late duplicate* (counted in `duplicates` and in
//! `lateDuplicates`), not as an unknown late arrival. Because tick order and server-time
//! order must agree, one binary search finds both the duplicate and the insertion point (O(log n)); the shift
//! that follows is O(1) for in-order arrivals (the window grows at the back and evicts at the front). The usual
//! arrival — valid, the next tick, later in server time — is recognised first in a few comparisons (`is_next`)
//! and appended without the search and the lookups, which cannot find anything for it; a test holds the
//! shortcut to the full check's decisions on a stream of every kind of arrival.

use super::{Entry, SnapshotBuffer};

/// How many dropped (pruned or evicted) snapshots are remembered to recognise late duplicates: a bounded memory,
/// 3 s at 20 Hz. A copy of an older tick is reported as `Late`.
pub const DROPPED_MEMORY: usize = 64;
use crate::snapshot::{InvalidSnapshot, Problem, Snapshot};
use serde::Serialize;

/// What happened to one arrival.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "outcome")]
pub enum InsertOutcome {
    /// Stored. `out_of_order`: older than the newest tick already accepted (seed 002 "乱序到达").
    /// `evicted`: the oldest snapshot dropped to respect the capacity.
    #[serde(rename_all = "camelCase")]
    Inserted { out_of_order: bool, evicted: Option<Snapshot> },
    /// The same tick with the same content is already held: counted, not inserted.
    Duplicate { tick: u64 },
    /// The same tick with the same content was held and has since been pruned (or evicted): a duplicate that came
    /// late. Counted as a duplicate (and as a late duplicate), not inserted.
    LateDuplicate { tick: u64 },
    /// The same tick with different content: the first is kept, both are reported, `field` is the first difference.
    Conflict { kept: Snapshot, rejected: Snapshot, field: &'static str },
    /// Refused; the field is named.
    Invalid(InvalidSnapshot),
    /// Too old to matter: its place in the timeline was already pruned or evicted, or the buffer is full of
    /// newer snapshots.
    Late { tick: u64 },
}

impl InsertOutcome {
    pub fn is_inserted(&self) -> bool {
        matches!(self, InsertOutcome::Inserted { .. })
    }
}

impl SnapshotBuffer {
    /// Files one arrival: `snapshot` reached the client at local time `arrival` (seconds). Never panics.
    // Inlined whole: the usual arrival's snapshot then stays in registers, never stored and read back (the
    // core has two callers; the rest is `insert_checked`).
    #[inline(always)]
    pub fn insert(&mut self, snapshot: Snapshot, arrival: f64) -> InsertOutcome {
        self.counts.received += 1;
        if self.is_next(&snapshot, arrival) {
            return self.store_next(Entry { snapshot, arrival });
        }
        self.insert_checked(snapshot, arrival)
    }

    /// Whether `s` is the usual arrival, which `check` would place at the back: valid, of this buffer's entity,
    /// and newer than the newest snapshot held in tick and in server time — decided in a few comparisons, without
    /// the search, the duplicate lookups or the neighbour checks (nothing at the back to duplicate or disagree
    /// with, and the floor, the newest dropped, is older than every snapshot held). Everything else, including
    /// the first arrival, goes through `check`.
    #[inline(always)]
    pub(super) fn is_next(&self, s: &Snapshot, arrival: f64) -> bool {
        let Some(last) = self.entries.last() else { return false };
        s.is_valid()
            & arrival.is_finite()
            & (self.entity == Some(s.entity))
            & (last.snapshot.tick < s.tick)
            & (last.snapshot.server_time < s.server_time)
    }

    /// Every arrival that is not the usual one: checked in full, then stored or refused.
    #[inline(never)]
    fn insert_checked(&mut self, snapshot: Snapshot, arrival: f64) -> InsertOutcome {
        match self.check(&snapshot, arrival) {
            Ok(at) => self.store(at, Entry { snapshot, arrival }),
            Err(refused) => self.refuse(*refused),
        }
    }

    /// `insert` without its shortcut: every arrival through the full check (the tests' reference).
    #[cfg(test)]
    pub(super) fn reference_insert(&mut self, snapshot: Snapshot, arrival: f64) -> InsertOutcome {
        self.counts.received += 1;
        self.insert_checked(snapshot, arrival)
    }

    /// Counts a refused arrival (kept out of the hot path: most arrivals are stored).
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, outcome: InsertOutcome) -> InsertOutcome {
        match outcome {
            InsertOutcome::Inserted { .. } => {}
            InsertOutcome::Duplicate { .. } => self.counts.duplicates += 1,
            InsertOutcome::LateDuplicate { .. } => {
                self.counts.duplicates += 1;
                self.counts.late_duplicates += 1;
            }
            InsertOutcome::Conflict { .. } => self.counts.conflicts += 1,
            InsertOutcome::Invalid(_) => self.counts.invalid += 1,
            InsertOutcome::Late { .. } => self.counts.late += 1,
        }
        outcome
    }

    /// Where `s` goes (an index), or why it does not.
    fn check(&self, s: &Snapshot, arrival: f64) -> Result<usize, Box<InsertOutcome>> {
        let invalid =
            |field, problem| Box::new(InsertOutcome::Invalid(InvalidSnapshot { tick: s.tick, field, problem }));
        s.validate().map_err(|e| Box::new(InsertOutcome::Invalid(e)))?;
        if !arrival.is_finite() {
            return Err(invalid("arrival", Problem::NotFinite { value: arrival }));
        }
        if let Some(expected) = self.entity.filter(|&e| e != s.entity) {
            return Err(invalid("entity", Problem::OtherEntity { expected, got: s.entity }));
        }
        // The usual arrival is the newest so far: it goes at the back, no search needed.
        let at = match self.entries.last() {
            Some(last) if last.snapshot.tick < s.tick => self.entries.len(),
            _ => self.entries.partition_point(|e| e.snapshot.tick < s.tick),
        };
        if let Some(held) = self.entries.get(at).map(|e| e.snapshot).filter(|h| h.tick == s.tick) {
            return Err(Box::new(match held.first_difference(s) {
                None => InsertOutcome::Duplicate { tick: s.tick },
                Some(field) => InsertOutcome::Conflict { kept: held, rejected: *s, field },
            }));
        }
        let dropped = self.entries.popped();
        let floor = dropped.last().map(|d| &d.snapshot);
        if floor.is_some_and(|floor| s.tick <= floor.tick) {
            if let Ok(i) = dropped.binary_search_by(|d| d.snapshot.tick.cmp(&s.tick)) {
                let was = dropped[i].snapshot;
                return Err(Box::new(match was.first_difference(s) {
                    None => InsertOutcome::LateDuplicate { tick: s.tick },
                    Some(field) => InsertOutcome::Conflict { kept: was, rejected: *s, field },
                }));
            }
            return Err(Box::new(InsertOutcome::Late { tick: s.tick }));
        }
        let before = if at > 0 { self.entries.get(at - 1).map(|e| &e.snapshot) } else { floor };
        let after = self.entries.get(at).map(|e| &e.snapshot);
        let disagreeing =
            before.filter(|b| b.server_time >= s.server_time).or(after.filter(|a| a.server_time <= s.server_time));
        if let Some(n) = disagreeing {
            let problem = Problem::OutOfTickOrder {
                neighbour_tick: n.tick,
                neighbour_time: n.server_time,
                server_time: s.server_time,
            };
            return Err(invalid("serverTime", problem));
        }
        if at == 0 && self.entries.len() >= self.params.capacity {
            return Err(Box::new(InsertOutcome::Late { tick: s.tick }));
        }
        Ok(at)
    }

    /// `store` for the usual arrival (`is_next`), without re-deriving what is known for it: it goes at the back
    /// (after the cursor, whatever it is), it is not out of order (the newest snapshot held is the newest ever
    /// accepted: nothing is dropped from the back), it is the newest tick, and the entity and the first arrival
    /// are set already. Counts and decides exactly as `store` (the shortcut test compares the two ways).
    #[inline(always)]
    fn store_next(&mut self, entry: Entry) -> InsertOutcome {
        debug_assert!(self.newest_tick.is_some_and(|newest| newest < entry.snapshot.tick));
        debug_assert!(self.entity.is_some() && self.first_arrival.is_some() && self.cursor <= self.entries.len());
        self.newest_tick = Some(entry.snapshot.tick);
        self.arrivals.record(entry.snapshot.server_time, entry.arrival);
        self.entries.push_back(entry);
        let evicted = if self.entries.len() > self.params.capacity { self.drop_oldest() } else { None };
        self.counts.inserted += 1;
        self.counts.evicted += u64::from(evicted.is_some());
        if self.priming_time.is_none() && self.entries.len() >= self.params.min_snapshots {
            self.priming_time = self.first_arrival.map(|first| entry.arrival - first);
        }
        InsertOutcome::Inserted { out_of_order: false, evicted }
    }

    #[inline(always)]
    fn store(&mut self, at: usize, entry: Entry) -> InsertOutcome {
        let s = entry.snapshot;
        let out_of_order = self.newest_tick.is_some_and(|newest| s.tick < newest);
        self.newest_tick = Some(self.newest_tick.map_or(s.tick, |t| t.max(s.tick)));
        self.entity.get_or_insert(s.entity);
        self.first_arrival.get_or_insert(entry.arrival);
        self.arrivals.record(s.server_time, entry.arrival);
        if at == self.entries.len() {
            self.entries.push_back(entry);
        } else {
            self.entries.insert(at, entry);
        }
        if at < self.cursor {
            self.cursor += 1;
        }
        let evicted = if self.entries.len() > self.params.capacity { self.drop_oldest() } else { None };
        self.counts.inserted += 1;
        self.counts.out_of_order += u64::from(out_of_order);
        self.counts.evicted += u64::from(evicted.is_some());
        if self.priming_time.is_none() && self.entries.len() >= self.params.min_snapshots {
            self.priming_time = self.first_arrival.map(|first| entry.arrival - first);
        }
        InsertOutcome::Inserted { out_of_order, evicted }
    }

    /// Removes the oldest snapshot; its tick becomes the floor below which arrivals are late (the newest dropped).
    /// It is remembered (the last [`DROPPED_MEMORY`], in front of the window) so that a later copy of it is
    /// recognised as a late duplicate.
    #[inline]
    pub(super) fn drop_oldest(&mut self) -> Option<Snapshot> {
        let gone = self.entries.pop_front()?.snapshot;
        self.cursor = self.cursor.saturating_sub(1);
        Some(gone)
    }
}
