//! The native soak (`cargo xtask soak`, or `cargo run --release --example soak -- --hours 24`): a live session run
//! for hours of simulated time — not the page's 120 s window — at 20 % burst loss with reordering and duplication.
//!
//! ```text
//!  one frame at 60 fps, in lockstep for every clock (known, reanchor, smooth, timescale):
//!    RemotePipeline (server → lossy link → buffer → clock → the run's policy, and all five policies beside it)
//!  + one LocalPipeline (your inputs → uplink → server → downlink → reconcile → smoothing)
//!  every simulated hour: resident memory (/proc/self/statm) and the counts so far
//! ```
//! Checked on every frame: no non-finite value where one is promised (a render time the clock calls certain,
//! every policy's shown position, the delay, the local player); the smooth clock never moves its render time
//! backwards (seed 004 §2: it slews, it does not jump back). After the first hour resident memory must stay
//! flat (within 1 MiB): every timeline is a ring, every buffer bounded. Exit code 1 when a check fails.
//! The path pipeline plans a whole window of batches up front, so it is not part of a live session here.

use netcode_lab::buffer::SampleStatus;
use netcode_lab::clock::ClockKind;
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::link::{LinkParams, LossModel};
use netcode_lab::run::{FrameTick, TimeMap, TruthTrack};
use netcode_lab::sim::local::LocalPipeline;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::record::{frame, Recording};
use netcode_lab::sim::remote::RemotePipeline;
use std::process::ExitCode;

const FPS: f64 = 60.0;
/// Resident memory may move this much after the warm-up hour (allocator noise), bytes.
const FLAT: i64 = 1 << 20;

fn resident_bytes() -> i64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: i64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0);
    pages * 4096
}

fn params(clock: ClockKind, policy: UnderrunPolicy) -> SimParams {
    let link = LinkParams {
        latency: 0.08,
        jitter: 0.03,
        loss: 0.2,
        loss_model: LossModel::Burst,
        burst_length: 4.0,
        reorder: 0.1,
        reorder_delay: 0.05,
        duplicate: 0.05,
        ..LinkParams::default()
    };
    let mut p = SimParams { seed: 16, ..SimParams::default() };
    p.network.downlink = link;
    p.network.uplink = link;
    p.remote.clock.clock = clock;
    p.remote.underrun.underrun_policy = policy;
    p
}

/// One clock's pipeline and what was seen of it.
struct Lane {
    /// The lane's clocks (its frames' readings and server times).
    map: TimeMap,
    clock: ClockKind,
    pipeline: RemotePipeline,
    truth: TruthTrack,
    recording: Recording,
    last_render: Option<f64>,
    regressions: u64,
    uncertain: u64,
    shown: [u64; 5],
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let hours: f64 =
        args.iter().position(|a| a == "--hours").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(24.0);
    let policies = UnderrunPolicy::ALL;
    let mut lanes: Vec<Lane> = ClockKind::ALL
        .iter()
        .enumerate()
        .map(|(i, &clock)| {
            let p = params(clock, policies[i % policies.len()]);
            let map = p.time_map();
            Lane {
                map,
                clock,
                pipeline: RemotePipeline::new(&p, map).expect("valid soak parameters"),
                truth: p.truth(),
                recording: Recording::with_capacity(4, 4096),
                last_render: None,
                regressions: 0,
                uncertain: 0,
                shown: [0; 5],
            }
        })
        .collect();
    let local_params = params(ClockKind::Smooth, UnderrunPolicy::Hold);
    let mut local = LocalPipeline::new(&local_params, None).expect("valid soak parameters");
    let mut local_recording = Recording::with_capacity(4, 4096);
    let frames = (hours * 3600.0 * FPS).round() as u64;
    let per_hour = (3600.0 * FPS) as u64;
    let mut failures: Vec<String> = Vec::new();
    let mut fail = |what: String| {
        if failures.len() < 20 {
            eprintln!("soak: {what}");
        }
        failures.push(what);
    };
    let mut curve = vec![(0.0, resident_bytes())];
    println!(
        "soak: {hours} simulated hours, {frames} frames at {FPS} fps, 20 % burst loss, 10 % reordering, 5 % duplicates"
    );
    println!("soak: hour  resident MiB  (clock: frames uncertain, render regressions)");
    println!("soak: {:>5.1}  {:>8.2}  (before the first frame)", 0.0, curve[0].1 as f64 / 1048576.0);
    let mut row = [f64::NAN; frame::STRIDE];
    let uncertain_code = SampleStatus::ALL.iter().position(|s| *s == SampleStatus::ClockUncertain).unwrap_or(0) as f64;
    for k in 1..=frames {
        let local_time = k as f64 / FPS;
        // Every lane has the same network, so one map's tick serves the local pipeline too.
        let tick = FrameTick::at(k as usize, local_time, 1.0 / FPS, &lanes[0].map);
        for lane in &mut lanes {
            let tick = FrameTick::at(k as usize, local_time, 1.0 / FPS, &lane.map);
            row.fill(f64::NAN);
            lane.pipeline.step(&tick, &lane.truth, &mut row, &mut lane.recording);
            let render = row[frame::RENDER_TIME];
            let certain = row[frame::STATUS] != uncertain_code;
            if !render.is_finite() {
                lane.uncertain += 1;
                if certain && local_time > 10.0 {
                    fail(format!("{}: render time {render} at {local_time} s", lane.clock.name()));
                }
            }
            if !row[frame::DELAY].is_finite() {
                fail(format!("{}: delay {} at {local_time} s", lane.clock.name(), row[frame::DELAY]));
            }
            for (i, count) in lane.shown.iter_mut().enumerate() {
                let (x, y) = (row[frame::HOLD_X + 2 * i], row[frame::HOLD_X + 2 * i + 1]);
                if x.is_nan() && y.is_nan() {
                    continue;
                }
                *count += 1;
                if !(x.is_finite() && y.is_finite()) {
                    fail(format!("{}: {} shows ({x}, {y}) at {local_time} s", lane.clock.name(), policies[i].name()));
                }
            }
            if lane.clock == ClockKind::Smooth && render.is_finite() {
                if lane.last_render.is_some_and(|previous| render < previous) {
                    lane.regressions += 1;
                    fail(format!("smooth: render time {render} after {:?} at {local_time} s", lane.last_render));
                }
                lane.last_render = Some(render);
            }
        }
        row.fill(f64::NAN);
        local.step(&tick, &mut row, &mut local_recording);
        for column in [frame::PREDICTED_X, frame::PREDICTED_Y, frame::RENDERED_X, frame::RENDERED_Y, frame::OFFSET] {
            if !row[column].is_finite() {
                fail(format!("local: {} is {} at {local_time} s", frame::NAMES[column], row[column]));
            }
        }
        if k % per_hour == 0 || k == frames {
            let hour = local_time / 3600.0;
            let rss = resident_bytes();
            curve.push((hour, rss));
            let lanes_text: Vec<String> = lanes
                .iter()
                .map(|l| format!("{}: {} uncertain, {} regressions", l.clock.name(), l.uncertain, l.regressions))
                .collect();
            println!("soak: {hour:>5.1}  {:>8.2}  ({})", rss as f64 / 1048576.0, lanes_text.join("; "));
        }
    }
    let after_warmup: Vec<i64> = curve.iter().filter(|(h, _)| *h >= 1.0).map(|(_, r)| *r).collect();
    if let (Some(min), Some(max)) = (after_warmup.iter().min(), after_warmup.iter().max()) {
        println!(
            "soak: resident memory after the first hour: {:.2}..{:.2} MiB",
            *min as f64 / 1048576.0,
            *max as f64 / 1048576.0
        );
        if max - min > FLAT {
            failures.push(format!("resident memory grew by {} bytes after the first hour", max - min));
        }
    }
    for lane in &lanes {
        let m = lane.pipeline.playback().metrics(frames as f64 / FPS);
        let d = lane.pipeline.downlink().stats();
        println!(
            "soak: {:<9} snapshots sent {} lost {} duplicated {}; buffer received {} duplicates {} late {} out of order {}; shown {:?}",
            lane.clock.name(),
            d.sent,
            d.lost,
            d.duplicated,
            m.buffer.received,
            m.buffer.duplicates,
            m.buffer.late,
            m.buffer.out_of_order,
            lane.shown
        );
    }
    let stats = local.session().stats();
    println!("soak: local     {} frames, {} resets", stats.frames, stats.resets);
    if failures.is_empty() {
        println!("soak: passed — every value finite, no smooth-clock regression, memory flat");
        ExitCode::SUCCESS
    } else {
        println!("soak: FAILED — {} problem(s)", failures.len());
        ExitCode::FAILURE
    }
}
