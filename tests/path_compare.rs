//! Lerp chase versus timed playback on the same batches, scored against the truth (seed 001 "为什么这种方案比
//! lerp 更稳定"). The route repeats seed 001's staircase (60 px right, 40 px up, 60 px right) six times at
//! 120 px/s; batches are sent every second with a sample every 100 ms, so corners fall inside batches.

use approx::assert_relative_eq;
use netcode_lab::geom::Vec2;
use netcode_lab::path::compare::{run, CompareParams, Comparison};
use netcode_lab::path::params::{PathParams, SnapTarget};
use netcode_lab::path::player::IngestOutcome;
use netcode_lab::path::truth::{batches_from_truth, BatchPlan, TruthPath};
use netcode_lab::path::PathBatch;

fn staircase() -> TruthPath {
    let mut points = vec![(0.0, 0.0)];
    for k in 0..6 {
        let (x, y) = (120.0 * k as f64, 40.0 * k as f64);
        points.extend([(x + 60.0, y), (x + 60.0, y + 40.0), (x + 120.0, y + 40.0)]);
    }
    TruthPath::at_speed(0.0, 120.0, &points).unwrap()
}

fn batches(plan: BatchPlan) -> Vec<PathBatch> {
    batches_from_truth(&staircase(), &plan).unwrap()
}

fn compare(batches: &[PathBatch], params: CompareParams) -> Comparison {
    run(&staircase(), batches, &CompareParams { duration: 11.0, ..params }).unwrap()
}

fn position_at(comparison: &Comparison, t: f64) -> (Vec2, Vec2) {
    let frame = comparison.frames.iter().find(|f| (f.time - t).abs() < 1e-9).expect("a frame at t");
    (frame.timed.position.unwrap(), frame.lerp.position.unwrap())
}

#[test]
fn timed_playback_follows_the_truth_at_constant_speed_and_lerp_does_not() {
    let c = compare(&batches(BatchPlan::default()), CompareParams::default());
    // The timed player shows the truth 1 + 0.05 + 0.12 s late, exactly.
    assert_relative_eq!(c.timed.delay, BatchPlan::default().playback_delay(&PathParams::default()), epsilon = 1e-9);
    assert!(c.timed.mean_error < 0.2, "{:?}", c.timed);
    // Only where a corner falls between two samples 12 px apart is it cut, by at most 12 / (2·√2) = 4.24 px.
    assert!(c.timed.max_error < 4.25 && c.timed.corner_cutting < 4.25, "{:?}", c.timed);
    assert!(c.timed.speed_variation < 1e-9 && c.timed.straight_frames > 50, "{:?}", c.timed);
    assert_eq!(c.timed.stall_frames, 0);
    assert!(c.timed.max_jump <= 2.0 + 1e-9); // 120 px/s at 60 fps
                                             // Lerp chases each batch's last point: a sawtooth speed, stalls before each new batch, cut corners.
    assert!(c.lerp.mean_error > 10.0, "{:?}", c.lerp);
    assert!(c.lerp.corner_cutting > 15.0, "{:?}", c.lerp);
    assert!(c.lerp.speed_variation > 0.2, "{:?}", c.lerp);
    assert!(c.lerp.stall_frames > 100, "{:?}", c.lerp);
    assert!(c.lerp.max_jump > 8.0, "{:?}", c.lerp); // right after a retarget it covers a tenth of a batch
    assert_eq!(c.timed_counters.v2_batches, 8);
    assert_eq!((c.timed_counters.snaps, c.timed_counters.boundary_jumps), (0, 0));
    assert_eq!(c.lerp_counters.retargets, 8);
}

#[test]
fn the_timed_player_is_frame_rate_independent_and_the_per_frame_lerp_is_not() {
    let batches = batches(BatchPlan::default());
    // 3 1/6 s is on the 30, 60 and 144 fps grids, 0.12 s after batch 2 arrived and retargeted the chase.
    let at = |fps: f64| position_at(&compare(&batches, CompareParams { fps, ..Default::default() }), 19.0 / 6.0);
    let [(timed_30, lerp_30), (timed_60, lerp_60), (timed_144, lerp_144)] = [30.0, 60.0, 144.0].map(at);
    assert!(timed_30.distance(timed_60) < 1e-9 && timed_60.distance(timed_144) < 1e-9);
    assert!(
        lerp_30.distance(lerp_60) > 2.0 && lerp_60.distance(lerp_144) > 2.0,
        "{lerp_30:?} {lerp_60:?} {lerp_144:?}"
    );
}

#[test]
fn the_time_constant_lerp_converges_to_the_same_path_at_any_frame_rate() {
    let batches = batches(BatchPlan::default());
    let mut params = CompareParams::default();
    params.lerp.lerp_mode = netcode_lab::path::lerp_chase::LerpMode::TimeConstant;
    let at = |fps: f64| position_at(&compare(&batches, CompareParams { fps, ..params }), 3.0).1;
    // Retargets land on frame boundaries, so the frame rates differ by up to one frame of chasing.
    let (lerp_60, lerp_120) = (at(60.0), at(120.0));
    assert!(lerp_60.distance(lerp_120) < 1.5, "{lerp_60:?} {lerp_120:?}");
    let per_frame = |fps: f64| position_at(&compare(&batches, CompareParams { fps, ..Default::default() }), 3.0).1;
    assert!(per_frame(60.0).distance(per_frame(120.0)) > 5.0 * lerp_60.distance(lerp_120));
}

#[test]
fn v1_at_the_right_speed_is_close_and_at_a_wrong_speed_falls_behind() {
    let v1 = batches(BatchPlan { with_offsets: false, ..Default::default() });
    let right = compare(&v1, CompareParams::default());
    assert_eq!(right.timed_counters.v1_batches, 8);
    // The chords around corners are shorter than the path, so V1 runs a little early and waits for the next
    // batch: a few stall frames, where V2 has none, and still far less speed variation than the lerp chase.
    assert!(right.timed.mean_error < 1.5, "{:?}", right.timed);
    assert!((1..=12).contains(&right.timed.stall_frames), "{:?}", right.timed);
    assert!(right.timed.speed_variation < right.lerp.speed_variation / 3.0, "{:?} {:?}", right.timed, right.lerp);
    let slow = PathParams { speed: 90.0, ..Default::default() };
    let wrong = compare(&v1, CompareParams { path: slow, ..Default::default() });
    assert!(wrong.timed.mean_error > 10.0 * right.timed.mean_error, "{:?}", wrong.timed);
    let most_buffered = wrong.frames.iter().map(|f| f.player.buffered).max().unwrap();
    assert!(most_buffered >= 2, "the queue grows when V1 plays slower than the batches come");
}

/// Batch 3 (window 3–4 s) is lost. The queue runs dry at 4.17 s; batch 4 arrives at 5.05 s, 0.88 s later
/// (stale), 179 px from where the entity stands: a hard snap.
#[test]
fn one_lost_batch_snaps_once_and_the_article_rule_snaps_on_every_batch_when_the_distance_is_too_small() {
    let mut lost = batches(BatchPlan::default());
    lost.remove(3);
    let with = |target, distance| {
        let path = PathParams { hard_snap_target: target, hard_snap_distance: distance, ..Default::default() };
        compare(&lost, CompareParams { path, ..Default::default() })
    };
    let latest = with(SnapTarget::LatestPoint, 150.0);
    assert_eq!(latest.timed_counters.snaps, 1);
    let snap = latest.ingests.iter().find(|i| matches!(i.outcome, IngestOutcome::HardSnapped { .. })).unwrap();
    let IngestOutcome::HardSnapped { to, drift, gap } = snap.outcome else { unreachable!() };
    assert_eq!((snap.batch, snap.time), (3, 5.05));
    assert_relative_eq!(gap, 0.88, epsilon = 1e-9);
    assert_relative_eq!(drift, 80.0 * 5.0_f64.sqrt(), epsilon = 1e-9); // truth(3 s) → truth(5 s)
    assert!(to.distance(Vec2::new(440.0, 160.0)) < 1e-9);
    assert_relative_eq!(latest.timed.max_jump, drift, epsilon = 1e-9);

    // Below one batch of travel (120 px), every batch after the loss arrives to a dry queue again and snaps.
    let chain = with(SnapTarget::LatestPoint, 100.0);
    assert_eq!(chain.timed_counters.snaps, 3);
    assert!(chain.timed.stall_frames > latest.timed.stall_frames);

    // Snapping to the batch's start and playing it loses one batch of motion instead of two.
    let start = with(SnapTarget::BatchStart, 150.0);
    assert_eq!(start.timed_counters.snaps, 1);
    assert_relative_eq!(start.timed.max_jump, drift / 2.0, epsilon = 1e-9);
    assert!(start.timed.stall_frames * 2 <= latest.timed.stall_frames, "{:?} {:?}", start.timed, latest.timed);
    assert!(start.timed.mean_error < latest.timed.mean_error / 2.0);
}

#[test]
fn a_run_is_deterministic_and_a_fixed_truth_delay_is_used_as_given() {
    let batches = batches(BatchPlan::default());
    assert_eq!(compare(&batches, CompareParams::default()), compare(&batches, CompareParams::default()));
    let fixed = compare(&batches, CompareParams { truth_delay: Some(0.5), ..Default::default() });
    assert_eq!((fixed.timed.delay, fixed.lerp.delay), (0.5, 0.5));
    assert!(fixed.timed.mean_error > 50.0, "0.67 s off its delay is 80 px off: {:?}", fixed.timed);
    assert_eq!(fixed.frames.len(), 661);
}

#[test]
fn bad_parameters_and_arrivals_are_refused_with_the_field_named() {
    let truth = staircase();
    let mut batches = batches(BatchPlan::default());
    let refused = |params: CompareParams, batches: &[PathBatch]| run(&truth, batches, &params).unwrap_err().field;
    assert_eq!(refused(CompareParams { fps: 0.0, ..Default::default() }, &batches), "fps");
    assert_eq!(refused(CompareParams { truth_delay: Some(9.0), ..Default::default() }, &batches), "truthDelay");
    let mut params = CompareParams::default();
    params.lerp.lerp_factor = 2.0;
    assert_eq!(refused(params, &batches), "lerpFactor");
    batches[2].arrival = f64::NAN;
    assert_eq!(refused(CompareParams::default(), &batches), "arrival");
}

#[test]
fn compare_parameters_are_one_flat_camel_case_object() {
    let json = serde_json::to_value(CompareParams::default()).unwrap();
    for key in [
        "fps",
        "duration",
        "truthDelay",
        "speed",
        "interpolationDelay",
        "staleGap",
        "hardSnapDistance",
        "lerpFactor",
        "lerpMode",
    ] {
        assert!(json.get(key).is_some(), "{key} missing in {json}");
    }
    let params: CompareParams = serde_json::from_str(r#"{"fps": 144, "lerpFactor": 0.2, "staleGap": 1}"#).unwrap();
    assert_eq!((params.fps, params.lerp.lerp_factor, params.path.stale_gap), (144.0, 0.2, 1.0));
    assert_eq!(params.path.speed, 120.0);
}
