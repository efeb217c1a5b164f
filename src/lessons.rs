//! What the page's lessons and step-through need that the timelines do not carry — computed by the core's own
//! parts, never re-derived in JavaScript.
//!
//! | function | for | what it runs |
//! |---|---|---|
//! | [`walk`] | the step-through (seed 002 "可单步观察的过程") | a snapshot trace through [`RemotePlayback`], recording each delivery (outcome, where it went in the sorted buffer) and each frame (render time, bracket with its snapshots, factor, status, reason) |
//! | [`hard_snap_table`] | seed 001 "断档纠偏" | four fresh [`PathPlayer`]s, one per cell of *stale gap × drift too large* |
//! | [`correction_jumps`] | seed 003 "第三步" | each [`Smoother`] through a run's corrections: how far the view moves at the instant of each |
//!
//! ```text
//!  walk:  local ─►  10.00   10.08      10.23          10.25          10.30
//!         event     send    ■100 in    ■102 in [100,102]  ■101 in [100,101,102]  frame: render 10.15,
//!                           [100]      (end)          (index 1: sorted by server time)  101─102, factor 0.5
//! ```
//! The walk delivers exactly as [`crate::trace::replay()`] does (arrival order, ties in document order; RTT
//! samples merged by time, snapshots first), so its frames are the replay's samples plus the why; a test keeps
//! the two in step for every built-in trace.

use crate::buffer::{InsertOutcome, Reason, SampleStatus};
use crate::display::DisplayMode;
use crate::geom::Vec2;
use crate::param::ParamError;
use crate::path::batch::PathBatch;
use crate::path::params::PathParams;
use crate::path::player::{IngestOutcome, PathPlayer};
use crate::playback::RemotePlayback;
use crate::predict::smoothing::{Smoother, SmoothingMode, SmoothingParams};
use crate::snapshot::Snapshot;
use crate::trace::{Trace, TraceData, TraceError};
use serde::Serialize;

/// A snapshot as the walk names it: tick, server time, position.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Held {
    pub tick: u64,
    pub server_time: f64,
    pub x: f64,
    pub y: f64,
}

impl Held {
    fn of(s: &Snapshot) -> Self {
        Held { tick: s.tick, server_time: s.server_time, x: s.pos.x, y: s.pos.y }
    }
}

/// One delivery: a snapshot reached the buffer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    /// Index of the snapshot in the trace (document order).
    pub index: usize,
    pub tick: u64,
    pub server_time: f64,
    /// Local time the server sent it: `serverTime − clockOffset`.
    pub sent: f64,
    pub arrival: f64,
    pub x: f64,
    pub y: f64,
    /// `inserted`, `duplicate`, `conflict`, `invalid` or `late`.
    pub outcome: &'static str,
    /// Older than the newest tick already accepted (seed 002 "乱序到达").
    pub out_of_order: bool,
    /// The buffer after the delivery, oldest first (ticks).
    pub order: Vec<u64>,
    /// Where the snapshot went in `order` (inserted only).
    pub position: Option<usize>,
}

/// One frame: the pipeline's answer at one local time, with the evidence.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WalkFrame {
    pub local: f64,
    pub dt: f64,
    /// `None` while the clock has no estimate at all.
    pub render_time: Option<f64>,
    /// The render delay in force.
    pub delay: f64,
    pub status: SampleStatus,
    pub mode: DisplayMode,
    /// What is shown (any mode but hidden).
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub left: Option<Held>,
    pub right: Option<Held>,
    /// Where the render time sits between left (0) and right (1); Ready only.
    pub factor: Option<f64>,
    /// The newest snapshot held.
    pub newest: Option<Held>,
    /// The buffer when it was sampled, oldest first (ticks).
    pub buffered: Vec<u64>,
    /// Why the sample is not Ready, as a kind and its numbers (the page words it in either language).
    pub why: Option<Reason>,
}

/// Deliveries and frames of one snapshot trace, each in time order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Walk {
    pub deliveries: Vec<Delivery>,
    pub frames: Vec<WalkFrame>,
    pub render_delay: f64,
    pub send_interval: f64,
    pub clock_offset: f64,
}

fn outcome_name(outcome: &InsertOutcome) -> &'static str {
    match outcome {
        InsertOutcome::Inserted { .. } => "inserted",
        InsertOutcome::Duplicate { .. } => "duplicate",
        InsertOutcome::Conflict { .. } => "conflict",
        InsertOutcome::Invalid(_) => "invalid",
        InsertOutcome::Late { .. } => "late",
        InsertOutcome::LateDuplicate { .. } => "lateDuplicate",
    }
}

/// Walks a `snapshots` trace. Only deliveries sent at or before `to` and arriving at or after `from`, and
/// frames in `from..=to` (local time), are returned; the whole trace is replayed regardless.
pub fn walk(trace: &Trace, from: f64, to: f64) -> Result<Walk, TraceError> {
    trace.validate()?;
    let TraceData::Snapshots { snapshots, rtt } = &trace.data else {
        return Err(TraceError::new("kind", "the step-through walks traces of kind \"snapshots\""));
    };
    let (params, stream) = (trace.params.playback(), trace.params.stream(snapshots));
    let (offset, render_delay, send_interval) = (stream.clock_offset, params.clock.render_delay, stream.send_interval);
    let mut playback = RemotePlayback::new(params, &stream).map_err(TraceError::param)?;
    let mut order: Vec<usize> = (0..snapshots.len()).collect();
    order.sort_by(|&a, &b| snapshots[a].arrival.total_cmp(&snapshots[b].arrival));
    let mut pings: Vec<_> = rtt.iter().collect();
    pings.sort_by(|a, b| a.at.total_cmp(&b.at));
    let (mut next, mut next_ping) = (0, 0);
    let in_window = |t: f64| t >= from && t <= to;
    let mut deliveries = Vec::new();
    let mut frames = Vec::new();
    let mut previous: Option<f64> = None;
    let times = trace.sample_at.iter().copied().map(Some).chain([None]);
    for t in times {
        let until = t.unwrap_or(f64::INFINITY);
        loop {
            let snapshot = order.get(next).map(|&i| (i, &snapshots[i])).filter(|(_, s)| s.arrival <= until);
            let ping = pings.get(next_ping).filter(|r| r.at <= until);
            match (snapshot, ping) {
                (Some((_, s)), Some(r)) if r.at < s.arrival => {
                    playback.on_rtt_sample(r.at, r.rtt);
                    next_ping += 1;
                }
                (None, Some(r)) => {
                    playback.on_rtt_sample(r.at, r.rtt);
                    next_ping += 1;
                }
                (Some((index, s)), _) => {
                    let snap = s.snapshot();
                    let outcome = playback.on_snapshot(snap, s.arrival);
                    next += 1;
                    let sent = s.server_time - offset;
                    if sent <= to && s.arrival >= from {
                        let held: Vec<u64> = playback.buffer().snapshots().map(|h| h.tick).collect();
                        let inserted = outcome.is_inserted();
                        deliveries.push(Delivery {
                            index,
                            tick: s.tick,
                            server_time: s.server_time,
                            sent,
                            arrival: s.arrival,
                            x: s.x,
                            y: s.y,
                            outcome: outcome_name(&outcome),
                            out_of_order: matches!(outcome, InsertOutcome::Inserted { out_of_order: true, .. }),
                            position: if inserted { held.iter().position(|&k| k == s.tick) } else { None },
                            order: held,
                        });
                    }
                }
                (None, None) => break,
            }
        }
        let Some(t) = t else { break };
        let buffered: Vec<Snapshot> = playback.buffer().snapshots().copied().collect();
        let dt = previous.map_or(0.0, |p| t - p);
        let frame = playback.frame(t, dt);
        previous = Some(t);
        if !in_window(t) {
            continue;
        }
        let find = |tick: Option<u64>| tick.and_then(|k| buffered.iter().find(|s| s.tick == k)).map(Held::of);
        let position: Option<Vec2> = frame.displayed.position;
        frames.push(WalkFrame {
            local: t,
            dt,
            render_time: Some(frame.reading.render_time).filter(|r| r.is_finite()),
            delay: frame.reading.delay,
            status: frame.sample.status,
            mode: frame.displayed.mode,
            x: position.map(|p| p.x),
            y: position.map(|p| p.y),
            left: find(frame.sample.left),
            right: find(frame.sample.right),
            factor: frame.sample.factor,
            newest: buffered.last().map(Held::of),
            buffered: buffered.iter().map(|s| s.tick).collect(),
            why: frame.sample.reason.clone(),
        });
    }
    Ok(Walk { deliveries, frames, render_delay, send_interval, clock_offset: offset })
}

/// One cell of seed 001's hard-snap rule: a batch arriving with or without a stale gap, near or far.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapCell {
    pub stale: bool,
    pub far: bool,
    /// Seconds the queue had been dry when the batch arrived (negative: still playing).
    pub gap: f64,
    /// Distance from the rendered position to the batch's last point.
    pub drift: f64,
    /// What the player did: `started`, `queued`, `hardSnapped`, …
    pub outcome: &'static str,
    pub snapped: bool,
}

fn ingest_name(outcome: &IngestOutcome) -> &'static str {
    match outcome {
        IngestOutcome::Started { .. } => "started",
        IngestOutcome::Queued { .. } => "queued",
        IngestOutcome::HardSnapped { .. } => "hardSnapped",
        IngestOutcome::DroppedStale { .. } => "droppedStale",
        IngestOutcome::Rejected { .. } => "rejected",
    }
}

/// Seed 001 "只有当路径断档并且漂移过大同时发生时，才直接吸附到最新点", asked of the real player: a first V1 batch
/// (0,0)→(60,0) is received at 0 and plays; a second batch, ending 10 px (near) or `hardSnapDistance` + 50 px
/// (far) from where the entity is, arrives while the first still plays or `staleGap` + 0.5 s after it ended.
pub fn hard_snap_table(params: &PathParams) -> Result<[SnapCell; 4], ParamError> {
    params.validate()?;
    let first = PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0)]);
    let mut cells = [SnapCell { stale: false, far: false, gap: 0.0, drift: 0.0, outcome: "", snapped: false }; 4];
    for (i, (stale, far)) in [(false, false), (false, true), (true, false), (true, true)].into_iter().enumerate() {
        let mut player = PathPlayer::new(*params)?;
        player.ingest(&first, 0.0);
        let end = player.queued_end().unwrap_or(0.0);
        let at = if stale { end + params.stale_gap + 0.5 } else { (end - 0.05).max(params.interpolation_delay) };
        player.sample(at);
        let here = player.position_at(at).unwrap_or(Vec2::ZERO);
        let reach = if far { params.hard_snap_distance + 50.0 } else { 10.0 };
        let second = PathBatch::v1(at, &[(here.x, here.y), (here.x + reach, here.y)]);
        let outcome = player.ingest(&second, at);
        cells[i] = SnapCell {
            stale,
            far,
            gap: at - end,
            drift: reach,
            outcome: ingest_name(&outcome),
            snapped: matches!(outcome, IngestOutcome::HardSnapped { .. }),
        };
    }
    Ok(cells)
}

/// The largest on-screen jump at the instant of a correction, per smoothing mode (world units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionJumps {
    pub corrections: usize,
    pub half_life: f64,
    pub snap: f64,
    pub first_version: f64,
    pub linear: f64,
}

/// Seed 003 §"第三步": `O_new = O_old + P_old − P_new`, so `P_new + O_new = P_old + O_old` — the physics moves
/// at once, the view does not. Each row is one correction `[local, beforeX, beforeY, afterX, afterY, reset]`
/// (the run's `corrections` timeline); every mode's [`Smoother`] rests at `before`, takes the correction and
/// renders at `after`; the jump is how far the view moved in that instant. Resets (teleports) are skipped.
pub fn correction_jumps(params: &SmoothingParams, rows: &[[f64; 6]]) -> Result<CorrectionJumps, ParamError> {
    params.validate()?;
    let jumps = |mode: SmoothingMode| {
        let mut smoother = Smoother::new(mode);
        let (mut last, mut max) = (None::<f64>, 0.0f64);
        for r in rows {
            let (before, after) = (Vec2::new(r[1], r[2]), Vec2::new(r[3], r[4]));
            if !(r[0].is_finite() && before.is_finite() && after.is_finite()) {
                continue;
            }
            if let Some(t) = last {
                smoother.advance((r[0] - t).max(0.0), params);
            }
            last = Some(r[0]);
            if r[5] == 1.0 {
                smoother.reset();
                continue;
            }
            smoother.end_frame(before, params);
            let shown = smoother.render(before, params);
            smoother.add_correction(before - after, params);
            max = max.max(smoother.render(after, params).distance(shown));
            smoother.end_frame(after, params);
        }
        max
    };
    Ok(CorrectionJumps {
        corrections: rows.iter().filter(|r| r[5] != 1.0).count(),
        half_life: jumps(SmoothingMode::HalfLife),
        snap: jumps(SmoothingMode::Snap),
        first_version: jumps(SmoothingMode::FirstVersion),
        linear: jumps(SmoothingMode::Linear),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::examples::{example, EXAMPLES};
    use crate::trace::replay::{replay, ReplaySamples};
    use approx::assert_relative_eq;

    #[test]
    fn the_walk_frames_are_the_replay_samples() {
        for e in EXAMPLES.iter().filter(|e| matches!(e.trace().data, TraceData::Snapshots { .. })) {
            let trace = e.trace();
            let walk = walk(&trace, f64::NEG_INFINITY, f64::INFINITY).unwrap();
            let ReplaySamples::Snapshots(samples) = replay(&trace).unwrap().samples else { unreachable!() };
            assert_eq!(walk.frames.len(), samples.len(), "{}", e.name);
            for (f, s) in walk.frames.iter().zip(&samples) {
                assert_eq!(
                    (f.local, f.status, f.mode, f.x, f.y, f.factor),
                    (s.local, s.status, s.mode, s.x, s.y, s.factor)
                );
                assert_eq!((f.left.map(|h| h.tick), f.right.map(|h| h.tick)), (s.left, s.right), "{}", e.name);
                assert_eq!(f.render_time, s.render_time);
                assert_eq!(f.why.is_some(), f.status != SampleStatus::Ready, "{} at {}", e.name, f.local);
            }
        }
    }

    #[test]
    fn seed_002_walk_sorts_101_between_100_and_102_and_finds_x_1_5_at_10_30() {
        let walk = walk(&example("seed-002").unwrap(), f64::NEG_INFINITY, f64::INFINITY).unwrap();
        let d: Vec<_> = walk.deliveries.iter().map(|d| (d.tick, d.arrival, d.order.clone(), d.position)).collect();
        assert_eq!(
            d,
            [
                (100, 10.08, vec![100], Some(0)),
                (102, 10.23, vec![100, 102], Some(1)),
                (101, 10.25, vec![100, 101, 102], Some(1)),
            ]
        );
        assert!(walk.deliveries[2].out_of_order && !walk.deliveries[1].out_of_order);
        assert_eq!(walk.deliveries[0].sent, 10.0);
        let at = walk.frames.iter().find(|f| (f.local - 10.30).abs() < 1e-9).unwrap();
        assert_eq!(at.status, SampleStatus::Ready);
        assert_relative_eq!(at.render_time.unwrap(), 10.15, epsilon = 1e-9);
        assert_eq!((at.left.unwrap().tick, at.right.unwrap().tick), (101, 102));
        assert_relative_eq!(at.factor.unwrap(), 0.5, epsilon = 1e-9);
        assert_relative_eq!(at.x.unwrap(), 1.5, epsilon = 1e-9);
        assert_eq!(at.buffered, [101, 102], "100 was pruned once the render time passed 101");
        let first = &walk.frames[0];
        assert_eq!(first.why, Some(Reason::NoSnapshot));
        let past = walk.frames.iter().find(|f| f.status == SampleStatus::Underrun).unwrap();
        assert!(matches!(past.why, Some(Reason::PastNewest { newest_tick: 102, .. })), "{:?}", past.why);
        assert_relative_eq!(walk.render_delay, 0.15);
    }

    #[test]
    fn the_walk_window_keeps_what_overlaps_it() {
        let trace = example("seed-002").unwrap();
        let walk = walk(&trace, 10.2, 10.24).unwrap();
        assert_eq!(walk.deliveries.iter().map(|d| d.tick).collect::<Vec<_>>(), [102, 101]);
        assert_eq!(walk.frames.first().map(|f| f.local), Some(10.2));
        assert_eq!(walk.frames.last().map(|f| f.local), Some(10.24));
        let paths = example("seed-001-staircase").unwrap();
        assert_eq!(super::walk(&paths, 0.0, 1.0).unwrap_err().field, "kind");
    }

    #[test]
    fn the_hard_snap_needs_both_a_stale_gap_and_a_large_drift() {
        let cells = hard_snap_table(&PathParams::default()).unwrap();
        let snapped: Vec<_> = cells.iter().map(|c| (c.stale, c.far, c.snapped)).collect();
        assert_eq!(snapped, [(false, false, false), (false, true, false), (true, false, false), (true, true, true)]);
        assert!(cells.iter().all(|c| c.stale == (c.gap > PathParams::default().stale_gap)));
        assert_eq!(cells[1].outcome, "queued");
        let bad = PathParams { speed: 0.0, ..PathParams::default() };
        assert_eq!(hard_snap_table(&bad).unwrap_err().field, "speed");
    }

    #[test]
    fn a_half_life_offset_keeps_the_view_still_at_a_correction_and_snap_does_not() {
        let rows =
            [[1.0, 10.0, 0.0, 4.0, 0.0, 0.0], [1.05, 12.0, 1.0, 12.0, -2.0, 0.0], [2.0, 0.0, 0.0, 90.0, 0.0, 1.0]];
        let j = correction_jumps(&SmoothingParams::default(), &rows).unwrap();
        assert_eq!(j.corrections, 2);
        assert!(j.half_life < 1e-12 && j.linear < 1e-12, "{j:?}");
        assert_relative_eq!(j.snap, 6.0, epsilon = 1e-12);
        assert!(j.first_version > 0.0 && j.first_version < j.snap);
    }
}
