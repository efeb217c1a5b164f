//! Unity NGO 1.x (`ngo-1x`): `Tests/Editor/InterpolatorTests.cs` (com.unity.netcode.gameobjects 1.x, the
//! `Update(deltaTime, NetworkTime)` API: render time = server time − 1 tick at a mock tick rate of 1) reproduced
//! on the interpolator — they were written when `InterpolateUnclamped` extrapolated (`LerpUnclamped: true`) —
//! then the time system and the whole client on fixed traces.

use super::support::{frames, play, snap, stream, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::ngo1x::{Interpolator, Ngo, NgoParams, TimeSystem};
use netcode_lab::engines::ShownMode;
use netcode_lab::geom::Vec2;

/// A 1.0-style interpolator (extrapolating `Mathf.LerpUnclamped`), as the shipped tests expect.
fn unclamped() -> Interpolator {
    Interpolator::new(0.1, 3.0, true)
}

fn v(x: f64) -> Vec2 {
    Vec2::new(x, 0.0)
}

/// `interpolator.Update(deltaTime, serverTime)` at the mock tick rate of 1: render time one second behind.
fn update(i: &mut Interpolator, dt: f64, server: f64) -> f64 {
    i.update(dt, server - 1.0, server).expect("has data").x
}

/// `TestReset()`.
#[test]
fn reset_to_teleports_the_value() {
    let mut i = unclamped();
    i.add_measurement(v(5.0), 1.0);
    assert_eq!(i.update(10.0, 100.0, 99.0).unwrap().x, 5.0);
    assert_eq!(i.value().x, 5.0);
    i.reset_to(v(100.0), 100.0);
    assert_eq!(i.value().x, 100.0);
    assert_eq!(i.update(1.0, 100.0, 99.0).unwrap().x, 100.0);
}

/// `NormalUsage()`.
#[test]
fn normal_usage_consumes_then_interpolates() {
    let mut i = unclamped();
    assert_eq!(i.value().x, 0.0);
    i.add_measurement(v(0.0), 1.0);
    i.add_measurement(v(1.0), 2.0);
    assert_eq!(update(&mut i, 0.01, 0.01), 0.0, "too small an update: nothing consumed yet");
    assert_eq!(update(&mut i, 1.0, 1.01), 0.0, "one consumed: nothing to interpolate between");
    let from_update = update(&mut i, 1.0, 2.01);
    assert_relative_eq!(i.value().x, 0.01, epsilon = 1e-8);
    assert_relative_eq!(from_update, i.value().x, epsilon = 1e-8);
    assert_relative_eq!(update(&mut i, 2.5 - 2.01, 2.5), 0.5, epsilon = 1e-8);
    assert_relative_eq!(update(&mut i, 0.5, 3.0), 1.0, epsilon = 1e-8);
}

/// `OutOfOrderShouldStillWork()`: B arriving after C is dropped, interpolation keeps going to C.
#[test]
fn an_older_measurement_arriving_late_is_ignored() {
    let mut i = unclamped();
    i.add_measurement(v(0.0), 0.0);
    i.add_measurement(v(2.0), 2.0);
    assert_relative_eq!(update(&mut i, 1.5, 1.5), 0.0, epsilon = 1e-8);
    assert_relative_eq!(update(&mut i, 0.5, 2.0), 1.0, epsilon = 1e-8);
    assert_relative_eq!(update(&mut i, 0.5, 2.5), 1.5, epsilon = 1e-8);
    i.add_measurement(v(1.0), 1.0);
    assert_relative_eq!(update(&mut i, 0.5, 3.0), 2.0, epsilon = 1e-8);
}

/// `MessageLoss()` — and the same trace with the shipped 1.x default, which holds instead of extrapolating.
#[test]
fn message_loss_extrapolates_in_1_0_and_holds_in_later_1_x() {
    let fill = |i: &mut Interpolator| {
        for (value, time) in [(1.0, 1.0), (2.0, 2.0), (4.0, 4.0), (5.0, 5.0), (100.0, 7.0)] {
            i.add_measurement(v(value), time);
        }
    };
    let mut i = unclamped();
    fill(&mut i);
    let expected = [
        (1.0, 1.0, 1.0), // first value teleports interpolator
        (0.5, 1.5, 1.0), // not ready to consume the second value yet
        (0.5, 2.0, 1.0), // second value consumed, at start
        (0.5, 2.5, 1.5),
        (0.5, 3.0, 2.0),
        (0.5, 3.5, 2.5), // extrapolating to 2.5 (time = 3 was lost)
        (0.5, 4.0, 3.0), // the next value puts it where it was supposed to be
        (0.5, 4.5, 3.5),
        (0.5, 5.0, 4.0),
        (0.5, 5.5, 4.5), // lost time = 6, extrapolating
        (0.5, 6.0, 5.0),
        (0.5, 6.5, 5.5), // misprediction
    ];
    for (dt, server, x) in expected {
        assert_eq!(update(&mut i, dt, server), x, "at server time {server}");
    }
    let x = update(&mut i, 0.5, 7.0);
    assert!(x > 6.0 && x <= 100.0, "lerp to the right value: {x}");

    let mut held = Interpolator::new(0.1, 3.0, false);
    fill(&mut held);
    for (dt, server) in [(1.0, 1.0), (0.5, 1.5), (0.5, 2.0), (0.5, 2.5), (0.5, 3.0)] {
        update(&mut held, dt, server);
    }
    assert_eq!(update(&mut held, 0.5, 3.5), 2.0, "Mathf.Lerp clamps: it holds the last value");
}

/// `AddFirstMeasurement()`.
#[test]
fn the_first_measurement_consumed_is_teleported_to() {
    let mut i = unclamped();
    i.add_measurement(v(2.0), 1.0);
    i.add_measurement(v(3.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 1.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 2.0), 2.0);
    assert_eq!(update(&mut i, 0.5, 2.5), 2.5);
    assert_eq!(update(&mut i, 0.5, 3.0), 3.0);
}

/// `JumpToEachValueIfDeltaTimeTooBig()`: t beyond `MaxInterpolationBound` snaps to the end.
#[test]
fn a_huge_step_jumps_to_the_newest_value() {
    let mut i = unclamped();
    i.add_measurement(v(2.0), 1.0);
    i.add_measurement(v(3.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 1.0), 2.0);
    assert_eq!(update(&mut i, 8.0, 10.0), 3.0);
}

/// `JumpToLastValueFromStart()`.
#[test]
fn a_late_start_jumps_to_the_last_value_then_interpolates_on() {
    let mut i = unclamped();
    for t in [1.0, 2.0, 3.0] {
        i.add_measurement(v(t), t);
    }
    assert_eq!(update(&mut i, 10.0, 10.0), 3.0);
    i.add_measurement(v(11.0), 11.0);
    assert_eq!(update(&mut i, 0.5, 10.5), 3.0);
    assert_eq!(update(&mut i, 0.5, 11.0), 10.0);
    assert_eq!(update(&mut i, 0.5, 11.5), 10.5);
    assert_eq!(update(&mut i, 0.5, 12.0), 11.0);
}

/// `TestBufferSizeLimit()`: more than 100 measurements in one frame teleport to the last.
#[test]
fn a_burst_over_the_buffer_limit_teleports_to_the_last_value() {
    let mut i = unclamped();
    i.add_measurement(v(-1.0), 1.0);
    update(&mut i, 1.0, 1.0);
    i.add_measurement(v(2.0), 2.0);
    for k in 0..100 {
        i.add_measurement(v(f64::from(k) + 3.0), f64::from(k) + 3.0);
    }
    assert_eq!(update(&mut i, 101.0, 102.0), 102.0);
}

/// `TestUpdatingInterpolatorWithNoData()`: NGO throws; here `update` gives `None`.
#[test]
fn updating_without_data_gives_nothing() {
    assert_eq!(unclamped().update(1.0, -1.0, 0.0), None);
}

/// `TestDuplicatedValues()`.
#[test]
fn duplicated_values_are_treated_as_one() {
    let mut i = unclamped();
    i.add_measurement(v(1.0), 1.0);
    i.add_measurement(v(2.0), 2.0);
    i.add_measurement(v(2.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 1.0), 1.0);
    assert_eq!(update(&mut i, 1.0, 2.0), 1.0);
    assert_eq!(update(&mut i, 0.5, 2.5), 1.5);
    assert_eq!(update(&mut i, 0.5, 3.0), 2.0);
    assert_eq!(update(&mut i, 0.5, 3.5), 2.5, "unclamped: mispredicting on");
    assert_eq!(update(&mut i, 0.5, 4.0), 3.0);
    i.add_measurement(v(2.0), 3.0);
    assert_eq!(update(&mut i, 0.5, 4.0), 2.0);
}

/// `NetworkTimeSystem.Advance`: within the threshold the offset slews at `AdjustmentRatio` per second; beyond
/// it, one hard reset.
#[test]
fn the_time_system_slews_one_percent_or_hard_resets() {
    let mut time = TimeSystem::new(0.05, 0.2, 0.01);
    time.connect(10.0);
    assert_eq!(time.server_time(), 10.0 - 0.05, "ServerBufferSec behind the sync");
    // The next sync says the server is 0.1 s further than we think: 1 % faster until there.
    time.sync(time.server_time() + 0.05 + 0.1);
    let before = time.server_time();
    assert!(!time.advance(0.5));
    assert_relative_eq!(time.server_time() - before, 0.5 * 1.01, epsilon = 1e-12);
    // 0.3 s off: beyond HardResetThresholdSec, one jump.
    let now = time.server_time();
    time.sync(now + 0.05 - 0.3);
    assert!(time.advance(0.0));
    assert_relative_eq!(time.server_time(), now - 0.3, epsilon = 1e-9);
    assert_eq!(time.resets, 2);
}

/// The whole client on a 20 Hz stream with 50 ms latency: the render time is the estimated server time (the last
/// sync, seen 50 ms late, minus `ServerBufferSec`) minus one tick — 150 ms behind, less the frame the sync is
/// taken against — and every extra `ServerBufferSec` adds exactly as much.
#[test]
fn the_render_time_trails_the_sync_by_the_buffer_and_one_tick() {
    let lag = |server_buffer_sec: f64| {
        let mut ngo = Ngo::new(NgoParams { server_buffer_sec, ..NgoParams::default() }, 0.05);
        let mut events = stream(0, 100, 0.05);
        events.extend(frames(0.0, 5.0, 1.0 / 60.0));
        let shown = play(&mut ngo, events);
        let lags: Vec<f64> = shown.iter().filter(|(at, _)| *at > 1.0).map(|(at, s)| at - s.render_time).collect();
        lags.iter().sum::<f64>() / lags.len() as f64
    };
    let base = lag(0.05);
    // (The 1 % slew dithers the offset by ±0.01·dt around its target each frame: a millisecond is plenty.)
    assert!((0.15 - 1.0 / 60.0 - 1e-3..=0.15 + 1e-3).contains(&base), "lag {base}");
    assert_relative_eq!(lag(0.15) - base, 0.1, epsilon = 1e-3);
}

/// Syncs ride on the snapshots of whole seconds (`Tick % (int)TickRate == 0`).
#[test]
fn time_syncs_ride_on_whole_seconds() {
    let ngo = Ngo::new(NgoParams::default(), 0.05);
    assert!(ngo.carries_time_sync(snap(40).server_time));
    assert!(!ngo.carries_time_sync(snap(41).server_time));
    let ngo15 = Ngo::new(NgoParams::default(), 1.0 / 15.0);
    assert!(ngo15.carries_time_sync(2.0) && !ngo15.carries_time_sync(2.0 + 1.0 / 15.0));
}

/// With `MaximumInterpolationTime` near 0 the second lerp is a no-op and linear motion is shown exactly where the
/// render time says; at the default 0.1 s it trails that by about one smoothing time constant.
#[test]
fn the_second_lerp_trails_the_interpolated_target() {
    let trail = |maximum_interpolation_time: f64| {
        let mut ngo = Ngo::new(NgoParams { maximum_interpolation_time, ..NgoParams::default() }, 0.05);
        let mut events = stream(0, 100, 0.05);
        events.extend(frames(0.0, 4.0, 1.0 / 60.0));
        let shown = play(&mut ngo, events);
        let (_, last) = *shown.last().unwrap();
        assert_eq!(last.mode, ShownMode::Interpolated);
        SPEED * last.render_time - last.position.unwrap().x
    };
    assert!(trail(0.001).abs() < 1e-6, "{}", trail(0.001));
    let smoothed = trail(0.1);
    // Lerp by dt/0.1 = 1/6 per frame: a ramp trails by v·dt·(1 − a)/a = 100 · (1/60) · 5 = 8.33 units.
    assert_relative_eq!(smoothed, SPEED / 60.0 * 5.0, epsilon = 0.05);
}

/// When the snapshots stop, NGO 1.x settles on the last one and stays; 1.0's unclamped lerp runs on past it
/// for up to `MaxInterpolationBound` intervals, then snaps back to it.
#[test]
fn it_holds_the_last_value_when_the_stream_stops_unless_unclamped() {
    let run = |lerp_unclamped: bool| {
        let mut ngo = Ngo::new(NgoParams { lerp_unclamped, ..NgoParams::default() }, 0.05);
        let mut events = stream(0, 40, 0.05);
        events.extend(frames(0.0, 4.0, 1.0 / 60.0));
        play(&mut ngo, events)
    };
    let last_x = SPEED * 2.0;
    let held = run(false);
    assert!(held.iter().all(|(_, s)| s.position.is_none_or(|p| p.x <= last_x + 1e-9)));
    let (_, end) = held.last().unwrap();
    assert_eq!(end.mode, ShownMode::Held);
    assert_relative_eq!(end.position.unwrap().x, last_x, epsilon = 1e-6);
    let unclamped = run(true);
    let furthest = unclamped.iter().filter_map(|(_, s)| s.position).map(|p| p.x).fold(f64::MIN, f64::max);
    // The target runs up to two intervals (10 units) past; the second lerp shows part of that.
    assert!(furthest > last_x + 1.0 && furthest <= last_x + 2.0 * 5.0 + 1e-9, "overshoot to {furthest}");
    assert_relative_eq!(unclamped.last().unwrap().1.position.unwrap().x, last_x, epsilon = 1e-6);
}
