//! The timed path player: a queue of timed paths, the seq check and the hard snap (seed 001 "新方案").
//!
//! ```text
//!  ingest(batch, receivedAt)
//!    seq ≤ last accepted seq? ──────────────────────────────► droppedStale
//!    clean (batch.rs): nothing left? ───────────────────────► rejected(emptyBatch)
//!    staleGap  = queue never played, or it ran dry more than `staleGap` s before receivedAt
//!    drift     = |position(receivedAt) − batch's last point|
//!    staleGap && drift > hardSnapDistance? ─────────────────► hardSnapped: clear the queue, jump to the last
//!                                                              point (or, `batchStart`, to the first and play)
//!    otherwise start = max(receivedAt + interpolationDelay, end of the queue)
//!              queue empty ? started : queued
//!
//!  local time ─►   receivedAt   +interpolationDelay
//!                     │◄─────────────►│
//!  queue                              [ active path  ][ buffered path ][ buffered path ]
//!                                     start          end = next start (never overwritten)
//!  sample(now)  ............................ ▲ now: dequeue what has ended, locate `now` on the active path
//! ```
//!
//! The queue is the article's `activePath` (the front) plus `bufferedPaths` (the rest); a new batch never cuts
//! the one that is playing (seed 001 "路径缓冲"). The first batch after idle starts `interpolationDelay` after it
//! was received (seed 001 "插值延迟": `renderTime = receiveTime + 120ms`). A batch that arrives while the queue
//! is still playing starts where the queue ends, so batches that connect play without a jump.
//!
//! Hard snap needs both conditions (seed 001 "断档纠偏": `if staleGap && driftTooLarge`). The article's sketch
//! treats "no queued end time" as stale; here the end of the last path played is remembered after the queue
//! drains, so `staleGap` means what the issue says: the queue had been dry for longer than `staleGap` when the
//! batch arrived. Before anything was ever played there is no rendered position, hence no drift and no snap.
//!
//! `sample(now)` is a function of the queue and `now`; it only drops paths that have ended. Call it with `now`
//! moving forward; an earlier `now` is answered from what is left (paths already dropped are not replayed).

use crate::geom::Vec2;
use crate::param::ParamError;
use crate::path::batch::{clean, CleanReport, PathBatch, TimingKind};
use crate::path::params::{PathParams, SnapTarget};
use crate::path::timeline::TimedPath;
use serde::Serialize;
use std::collections::VecDeque;

/// The most paths the queue holds (active + buffered); a batch beyond it is rejected (`queueFull`).
pub const MAX_QUEUED_PATHS: usize = 256;

/// Two points closer than this (px) are the same place when checking that paths connect.
const CONNECT_TOLERANCE: f64 = 1e-6;

/// Why a batch was refused without playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RejectReason {
    /// No point was left after dropping non-finite and out-of-range ones.
    EmptyBatch,
    /// `receivedAt` was NaN or infinite.
    InvalidReceiveTime,
    /// The queue already held [`MAX_QUEUED_PATHS`] paths.
    QueueFull,
}

/// What `ingest` did with a batch.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "camelCase")]
pub enum IngestOutcome {
    /// The queue was empty: the batch is the active path from `start` on.
    Started {
        path: u64,
        start: f64,
        timing: TimingKind,
    },
    /// The batch waits behind `ahead` paths and starts at `start`.
    Queued {
        path: u64,
        start: f64,
        timing: TimingKind,
        ahead: usize,
    },
    /// Stale gap and drift: the queue is cleared and the entity jumps to `to` — the batch's last point, or with
    /// `hardSnapTarget: batchStart` its first point, from where the batch then plays.
    HardSnapped {
        to: Vec2,
        drift: f64,
        gap: f64,
    },
    /// `seq` was not newer than the last accepted one.
    #[serde(rename_all = "camelCase")]
    DroppedStale {
        seq: u64,
        last_seq: u64,
    },
    Rejected {
        reason: RejectReason,
    },
}

/// Everything the player has counted since it was created.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathCounters {
    /// Every call to `ingest`.
    pub batches: u64,
    pub started: u64,
    pub queued: u64,
    pub snaps: u64,
    pub stale_dropped: u64,
    /// Batches with no usable point (`rejected(emptyBatch)`).
    pub empty_batches: u64,
    /// Accepted batches with a single point: a hold, not a motion.
    pub single_points: u64,
    pub duplicates_removed: u64,
    pub non_finite_points: u64,
    pub out_of_range_points: u64,
    /// Accepted batches played on estimated (V1) or received (V2) times.
    pub v1_batches: u64,
    pub v2_batches: u64,
    /// Batches that carried `offsetMs` but were played as V1 because the offsets were invalid.
    pub v2_fallbacks: u64,
    /// V2 batches whose `durationMs` was unusable.
    pub durations_ignored: u64,
    /// Segments between two different points that last less than `MIN_SEGMENT_DURATION` (same `offsetMs`):
    /// played as a jump.
    pub zero_duration_segments: u64,
    /// Paths that begin away from where the previous path (or the rest position) ended.
    pub boundary_jumps: u64,
    pub invalid_receive_times: u64,
    pub queue_full: u64,
    /// `sample` calls with a non-finite `now`.
    pub invalid_sample_times: u64,
}

impl PathCounters {
    fn add_report(&mut self, report: &CleanReport) {
        self.duplicates_removed += report.duplicates_removed as u64;
        self.non_finite_points += report.non_finite_points as u64;
        self.out_of_range_points += report.out_of_range_points as u64;
        self.v2_fallbacks += u64::from(report.v2_fallback.is_some());
        self.durations_ignored += u64::from(report.duration_ignored);
    }
}

/// What the player is doing at a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PlaybackState {
    /// Nothing accepted yet: no position.
    Empty,
    /// A path is queued but its start time has not come: holding where the entity is.
    Waiting,
    /// Inside the active path's span (moving, or holding inside a V2 timeline).
    Playing,
    /// The queue ran dry: holding at the last point.
    Idle,
}

/// One sample of the player, per client frame (seed 001 "动画切换会更自然": direction from the velocity,
/// run / idle from `moving`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub time: f64,
    pub state: PlaybackState,
    /// `None` only while `Empty`.
    pub position: Option<Vec2>,
    /// Units per second along the current segment; zero when holding.
    pub velocity: Vec2,
    pub moving: bool,
    /// The id of the active path (ids count accepted batches from 0).
    pub path: Option<u64>,
    /// The segment of the active path being played.
    pub segment: Option<usize>,
    /// Paths waiting behind the active one (the article's `bufferedPaths`).
    pub buffered: usize,
}

impl Frame {
    /// A frame standing still (waiting, idle or empty).
    fn holding(time: f64, state: PlaybackState, position: Option<Vec2>, path: Option<u64>, buffered: usize) -> Self {
        Frame { time, state, position, velocity: Vec2::ZERO, moving: false, path, segment: None, buffered }
    }
}

#[derive(Clone, Debug)]
struct QueuedPath {
    id: u64,
    path: TimedPath,
}

/// Plays received batches on one timeline (seed 001 steps 1–7 plus the queue, seq and hard snap).
#[derive(Clone, Debug)]
pub struct PathPlayer {
    params: PathParams,
    queue: VecDeque<QueuedPath>,
    /// Where the entity stands when no path covers the time: the last path's end or the snap point.
    rest: Option<Vec2>,
    /// End time of the last path queued (or of the snap); kept after the queue drains.
    queued_end: Option<f64>,
    last_seq: Option<u64>,
    next_id: u64,
    last_now: Option<f64>,
    counters: PathCounters,
}

impl PathPlayer {
    /// A player with checked parameters.
    pub fn new(params: PathParams) -> Result<Self, ParamError> {
        params.validate()?;
        Ok(PathPlayer {
            params,
            queue: VecDeque::new(),
            rest: None,
            queued_end: None,
            last_seq: None,
            next_id: 0,
            last_now: None,
            counters: PathCounters::default(),
        })
    }

    pub fn params(&self) -> &PathParams {
        &self.params
    }

    pub fn counters(&self) -> &PathCounters {
        &self.counters
    }

    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// The end of the queue's timeline (kept after it drains); `None` before anything was accepted.
    pub fn queued_end(&self) -> Option<f64> {
        self.queued_end
    }

    /// The queued paths with their ids, active first (for drawing the timeline).
    pub fn paths(&self) -> impl Iterator<Item = (u64, &TimedPath)> {
        self.queue.iter().map(|q| (q.id, &q.path))
    }

    /// Receives one batch at local time `received_at` (seconds). Never panics; every outcome is counted.
    pub fn ingest(&mut self, batch: &PathBatch, received_at: f64) -> IngestOutcome {
        self.counters.batches += 1;
        if !received_at.is_finite() {
            self.counters.invalid_receive_times += 1;
            return IngestOutcome::Rejected { reason: RejectReason::InvalidReceiveTime };
        }
        if let (Some(seq), Some(last_seq)) = (batch.seq, self.last_seq) {
            if seq <= last_seq {
                self.counters.stale_dropped += 1;
                return IngestOutcome::DroppedStale { seq, last_seq };
            }
        }
        let cleaned = clean(batch, self.params.duplicates);
        self.counters.add_report(&cleaned.report);
        let start = match self.queued_end {
            Some(end) => end.max(received_at + self.params.interpolation_delay),
            None => received_at + self.params.interpolation_delay,
        };
        let Some(path) = TimedPath::build(&cleaned, start, self.params.speed) else {
            self.counters.empty_batches += 1;
            return IngestOutcome::Rejected { reason: RejectReason::EmptyBatch };
        };
        if let Some((drift, gap)) = self.needs_hard_snap(path.last, received_at) {
            return self.hard_snap(batch.seq, path, received_at, drift, gap);
        }
        if self.queue.len() >= MAX_QUEUED_PATHS {
            self.counters.queue_full += 1;
            return IngestOutcome::Rejected { reason: RejectReason::QueueFull };
        }
        let id = self.accept(batch.seq, &path);
        self.enqueue(id, path)
    }

    /// Seed 001 "断档纠偏": `Some((drift, gap))` when the queue has been dry too long and the drift is too large.
    /// A drift needs a rendered position, which needs an earlier path or snap, which set `queued_end`.
    fn needs_hard_snap(&self, last: Vec2, received_at: f64) -> Option<(f64, f64)> {
        let gap = self.queued_end.map_or(f64::INFINITY, |end| received_at - end);
        let drift = self.position_at(received_at)?.distance(last);
        (gap > self.params.stale_gap && drift > self.params.hard_snap_distance).then_some((drift, gap))
    }

    fn hard_snap(
        &mut self,
        seq: Option<u64>,
        path: TimedPath,
        received_at: f64,
        drift: f64,
        gap: f64,
    ) -> IngestOutcome {
        self.queue.clear();
        self.counters.snaps += 1;
        let id = self.accept(seq, &path);
        let to = match self.params.hard_snap_target {
            SnapTarget::LatestPoint => {
                self.rest = Some(path.last);
                self.queued_end = Some(received_at);
                path.last
            }
            SnapTarget::BatchStart => {
                // The queue was dry, so the path already starts at `received_at + interpolationDelay`.
                self.rest = Some(path.first);
                let first = path.first;
                self.enqueue(id, path);
                first
            }
        };
        IngestOutcome::HardSnapped { to, drift, gap }
    }

    /// Records an accepted batch (played or snapped to) and returns its path id.
    fn accept(&mut self, seq: Option<u64>, path: &TimedPath) -> u64 {
        if seq.is_some() {
            self.last_seq = seq;
        }
        match path.timing {
            TimingKind::V1 => self.counters.v1_batches += 1,
            TimingKind::V2 => self.counters.v2_batches += 1,
        }
        self.counters.single_points += u64::from(path.segments.is_empty());
        self.next_id += 1;
        self.next_id - 1
    }

    fn enqueue(&mut self, id: u64, path: TimedPath) -> IngestOutcome {
        let previous_end = self.queue.back().map(|q| q.path.last).or(self.rest);
        if previous_end.is_some_and(|p| p.distance(path.first) > CONNECT_TOLERANCE) {
            self.counters.boundary_jumps += 1;
        }
        let jumps = path.segments.iter().filter(|s| s.is_jump()).count();
        self.counters.zero_duration_segments += jumps as u64;
        let (start, timing, ahead) = (path.start, path.timing, self.queue.len());
        self.queued_end = Some(path.end);
        self.queue.push_back(QueuedPath { id, path });
        if ahead == 0 {
            self.counters.started += 1;
            IngestOutcome::Started { path: id, start, timing }
        } else {
            self.counters.queued += 1;
            IngestOutcome::Queued { path: id, start, timing, ahead }
        }
    }

    /// Where the queue puts the entity at `t`, without changing anything (`None` before any position).
    pub fn position_at(&self, t: f64) -> Option<Vec2> {
        let mut before = self.rest;
        for queued in &self.queue {
            if t < queued.path.start {
                return Some(before.unwrap_or(queued.path.first));
            }
            if t < queued.path.end {
                return Some(queued.path.locate(t).position);
            }
            before = Some(queued.path.last);
        }
        before
    }

    /// The frame at local time `now`: drops the paths that have ended, then locates `now` on the active one.
    /// A non-finite `now` is counted and answered with the frame at the previous valid time.
    pub fn sample(&mut self, now: f64) -> Frame {
        let now = if now.is_finite() {
            now
        } else {
            self.counters.invalid_sample_times += 1;
            match self.last_now {
                Some(previous) => previous,
                None => return self.idle_frame(now),
            }
        };
        self.last_now = Some(now);
        while let Some(ended) = self.queue.front().filter(|q| q.path.end <= now) {
            self.rest = Some(ended.path.last);
            self.queue.pop_front();
        }
        let Some(active) = self.queue.front() else {
            return self.idle_frame(now);
        };
        let buffered = self.queue.len() - 1;
        if now < active.path.start {
            let position = self.rest.unwrap_or(active.path.first);
            return Frame::holding(now, PlaybackState::Waiting, Some(position), Some(active.id), buffered);
        }
        let located = active.path.locate(now);
        Frame {
            time: now,
            state: PlaybackState::Playing,
            position: Some(located.position),
            velocity: located.velocity,
            moving: located.is_moving(),
            path: Some(active.id),
            segment: located.segment,
            buffered,
        }
    }

    fn idle_frame(&self, now: f64) -> Frame {
        let state = if self.rest.is_some() { PlaybackState::Idle } else { PlaybackState::Empty };
        Frame::holding(now, state, self.rest, None, 0)
    }
}
