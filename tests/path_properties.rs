#![cfg(not(target_arch = "wasm32"))]
//! Invariants of the timed player and the lerp chase under any input (seed 001; never a panic, never a
//! non-finite position, constant speed inside a segment, no jump between batches that connect).

mod cases;

use netcode_lab::geom::Vec2;
use netcode_lab::path::batch::{clean, DuplicatePolicy};
use netcode_lab::path::lerp_chase::{LerpChase, LerpMode, LerpParams};
use netcode_lab::path::params::{PathParams, SnapTarget};
use netcode_lab::path::player::{IngestOutcome, PathPlayer, PlaybackState};
use netcode_lab::path::timeline::TimedPath;
use netcode_lab::path::{PathBatch, PathPoint};
use proptest::prelude::*;

/// Any number, weighted towards the awkward ones.
fn wild() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -2000.0..2000.0_f64,
        1 => any::<f64>(),
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(1e300),
        1 => Just(0.0),
        1 => Just(f64::MIN_POSITIVE / 4.0),
    ]
}

fn wild_batch() -> impl Strategy<Value = PathBatch> {
    let point =
        (wild(), wild(), proptest::option::of(wild())).prop_map(|(x, y, offset_ms)| PathPoint { x, y, offset_ms });
    (wild(), proptest::option::of(0u64..20), proptest::collection::vec(point, 0..8), proptest::option::of(wild()))
        .prop_map(|(arrival, seq, points, duration_ms)| PathBatch { arrival, seq, points, duration_ms })
}

#[derive(Clone, Debug)]
enum Event {
    Ingest(PathBatch, f64),
    Sample(f64),
}

fn events() -> impl Strategy<Value = Vec<Event>> {
    let event = prop_oneof![
        (wild_batch(), wild()).prop_map(|(b, t)| Event::Ingest(b, t)),
        wild().prop_map(Event::Sample),
        (0.0..20.0_f64).prop_map(Event::Sample),
    ];
    proptest::collection::vec(event, 0..40)
}

fn any_params() -> impl Strategy<Value = PathParams> {
    (1.0..500.0_f64, 0.0..0.3_f64, 0.0..2.0_f64, 0.0..300.0_f64, any::<bool>(), any::<bool>()).prop_map(
        |(speed, interpolation_delay, stale_gap, hard_snap_distance, latest, remove)| PathParams {
            speed,
            interpolation_delay,
            stale_gap,
            hard_snap_distance,
            hard_snap_target: if latest { SnapTarget::LatestPoint } else { SnapTarget::BatchStart },
            duplicates: if remove { DuplicatePolicy::Remove } else { DuplicatePolicy::KeepTimedPauses },
        },
    )
}

/// A well-formed batch: 1–6 points within ±1000 px; with offsets, strictly increasing by 10–500 ms.
fn valid_batch(with_offsets: bool) -> impl Strategy<Value = PathBatch> {
    proptest::collection::vec((-1000.0..1000.0_f64, -1000.0..1000.0_f64, 10.0..500.0_f64), 1..6).prop_map(
        move |points| {
            let mut offset = 0.0;
            let points = points
                .iter()
                .enumerate()
                .map(|(i, &(x, y, step))| {
                    offset += if i == 0 { 0.0 } else { step };
                    PathPoint { x, y, offset_ms: with_offsets.then_some(offset) }
                })
                .collect();
            PathBatch { arrival: 0.0, seq: None, points, duration_ms: None }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    /// No panic on any batch sequence, and every frame is finite and says why when it has no position.
    #[test]
    fn any_event_sequence_gives_finite_frames(params in any_params(), events in events(), per_frame in any::<bool>()) {
        let mut player = PathPlayer::new(params).unwrap();
        let mode = if per_frame { LerpMode::PerFrame } else { LerpMode::TimeConstant };
        let mut lerp = LerpChase::new(LerpParams { lerp_mode: mode, ..Default::default() }).unwrap();
        let mut accepted_seqs: Vec<u64> = Vec::new();
        for event in &events {
            match event {
                Event::Ingest(batch, received_at) => {
                    let outcome = player.ingest(batch, *received_at);
                    let accepted = matches!(
                        outcome,
                        IngestOutcome::Started { .. } | IngestOutcome::Queued { .. } | IngestOutcome::HardSnapped { .. }
                    );
                    if let (true, Some(seq)) = (accepted, batch.seq) {
                        accepted_seqs.push(seq);
                    }
                    lerp.ingest(batch);
                }
                Event::Sample(now) => {
                    let frame = player.sample(*now);
                    prop_assert_eq!(frame.position.is_none(), frame.state == PlaybackState::Empty);
                    if let Some(p) = frame.position {
                        prop_assert!(p.is_finite(), "{:?}", frame);
                    }
                    prop_assert!(frame.velocity.is_finite(), "{:?}", frame);
                    prop_assert_eq!(frame.moving, frame.velocity != Vec2::ZERO);
                    if let Some(p) = lerp.step(now.abs().min(1.0)) {
                        prop_assert!(p.is_finite());
                    }
                }
            }
        }
        // seq only moves forward.
        prop_assert!(accepted_seqs.windows(2).all(|w| w[0] < w[1]), "{:?}", accepted_seqs);
        prop_assert_eq!(player.counters().batches as usize, events.iter().filter(|e| matches!(e, Event::Ingest(..))).count());
    }

    /// Inside a segment the position stays in the segment's bounding box.
    #[test]
    fn the_position_is_inside_its_segments_bounding_box(
        batches in proptest::collection::vec(valid_batch(true), 1..5),
        v1 in any::<bool>(),
        times in proptest::collection::vec(0.0..15.0_f64, 1..60),
    ) {
        let mut player = PathPlayer::new(PathParams::default()).unwrap();
        for (i, batch) in batches.iter().enumerate() {
            let mut batch = batch.clone();
            if v1 {
                batch.points.iter_mut().for_each(|p| p.offset_ms = None);
            }
            player.ingest(&batch, i as f64 * 0.5);
        }
        let mut times = times;
        times.sort_by(f64::total_cmp);
        for t in times {
            let frame = player.sample(t);
            let (Some(segment), Some(position)) = (frame.segment, frame.position) else { continue };
            let (_, path) = player.paths().next().expect("a segment implies an active path");
            let s = path.segments[segment];
            let slack = 1e-9 * (1.0 + s.from.x.abs().max(s.to.x.abs()).max(s.from.y.abs()).max(s.to.y.abs()));
            prop_assert!(position.x >= s.from.x.min(s.to.x) - slack && position.x <= s.from.x.max(s.to.x) + slack);
            prop_assert!(position.y >= s.from.y.min(s.to.y) - slack && position.y <= s.from.y.max(s.to.y) + slack);
        }
    }

    /// Within one segment the timed speed is constant: distance over time between any two instants equals the
    /// segment's length over its duration (seed 001 "同一线段内速度恒定").
    #[test]
    fn timed_speed_within_a_segment_is_constant(
        batch in valid_batch(true),
        v1 in any::<bool>(),
        speed in 10.0..500.0_f64,
        a in 0.01..0.99_f64,
        b in 0.01..0.99_f64,
    ) {
        let mut batch = batch;
        if v1 {
            batch.points.iter_mut().for_each(|p| p.offset_ms = None);
        }
        let path = TimedPath::build(&clean(&batch, DuplicatePolicy::Remove), 3.0, speed).unwrap();
        for (i, s) in path.segments.iter().enumerate() {
            let (t1, t2) = (s.start + a.min(b) * s.duration(), s.start + a.max(b) * s.duration());
            prop_assume!(t2 - t1 > 1e-3);
            let (p1, p2) = (path.locate(t1), path.locate(t2));
            prop_assert_eq!((p1.segment, p2.segment), (Some(i), Some(i)));
            let measured = p1.position.distance(p2.position) / (t2 - t1);
            let expected = s.from.distance(s.to) / s.duration();
            prop_assert!((measured - expected).abs() <= 1e-6 * (1.0 + expected), "{} vs {}", measured, expected);
            prop_assert!((p1.velocity.length() - expected).abs() <= 1e-9 * (1.0 + expected));
            if v1 {
                prop_assert!((expected - speed).abs() <= 1e-6 * speed);
            }
        }
    }

    /// Batches that connect (each starts where the previous ended) play without a jump whenever they arrive —
    /// in a burst, on time or late (then the entity waits where the last one ended): no frame moves further
    /// than the fastest segment allows.
    #[test]
    fn connecting_batches_never_jump(
        legs in proptest::collection::vec((-200.0..200.0_f64, -200.0..200.0_f64), 2..10),
        per_batch in 1usize..4,
        gaps in proptest::collection::vec(0.0..0.6_f64, 10),
        fps in prop_oneof![Just(30.0), Just(60.0), Just(144.0)],
    ) {
        let mut corners = vec![Vec2::ZERO];
        for (dx, dy) in &legs {
            let last = *corners.last().unwrap();
            corners.push(last + Vec2::new(*dx, *dy));
        }
        let mut player = PathPlayer::new(PathParams::default()).unwrap();
        let mut fastest: f64 = 0.0;
        for (k, chunk) in corners.windows(per_batch + 1).step_by(per_batch).enumerate() {
            let points: Vec<(f64, f64, f64)> = chunk.iter().enumerate().map(|(j, p)| (p.x, p.y, j as f64 * 250.0)).collect();
            let arrival: f64 = gaps[..=k].iter().sum();
            let batch = PathBatch::v2(arrival, k as u64 + 1, &points, 250.0 * per_batch as f64);
            player.ingest(&batch, batch.arrival);
            for w in chunk.windows(2) {
                fastest = fastest.max(w[0].distance(w[1]) / 0.25);
            }
        }
        let mut previous: Option<Vec2> = None;
        for k in 0..(10.0 * fps) as usize {
            let position = player.sample(k as f64 / fps).position;
            if let (Some(a), Some(b)) = (previous, position) {
                prop_assert!(a.distance(b) <= fastest / fps + 1e-6, "step {} at frame {}", a.distance(b), k);
            }
            previous = position;
        }
        prop_assert_eq!(player.counters().boundary_jumps, 0);
    }
}
