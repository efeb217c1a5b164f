//! A run as traces (`netcode-lab/trace@1`): what arrived, when, and the frame times — so the run can be replayed
//! by the CLI or by another tool, and a replay of the export reproduces the run's remote view.
//!
//! Only what the client saw goes in: delivered snapshot copies (lost ones are absent, duplicates appear twice)
//! with their arrival on the client's clock, the RTT samples the render clock used, and the frame times as
//! `sampleAt`. The truth is named, not copied: `params.motion` states the motion script and speed the snapshots
//! were taken from, so a league table of the export scores against the simulator's own truth.

use crate::geom::Vec2;
use crate::sim::record::{batch, frame, rtt, snapshot};
use crate::sim::Simulation;
use crate::snapshot::Snapshot;
use crate::trace::params::TraceMotion;
use crate::trace::{RttSample, Trace, TraceBatch, TraceData, TraceParams, TraceSnapshot};

/// The snapshot stream of `sim` as a trace of kind `snapshots`.
pub fn snapshot_trace(sim: &Simulation) -> Trace {
    let rec = sim.recording();
    let mut snapshots = Vec::new();
    for r in (0..rec.snapshots.len()).filter_map(|i| rec.snapshots.row(i)) {
        let snap = Snapshot {
            entity: 0,
            tick: r[snapshot::TICK] as u64,
            server_time: r[snapshot::SERVER_TIME],
            pos: Vec2::new(r[snapshot::X], r[snapshot::Y]),
            vel: Vec2::new(r[snapshot::VX], r[snapshot::VY]),
            generation: r[snapshot::GENERATION] as u32,
            teleport: r[snapshot::TELEPORT] == 1.0,
        };
        for arrival in [r[snapshot::ARRIVAL], r[snapshot::DUPLICATE_ARRIVAL]] {
            if arrival.is_finite() {
                snapshots.push(TraceSnapshot::delivered(&snap, arrival));
            }
        }
    }
    let rtt = (0..rec.rtt.len())
        .filter_map(|i| rec.rtt.row(i))
        .map(|r| RttSample { at: r[rtt::AT], rtt: r[rtt::RTT] })
        .filter(|s| s.at.is_finite() && s.rtt.is_finite() && s.rtt >= 0.0)
        .collect();
    let p = sim.params();
    let (remote, stream) = (&p.remote, p.stream());
    let params = TraceParams {
        render_delay: Some(remote.clock.render_delay),
        clock_offset: Some(stream.clock_offset),
        clock: Some(remote.clock.clock),
        underrun: Some(remote.underrun.underrun_policy),
        max_extrapolation: Some(remote.underrun.max_extrapolation),
        interpolation: Some(remote.buffer.interpolation),
        capacity: Some(remote.buffer.capacity),
        send_interval: Some(stream.send_interval),
        min_snapshots: Some(remote.buffer.min_snapshots),
        gap_factor: Some(remote.buffer.gap_factor),
        motion: Some(TraceMotion { script: p.scenario.motion, speed: p.scenario.speed }),
        ..TraceParams::default()
    };
    let params = with_newer_options(params, remote);
    Trace {
        note: Some(format!(
            "exported from netcode-lab's simulator, seed {}, {} s at {} fps",
            p.seed, p.duration, p.fps
        )),
        params,
        data: TraceData::Snapshots { snapshots, rtt },
        sample_at: rec.frames.column(frame::LOCAL).collect(),
    }
}

/// The options added to the trace format later (the cap rule, seed 000's before-the-oldest rule, the adaptive
/// delay), written only where the run does not use the trace's defaults, so older exports read the same.
fn with_newer_options(mut params: TraceParams, remote: &crate::playback::PlaybackParams) -> TraceParams {
    use crate::buffer::BeforeOldest;
    use crate::extrapolate::CapRule;
    params.cap_rule = (remote.underrun.cap_rule != CapRule::MaxExtrapolation).then_some(remote.underrun.cap_rule);
    params.before_oldest = (remote.buffer.before_oldest != BeforeOldest::Gap).then_some(remote.buffer.before_oldest);
    let a = &remote.clock.adaptive_delay;
    if a.enabled {
        params.adaptive_delay = Some(Some(a.mode));
        params.add_latency = Some(a.add_latency);
        params.adaptive_sample_interval = Some(a.seed004.sample_interval);
        params.adaptive_rtt_gain = Some(a.seed004.rtt_gain);
        params.adaptive_rtt_threshold = Some(a.seed004.rtt_threshold);
        params.adaptive_high_delay = Some(a.seed004.high_delay);
        params.adaptive_low_delay = Some(a.seed004.low_delay);
        params.adaptive_delay_gain = Some(a.seed004.delay_gain);
    }
    params
}

/// The path batches of `sim` as a trace of kind `paths` (lost batches are absent).
pub fn path_trace(sim: &Simulation) -> Trace {
    let rec = sim.recording();
    let paths = sim
        .sent_batches()
        .iter()
        .enumerate()
        .filter_map(|(i, (_, b))| {
            let arrival = rec.batches.row(i)?[batch::ARRIVAL];
            arrival.is_finite().then(|| TraceBatch::from_batch(&crate::path::PathBatch { arrival, ..b.clone() }))
        })
        .collect();
    let p = sim.params();
    let params = TraceParams {
        speed: Some(p.paths.player.speed),
        interpolation_delay: Some(p.paths.player.interpolation_delay),
        stale_gap: Some(p.paths.player.stale_gap),
        hard_snap_distance: Some(p.paths.player.hard_snap_distance),
        hard_snap_target: Some(p.paths.player.hard_snap_target),
        lerp_factor: Some(p.paths.lerp.lerp_factor),
        fps: Some(p.fps),
        ..TraceParams::default()
    };
    Trace {
        note: Some(format!("exported from netcode-lab's simulator (path batches), seed {}", p.seed)),
        params,
        data: TraceData::Paths { paths },
        sample_at: rec.frames.column(frame::LOCAL).collect(),
    }
}
