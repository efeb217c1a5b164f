//! Property tests of the jitter buffer and the display layer: any sequence of inserts (any order, duplicates,
//! conflicts, non-finite values, generation changes, teleports, other entities) and any sample and prune times.
#![cfg(not(target_arch = "wasm32"))]

#[path = "models/buffer.rs"]
mod buffer_model;
mod cases;

use buffer_model::expected_sample;

/// The stream every buffer here holds: 20 snapshots a second.
const SEND_INTERVAL: f64 = 0.05;

use netcode_lab::buffer::{BeforeOldest, BufferParams, InsertOutcome, Sample, SampleStatus, SnapshotBuffer};
use netcode_lab::display::{DisplayMode, Presenter};
use netcode_lab::extrapolate::{UnderrunParams, UnderrunPolicy};
use netcode_lab::geom::Vec2;
use netcode_lab::interpolate::Interpolation;
use netcode_lab::snapshot::Snapshot;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Insert(Snapshot, f64),
    Sample(f64),
    Prune(f64),
}

/// Mostly ordinary numbers, sometimes the kinds of values a broken sender produces.
fn number(ordinary: std::ops::Range<f64>) -> impl Strategy<Value = f64> {
    prop_oneof![
        12 => ordinary,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(-1e300),
    ]
}

fn snapshot() -> impl Strategy<Value = Snapshot> {
    (
        0u64..40,
        prop_oneof![9 => -0.02f64..0.02, 1 => number(-3.0..3.0)],
        number(-500.0..500.0),
        number(-500.0..500.0),
        number(-2000.0..2000.0),
        prop_oneof![19 => Just(0u32), 1 => Just(1u32)],
        prop_oneof![9 => Just(0u32), 1 => 1u32..3],
        prop::bool::weighted(0.1),
    )
        .prop_map(|(tick, wobble, x, y, vx, entity, generation, teleport)| Snapshot {
            entity,
            tick,
            // Usually 50 ms per tick with a little wobble (so tick and time order agree), sometimes anything.
            server_time: 100.0 + 0.05 * tick as f64 + wobble,
            pos: Vec2::new(x, y),
            vel: Vec2::new(vx, 0.0),
            generation,
            teleport,
        })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (snapshot(), number(100.0..103.0)).prop_map(|(s, a)| Op::Insert(s, a)),
        4 => number(99.8..102.5).prop_map(Op::Sample),
        1 => number(99.8..102.5).prop_map(Op::Prune),
    ]
}

fn params() -> impl Strategy<Value = BufferParams> {
    (2usize..12, 1usize..4, prop::bool::ANY, 1.0f64..4.0).prop_map(|(capacity, min, hermite, gap_factor)| {
        BufferParams {
            capacity,
            min_snapshots: min.min(capacity),
            gap_factor,
            interpolation: if hermite { Interpolation::Hermite } else { Interpolation::Linear },
            before_oldest: BeforeOldest::Gap,
        }
    })
}

fn check_sample(sample: &Sample, held: &[Snapshot], params: &BufferParams) -> Result<(), TestCaseError> {
    prop_assert_eq!(sample.position.is_some(), sample.status == SampleStatus::Ready);
    prop_assert_eq!(sample.reason.is_none(), sample.status == SampleStatus::Ready);
    if sample.status != SampleStatus::Ready {
        return Ok(());
    }
    let p = sample.position.unwrap();
    prop_assert!(p.is_finite(), "Ready position {:?}", p);
    let factor = sample.factor.unwrap();
    prop_assert!((0.0..=1.0).contains(&factor), "factor {}", factor);
    let find = |tick| held.iter().find(|s| Some(s.tick) == tick).copied();
    let (left, right) = (find(sample.left).unwrap(), find(sample.right).unwrap());
    prop_assert!(left.server_time <= sample.render_time && sample.render_time <= right.server_time);
    if params.interpolation == Interpolation::Linear {
        let slack = 1e-9 * (1.0 + left.pos.x.abs().max(right.pos.x.abs()).max(left.pos.y.abs()).max(right.pos.y.abs()));
        let inside = |v: f64, a: f64, b: f64| a.min(b) - slack <= v && v <= a.max(b) + slack;
        prop_assert!(inside(p.x, left.pos.x, right.pos.x) && inside(p.y, left.pos.y, right.pos.y), "{:?} outside", p);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    #[test]
    fn any_sequence_keeps_the_buffer_consistent(params in params(), ops in prop::collection::vec(op(), 0..120)) {
        let mut buffer = SnapshotBuffer::with_params(params.clone(), SEND_INTERVAL).unwrap();
        let mut primed = false;
        let (mut samples, mut rejected) = (0u64, 0u64);
        for op in ops {
            match op {
                Op::Insert(s, arrival) => {
                    let outcome = buffer.insert(s, arrival);
                    match &outcome {
                        InsertOutcome::Inserted { .. } => {}
                        InsertOutcome::Invalid(e) => { prop_assert!(!e.field.is_empty()); rejected += 1 }
                        InsertOutcome::Conflict { kept, rejected: r, field } => {
                            prop_assert_eq!(kept.tick, r.tick);
                            prop_assert_eq!(kept.first_difference(r), Some(*field));
                            // The first is kept: still held, or already played and pruned (a late conflicting copy).
                            let held = buffer.snapshots().any(|h| h == kept);
                            let pruned = buffer.oldest().is_none_or(|o| kept.tick < o.tick);
                            prop_assert!(held || pruned, "the first is kept");
                            rejected += 1
                        }
                        _ => rejected += 1,
                    }
                    primed |= buffer.len() >= params.min_snapshots;
                }
                Op::Sample(t) => {
                    let held: Vec<Snapshot> = buffer.snapshots().copied().collect();
                    let sample = buffer.sample(t);
                    samples += 1;
                    let (status, left, right) = expected_sample(&held, t, primed, &params, SEND_INTERVAL);
                    prop_assert_eq!(sample.status, status, "at {}", t);
                    if status != SampleStatus::Priming && status != SampleStatus::ClockUncertain {
                        prop_assert_eq!((sample.left, sample.right), (left, right));
                    }
                    check_sample(&sample, &held, &params)?;
                }
                Op::Prune(t) => {
                    let before = buffer.len();
                    let pruned = buffer.prune(t);
                    prop_assert_eq!(buffer.len(), before - pruned);
                    prop_assert!(before == 0 || !buffer.is_empty(), "one anchor is always kept");
                }
            }
            // Held snapshots: sorted by tick and by time, finite, one entity, within capacity.
            let held: Vec<Snapshot> = buffer.snapshots().copied().collect();
            prop_assert!(held.len() <= params.capacity);
            prop_assert!(held.windows(2).all(|w| w[0].tick < w[1].tick && w[0].server_time < w[1].server_time));
            prop_assert!(held.iter().all(|s| s.validate().is_ok()));
            prop_assert!(held.windows(2).all(|w| w[0].entity == w[1].entity));
            // Counters add up.
            let m = buffer.metrics(103.0);
            prop_assert_eq!(m.received, m.inserted + m.duplicates + m.conflicts + m.invalid + m.late);
            prop_assert_eq!(m.received - m.inserted, rejected);
            prop_assert_eq!(m.inserted, m.buffered as u64 + m.evicted + m.pruned);
            prop_assert!(m.out_of_order <= m.inserted);
            prop_assert!(m.late_duplicates <= m.duplicates);
            prop_assert_eq!(m.samples.total(), samples);
            prop_assert!(m.underruns <= m.samples.underrun && m.gaps <= m.samples.gap);
            prop_assert_eq!(m.ready_samples, m.samples.ready);
        }
    }

    #[test]
    fn every_policy_shows_finite_positions_and_says_how(
        params in params(),
        policy in prop::sample::select(UnderrunPolicy::ALL.to_vec()),
        cap in 0.0f64..0.5,
        ops in prop::collection::vec(op(), 0..80),
    ) {
        let mut buffer = SnapshotBuffer::with_params(params, SEND_INTERVAL).unwrap();
        let mut presenter = Presenter::new(UnderrunParams { underrun_policy: policy, max_extrapolation: cap, ..Default::default() }).unwrap();
        for op in ops {
            match op {
                Op::Insert(s, arrival) => { buffer.insert(s, arrival); }
                Op::Prune(t) => { buffer.prune(t); }
                Op::Sample(t) => {
                    let sample = buffer.sample(t);
                    let shown = presenter.show(&sample);
                    prop_assert_eq!(shown.position.is_none(), shown.mode == DisplayMode::Hidden);
                    prop_assert!(shown.position.is_none_or(|p| p.is_finite()), "{:?}", shown);
                    if policy == UnderrunPolicy::Hold && sample.status == SampleStatus::Underrun {
                        // Seed 000 §4.3.5 "冻结在最新快照位置": the newest snapshot held, whatever was drawn before.
                        prop_assert_eq!(shown.position, sample.newest.map(|n| n.pos));
                    }
                    if sample.status == SampleStatus::Ready {
                        prop_assert_eq!(shown.mode, DisplayMode::Interpolated);
                    } else {
                        prop_assert!(shown.mode != DisplayMode::Interpolated);
                    }
                    match policy {
                        UnderrunPolicy::Hide => prop_assert!(matches!(shown.mode, DisplayMode::Interpolated | DisplayMode::Hidden)),
                        UnderrunPolicy::Snap => prop_assert!(shown.mode != DisplayMode::Extrapolated && shown.mode != DisplayMode::Held),
                        UnderrunPolicy::Hold => prop_assert!(shown.mode != DisplayMode::Extrapolated && shown.mode != DisplayMode::Snapped),
                        _ => {
                            prop_assert!(shown.mode != DisplayMode::Snapped);
                            if shown.mode == DisplayMode::Extrapolated {
                                prop_assert!(shown.ahead.unwrap() < cap);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_decay_curve_is_monotone_and_the_seed_curve_never_exceeds_a_quarter(
        v in -1e4f64..1e4,
        cap in 0.001f64..1.0,
        a in 0.0f64..2.0,
        b in 0.0f64..2.0,
    ) {
        let (lo, hi) = (a.min(b), a.max(b));
        let decay = |t| UnderrunPolicy::ExtrapolateDecay.reach(t, cap).unwrap();
        prop_assert!(decay(lo) <= decay(hi) + 1e-15);
        prop_assert!(decay(hi) <= cap / 2.0 + 1e-15);
        let seed = UnderrunPolicy::ExtrapolateSeed.reach(a, cap).unwrap();
        prop_assert!((v * seed).abs() <= v.abs() * cap / 4.0 + 1e-9);
    }
}
