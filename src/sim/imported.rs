//! An imported trace shown in the page's views: the replay's frames and the trace's snapshots laid out as the
//! simulator's timelines, so the lanes and the remote view draw a recorded session exactly like a simulated one.
//! What a trace does not know (the truth, the local player, paths) stays NaN and is simply not drawn.

use crate::buffer::SampleStatus;
use crate::display::DisplayMode;
use crate::sim::record::{frame, snapshot, Recording};
use crate::sim::remote::code;
use crate::trace::replay::{Replay, ReplaySamples};
use crate::trace::{Trace, TraceData};

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
