//! An imported trace shown in the page's views: the replay's frames and the trace's snapshots laid out as the
//! simulator's timelines, so the lanes and the remote view draw a recorded session exactly like a simulated one.
//! What a trace does not know (the truth, the local player, paths) stays NaN and is simply not drawn.
//!
//! ```text
//!  Trace ─► replay ─► recording (frames + snapshots) + summary (counts of what the buffer refused) + metrics
//!                       │
//!                       └─ rows ─► (the page's import worker hands them over) ─► adopt ─► the same recording
//! ```
//! A large trace is imported off the page's main thread: a worker with its own core calls [`import`], sends the
//! two timelines' rows, and the page's core [`adopt`]s them, checking their shape like any input from outside.

use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::param::ParamError;
use crate::run::Timeline;
use crate::sim::record::{frame, snapshot, Recording};
use crate::sim::remote::code;
use crate::trace::replay::{Replay, ReplayMetrics, ReplaySamples, SnapshotMetrics};
use crate::trace::{Trace, TraceData, TraceError, MAX_SAMPLES, MAX_SNAPSHOTS};
use serde::Serialize;

/// A `snapshots` trace made ready for the views.
#[derive(Clone, Debug)]
pub struct ImportedTrace {
    pub recording: Recording,
    pub summary: ImportSummary,
    pub metrics: SnapshotMetrics,
}

/// What the page says about an imported trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSummary {
    pub kind: &'static str,
    pub snapshots: usize,
    pub samples: usize,
    pub send_interval: Option<f64>,
    pub note: Option<String>,
    /// What the buffer counted but did not play: the trace is data, not wrong (see `crate::trace`).
    pub counts: ImportCounts,
}

/// The buffer's counts of arrivals it did not simply insert in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportCounts {
    pub duplicates: u64,
    pub conflicts: u64,
    pub invalid: u64,
    pub late: u64,
    pub out_of_order: u64,
}

/// Replays `trace` and lays it out for the views. Only `snapshots` traces can be shown.
pub fn import(trace: &Trace) -> Result<ImportedTrace, TraceError> {
    let replay = crate::trace::replay(trace)?;
    let recording = recording(trace, &replay)
        .ok_or_else(|| TraceError::new("kind", "only traces of kind \"snapshots\" can be shown in the views"))?;
    let ReplayMetrics::Snapshots(metrics) = replay.metrics else {
        return Err(TraceError::new("kind", "only traces of kind \"snapshots\" can be shown in the views"));
    };
    let b = &metrics.buffer;
    let counts = ImportCounts {
        duplicates: b.duplicates,
        conflicts: b.conflicts,
        invalid: b.invalid,
        late: b.late,
        out_of_order: b.out_of_order,
    };
    let summary = ImportSummary {
        kind: "snapshots",
        snapshots: recording.snapshots.len(),
        samples: recording.frames.len(),
        send_interval: send_interval(trace),
        note: trace.note.clone(),
        counts,
    };
    Ok(ImportedTrace { recording, summary, metrics: *metrics })
}

/// The recording of an import made elsewhere (the page's worker), from its `frames` and `snapshots` rows —
/// checked: whole rows of the current layouts, and no more rows than a trace may have.
pub fn adopt(frames: Vec<f64>, snapshots: Vec<f64>) -> Result<Recording, ParamError> {
    let timeline = |field: &str, names: &'static [&'static str], data: Vec<f64>, limit: usize| {
        let numbers = data.len();
        let table = Timeline::from_rows(names, data).ok_or_else(|| {
            ParamError::new(field, format!("{numbers} numbers are not whole rows of {} columns", names.len()))
        })?;
        if table.len() > limit {
            return Err(ParamError::new(field, format!("{} rows, more than {limit}", table.len())));
        }
        Ok(table)
    };
    let mut rec = Recording::with_capacity(1, 1);
    rec.frames = timeline("frames", frame::NAMES, frames, MAX_SAMPLES)?;
    rec.snapshots = timeline("snapshots", snapshot::NAMES, snapshots, MAX_SNAPSHOTS)?;
    Ok(rec)
}

/// The send interval the replay used for a `snapshots` trace: `sendInterval`, or the one derived from the
/// snapshots' spacing (`None` for a `paths` trace). The page names the trace's send rate with it.
pub fn send_interval(trace: &Trace) -> Option<f64> {
    match &trace.data {
        TraceData::Snapshots { snapshots, .. } => Some(trace.params.send_interval_for(snapshots)),
        TraceData::Paths { .. } => None,
    }
}

/// The timelines of a replayed `snapshots` trace (`None` for a `paths` trace).
pub fn recording(trace: &Trace, replay: &Replay) -> Option<Recording> {
    let (TraceData::Snapshots { snapshots, .. }, ReplaySamples::Snapshots(samples)) = (&trace.data, &replay.samples)
    else {
        return None;
    };
    let offset = trace.params.clock_offset.unwrap_or(0.0);
    let mut rec = Recording::with_capacity(samples.len().max(1), snapshots.len().max(1) + 1);
    let mut previous = None;
    for s in samples {
        let mut row = [f64::NAN; frame::STRIDE];
        row[frame::LOCAL] = s.local;
        row[frame::DT] = previous.map_or(0.0, |p| s.local - p);
        row[frame::SERVER_NOW] = s.local + offset;
        row[frame::RENDER_TIME] = s.render_time.unwrap_or(f64::NAN);
        row[frame::STATUS] = code(&SampleStatus::ALL, &s.status);
        row[frame::MODE] = code(&DisplayMode::ALL, &s.mode);
        row[frame::X] = s.x.unwrap_or(f64::NAN);
        row[frame::Y] = s.y.unwrap_or(f64::NAN);
        row[frame::DELAY] = s.delay;
        row[frame::GENERATION] = s.generation.map_or(f64::NAN, f64::from);
        rec.frames.push(&row);
        previous = Some(s.local);
    }
    let mut order: Vec<usize> = (0..snapshots.len()).collect();
    order.sort_by(|&a, &b| snapshots[a].arrival.total_cmp(&snapshots[b].arrival));
    let mut newest_tick = None;
    let mut out_of_order = vec![false; snapshots.len()];
    for &i in &order {
        let tick = snapshots[i].tick;
        out_of_order[i] = newest_tick.is_some_and(|n| tick < n);
        newest_tick = newest_tick.max(Some(tick));
    }
    for (i, s) in snapshots.iter().enumerate() {
        let mut row = [f64::NAN; snapshot::STRIDE];
        row[snapshot::TICK] = s.tick as f64;
        row[snapshot::SERVER_TIME] = s.server_time;
        row[snapshot::SENT] = s.server_time - offset;
        row[snapshot::ARRIVAL] = s.arrival;
        row[snapshot::HELD_BACK] = 0.0;
        row[snapshot::OUT_OF_ORDER] = f64::from(u8::from(out_of_order[i]));
        row[snapshot::X] = s.x;
        row[snapshot::Y] = s.y;
        row[snapshot::VX] = s.vx;
        row[snapshot::VY] = s.vy;
        row[snapshot::GENERATION] = f64::from(s.generation.unwrap_or(0));
        row[snapshot::TELEPORT] = f64::from(u8::from(s.teleport.unwrap_or(false)));
        rec.snapshots.push(&row);
    }
    Some(rec)
}
