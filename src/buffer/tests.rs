use super::*;
use crate::geom::Vec2;
use crate::interpolate::Interpolation;
use crate::snapshot::Problem;
use approx::assert_relative_eq;

fn at(tick: u64, server_time: f64, x: f64) -> Snapshot {
    Snapshot::moving(tick, server_time, Vec2::new(x, 0.0), Vec2::new(10.0, 0.0))
}

fn ticks(buffer: &SnapshotBuffer) -> Vec<u64> {
    buffer.snapshots().map(|s| s.tick).collect()
}

/// A buffer with a 0.1 s send interval holding ticks `first..=last` at 0.1 s steps, x = tick − first.
fn filled(first: u64, last: u64) -> SnapshotBuffer {
    let params = BufferParams::default();
    let mut buffer = SnapshotBuffer::with_params(params, 0.1).unwrap();
    for tick in first..=last {
        let i = (tick - first) as f64;
        assert!(buffer.insert(at(tick, 10.0 + 0.1 * i, i), 10.08 + 0.1 * i).is_inserted());
    }
    buffer
}

/// Seed 002 "三个乱序到达的快照": 100, 102, 101 arrive at 10.08, 10.23, 10.25; sampled at 10.15 → x = 1.5.
#[test]
fn seed_002_out_of_order_snapshots_interpolate_to_one_and_a_half() {
    let mut buffer = SnapshotBuffer::new(32);
    let arrivals = [(at(100, 10.0, 0.0), 10.08), (at(102, 10.2, 2.0), 10.23), (at(101, 10.1, 1.0), 10.25)];
    let outcomes: Vec<InsertOutcome> = arrivals.iter().map(|&(s, t)| buffer.insert(s, t)).collect();
    assert_eq!(outcomes[2], InsertOutcome::Inserted { out_of_order: true, evicted: None });
    assert_eq!(ticks(&buffer), [100, 101, 102]);
    let sample = buffer.sample(10.30 - 0.15);
    assert_eq!(sample.status, SampleStatus::Ready);
    assert_eq!((sample.left, sample.right), (Some(101), Some(102)));
    assert_relative_eq!(sample.position.unwrap().x, 1.5, epsilon = 1e-9);
    assert_relative_eq!(sample.factor.unwrap(), 0.5, epsilon = 1e-9);
    let metrics = buffer.metrics(10.30);
    assert_eq!((metrics.received, metrics.inserted, metrics.out_of_order), (3, 3, 1));
    assert_relative_eq!(metrics.newest_age.unwrap(), 0.07, epsilon = 1e-9); // tick 102 arrived at 10.23
    assert_relative_eq!(metrics.buffer_depth.unwrap(), 0.05, epsilon = 1e-9);
}

#[test]
fn statuses_outside_the_bracket_carry_no_position_and_a_reason() {
    let mut buffer = SnapshotBuffer::new(32);
    assert_eq!(buffer.sample(1.0).status, SampleStatus::Priming);
    buffer.insert(at(1, 1.0, 0.0), 1.0);
    assert_eq!(buffer.sample(1.0).status, SampleStatus::Priming);
    buffer.insert(at(2, 1.05, 1.0), 1.05);
    for (t, status) in [(0.9, SampleStatus::Gap), (1.2, SampleStatus::Underrun)] {
        let sample = buffer.sample(t);
        assert_eq!(sample.status, status);
        assert_eq!(sample.position, None);
        assert!(sample.reason.is_some());
    }
    let underrun = buffer.sample(1.2);
    assert!(underrun.reason.unwrap().contains("150 ms past the newest snapshot (tick 2"));
    assert_eq!(underrun.anchor.map(|a| a.tick), Some(2));
    assert_relative_eq!(buffer.sample(1.2).ahead().unwrap(), 0.15, epsilon = 1e-12);
}

#[test]
fn a_render_time_on_a_snapshot_is_ready_at_that_snapshot() {
    let mut buffer = filled(1, 3);
    let sample = buffer.sample(10.2);
    assert_eq!(sample.status, SampleStatus::Ready);
    assert_eq!((sample.left, sample.right, sample.factor), (Some(3), Some(3), Some(0.0)));
    assert_eq!(sample.position, Some(Vec2::new(2.0, 0.0)));
}

#[test]
fn capacity_evicts_the_oldest_and_reports_it() {
    let mut buffer = SnapshotBuffer::new(2);
    for tick in 0..4 {
        buffer.insert(at(tick, tick as f64, 0.0), tick as f64);
    }
    assert_eq!(ticks(&buffer), [2, 3]);
    let outcome = buffer.insert(at(4, 4.0, 0.0), 4.0);
    assert_eq!(outcome, InsertOutcome::Inserted { out_of_order: false, evicted: Some(at(2, 2.0, 0.0)) });
    // Tick 1 was evicted: its place in the timeline is gone; a copy of it is a late duplicate, a new tick late.
    assert_eq!(buffer.insert(at(1, 1.0, 0.0), 5.0), InsertOutcome::LateDuplicate { tick: 1 });
    let mut other = SnapshotBuffer::new(2);
    for tick in [0, 2, 4] {
        other.insert(at(tick, tick as f64, 0.0), tick as f64);
    }
    assert_eq!(other.insert(at(1, 1.0, 0.0), 5.0), InsertOutcome::Late { tick: 1 });
    assert_eq!(buffer.metrics(5.0).evicted, 3);
}

#[test]
fn a_non_finite_snapshot_or_arrival_is_rejected_naming_the_field() {
    let mut buffer = SnapshotBuffer::new(4);
    let InsertOutcome::Invalid(err) = buffer.insert(at(1, f64::NAN, 0.0), 1.0) else { panic!("not invalid") };
    assert_eq!(err.field, "serverTime");
    let InsertOutcome::Invalid(err) = buffer.insert(at(1, 1.0, 0.0), f64::INFINITY) else { panic!("not invalid") };
    assert_eq!(err.field, "arrival");
    assert!(buffer.is_empty());
    assert_eq!(buffer.metrics(0.0).invalid, 2);
}

#[test]
fn duplicates_are_counted_and_conflicts_keep_the_first_and_report_both() {
    let mut buffer = filled(1, 3);
    assert_eq!(buffer.insert(at(2, 10.1, 1.0), 11.0), InsertOutcome::Duplicate { tick: 2 });
    let other = at(2, 10.1, 7.0);
    assert_eq!(
        buffer.insert(other, 11.0),
        InsertOutcome::Conflict { kept: at(2, 10.1, 1.0), rejected: other, field: "x" }
    );
    assert_eq!(buffer.snapshots().nth(1).unwrap().pos.x, 1.0, "never a silent overwrite");
    let m = buffer.metrics(11.0);
    assert_eq!((m.received, m.inserted, m.duplicates, m.conflicts), (5, 3, 1, 1));
}

#[test]
fn tick_order_must_agree_with_server_time_order() {
    let mut buffer = filled(1, 3);
    let InsertOutcome::Invalid(err) = buffer.insert(at(4, 10.15, 0.0), 11.0) else { panic!("not invalid") };
    assert_eq!(err.field, "serverTime");
    assert_eq!(err.problem, Problem::OutOfTickOrder { neighbour_tick: 3, neighbour_time: 10.2, server_time: 10.15 });
}

#[test]
fn another_entity_is_refused() {
    let mut buffer = filled(1, 2);
    let stranger = Snapshot { entity: 9, ..at(3, 10.2, 0.0) };
    let InsertOutcome::Invalid(err) = buffer.insert(stranger, 11.0) else { panic!("not invalid") };
    assert_eq!((err.field, err.problem), ("entity", Problem::OtherEntity { expected: 0, got: 9 }));
}

#[test]
fn a_bracket_wider_than_the_gap_factor_is_a_gap() {
    // send interval 0.1 s, gap factor 2.5: 10.0 → 10.2 (one lost) interpolates, 10.2 → 10.5 (two lost) does not.
    let mut buffer = filled(1, 1);
    buffer.insert(at(3, 10.2, 2.0), 10.3);
    buffer.insert(at(6, 10.5, 5.0), 10.6);
    assert_eq!(buffer.sample(10.1).status, SampleStatus::Ready);
    let gap = buffer.sample(10.3);
    assert_eq!(gap.status, SampleStatus::Gap);
    assert_eq!((gap.left, gap.right), (Some(3), Some(6)));
    assert!(gap.reason.unwrap().contains("300 ms apart"));
    assert_eq!(buffer.sample(10.5).status, SampleStatus::Ready);
}

#[test]
fn teleports_and_generation_changes_are_invalid_intervals() {
    let mut buffer = filled(1, 2);
    buffer.insert(Snapshot { teleport: true, ..at(3, 10.2, 500.0) }, 10.3);
    buffer.insert(Snapshot { generation: 1, ..at(4, 10.3, 0.0) }, 10.4);
    buffer.insert(Snapshot { generation: 1, ..at(5, 10.4, 1.0) }, 10.5);
    let expectations = [
        (10.05, SampleStatus::Ready),
        (10.15, SampleStatus::InvalidInterval),
        (10.2, SampleStatus::Ready), // exactly on the teleport: its own position
        (10.25, SampleStatus::InvalidInterval),
        (10.35, SampleStatus::Ready),
    ];
    for (t, status) in expectations {
        assert_eq!(buffer.sample(t).status, status, "at {t}");
    }
    assert!(buffer.sample(10.25).reason.unwrap().contains("generations 0 and 1"));
}

#[test]
fn prune_keeps_one_left_anchor_and_later_arrivals_before_it_are_late() {
    let mut buffer = filled(1, 5);
    assert_eq!(buffer.prune(10.25), 2);
    assert_eq!(ticks(&buffer), [3, 4, 5]);
    assert_eq!(buffer.sample(10.25).left, Some(3));
    // Tick 2 was held and pruned: a second copy of it is a late duplicate (seed 002 "重复快照"), a changed copy a
    // conflict, and a tick never seen before the floor (0) is simply late.
    assert_eq!(buffer.insert(at(2, 10.1, 1.0), 11.0), InsertOutcome::LateDuplicate { tick: 2 });
    assert!(matches!(buffer.insert(at(2, 10.1, 7.0), 11.0), InsertOutcome::Conflict { field: "x", .. }));
    assert_eq!(buffer.insert(at(0, 9.9, -1.0), 11.0), InsertOutcome::Late { tick: 0 });
    // Far past the newest: everything but the newest goes, which stays as the anchor of the underrun.
    buffer.prune(20.0);
    assert_eq!(ticks(&buffer), [5]);
    let sample = buffer.sample(20.0);
    assert_eq!(sample.status, SampleStatus::Underrun, "primed once, an emptying buffer underruns");
    let m = buffer.metrics(20.0);
    assert_eq!((m.pruned, m.late, m.buffered), (4, 1, 1));
    assert_eq!((m.duplicates, m.late_duplicates, m.conflicts), (1, 1, 1));
    assert_eq!(m.received, m.inserted + m.duplicates + m.conflicts + m.invalid + m.late);
}

#[test]
fn late_duplicates_are_remembered_for_a_bounded_number_of_dropped_snapshots() {
    let mut buffer = filled(1, 100);
    buffer.prune(10.0 + 0.1 * 99.0);
    assert_eq!(buffer.len(), 1);
    // 99 were dropped; only the last DROPPED_MEMORY are remembered.
    let oldest_remembered = 100 - DROPPED_MEMORY as u64;
    let copy = |tick: u64| at(tick, 10.0 + 0.1 * (tick - 1) as f64, (tick - 1) as f64);
    assert_eq!(buffer.insert(copy(oldest_remembered), 30.0), InsertOutcome::LateDuplicate { tick: oldest_remembered });
    assert_eq!(buffer.insert(copy(oldest_remembered - 1), 30.0), InsertOutcome::Late { tick: oldest_remembered - 1 });
}

/// Seed 002 "顺着最小代码走一遍": left 10.05 s at x = 0, right 10.15 s at x = 10, render time 10.10 s:
/// t = (10.10 − 10.05) / (10.15 − 10.05) = 0.05 / 0.1 = 0.5, x = Lerp(0, 10, 0.5) = 0 + (10 − 0) · 0.5 = 5.
#[test]
fn seed_002_minimal_example_is_five_at_one_half() {
    let params = BufferParams::default();
    let mut buffer = SnapshotBuffer::with_params(params, 0.1).unwrap();
    let still = |tick, t, x| Snapshot::moving(tick, t, Vec2::new(x, 0.0), Vec2::ZERO);
    buffer.insert(still(1, 10.05, 0.0), 10.1);
    buffer.insert(still(2, 10.15, 10.0), 10.18);
    let sample = buffer.sample(10.20 - 0.10);
    assert_eq!(sample.status, SampleStatus::Ready);
    assert_eq!((sample.left, sample.right), (Some(1), Some(2)));
    assert_relative_eq!(sample.factor.unwrap(), 0.5, epsilon = 1e-9);
    assert_relative_eq!(sample.position.unwrap().x, 5.0, epsilon = 1e-9);
}

/// Before the oldest snapshot: seed 002 says Gap (the default), seed 000 §4.3.4 says "用最旧的" (`beforeOldest: oldest`).
#[test]
fn before_the_oldest_snapshot_is_a_gap_or_the_oldest_by_choice() {
    let mut seed_002 = filled(1, 3);
    let gap = seed_002.sample(9.95);
    assert_eq!((gap.status, gap.position, gap.right), (SampleStatus::Gap, None, Some(1)));
    let params = BufferParams { before_oldest: BeforeOldest::Oldest, ..BufferParams::default() };
    let mut seed_000 = SnapshotBuffer::with_params(params, 0.1).unwrap();
    for tick in 1..=3 {
        let i = (tick - 1) as f64;
        seed_000.insert(at(tick, 10.0 + 0.1 * i, 4.0 + i), 10.08 + 0.1 * i);
    }
    // `if (renderTime <= oldest.serverTimeMs) return { x: oldest.x, … }`: x = 4, the oldest's, at any earlier time.
    for t in [9.0, 9.95, 10.0] {
        let s = seed_000.sample(t);
        assert_eq!(s.status, SampleStatus::Ready, "at {t}");
        assert_eq!((s.left, s.right, s.factor), (Some(1), Some(1), Some(0.0)));
        assert_eq!(s.position, Some(Vec2::new(4.0, 0.0)));
    }
    assert_relative_eq!(seed_000.sample(10.05).position.unwrap().x, 4.5, epsilon = 1e-9);
}

#[test]
fn every_sample_names_the_generation_it_stands_on() {
    let mut buffer = SnapshotBuffer::new(8);
    let born = |tick, t, generation| Snapshot { generation, ..at(tick, t, 0.0) };
    buffer.insert(born(1, 1.0, 3), 1.0);
    buffer.insert(born(2, 1.05, 3), 1.05);
    buffer.insert(born(3, 1.1, 4), 1.1);
    assert_eq!(buffer.sample(1.02).generation, Some(3));
    let respawn = buffer.sample(1.07);
    assert_eq!((respawn.status, respawn.generation), (SampleStatus::InvalidInterval, Some(3)));
    assert_eq!(buffer.sample(1.2).generation, Some(4));
    assert_eq!(buffer.sample(0.5).generation, Some(3), "before the oldest: the oldest's");
}

#[test]
fn the_cursor_agrees_with_a_binary_search_forwards_and_backwards() {
    let mut buffer = filled(1, 40);
    let mut times: Vec<f64> = (0..200).map(|i| 9.9 + 0.021 * i as f64).collect();
    times.extend([10.5, 10.0, 13.0, 10.05, 11.7, 9.0]);
    for t in times {
        let expected = buffer.entries.partition_point(|e| e.snapshot.server_time <= t);
        assert_eq!(buffer.count_at_or_before(t), expected, "at {t}");
    }
}

#[test]
fn underrun_and_gap_episodes_count_once_per_run() {
    let mut buffer = filled(1, 3);
    for t in [10.1, 10.3, 10.4, 10.15, 10.5, 9.0, 9.5] {
        buffer.sample(t);
    }
    let m = buffer.metrics(11.0);
    assert_eq!((m.underruns, m.gaps, m.samples.underrun, m.samples.gap), (2, 1, 3, 2));
    assert_eq!(m.render_regressions, 2);
    assert_eq!(m.samples.total(), 7);
}

#[test]
fn priming_time_is_measured_in_arrival_time() {
    let mut buffer = SnapshotBuffer::new(8);
    buffer.insert(at(1, 1.0, 0.0), 2.0);
    assert_eq!(buffer.metrics(2.0).priming_time, None);
    buffer.insert(at(2, 1.05, 0.0), 2.07);
    assert_relative_eq!(buffer.metrics(2.1).priming_time.unwrap(), 0.07, epsilon = 1e-12);
}

#[test]
fn hermite_is_selectable_and_uses_the_velocities() {
    let params = BufferParams { interpolation: Interpolation::Hermite, ..BufferParams::default() };
    let mut buffer = SnapshotBuffer::with_params(params, 0.05).unwrap();
    buffer.insert(Snapshot::moving(1, 0.0, Vec2::ZERO, Vec2::ZERO), 0.1);
    buffer.insert(Snapshot::moving(2, 0.05, Vec2::new(10.0, 0.0), Vec2::ZERO), 0.15);
    // Stopped at both ends: smoothstep, 3t² − 2t³ at t = 0.25 is 0.15625.
    assert_relative_eq!(buffer.sample(0.0125).position.unwrap().x, 1.5625, epsilon = 1e-9);
}

/// The drawn sample with its words left out: what `sample` explains, without the reason, and a Ready sample as its
/// `Between` (the same bracket, factor, position and generation).
fn undressed(explained: &Sample) -> String {
    if explained.status == SampleStatus::Ready && explained.anchor.is_some() {
        let b = Between {
            position: explained.position.unwrap(),
            left: explained.left.unwrap(),
            right: explained.right.unwrap(),
            factor: explained.factor.unwrap(),
            generation: explained.generation.unwrap(),
        };
        return format!("{b:?}");
    }
    // Debug text: a NaN render time is not == itself.
    format!("{:?}", Sample { reason: None, ..explained.clone() })
}

#[test]
fn a_drawn_sample_is_the_explained_one_without_its_words() {
    // Every status on one timeline: priming, a respawn, a teleport, a wide gap, exact hits, both ends, a render
    // time going back, NaN; both rules before the oldest. `sample_drawn` must decide as `sample` does, with the
    // same numbers and the same counts, and leave only the words out. Red when a dress reads another anchor or
    // newest snapshot, drops a field, or counts otherwise.
    for before_oldest in BeforeOldest::ALL {
        let params = BufferParams { before_oldest, ..BufferParams::default() };
        let mut explained = SnapshotBuffer::with_params(params, 0.1).unwrap();
        let mut drawn = explained.clone();
        let mut snapshots: Vec<Snapshot> = (1..=12).map(|k| at(k, 10.0 + 0.1 * k as f64, k as f64)).collect();
        snapshots[4].generation = 1; // ticks 5.. are a new life: 4 → 5 is a respawn
        snapshots.iter_mut().skip(5).for_each(|s| s.generation = 1);
        snapshots[7].teleport = true; // 7 → 8 teleports
        snapshots.remove(9); // 9 → 11 is 0.2 s: still interpolated (gap factor 2.5)
        snapshots.remove(9); // 9 → 12 is 0.3 s: a Gap
        let (mut between, mut whole_ready, mut exact, mut with_words) = (0, 0, 0, 0);
        for (i, s) in snapshots.iter().enumerate() {
            explained.insert(*s, s.server_time + 0.08);
            drawn.insert(*s, s.server_time + 0.08);
            let times = (0..16).map(|j| s.server_time - 0.35 + 0.033 * j as f64);
            for t in times.chain([s.server_time, 9.0, f64::NAN, 10.1 + 0.1 * i as f64]) {
                let expected = explained.sample(t);
                assert_eq!(expected.reason.is_none(), expected.status == SampleStatus::Ready, "at {t}: {expected:?}");
                with_words += usize::from(expected.reason.is_some());
                let got = drawn.sample_drawn(t);
                let got = match &got {
                    Ok(b) => {
                        between += 1;
                        let on = expected.anchor.is_some_and(|a| a.server_time == t);
                        assert_eq!((b.left == b.right, b.factor == 0.0), (on, on), "at {t}");
                        exact += usize::from(on);
                        format!("{b:?}")
                    }
                    Err(sample) => {
                        whole_ready += usize::from(sample.status == SampleStatus::Ready);
                        assert_eq!(sample.reason, None, "at {t}: no words when drawn");
                        format!("{sample:?}")
                    }
                };
                assert_eq!(got, undressed(&expected), "at {t}");
                assert_eq!(drawn.metrics(12.0), explained.metrics(12.0), "counters at {t}");
            }
        }
        // The only whole Ready sample drawn is before the oldest snapshot under seed 000's rule (no anchor).
        assert!(between > 50, "{between} as a Between");
        assert_eq!(whole_ready > 5, before_oldest == BeforeOldest::Oldest, "{whole_ready} whole Ready samples");
        assert!(exact > 5, "{exact} exactly on a snapshot");
        assert!(with_words > 50, "{with_words} explained");
        let m = explained.metrics(12.0);
        assert!(m.samples.priming > 0 && m.samples.underrun > 0 && m.samples.gap > 0 && m.samples.invalid_interval > 0);
    }
}

#[test]
fn the_next_arrival_shortcut_decides_as_the_full_check() {
    // A stream that mixes every kind of arrival: mostly the next tick, but also reordered, repeated (same and
    // different content), far behind (late, late duplicates), out of time order, invalid numbers, another
    // entity, and prunes that move the floor. `insert` (with its shortcut for the usual arrival) and the full
    // check alone must give the same outcome and leave the same buffer, every time; both ways must be taken.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let params = BufferParams { capacity: 24, ..BufferParams::default() };
    let mut fast = SnapshotBuffer::with_params(params, 0.1).unwrap();
    let mut full = fast.clone();
    let (mut newest, mut shortcuts) = (0u64, 0);
    for step in 0..20_000 {
        let roll = next(100);
        let tick = match roll {
            0..=69 => newest + 1 + u64::from(roll < 5),
            70..=79 => newest.saturating_sub(next(4)),
            80..=89 => newest.saturating_sub(next(120)),
            _ => newest + next(3),
        };
        let mut s = at(tick, 0.1 * tick as f64, tick as f64);
        match next(40) {
            0 => s.pos.x = f64::NAN,
            1 => s.server_time -= 0.15, // out of time order with a neighbour (or equal to one)
            2 => s.entity = 7,
            3 => s.vel.y = 3.0, // a conflict if the tick is held or remembered
            4 => s.server_time = f64::INFINITY,
            5 => s.server_time = 0.1 * newest as f64, // the newest's time (a tie is out of order too)
            _ => {}
        }
        let arrival = if next(60) == 0 { f64::NAN } else { 0.1 * step as f64 };
        shortcuts += usize::from(fast.is_next(&s, arrival));
        let (a, b) = (fast.insert(s, arrival), full.reference_insert(s, arrival));
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "step {step}: {s:?} at {arrival}");
        if a.is_inserted() {
            newest = newest.max(tick);
        }
        let render = 0.1 * newest as f64 - 0.01 * next(300) as f64;
        assert_eq!(format!("{:?}", fast.sample(render)), format!("{:?}", full.sample(render)), "step {step}");
        if next(10) == 0 {
            assert_eq!(fast.prune(render), full.prune(render));
        }
        assert!(fast.snapshots().eq(full.snapshots()), "step {step}");
        assert!(fast.entries.popped().iter().eq(full.entries.popped().iter()), "step {step}");
        assert_eq!(fast.metrics(0.0), full.metrics(0.0), "step {step}");
        assert_eq!(format!("{:?}", fast.view()), format!("{:?}", full.view()), "step {step}");
    }
    let m = fast.metrics(0.0);
    assert!(shortcuts > 5_000, "{shortcuts} arrivals took the shortcut");
    assert!(m.late > 100 && m.late_duplicates > 100 && m.conflicts > 10 && m.invalid > 100 && m.out_of_order > 100);
    assert!(m.duplicates > m.late_duplicates && m.evicted > 100 && m.pruned > 100, "{m:?}");
}

mod drawn_and_explained {
    //! `sample_drawn` against `sample` over random streams: in order and out of order, repeated ticks, respawns
    //! and teleports, prunes, render times going back, and render times falling exactly on a snapshot's server
    //! time (held, pruned or not yet arrived) as often as between two.
    use super::*;
    use crate::buffer::BeforeOldest;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        /// A snapshot of this tick (server time 0.05 × tick), its generation, whether it teleports.
        Insert(u64, u32, bool),
        /// A render time: exactly on tick `.0`'s server time, or `.1` of the way to the next one.
        Sample(u64, f64),
        Prune(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        let tick = 0u64..48;
        prop_oneof![
            6 => (tick.clone(), prop_oneof![8 => Just(0u32), 1 => Just(1u32)], prop::bool::weighted(0.05))
                .prop_map(|(t, g, tp)| Op::Insert(t, g, tp)),
            6 => (tick.clone(), prop_oneof![1 => Just(0.0), 1 => 0.0f64..1.0]).prop_map(|(t, f)| Op::Sample(t, f)),
            1 => tick.prop_map(Op::Prune),
        ]
    }

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// Red if the drawn sample decides otherwise than the explained one, carries other numbers (the bracket,
        /// the factor, the position, the generation, the anchor), keeps a word, or counts differently.
        #[test]
        fn a_drawn_sample_is_the_explained_one_without_its_words(
            capacity in 2usize..24,
            min_snapshots in 1usize..4,
            hermite in prop::bool::ANY,
            oldest in prop::bool::ANY,
            ops in prop::collection::vec(op(), 1..160),
        ) {
            let params = BufferParams {
                capacity,
                min_snapshots: min_snapshots.min(capacity),
                interpolation: if hermite { Interpolation::Hermite } else { Interpolation::Linear },
                before_oldest: if oldest { BeforeOldest::Oldest } else { BeforeOldest::Gap },
                ..BufferParams::default()
            };
            let mut explained = SnapshotBuffer::with_params(params, 0.05).unwrap();
            let mut drawn = explained.clone();
            for (step, op) in ops.into_iter().enumerate() {
                let arrival = 0.01 * step as f64;
                match op {
                    Op::Insert(tick, generation, teleport) => {
                        let s = Snapshot { generation, teleport, ..at(tick, 0.05 * tick as f64, tick as f64) };
                        explained.insert(s, arrival);
                        drawn.insert(s, arrival);
                    }
                    Op::Sample(tick, frac) => {
                        let t = 0.05 * tick as f64 + 0.05 * frac;
                        let expected = explained.sample(t);
                        let got = drawn.sample_drawn(t).map_or_else(|s| format!("{s:?}"), |b| format!("{b:?}"));
                        prop_assert_eq!(got, undressed(&expected), "at {}", t);
                    }
                    Op::Prune(tick) => {
                        let t = 0.05 * tick as f64;
                        prop_assert_eq!(drawn.prune(t), explained.prune(t));
                    }
                }
                prop_assert_eq!(drawn.metrics(9.0), explained.metrics(9.0));
            }
        }
    }
}
