//! The trace format and the replay through the library: the rules of `crate::trace`'s module doc as fixed cases,
//! and its invariants as properties (export reads back equal; no text makes the parser panic; every replay gives
//! one sample per `sampleAt` with the documented nulls, twice the same).
#![cfg(not(target_arch = "wasm32"))]

mod cases;

use netcode_lab::clock::ClockKind;
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::interpolate::Interpolation;
use netcode_lab::motion::MotionScript;
use netcode_lab::trace::params::{
    TraceMotion, ADAPTIVE, BEFORE_OLDEST, CAP_RULES, CLOCKS, INTERPOLATIONS, SNAP_TARGETS, UNDERRUNS,
};
use netcode_lab::trace::replay::{ReplayMetrics, ReplaySamples, SnapshotSample};
use netcode_lab::trace::{
    replay, RttSample, Trace, TraceBatch, TraceData, TraceParams, TracePoint, TraceSnapshot, FORMAT, MAX_EARLY_ARRIVAL,
    MAX_TIME,
};
use proptest::prelude::*;

fn snap(tick: u64, server_time: f64, x: f64, arrival: f64) -> TraceSnapshot {
    TraceSnapshot { tick, server_time, arrival, x, y: 0.0, vx: 100.0, vy: 0.0, generation: None, teleport: None }
}

fn snapshot_trace(params: TraceParams, snapshots: Vec<TraceSnapshot>, rtt: Vec<RttSample>, at: Vec<f64>) -> Trace {
    Trace { note: None, params, data: TraceData::Snapshots { snapshots, rtt }, sample_at: at }
}

fn snapshot_samples(trace: &Trace) -> Vec<SnapshotSample> {
    match replay(trace).expect("a valid trace").samples {
        ReplaySamples::Snapshots(samples) => samples,
        ReplaySamples::Paths(_) => panic!("a snapshots trace gives snapshot samples"),
    }
}

/// 20 Hz from server 1.0 at 100 u/s, each arriving 30 ms later.
fn steady(count: u64) -> Vec<TraceSnapshot> {
    (0..count).map(|i| snap(i, 1.0 + 0.05 * i as f64, 5.0 * i as f64, 1.03 + 0.05 * i as f64)).collect()
}

fn frames(from: f64, count: usize, dt: f64) -> Vec<f64> {
    (0..count).map(|k| from + k as f64 * dt).collect()
}

#[test]
fn smooth_and_reanchor_clocks_without_rtt_samples_say_clock_uncertain() {
    for clock in [ClockKind::Smooth, ClockKind::Reanchor] {
        let params = TraceParams { clock: Some(clock), ..Default::default() };
        let trace = snapshot_trace(params, steady(40), vec![], frames(1.2, 60, 1.0 / 60.0));
        let samples = snapshot_samples(&trace);
        assert!(samples.iter().all(|s| s.status.name() == "clockUncertain"), "{clock:?}");
    }
}

#[test]
fn with_rtt_samples_the_smooth_clock_becomes_certain_and_ready() {
    let params = TraceParams { clock: Some(ClockKind::Smooth), ..Default::default() };
    let rtt = (0..8).map(|i| RttSample { at: 1.0 + 0.1 * i as f64, rtt: 0.06 }).collect();
    let trace = snapshot_trace(params, steady(40), rtt, frames(1.0, 90, 1.0 / 60.0));
    let samples = snapshot_samples(&trace);
    assert_eq!(samples[0].status.name(), "clockUncertain", "no snapshot yet");
    assert!(samples[60..].iter().all(|s| s.status.name() == "ready"), "{:?}", &samples[60..]);
}

#[test]
fn the_derived_send_interval_decides_what_a_lost_snapshot_is() {
    // Snapshots every 0.1 s with tick 3 lost: a 0.2 s bracket. Derived sendInterval 0.1 → max bracket 0.25: Ready.
    // Told 0.05 → max bracket 0.125: a Gap.
    let snaps: Vec<TraceSnapshot> = [0u64, 1, 2, 4, 5, 6]
        .iter()
        .map(|&i| snap(i, 1.0 + 0.1 * i as f64, 10.0 * i as f64, 1.05 + 0.1 * i as f64))
        .collect();
    let at = vec![1.5]; // render 1.3, between ticks 2 and 4
    let delay = TraceParams { render_delay: Some(0.2), ..Default::default() };
    let derived = snapshot_samples(&snapshot_trace(delay.clone(), snaps.clone(), vec![], at.clone()));
    assert_eq!((derived[0].status.name(), derived[0].left, derived[0].right), ("ready", Some(2), Some(4)));
    let told = TraceParams { send_interval: Some(0.05), ..delay };
    assert_eq!(snapshot_samples(&snapshot_trace(told, snaps, vec![], at))[0].status.name(), "gap");
}

#[test]
fn equal_arrivals_are_delivered_in_document_order_and_late_arrivals_still_count() {
    // Two copies of tick 1 arrive at the same time: the first in the document is kept, the second is a conflict.
    let mut first = snap(1, 1.05, 5.0, 1.08);
    first.x = 7.0;
    let snaps = vec![snap(0, 1.0, 0.0, 1.03), first, snap(1, 1.05, 5.0, 1.08), snap(2, 1.1, 10.0, 5.0)];
    let trace = snapshot_trace(TraceParams::default(), snaps, vec![], vec![1.15]);
    let result = replay(&trace).unwrap();
    let ReplaySamples::Snapshots(samples) = &result.samples else { panic!() };
    assert_eq!((samples[0].left, samples[0].right), (Some(0), Some(1)), "render 1.15 − 0.1 rounds just below 1.05");
    assert!((samples[0].x.unwrap() - 7.0).abs() < 1e-9, "the first copy (x 7) was kept: {:?}", samples[0].x);
    let ReplayMetrics::Snapshots(m) = &result.metrics else { panic!() };
    assert_eq!((m.buffer.conflicts, m.buffer.received), (1, 4), "tick 2 arrives after the last sample and counts");
    assert_eq!(m.buffer.newest_age, Some(0.0), "metrics are taken at the latest time in the trace (5.0)");
}

#[test]
fn the_lerp_chase_steps_once_per_frame_of_the_fps_grid() {
    let batch = TraceBatch {
        arrival: 0.0,
        seq: None,
        points: vec![TracePoint { x: 0.0, y: 0.0, offset_ms: None }, TracePoint { x: 100.0, y: 0.0, offset_ms: None }],
        duration_ms: None,
    };
    let lerp_x = |fps: f64, sample_dt: f64| -> Vec<f64> {
        let trace = Trace {
            note: None,
            params: TraceParams { fps: Some(fps), ..Default::default() },
            data: TraceData::Paths { paths: vec![batch.clone()] },
            sample_at: frames(0.0, 5, sample_dt),
        };
        match replay(&trace).unwrap().samples {
            ReplaySamples::Paths(samples) => samples.iter().map(|s| s.lerp.x.unwrap()).collect(),
            ReplaySamples::Snapshots(_) => panic!(),
        }
    };
    // Sampled on the grid: the first sample already shows one step, then one more per sample.
    let on_grid = lerp_x(60.0, 1.0 / 60.0);
    for (k, x) in on_grid.iter().enumerate() {
        assert!((x - 100.0 * (1.0 - 0.9_f64.powi(k as i32 + 1))).abs() < 1e-9, "{k}: {x}");
    }
    // Sampled at 30 Hz with the chase at 60 fps: two steps per sample after the first.
    let half_rate = lerp_x(60.0, 1.0 / 30.0);
    for (k, x) in half_rate.iter().enumerate() {
        assert!((x - 100.0 * (1.0 - 0.9_f64.powi(2 * k as i32 + 1))).abs() < 1e-9, "{k}: {x}");
    }
}

#[test]
fn a_trace_built_in_code_gets_the_same_errors() {
    let mut trace = snapshot_trace(TraceParams::default(), steady(3), vec![], vec![1.0]);
    if let TraceData::Snapshots { snapshots, .. } = &mut trace.data {
        snapshots[1].server_time = f64::NAN;
    }
    assert_eq!(replay(&trace).unwrap_err().to_string(), "snapshots[1].serverTime: NaN is not a finite number");
    let paths = Trace {
        note: None,
        params: TraceParams { render_delay: Some(3.0), ..Default::default() },
        data: TraceData::Paths { paths: vec![] },
        sample_at: vec![],
    };
    assert_eq!(paths.validate().unwrap_err().to_string(), "params.renderDelay: 3 s is outside 0..=1 s");
}

#[test]
fn null_is_absent_a_bom_is_skipped_and_params_may_be_left_out() {
    let text = format!(
        "\u{feff}{{\"format\": \"{FORMAT}\", \"kind\": \"snapshots\", \"note\": null, \"rtt\": null, \"snapshots\": \
         [{{\"tick\": 1, \"serverTime\": 1, \"arrival\": 1, \"x\": 0, \"y\": 0, \"vx\": 0, \"vy\": 0, \
         \"generation\": null}}], \"sampleAt\": []}}"
    );
    let trace = Trace::from_json(&text).expect("valid");
    assert_eq!(trace.params, TraceParams::default());
    assert_eq!(trace.note, None);
    let result = replay(&trace).unwrap();
    assert_eq!(result.samples, ReplaySamples::Snapshots(vec![]));
    assert!(result.to_json().starts_with("{\n  \"samples\": [],\n  \"metrics\": {\n"), "{}", result.to_json());
}

/// The case proptest found with serde_json's default float parser, which reads this `at` back as …2303:
/// `float_roundtrip` (Cargo.toml) makes every number read back to the same bits, as `JSON.parse` does.
#[test]
fn exported_numbers_read_back_to_the_same_bits() {
    let rtt = vec![RttSample { at: 918_050_488_520.230_5, rtt: 0.0 }];
    let trace = snapshot_trace(TraceParams::default(), vec![], rtt, vec![]);
    let back = Trace::from_json(&trace.to_json()).unwrap();
    let TraceData::Snapshots { rtt, .. } = &back.data else { panic!() };
    assert_eq!(rtt[0].at.to_bits(), 918_050_488_520.230_5_f64.to_bits());
}

fn pick<T: Copy + std::fmt::Debug + 'static>(names: &'static [(&'static str, T)]) -> impl Strategy<Value = T> {
    (0..names.len()).prop_map(move |i| names[i].1)
}

fn params_strategy() -> impl Strategy<Value = TraceParams> {
    let snapshots = (
        prop::option::of(0.0..=1.0f64),
        prop::option::of(-1e6..=1e6f64),
        prop::option::of(pick(&CLOCKS)),
        prop::option::of(pick(&UNDERRUNS)),
        prop::option::of(0.0..=1.0f64),
        prop::option::of(pick(&INTERPOLATIONS)),
        prop::option::of(2usize..=64),
        prop::option::of(0.001..=1.0f64),
        prop::option::of(1.0..=100.0f64),
    );
    let paths = (
        prop::option::of(1.0..=1e5f64),
        prop::option::of(0.0..=2.0f64),
        prop::option::of(0.0..=60.0f64),
        prop::option::of(0.0..=1e9f64),
        prop::option::of(pick(&SNAP_TARGETS)),
        prop::option::of(1e-6..=1.0f64),
        prop::option::of(1.0..=1000.0f64),
    );
    let choices = (
        prop::option::of(pick(&BEFORE_OLDEST)),
        prop::option::of(pick(&CAP_RULES)),
        prop::option::of(pick(&ADAPTIVE)),
        prop::option::of(any::<bool>()),
        prop::option::of(0.01..=5.0f64),
        prop::option::of(0.001..=1.0f64),
        prop::option::of(0.0..=2.0f64),
        prop::option::of(0.0..=1.0f64),
        prop::option::of(0.0..=1.0f64),
        prop::option::of(0.0001..=1.0f64),
    );
    let motion = prop::option::of((0..MotionScript::ALL.len(), 0.0..=2000.0f64))
        .prop_map(|m| m.map(|(i, speed)| TraceMotion { script: MotionScript::ALL[i], speed }));
    (snapshots, paths, choices, motion).prop_map(|(s, p, c, motion)| TraceParams {
        render_delay: s.0,
        clock_offset: s.1,
        clock: s.2,
        underrun: s.3,
        max_extrapolation: s.4,
        interpolation: s.5,
        capacity: s.6,
        send_interval: s.7,
        min_snapshots: None,
        gap_factor: s.8,
        speed: p.0,
        interpolation_delay: p.1,
        stale_gap: p.2,
        hard_snap_distance: p.3,
        hard_snap_target: p.4,
        lerp_factor: p.5,
        fps: p.6,
        before_oldest: c.0,
        cap_rule: c.1,
        adaptive_delay: c.2,
        add_latency: c.3,
        adaptive_sample_interval: c.4,
        adaptive_rtt_gain: c.5,
        adaptive_rtt_threshold: c.6,
        adaptive_high_delay: c.7,
        adaptive_low_delay: c.8,
        adaptive_delay_gain: c.9,
        motion,
    })
}

fn any_snapshot() -> impl Strategy<Value = TraceSnapshot> {
    let numbers = (-1e12..1e12f64, -1e12..1e12f64, -1e9..1e9f64, -1e9..1e9f64, -1e9..1e9f64, -1e9..1e9f64);
    (any::<u64>(), numbers, prop::option::of(any::<u32>()), prop::option::of(any::<bool>())).prop_map(
        |(tick, (server_time, arrival, x, y, vx, vy), generation, teleport)| TraceSnapshot {
            tick,
            server_time,
            arrival,
            x,
            y,
            vx,
            vy,
            generation,
            teleport,
        },
    )
}

fn any_batch() -> impl Strategy<Value = TraceBatch> {
    let point = (-1e9..1e9f64, -1e9..1e9f64, prop::option::of(0.0..=3.6e6f64))
        .prop_map(|(x, y, offset_ms)| TracePoint { x, y, offset_ms });
    (
        -1e12..1e12f64,
        prop::option::of(any::<u64>()),
        prop::collection::vec(point, 0..5),
        prop::option::of(0.0..=3.6e6f64),
    )
        .prop_map(|(arrival, seq, points, duration_ms)| TraceBatch { arrival, seq, points, duration_ms })
}

fn sorted_times(max: f64, len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-max..max, 0..len).prop_map(|mut v| {
        v.sort_by(f64::total_cmp);
        v
    })
}

fn any_trace() -> impl Strategy<Value = Trace> {
    let snapshots = (
        prop::collection::vec(any_snapshot(), 0..6),
        prop::collection::vec((-1e12..1e12f64, 0.0..=10.0f64).prop_map(|(at, rtt)| RttSample { at, rtt }), 0..3),
    )
        .prop_map(|(snapshots, rtt)| TraceData::Snapshots { snapshots, rtt });
    let paths = prop::collection::vec(any_batch(), 0..4).prop_map(|paths| TraceData::Paths { paths });
    let note = prop::option::of("[a-z\u{4e00}-\u{4e10}\"\\\\\n\t ]{0,12}");
    (note, params_strategy(), prop_oneof![snapshots, paths], sorted_times(1e12, 6)).prop_map(
        |(note, params, data, sample_at)| {
            let sample_at = if matches!(data, TraceData::Paths { .. }) {
                sample_at.iter().map(|t| t / 1e9).collect()
            } else {
                sample_at
            };
            let data = plausible_for_the_known_clock(&params, data);
            Trace { note, params, data, sample_at }
        },
    )
}

/// With the `known` clock no snapshot arrives more than `MAX_EARLY_ARRIVAL` before its server time: such a
/// trace is refused (the offset is wrong). Arrivals that would be are moved to the earliest plausible time.
fn plausible_for_the_known_clock(params: &TraceParams, data: TraceData) -> TraceData {
    let TraceData::Snapshots { mut snapshots, rtt } = data else { return data };
    if params.clock.unwrap_or(ClockKind::Known) == ClockKind::Known {
        let offset = params.clock_offset.unwrap_or(0.0);
        for s in &mut snapshots {
            let earliest = s.server_time - offset - MAX_EARLY_ARRIVAL;
            if s.arrival < earliest {
                s.arrival = earliest.min(MAX_TIME);
                s.server_time = s.server_time.min(s.arrival + offset);
            }
        }
    }
    TraceData::Snapshots { snapshots, rtt }
}

/// A small, realistic snapshot trace: 20 Hz with jitter, duplicates, reordering, teleports, any policy.
fn playback_trace() -> impl Strategy<Value = Trace> {
    let arrival = (0u64..40, 0.0..0.3f64, 0.0..100.0f64, any::<bool>(), 0u32..2);
    let snaps = prop::collection::vec(arrival, 0..30).prop_map(|v| {
        v.into_iter()
            .map(|(tick, transit, x, teleport, generation)| TraceSnapshot {
                tick,
                server_time: 1.0 + 0.05 * tick as f64,
                arrival: 1.0 + 0.05 * tick as f64 + transit,
                x,
                y: -x,
                vx: 50.0,
                vy: 0.0,
                generation: Some(generation),
                teleport: Some(teleport && tick % 7 == 0),
            })
            .collect::<Vec<_>>()
    });
    let rtt = prop::collection::vec((1.0..3.0f64, 0.0..0.3f64).prop_map(|(at, rtt)| RttSample { at, rtt }), 0..10);
    let params = (pick(&CLOCKS), pick(&UNDERRUNS), pick(&INTERPOLATIONS), 2usize..8, 0.0..0.3f64).prop_map(
        |(clock, underrun, interpolation, capacity, delay)| TraceParams {
            clock: Some(clock),
            underrun: Some(underrun),
            interpolation: Some(interpolation),
            capacity: Some(capacity),
            render_delay: Some(delay),
            ..Default::default()
        },
    );
    let at = prop::collection::vec(0.0..0.05f64, 0..80).prop_map(|steps| {
        steps
            .iter()
            .scan(0.9, |t, dt| {
                *t += dt;
                Some(*t)
            })
            .collect::<Vec<f64>>()
    });
    (params, snaps, rtt, at).prop_map(|(params, snaps, rtt, at)| snapshot_trace(params, snaps, rtt, at))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(256)))]

    /// Export, then read: the same trace, to the last bit of every number.
    #[test]
    fn export_reads_back_equal(trace in any_trace()) {
        prop_assert_eq!(trace.validate(), Ok(()));
        let text = trace.to_json();
        prop_assert_eq!(Trace::from_json(&text), Ok(trace.clone()));
        prop_assert_eq!(Trace::from_json(&text).unwrap().to_json(), text);
    }

    /// Any valid trace, however extreme its (in-range) numbers, replays: finite positions, the right count.
    #[test]
    fn any_valid_trace_replays(trace in any_trace()) {
        let result = replay(&trace).expect("a valid trace replays");
        let (count, finite) = match &result.samples {
            ReplaySamples::Snapshots(s) => (s.len(), s.iter().all(|s| s.x.is_none_or(f64::is_finite))),
            ReplaySamples::Paths(s) => (s.len(), s.iter().all(|s| s.timed.x.is_none_or(f64::is_finite))),
        };
        prop_assert_eq!(count, trace.sample_at.len());
        prop_assert!(finite);
        prop_assert!(serde_json::from_str::<serde_json::Value>(&result.to_json()).is_ok());
    }

    /// Any text, and any one-byte damage of a valid trace: a trace or one line naming a field — never a panic.
    #[test]
    fn no_text_makes_the_parser_panic(garbage in ".{0,200}", trace in any_trace(), at in any::<prop::sample::Index>(),
                                      byte in any::<u8>()) {
        for text in [garbage.clone(), format!("{{\"format\":\"{FORMAT}\",{garbage}")] {
            if let Err(e) = Trace::from_json(&text) {
                prop_assert!(!e.field.is_empty() && !e.to_string().contains('\n'), "{}", e);
            }
        }
        let mut bytes = trace.to_json().into_bytes();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        if let Err(e) = Trace::from_json_bytes(&bytes) {
            prop_assert!(!e.field.is_empty() && !e.to_string().contains('\n'), "{}", e);
        }
    }

    /// Every replay: one sample per sampleAt, in order, the documented nulls, and the same bytes twice.
    #[test]
    fn snapshot_replays_keep_their_promises(trace in playback_trace()) {
        let result = replay(&trace).expect("valid");
        prop_assert_eq!(replay(&trace).unwrap().to_json(), result.to_json());
        let ReplaySamples::Snapshots(samples) = &result.samples else { panic!() };
        prop_assert_eq!(samples.iter().map(|s| s.local).collect::<Vec<_>>(), trace.sample_at.clone());
        for s in samples {
            prop_assert_eq!(s.x.is_none(), s.mode.name() == "hidden");
            prop_assert_eq!(s.x.is_some(), s.y.is_some());
            prop_assert_eq!(s.factor.is_some(), s.status.name() == "ready");
            if s.status.name() == "ready" {
                prop_assert!(s.left.is_some() && s.right.is_some() && s.left <= s.right);
                prop_assert!((0.0..=1.0).contains(&s.factor.unwrap()));
            }
            prop_assert!(s.x.is_none_or(f64::is_finite));
        }
        let ReplayMetrics::Snapshots(m) = &result.metrics else { panic!() };
        let TraceData::Snapshots { snapshots, .. } = &trace.data else { panic!() };
        prop_assert_eq!(m.buffer.received, snapshots.len() as u64, "every snapshot is delivered");
        prop_assert_eq!(m.buffer.samples.total(), samples.len() as u64);
        let shown = m.display;
        prop_assert_eq!(shown.interpolated + shown.extrapolated + shown.held + shown.snapped + shown.hidden,
                        samples.len() as u64);
    }

    /// Path replays: one sample per sampleAt, every batch given to both models, the frame count of the grid.
    #[test]
    fn path_replays_keep_their_promises(batches in prop::collection::vec(any_batch(), 0..5),
                                        at in sorted_times(5.0, 40), fps in 1.0..240.0f64, interpolation in any::<bool>()) {
        let batches: Vec<TraceBatch> = batches.into_iter().map(|mut b| { b.arrival %= 5.0; b }).collect();
        let trace = Trace {
            note: None,
            params: TraceParams { fps: Some(fps), interpolation: interpolation.then_some(Interpolation::Hermite), ..Default::default() },
            data: TraceData::Paths { paths: batches.clone() },
            sample_at: at.clone(),
        };
        let result = replay(&trace).expect("valid");
        let ReplaySamples::Paths(samples) = &result.samples else { panic!() };
        prop_assert_eq!(samples.iter().map(|s| s.local).collect::<Vec<_>>(), at.clone());
        let ReplayMetrics::Paths(m) = &result.metrics else { panic!() };
        prop_assert_eq!((m.timed.batches, m.lerp.batches), (batches.len() as u64, batches.len() as u64));
        let expected_frames = match (at.first(), at.last()) {
            (Some(first), Some(last)) => ((last - first) * fps).floor() as u64 + 1,
            _ => 0,
        };
        prop_assert!(m.lerp_frames.abs_diff(expected_frames) <= 1, "{} vs {}", m.lerp_frames, expected_frames);
        for s in samples {
            prop_assert_eq!(s.timed.x.is_some(), s.timed.y.is_some());
            prop_assert!(s.lerp.x.is_none_or(f64::is_finite));
        }
    }
}

#[test]
fn the_choice_lists_are_the_modules_names() {
    assert!(UNDERRUNS.iter().all(|(name, p)| p.name() == *name));
    assert!(CLOCKS.iter().all(|(name, c)| c.name() == *name));
    assert!(INTERPOLATIONS.iter().all(|(name, i)| i.name() == *name));
    assert_eq!(UNDERRUNS.len(), UnderrunPolicy::ALL.len());
}
