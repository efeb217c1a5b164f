//! The timed path player driven frame by frame: seed 001's worked numbers, the queue, seq and hard snap.

use approx::assert_relative_eq;
use netcode_lab::geom::Vec2;
use netcode_lab::path::batch::TimingKind;
use netcode_lab::path::params::PathParams;
use netcode_lab::path::player::{IngestOutcome, PathPlayer, PlaybackState, RejectReason, MAX_QUEUED_PATHS};
use netcode_lab::path::{PathBatch, PathPoint};

const SEED_001_POINTS: [(f64, f64); 4] = [(0.0, 0.0), (60.0, 0.0), (60.0, 40.0), (120.0, 40.0)];

fn player() -> PathPlayer {
    PathPlayer::new(PathParams::default()).unwrap()
}

fn seed_001_v2() -> PathBatch {
    PathBatch::v2(
        0.0,
        12,
        &[(100.0, 200.0, 0.0), (112.0, 200.0, 120.0), (130.0, 205.0, 280.0), (160.0, 220.0, 1000.0)],
        1000.0,
    )
}

/// Samples `player` every `1/fps` s from `from` to `to` and returns the largest distance between two frames.
fn largest_frame_step(player: &mut PathPlayer, from: f64, to: f64, fps: f64) -> f64 {
    let frames = ((to - from) * fps).round() as usize;
    let mut previous: Option<Vec2> = None;
    let mut largest: f64 = 0.0;
    for k in 0..=frames {
        let position = player.sample(from + k as f64 / fps).position;
        if let (Some(a), Some(b)) = (previous, position) {
            largest = largest.max(a.distance(b));
        }
        previous = position;
    }
    largest
}

/// Seed 001 "一个具体时刻的计算": 650 ms into the path the entity is at (60, 18), on S2, moving up at 120 px/s.
#[test]
fn seed_001_at_650_ms_into_the_path_the_frame_is_60_18_on_s2() {
    let mut player = player();
    let outcome = player.ingest(&PathBatch::v1(0.0, &SEED_001_POINTS), 0.0);
    assert_eq!(outcome, IngestOutcome::Started { path: 0, start: 0.12, timing: TimingKind::V1 });
    let frame = player.sample(0.12 + 0.65);
    assert_eq!(frame.state, PlaybackState::Playing);
    assert_eq!((frame.path, frame.segment, frame.buffered, frame.moving), (Some(0), Some(1), 0, true));
    let position = frame.position.unwrap();
    assert_relative_eq!(position.x, 60.0, epsilon = 1e-9);
    assert_relative_eq!(position.y, 18.0, epsilon = 1e-9);
    assert_relative_eq!(frame.velocity.y, 120.0, epsilon = 1e-9);
    // 1333.3 ms into the path it has ended and holds at (120, 40).
    let done = player.sample(0.12 + 1.3334);
    assert_eq!((done.state, done.position, done.moving), (PlaybackState::Idle, Some(Vec2::new(120.0, 40.0)), false));
}

#[test]
fn the_first_batch_waits_the_interpolation_delay_at_its_first_point() {
    let mut player = player();
    assert_eq!(player.sample(0.0).state, PlaybackState::Empty);
    assert_eq!(player.sample(0.0).position, None);
    player.ingest(&PathBatch::v1(1.0, &SEED_001_POINTS), 1.0);
    let waiting = player.sample(1.1);
    assert_eq!((waiting.state, waiting.position, waiting.moving), (PlaybackState::Waiting, Some(Vec2::ZERO), false));
    let playing = player.sample(1.12 + 0.25);
    assert_relative_eq!(playing.position.unwrap().x, 30.0, epsilon = 1e-9);
}

/// Seed 001 "第二阶段" batch through the player: seq 12 accepted, played on offsets 0/120/280/1000 ms.
#[test]
fn seed_001_v2_batch_plays_on_its_offsets_and_ends_after_duration_ms() {
    let mut player = player();
    let outcome = player.ingest(&seed_001_v2(), 5.0);
    assert_eq!(outcome, IngestOutcome::Started { path: 0, start: 5.12, timing: TimingKind::V2 });
    assert_eq!(player.last_seq(), Some(12));
    let at_200 = player.sample(5.12 + 0.2).position.unwrap();
    assert_relative_eq!(at_200.x, 121.0, epsilon = 1e-9);
    assert_relative_eq!(at_200.y, 202.5, epsilon = 1e-9);
    assert_relative_eq!(player.queued_end().unwrap(), 6.12, epsilon = 1e-12);
    assert_eq!(player.counters().v2_batches, 1);
}

#[test]
fn invalid_offsets_fall_back_to_v1_distance_over_speed_and_are_counted() {
    let mut player = player();
    let mut batch = seed_001_v2();
    batch.points[2].offset_ms = Some(50.0); // decreasing: 0, 120, 50, 1000
    let outcome = player.ingest(&batch, 0.0);
    assert_eq!(outcome, IngestOutcome::Started { path: 0, start: 0.12, timing: TimingKind::V1 });
    // V1 at 120 px/s: the first segment (12 px) takes 100 ms, not the 120 ms its offset said.
    let path = player.paths().next().unwrap().1;
    assert_relative_eq!(path.segments[0].end - path.start, 0.1, epsilon = 1e-12);
    let counters = player.counters();
    assert_eq!((counters.v2_fallbacks, counters.v1_batches, counters.v2_batches), (1, 1, 0));
    // The seq still counts: the batch was accepted.
    assert_eq!(player.last_seq(), Some(12));
}

#[test]
fn a_seq_that_is_not_newer_is_dropped_and_counted() {
    let mut player = player();
    let mut batch = seed_001_v2();
    player.ingest(&batch, 0.0);
    for (seq, at) in [(11, 0.1), (12, 0.2)] {
        batch.seq = Some(seq);
        assert_eq!(player.ingest(&batch, at), IngestOutcome::DroppedStale { seq, last_seq: 12 });
    }
    batch.seq = Some(13);
    assert!(matches!(player.ingest(&batch, 0.3), IngestOutcome::Queued { path: 1, ahead: 1, .. }));
    // A V1 batch has no seq and is never dropped as stale.
    assert!(matches!(player.ingest(&PathBatch::v1(0.4, &[(160.0, 220.0)]), 0.4), IngestOutcome::Queued { .. }));
    assert_eq!(player.counters().stale_dropped, 2);
    assert_eq!(player.last_seq(), Some(13));
    let json = serde_json::to_string(&IngestOutcome::DroppedStale { seq: 11, last_seq: 12 }).unwrap();
    assert_eq!(json, r#"{"outcome":"droppedStale","seq":11,"lastSeq":12}"#);
}

/// Seed 001 "断档纠偏": `if staleGap && driftTooLarge: snapToLatestPoint()`. The first path (0,0)→(120,0) plays
/// from 0.12 to 1.12 s. The second batch arrives at 1.0 s (still playing) or 2.0 s (0.88 s dry > staleGap 0.5 s)
/// and ends 30 px or 280 px from the rendered position.
#[test]
fn hard_snap_happens_only_when_the_gap_is_stale_and_the_drift_is_large() {
    let cases = [
        // (received at, last point, snaps?)
        (1.0, 150.0, false), // playing, small drift
        (1.0, 400.0, false), // playing, large drift
        (2.0, 150.0, false), // stale, small drift
        (2.0, 400.0, true),  // stale and large drift
    ];
    for (received_at, last_x, snaps) in cases {
        let mut player = player();
        player.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (120.0, 0.0)]), 0.0);
        player.sample(received_at);
        let outcome = player.ingest(&PathBatch::v1(received_at, &[(120.0, 0.0), (last_x, 0.0)]), received_at);
        let case = format!("received {received_at}, last x {last_x}: {outcome:?}");
        assert_eq!(matches!(outcome, IngestOutcome::HardSnapped { .. }), snaps, "{case}");
        assert_eq!(player.counters().snaps, u64::from(snaps), "{case}");
        let frame = player.sample(received_at);
        if snaps {
            assert_eq!(frame.position, Some(Vec2::new(last_x, 0.0)), "{case}");
            assert_eq!((frame.state, player.paths().count()), (PlaybackState::Idle, 0), "{case}");
            let IngestOutcome::HardSnapped { drift, gap, .. } = outcome else { unreachable!() };
            assert_relative_eq!(drift, 280.0);
            assert_relative_eq!(gap, 0.88, epsilon = 1e-12);
        } else {
            assert_ne!(frame.position, Some(Vec2::new(last_x, 0.0)), "{case}");
        }
    }
}

/// Three batches that connect, arriving while the previous one still plays: no jump at the boundaries, and the
/// same positions as the one-batch path (seed 001 "路径缓冲": 当前轨迹不会被粗暴截断).
#[test]
fn consecutive_connecting_batches_play_without_a_jump() {
    let mut player = player();
    let batches = [
        PathBatch::v1(0.0, &SEED_001_POINTS[0..2]),
        PathBatch::v1(0.3, &SEED_001_POINTS[1..3]),
        PathBatch::v1(0.6, &SEED_001_POINTS[2..4]),
    ];
    let outcomes: Vec<IngestOutcome> = batches.iter().map(|b| player.ingest(b, b.arrival)).collect();
    assert!(matches!(outcomes[0], IngestOutcome::Started { .. }));
    assert!(matches!(outcomes[2], IngestOutcome::Queued { ahead: 2, .. }));
    assert_eq!(player.paths().count(), 3);
    let mut reference = self::player();
    reference.ingest(&PathBatch::v1(0.0, &SEED_001_POINTS), 0.0);
    for t in [0.3, 0.62, 0.77, 0.953, 1.2, 1.5] {
        let (a, b) = (player.sample(t).position.unwrap(), reference.sample(t).position.unwrap());
        assert!(a.distance(b) < 1e-9, "t = {t}: {a:?} vs {b:?}");
    }
    let mut fresh = self::player();
    for b in &batches {
        fresh.ingest(b, b.arrival);
    }
    // At 120 px/s and 60 fps one frame moves 2 px; more than that would be a jump.
    assert!(largest_frame_step(&mut fresh, 0.0, 2.0, 60.0) <= 2.0 + 1e-9);
    assert_eq!(fresh.counters().boundary_jumps, 0);
}

#[test]
fn connecting_v2_batches_with_duration_ms_join_end_to_start() {
    let mut player = player();
    let first = PathBatch::v2(1.0, 1, &[(0.0, 0.0, 0.0), (50.0, 0.0, 500.0), (100.0, 0.0, 1000.0)], 1000.0);
    let second = PathBatch::v2(2.0, 2, &[(100.0, 0.0, 0.0), (100.0, 50.0, 500.0), (100.0, 100.0, 1000.0)], 1000.0);
    player.ingest(&first, 1.0);
    let IngestOutcome::Queued { start, .. } = player.ingest(&second, 2.0) else { panic!("second batch not queued") };
    assert_relative_eq!(start, 2.12, epsilon = 1e-12);
    assert!(largest_frame_step(&mut player, 1.0, 3.5, 60.0) <= 100.0 / 60.0 + 1e-9);
}

#[test]
fn a_batch_that_does_not_connect_is_played_but_counted_as_a_boundary_jump() {
    let mut player = player();
    player.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0)]), 0.0);
    player.ingest(&PathBatch::v1(0.1, &[(70.0, 0.0), (80.0, 0.0)]), 0.1);
    assert_eq!(player.counters().boundary_jumps, 1);
    assert_relative_eq!(player.sample(0.62).position.unwrap().x, 70.0, epsilon = 1e-9);
}

#[test]
fn a_gap_in_the_stream_is_a_visible_hold_then_the_next_batch_plays() {
    let mut player = player();
    player.ingest(&PathBatch::v1(0.0, &[(0.0, 0.0), (60.0, 0.0)]), 0.0); // plays 0.12..0.62
    player.sample(0.7);
    // Arrives 0.28 s after the queue ran dry: not stale (< 0.5 s), so it queues from 0.9 + 0.12.
    let outcome = player.ingest(&PathBatch::v1(0.9, &[(60.0, 0.0), (120.0, 0.0)]), 0.9);
    assert!(matches!(outcome, IngestOutcome::Started { start, .. } if (start - 1.02).abs() < 1e-12), "{outcome:?}");
    let holding = player.sample(0.95);
    assert_eq!((holding.state, holding.position), (PlaybackState::Waiting, Some(Vec2::new(60.0, 0.0))));
}

#[test]
fn bad_batches_are_handled_and_counted_without_a_panic() {
    let mut player = player();
    let empty = PathBatch::v1(0.0, &[]);
    assert_eq!(player.ingest(&empty, 0.0), IngestOutcome::Rejected { reason: RejectReason::EmptyBatch });
    let all_bad = PathBatch::v1(0.0, &[(f64::NAN, 0.0), (0.0, f64::NEG_INFINITY), (1e12, 0.0)]);
    assert_eq!(player.ingest(&all_bad, 0.0), IngestOutcome::Rejected { reason: RejectReason::EmptyBatch });
    let bad_time = PathBatch::v1(0.0, &[(0.0, 0.0)]);
    assert_eq!(
        player.ingest(&bad_time, f64::NAN),
        IngestOutcome::Rejected { reason: RejectReason::InvalidReceiveTime }
    );
    // One point (after dropping a NaN and two duplicates): a hold at that point.
    let single = PathBatch::v1(0.0, &[(5.0, 5.0), (5.0, 5.0), (f64::NAN, 1.0), (5.0, 5.0)]);
    assert!(matches!(player.ingest(&single, 0.0), IngestOutcome::Started { .. }));
    assert_eq!(player.sample(0.2).position, Some(Vec2::new(5.0, 5.0)));
    // Two different points at the same offset: a jump segment.
    let jump = PathBatch::v2(0.3, 1, &[(5.0, 5.0, 0.0), (9.0, 5.0, 0.0), (9.0, 9.0, 100.0)], 100.0);
    player.ingest(&jump, 0.3);
    assert_eq!(player.sample(f64::INFINITY).position, Some(Vec2::new(5.0, 5.0)));
    let c = player.counters();
    assert_eq!(c.batches, 5);
    assert_eq!((c.empty_batches, c.invalid_receive_times, c.single_points), (2, 1, 1));
    assert_eq!((c.non_finite_points, c.out_of_range_points, c.duplicates_removed), (3, 1, 2));
    assert_eq!((c.zero_duration_segments, c.invalid_sample_times), (1, 1));
}

#[test]
fn the_queue_is_bounded() {
    let mut player = player();
    let batch = PathBatch {
        arrival: 0.0,
        seq: None,
        points: vec![PathPoint::at(0.0, 0.0), PathPoint::at(1.0, 0.0)],
        duration_ms: None,
    };
    for _ in 0..MAX_QUEUED_PATHS + 3 {
        player.ingest(&batch, 0.0);
    }
    assert_eq!(player.paths().count(), MAX_QUEUED_PATHS);
    assert_eq!(player.counters().queue_full, 3);
}

#[test]
fn time_going_backwards_answers_from_what_is_left() {
    let mut player = player();
    player.ingest(&PathBatch::v1(0.0, &SEED_001_POINTS), 0.0);
    player.sample(2.0);
    let back = player.sample(0.5);
    assert_eq!((back.state, back.position), (PlaybackState::Idle, Some(Vec2::new(120.0, 40.0))));
}

/// A V2 batch that stands still at (0,0) from 0 to 200 ms, then walks 40 px in 200 ms. The article's dedup
/// removes the repeat and the entity creeps 40 px over 400 ms; `keepTimedPauses` stands, then walks.
#[test]
fn a_timed_pause_is_a_creep_under_the_article_rule_and_a_stop_when_kept() {
    use netcode_lab::path::batch::DuplicatePolicy;
    let batch = PathBatch::v2(0.0, 1, &[(0.0, 0.0, 0.0), (0.0, 0.0, 200.0), (40.0, 0.0, 400.0)], 400.0);
    let at_100_ms = |duplicates| {
        let mut player = PathPlayer::new(PathParams { duplicates, ..Default::default() }).unwrap();
        player.ingest(&batch, 0.0);
        player.sample(0.12 + 0.1)
    };
    let creeping = at_100_ms(DuplicatePolicy::Remove);
    assert_relative_eq!(creeping.position.unwrap().x, 10.0, epsilon = 1e-9);
    assert_relative_eq!(creeping.velocity.x, 100.0, epsilon = 1e-9);
    let standing = at_100_ms(DuplicatePolicy::KeepTimedPauses);
    assert_eq!((standing.position, standing.moving, standing.segment), (Some(Vec2::ZERO), false, Some(0)));
}
