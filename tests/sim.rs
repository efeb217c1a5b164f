//! The scenario simulator end to end: determinism, fairness across parameter changes, events, the sweep.
#![cfg(not(target_arch = "wasm32"))]

use netcode_lab::compare::sweep::sweep;
use netcode_lab::motion::MotionScript;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::presets::NetworkPreset;
use netcode_lab::sim::record::{frame, snapshot};
use netcode_lab::sim::{run, Simulation};

fn base() -> SimParams {
    let mut p = SimParams { duration: 10.0, ..SimParams::default() };
    p.network.downlink.jitter = 0.02;
    p.network.downlink.loss = 0.05;
    p
}

fn frames(sim: &mut Simulation) -> Vec<f64> {
    sim.recording_mut().frames.rows().to_vec()
}

fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn the_same_params_and_seed_give_bit_identical_runs() {
    let p = base();
    let (mut a, mut b) = (run(&p).unwrap(), run(&p).unwrap());
    assert!(same_bits(&frames(&mut a), &frames(&mut b)));
    assert_eq!(a.metrics(), b.metrics());
    let mut other = p.clone();
    other.seed = 2;
    assert!(!same_bits(&frames(&mut a), &frames(&mut run(&other).unwrap())));
}

#[test]
fn changing_a_client_setting_keeps_every_packet_the_same() {
    let p = base();
    let mut q = p.clone();
    q.remote.clock.render_delay = 0.25;
    q.remote.underrun.underrun_policy = netcode_lab::extrapolate::UnderrunPolicy::Hold;
    let (mut a, mut b) = (run(&p).unwrap(), run(&q).unwrap());
    let (sa, sb) = (a.recording_mut().snapshots.rows().to_vec(), b.recording_mut().snapshots.rows().to_vec());
    let arrivals = |rows: &[f64]| rows.chunks(snapshot::STRIDE).map(|r| r[snapshot::ARRIVAL]).collect::<Vec<_>>();
    assert!(same_bits(&arrivals(&sa), &arrivals(&sb)), "the same packets arrive at the same times");
}

#[test]
fn raising_uniform_loss_only_adds_losses() {
    let lost = |loss: f64| {
        let mut p = base();
        p.network.downlink.loss = loss;
        let mut sim = run(&p).unwrap();
        let rows = sim.recording_mut().snapshots.rows().to_vec();
        rows.chunks(snapshot::STRIDE).map(|r| r[snapshot::ARRIVAL].is_nan()).collect::<Vec<bool>>()
    };
    let (low, high) = (lost(0.05), lost(0.2));
    assert!(low.iter().zip(&high).all(|(l, h)| !l || *h), "every packet lost at 5 % is lost at 20 %");
    let count = |v: &[bool]| v.iter().filter(|x| **x).count();
    assert!(count(&high) > 2 * count(&low), "{} vs {}", count(&high), count(&low));
}

#[test]
fn a_stall_makes_long_frames_and_a_kick_moves_the_client_clock() {
    let mut p = base();
    p.events.stall_at = Some(3.0);
    p.events.stall_duration = 1.0;
    p.events.stall_fps = 2.0;
    p.events.kick_at = Some(6.0);
    p.events.kick = 0.1;
    let sim = run(&p).unwrap();
    let f = &sim.recording().frames;
    let long = f.column(frame::DT).filter(|dt| (*dt - 0.5).abs() < 1e-9).count();
    assert_eq!(long, 2, "two half-second frames during the 1 s stall at 2 fps");
    let locals: Vec<f64> = f.column(frame::LOCAL).collect();
    let biggest_step = locals.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
    assert!((biggest_step - 0.5).abs() < 1e-9);
    let jump = locals.windows(2).any(|w| (w[1] - w[0] - (1.0 / 60.0 + 0.1)).abs() < 1e-9);
    assert!(jump, "the client clock reading jumps by the kick");
}

#[test]
fn the_sweep_trades_underruns_for_latency() {
    let mut p = base();
    p.network.downlink.loss = 0.0;
    let points = sweep(&p, &[0.0, 0.05, 0.1, 0.15, 0.2, 0.3]).unwrap();
    assert!(points[0].underrun_share > 0.9, "no delay: nearly always past the newest snapshot ({:?})", points[0]);
    assert!(points[5].underrun_share < 0.01, "300 ms covers 50 ms latency, 20 ms jitter and a 50 ms interval");
    for w in points.windows(2) {
        assert!(w[1].underrun_share <= w[0].underrun_share + 1e-9, "{w:?}");
        assert!(w[1].added_latency > w[0].added_latency, "{w:?}");
    }
    assert!((points[3].added_latency - 0.15).abs() < 0.03, "{:?}", points[3]);
}

#[test]
fn a_respawn_is_never_interpolated_across() {
    let mut p = base();
    p.scenario.motion = MotionScript::Respawn;
    p.network.downlink.loss = 0.0;
    let sim = run(&p).unwrap();
    let m = sim.metrics();
    assert!(m.remote.status_share.invalid_interval > 0.0, "{:?}", m.remote.status_share);
}

/// The sandbox as it opens: 50 ms ± 10 ms one way, a snapshot every 50 ms, no loss. The newest snapshot is at
/// most 60 ms (its delay) + 50 ms (the wait for the next) old, so a render time 120 ms behind the server's present
/// stays inside the buffer on every seed; seed 000 §4.3.8's 100 ms does not cover that 110 ms and runs dry on 2–9 %
/// of frames (red: the default back at 0.1).
#[test]
fn the_default_sandbox_runs_dry_on_at_most_one_percent_of_frames() {
    for seed in 1..=5 {
        let p = SimParams { seed, ..SimParams::default() };
        assert_eq!((p.network.downlink.loss, p.remote.clock.render_delay), (0.0, 0.12));
        let share = run(&p).unwrap().metrics().remote.underrun_share;
        assert!(share <= 0.01, "seed {seed}: {share}");
        let article = SimParams {
            remote: {
                let mut r = p.remote.clone();
                r.clock.render_delay = 0.1;
                r
            },
            ..p
        };
        assert!(run(&article).unwrap().metrics().remote.underrun_share > 0.01, "seed {seed} at 100 ms");
    }
}

#[test]
fn presets_run_and_a_worse_network_underruns_more_at_the_same_delay() {
    let underrun = |preset: NetworkPreset| {
        let mut p = base();
        preset.apply(&mut p);
        p.remote.clock.render_delay = 0.1;
        run(&p).unwrap().metrics().remote.underrun_share
    };
    assert!(underrun(NetworkPreset::Lan) < underrun(NetworkPreset::Mobile));
}

#[test]
fn the_timed_player_beats_lerp_chase_on_the_same_batches() {
    let mut p = base();
    p.network.downlink.loss = 0.0;
    let m = run(&p).unwrap().metrics();
    assert!(m.paths.timed.rms_error < m.paths.lerp.rms_error / 5.0, "{:?}", m.paths);
    assert!(m.paths.timed_speed_variation < m.paths.lerp_speed_variation);
}

#[test]
fn bad_params_are_refused_by_name() {
    let mut p = base();
    p.fps = 0.0;
    assert_eq!(Simulation::new(&p).err().unwrap().field, "fps");
    let mut p = base();
    p.network.uplink.jitter = -1.0;
    assert_eq!(Simulation::new(&p).err().unwrap().field, "network.uplink.jitter");
    assert_eq!(sweep(&base(), &[0.1, f64::NAN]).unwrap_err().field, "delays[1]");
}

#[test]
fn the_longest_window_stays_bounded() {
    let p = SimParams { duration: 120.0, fps: 240.0, ..SimParams::default() };
    let sim = run(&p).unwrap();
    assert_eq!(sim.recording().frames.len(), 28_801);
    assert_eq!(sim.recording().frames.dropped(), 0);
}

#[test]
fn a_replay_of_the_exported_trace_reproduces_the_remote_view() {
    use netcode_lab::buffer::BeforeOldest;
    use netcode_lab::clock::{AdaptiveMode, ClockKind};
    use netcode_lab::extrapolate::{CapRule, UnderrunPolicy};
    use netcode_lab::trace::replay::{replay, ReplaySamples};
    let mut p = base();
    p.remote.clock.clock = ClockKind::Known;
    p.network.downlink.duplicate = 0.05;
    p.network.downlink.reorder = 0.1;
    // The same with every option added since: the trace carries them, the CLI honours them.
    let mut newer = p.clone();
    newer.remote.clock.render_delay = 0.06;
    newer.remote.clock.adaptive_delay.enabled = true;
    newer.remote.clock.adaptive_delay.mode = AdaptiveMode::Seed004;
    newer.remote.clock.adaptive_delay.seed004.rtt_threshold = 0.05;
    newer.remote.underrun.cap_rule = CapRule::HalfSendInterval;
    newer.remote.buffer.before_oldest = BeforeOldest::Oldest;
    newer.remote.underrun.underrun_policy = UnderrunPolicy::Hold;
    for p in [p, newer] {
        let mut sim = run(&p).unwrap();
        let trace = netcode_lab::trace::export::snapshot_trace(&sim);
        let text = trace.to_json();
        let parsed = netcode_lab::trace::Trace::from_json(&text).unwrap();
        let ReplaySamples::Snapshots(samples) = replay(&parsed).unwrap().samples else { panic!("snapshots") };
        let rows = sim.recording_mut().frames.rows().to_vec();
        assert_eq!(samples.len(), rows.len() / frame::STRIDE);
        for (s, r) in samples.iter().zip(rows.chunks(frame::STRIDE)) {
            assert_eq!(s.x.unwrap_or(f64::NAN).to_bits(), r[frame::X].to_bits(), "x at {}", s.local);
            assert_eq!(s.y.unwrap_or(f64::NAN).to_bits(), r[frame::Y].to_bits(), "y at {}", s.local);
            assert_eq!(s.delay.to_bits(), r[frame::DELAY].to_bits(), "delay at {}", s.local);
        }
    }
}

#[test]
fn the_path_export_carries_the_delivered_batches() {
    let sim = run(&base()).unwrap();
    let trace = netcode_lab::trace::export::path_trace(&sim);
    let netcode_lab::trace::TraceData::Paths { paths } = &trace.data else { panic!("paths") };
    let delivered =
        (0..sim.recording().batches.len()).filter(|&i| sim.recording().batches.row(i).unwrap()[1].is_finite()).count();
    assert_eq!(paths.len(), delivered);
    assert!(netcode_lab::trace::Trace::from_json(&trace.to_json()).is_ok());
}

#[test]
fn a_rerun_with_bad_params_changes_nothing() {
    let mut sim = run(&base()).unwrap();
    let before = frames(&mut sim);
    let mut bad = base();
    bad.paths.sample_interval = 99.0;
    assert_eq!(sim.rerun(&bad).unwrap_err().field, "paths.sampleInterval");
    assert!(same_bits(&frames(&mut sim), &before));
}

#[test]
fn a_rerun_that_reuses_pipelines_is_bit_identical_to_a_full_run() {
    use netcode_lab::sim::rerun::{reusable, Reuse};
    let p = base();
    type Change = Box<dyn Fn(&mut SimParams)>;
    let changes: Vec<(&str, Change, Reuse)> = vec![
        (
            "render delay",
            Box::new(|q| q.remote.clock.render_delay = 0.2),
            Reuse { remote: false, paths: true, local: true },
        ),
        (
            "half-life",
            Box::new(|q| q.local.smoothing.half_life = 0.2),
            Reuse { remote: true, paths: true, local: false },
        ),
        (
            "lerp factor",
            Box::new(|q| q.paths.lerp.lerp_factor = 0.3),
            Reuse { remote: true, paths: false, local: true },
        ),
        ("uplink loss", Box::new(|q| q.network.uplink.loss = 0.2), Reuse { remote: false, paths: true, local: false }),
        ("seed", Box::new(|q| q.seed = 9), Reuse::default()),
        ("fps", Box::new(|q| q.fps = 30.0), Reuse::default()),
    ];
    for (what, change, expected) in changes {
        let mut q = p.clone();
        change(&mut q);
        assert_eq!(reusable(&p, &q), expected, "{what}");
        let mut incremental = run(&p).unwrap();
        incremental.rerun(&q).unwrap();
        let mut full = run(&q).unwrap();
        assert!(same_bits(&frames(&mut incremental), &frames(&mut full)), "{what}: frames differ");
        for kind in ["snapshots", "batches", "corrections", "rtt"] {
            let a = incremental.recording_mut().get_mut(kind).unwrap().rows().to_vec();
            let b = full.recording_mut().get_mut(kind).unwrap().rows().to_vec();
            assert!(same_bits(&a, &b), "{what}: {kind} differ");
        }
        assert_eq!(incremental.metrics(), full.metrics(), "{what}: metrics differ");
    }
}

#[test]
fn each_sweep_point_equals_a_full_run_at_that_delay() {
    let p = base();
    let points = sweep(&p, &[0.05, 0.2]).unwrap();
    for point in points {
        let mut q = p.clone();
        q.remote.clock.render_delay = point.delay;
        let m = run(&q).unwrap().metrics();
        assert_eq!(point.underrun_share, m.remote.underrun_share, "delay {}", point.delay);
        assert_eq!(point.added_latency, m.remote.shown.added_latency, "delay {}", point.delay);
        assert_eq!(point.rms_error, m.remote.shown.rms_error, "delay {}", point.delay);
    }
}

#[test]
fn a_lossy_uplink_keeps_reconciling_thanks_to_repeated_inputs() {
    let mut p = base();
    p.network.uplink.loss = 0.15;
    p.network.downlink.loss = 0.15;
    let sim = run(&p).unwrap();
    let f = &sim.recording().frames;
    let pending: Vec<f64> = f.column(frame::PENDING).collect();
    let late = &pending[pending.len() / 2..];
    assert!(
        late.iter().all(|&n| n < 30.0),
        "pending stays near the round trip: max {}",
        late.iter().cloned().fold(0.0, f64::max)
    );
    let acks: Vec<f64> = f.column(frame::ACK_X).collect();
    assert!(acks[acks.len() - 1].is_finite());
    let mut without = p.clone();
    without.local.input_redundancy = 0;
    let m = run(&without).unwrap().metrics();
    assert!(m.session.server.substituted > 10, "without repeats the server fills gaps: {:?}", m.session.server);
}

/// Seed 000 §4.3.5 "冻结在最新快照位置" in a whole run with a stalled second (1 fps from 5 s to 6 s): on every Underrun
/// frame the hold policy shows the newest snapshot the client holds — also on the frame right after the stall.
#[test]
fn hold_shows_the_newest_snapshot_on_every_underrun_even_after_a_stall() {
    let mut p = base();
    p.remote.underrun.underrun_policy = netcode_lab::extrapolate::UnderrunPolicy::Hold;
    p.remote.clock.render_delay = 0.05; // most frames underrun
    p.events.stall_at = Some(5.0);
    p.events.stall_duration = 1.0;
    p.events.stall_fps = 1.0;
    let sim = run(&p).unwrap();
    let rec = sim.recording();
    let shot = |server_time: f64| {
        (0..rec.snapshots.len())
            .filter_map(|i| rec.snapshots.row(i))
            .find(|r| r[snapshot::SERVER_TIME] == server_time)
            .map(|r| (r[snapshot::X], r[snapshot::Y]))
    };
    let (mut underruns, mut after_stall) = (0, 0);
    for i in 0..rec.frames.len() {
        let r = rec.frames.row(i).unwrap();
        if r[frame::STATUS] != 2.0 {
            continue; // 2: Underrun
        }
        underruns += 1;
        after_stall += usize::from(r[frame::DT] > 0.5);
        let newest = shot(r[frame::NEWEST]).expect("the newest snapshot was sent");
        assert_eq!((r[frame::X], r[frame::Y]), newest, "frame {i} at {}", r[frame::LOCAL]);
    }
    assert!(underruns > 100, "{underruns}");
    assert_eq!(after_stall, 1, "the frame after the stalled second underruns too");
}

/// Seed 004 §4.2's disturbance: a link step at 5 s adds 50 ms each way; the pings (every 200 ms) measure it.
#[test]
fn a_link_step_raises_the_measured_rtt_from_its_time_on() {
    let mut p = base();
    p.network.downlink.jitter = 0.0;
    p.network.uplink.jitter = 0.0;
    p.events.link_step_at = Some(5.0);
    let sim = run(&p).unwrap();
    let rtt = &sim.recording().rtt;
    let samples: Vec<(f64, f64)> = (0..rtt.len()).map(|i| rtt.row(i).unwrap()).map(|r| (r[0], r[1])).collect();
    // Before: 2 × 50 ms. Pings sent from 5 s on (answered ≥ 5.1 s) take 2 × 100 ms.
    assert!(samples.iter().filter(|s| s.0 < 5.0).all(|s| (s.1 - 0.1).abs() < 1e-9));
    assert!(samples.iter().filter(|s| s.0 > 5.3).all(|s| (s.1 - 0.2).abs() < 1e-9));
    assert!(samples.len() > 40, "every 200 ms for 10 s, a few pongs lost: {}", samples.len());
}

/// Seed 004 §3.3 "缓冲区里至少要有3到4个快照": at 30 Hz with 50 ms held behind the newest snapshot (timescale clock),
/// a buffer of 2 cannot hold the bracket, 4 plays as well as 32.
#[test]
fn the_capacity_sweep_finds_the_snapshots_a_delay_needs() {
    let mut p = base();
    p.scenario.send_rate = 30.0;
    p.remote.clock.clock = netcode_lab::clock::ClockKind::Timescale;
    p.remote.clock.render_delay = 0.05;
    let points = netcode_lab::compare::sweep::capacity_sweep(&p, &[2, 3, 4, 32]).unwrap();
    let ready: Vec<f64> = points.iter().map(|q| q.ready_share).collect();
    assert!(ready[0] < 0.5 && ready[1] < ready[2], "{ready:?}");
    assert!((ready[2] - ready[3]).abs() < 0.005, "{ready:?}");
    assert_eq!(points.iter().map(|q| q.capacity).collect::<Vec<_>>(), [2, 3, 4, 32]);
    assert_eq!(netcode_lab::compare::sweep::capacity_sweep(&p, &[1]).unwrap_err().field, "capacities[0]");
}
