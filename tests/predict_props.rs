#![cfg(not(target_arch = "wasm32"))]
//! Properties of the prediction session that must hold for any script, delays, rates and frame times.

mod predict_support;

mod cases;

use netcode_lab::channel::{Channel, FixedDelay};
use netcode_lab::geom::Vec2;
use netcode_lab::predict::decay::decay_curve;
use netcode_lab::predict::input::{InputPacket, InputScript, KeyEvent, Keys};
use netcode_lab::predict::params::PredictParams;
use netcode_lab::predict::server::PlayerSnapshot;
use netcode_lab::predict::session::{CorrectionRecord, FrameRecord, Session};
use netcode_lab::predict::smoothing::{RenderBase, SmoothingMode, SmoothingParams};
use predict_support::Lossy;
use proptest::prelude::*;

fn keys() -> impl Strategy<Value = Keys> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(left, right, up, down)| Keys {
        left,
        right,
        up,
        down,
    })
}

fn script() -> impl Strategy<Value = InputScript> {
    prop::collection::vec((0.0..6.0f64, keys()), 0..12)
        .prop_map(|events| InputScript::new(events.into_iter().map(|(time, keys)| KeyEvent { time, keys }).collect()))
        .prop_map(Result::unwrap)
}

fn mode() -> impl Strategy<Value = SmoothingMode> {
    prop::sample::select(SmoothingMode::ALL.to_vec())
}

fn smoothing() -> impl Strategy<Value = SmoothingParams> {
    (mode(), 0.001..2.0f64, 0.01..2.0f64, any::<bool>(), 0.0..100.0f64).prop_map(
        |(smoothing, half_life, smooth_time, latest, reset_distance)| SmoothingParams {
            smoothing,
            half_life,
            smooth_time,
            render_base: if latest { RenderBase::Latest } else { RenderBase::Interpolated },
            reset_distance,
        },
    )
}

/// The client's parameters and its server's snapshot rate.
fn params(mismatch: impl Strategy<Value = bool>) -> impl Strategy<Value = (PredictParams, f64)> {
    (
        (10.0..240.0f64, 1.0..240.0f64, 0.0..2.0f64, 0.0..2.0f64, 1u32..300, 0u32..=3),
        (0.0..200.0f64, 1.0..500.0f64, 0.0..1.0f64, mismatch, 0.001..0.05f64),
        smoothing(),
    )
        .prop_map(
            |(
                (tick_rate, snapshot_rate, uplink_delay, downlink_delay, max_pending_inputs, input_redundancy),
                (speed, arena_size, input_gap_timeout, mismatch, mismatch_input_interval),
                smoothing,
            )| {
                let params = PredictParams {
                    tick_rate,
                    uplink_delay,
                    downlink_delay,
                    max_pending_inputs,
                    input_redundancy,
                    speed,
                    arena_size,
                    input_gap_timeout,
                    mismatch,
                    mismatch_input_interval,
                    smoothing,
                };
                (params, snapshot_rate)
            },
        )
}

/// Frame times: steady at some fps, or uneven ones including empty and over-long frames.
fn frame_times() -> impl Strategy<Value = Vec<f64>> {
    prop_oneof![
        (1.0..300.0f64, 1usize..400).prop_map(|(fps, n)| vec![1.0 / fps; n]),
        prop::collection::vec(prop_oneof![Just(0.0), 0.0..0.05f64, 0.2..0.5f64], 1..200),
    ]
}

fn drive<U: Channel<InputPacket>, D: Channel<PlayerSnapshot>>(
    mut session: Session<U, D>,
    dts: &[f64],
) -> (Vec<FrameRecord>, Vec<CorrectionRecord>, Session<U, D>) {
    let mut corrections = Vec::new();
    let frames = dts.iter().map(|&dt| session.step_frame(dt, &mut corrections).unwrap()).collect();
    (frames, corrections, session)
}

/// Everything a frame reports is a finite number, the physics stays in the arena, pending stays bounded,
/// and between two frames with no reconciliation the half-life and linear offsets never grow.
fn check_frames(params: &PredictParams, frames: &[FrameRecord]) -> Result<(), TestCaseError> {
    let size = params.arena_size;
    let inside = |p: Vec2| (0.0..=size).contains(&p.x) && (0.0..=size).contains(&p.y);
    for f in frames {
        prop_assert!(f.rendered.is_finite() && f.base.is_finite(), "{f:?}");
        for mode in SmoothingMode::ALL {
            prop_assert!(f.modes.get(mode).is_finite() && f.offsets.get(mode).is_finite(), "{f:?}");
        }
        prop_assert!(inside(f.predicted) && inside(f.server), "{f:?}");
        prop_assert!(f.pending <= params.max_pending_inputs as usize);
        prop_assert_eq!(f.offsets.snap, 0.0);
    }
    for pair in frames.windows(2) {
        if pair[1].reconciled == 0 {
            prop_assert!(pair[1].offsets.half_life <= pair[0].offsets.half_life + 1e-9, "{pair:?}");
            prop_assert!(pair[1].offsets.linear <= pair[0].offsets.linear + 1e-9, "{pair:?}");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(96)))]

    #[test]
    fn any_script_delays_rates_and_frame_times_run_without_panic_and_stay_finite(
        (params, rate) in params(any::<bool>()),
        script in script(),
        dts in frame_times(),
    ) {
        let (frames, corrections, _) = drive(Session::new(params, rate, script).unwrap(), &dts);
        check_frames(&params, &frames)?;
        for c in &corrections {
            prop_assert!(c.reconciliation.correction.is_finite());
            let expected_offset = if c.reset { Vec2::ZERO } else { c.reconciliation.correction };
            prop_assert_eq!(c.offset_added, expected_offset);
        }
    }

    /// Seed 003 §"如何判断修复是否有效": same state, same step order, same inputs → replay lands exactly.
    #[test]
    fn with_agreeing_client_and_server_every_correction_is_exactly_zero(
        (params, rate) in params(Just(false)),
        script in script(),
        dts in frame_times(),
    ) {
        let (frames, corrections, session) = drive(Session::new(params, rate, script).unwrap(), &dts);
        for c in &corrections {
            prop_assert_eq!(c.reconciliation.correction, Vec2::ZERO, "{:?}", c);
        }
        for f in &frames {
            prop_assert_eq!(f.modes.half_life, f.base);
            prop_assert_eq!(f.modes.linear, f.base);
        }
        prop_assert_eq!(session.stats().resets, 0);
    }

    #[test]
    fn a_lossy_duplicating_reordering_link_never_breaks_the_invariants(
        (params, rate) in params(any::<bool>()),
        script in script(),
        dts in frame_times(),
        (loss, duplicate, jitter, seed) in (0.0..0.5f64, 0.0..0.5f64, 0.0..0.3f64, any::<u64>()),
    ) {
        let up = Lossy::new(params.uplink_delay, jitter, loss, duplicate, seed);
        let down = Lossy::new(params.downlink_delay, jitter, loss, duplicate, seed ^ 0x5555);
        let (frames, corrections, _) = drive(Session::with_channels(params, rate, script, up, down).unwrap(), &dts);
        check_frames(&params, &frames)?;
        prop_assert!(corrections.iter().all(|c| c.reconciliation.correction.is_finite()));
    }

    #[test]
    fn every_decay_curve_starts_at_most_at_the_correction_and_never_rises(
        mode in mode(),
        smoothing in smoothing(),
        initial in 0.0..1000.0f64,
        fps in 1.0..500.0f64,
    ) {
        let curve = decay_curve(mode, &smoothing, initial, fps, 2.0).unwrap();
        prop_assert!(curve[0].offset <= initial + 1e-9);
        for pair in curve.windows(2) {
            prop_assert!(pair[1].offset <= pair[0].offset + 1e-9);
        }
    }
}

#[test]
fn a_fixed_delay_session_is_the_default_session() {
    let params = PredictParams::default();
    let links = (FixedDelay::new(params.uplink_delay), FixedDelay::new(params.downlink_delay));
    let (a, ..) = drive(Session::new(params, 20.0, InputScript::demo(3.0)).unwrap(), &[1.0 / 60.0; 180]);
    let generic = Session::with_channels(params, 20.0, InputScript::demo(3.0), links.0, links.1).unwrap();
    let (b, ..) = drive(generic, &[1.0 / 60.0; 180]);
    assert_eq!(a, b);
}
