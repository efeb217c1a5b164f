//! Unity NGO 2.x (2.13.0): `Tests/Editor/InterpolatorTests.cs` reproduced on the interpolator (the
//! `UpdateInternal(deltaTime, serverTime)` helper: render time = server time − 1 tick at a mock tick rate of 1,
//! lerp smoothing off as on a bare interpolator), `Tests/Editor/Timing/ClientNetworkTimeSystemTests.cs` on the
//! time system, then what sets 2.x apart on fixed traces, each value derived by hand from the upstream rules.

use super::support::{frames, play, stream, Event, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::ngo::{is_approximately, Interpolator, Ngo, NgoParams, TimeSystem};
use netcode_lab::engines::{ngo1x, ShownMode, Smoother};
use netcode_lab::geom::Vec2;
use netcode_lab::rng::SimRng;

fn v(x: f64) -> Vec2 {
    Vec2::new(x, 0.0)
}

/// A bare `BufferedLinearInterpolatorVector3` as the editor tests make it: `LerpSmoothEnabled` false.
fn bare() -> Interpolator {
    Interpolator::new(false, 0.1)
}

/// `interpolator.UpdateInternal(deltaTime, serverTime)`: `Update(dt, serverTime − 1 tick, serverTime)`, tick 1 s.
fn update(i: &mut Interpolator, dt: f32, server: f64) -> f64 {
    i.update(dt, server - 1.0, server).x
}

/// `TestReset()`: the test passes its times swapped (render 100, server 99); `ResetTo` sets the value at once.
/// Red: `ResetTo` that waits for the next update to show the value.
#[test]
fn reset_to_sets_the_value_at_once() {
    let mut i = bare();
    i.add_measurement(v(5.0), 1.0);
    assert_eq!(i.update(10.0, 100.0, 99.0).x, 5.0);
    assert_eq!(i.value().x, 5.0);
    i.reset_to(v(100.0), 100.0);
    assert_eq!(i.value().x, 100.0);
    // The queued baseline (sent 100) is not ≤ the server time 99: nothing consumed, the value stays.
    assert_eq!(i.update(1.0, 100.0, 99.0).x, 100.0);
}

/// `NormalUsage()`: 0 @ 1 s and 1 @ 2 s. At 0.01 nothing is consumed; at 1.01 the first item becomes the target
/// (t = 1 onto 0); at 2.01 the second: start 1.0, t = (1.01 − 1)/1 = 0.01; at 2.5, t = 0.5; at 3, t = 1.
/// Red: consuming before the target's time is reached, or t measured from the server time instead of render.
#[test]
fn normal_usage_consumes_then_interpolates() {
    let mut i = bare();
    assert_eq!(i.value().x, 0.0);
    i.add_measurement(v(0.0), 1.0);
    i.add_measurement(v(1.0), 2.0);
    assert_eq!(update(&mut i, 0.01, 0.01), 0.0);
    assert_eq!(update(&mut i, 1.0, 1.01), 0.0);
    let got = update(&mut i, 1.0, 2.01);
    assert_relative_eq!(got, 0.01, epsilon = 1e-7);
    assert_eq!(i.value().x, got);
    assert_relative_eq!(update(&mut i, 0.49, 2.5), 0.5, epsilon = 1e-7);
    assert_relative_eq!(update(&mut i, 0.5, 3.0), 1.0, epsilon = 1e-7);
}

/// `OutOfOrderShouldStillWork()`: 0 @ 0 and 2 @ 2, then 1 @ 1 arrives late and is dropped (not newer than the
/// last kept). Red: a late measurement queued (the value would turn back towards 1).
#[test]
fn an_older_measurement_arriving_late_is_dropped() {
    let mut i = bare();
    i.add_measurement(v(0.0), 0.0);
    i.add_measurement(v(2.0), 2.0);
    assert_eq!(update(&mut i, 1.5, 1.5), 0.0);
    assert_relative_eq!(update(&mut i, 0.5, 2.0), 1.0, epsilon = 1e-7);
    assert_relative_eq!(update(&mut i, 0.5, 2.5), 1.5, epsilon = 1e-7);
    i.add_measurement(v(1.0), 1.0);
    assert_relative_eq!(update(&mut i, 0.5, 3.0), 2.0, epsilon = 1e-7);
}

/// `MessageLoss()`: 1 @ 1, 2 @ 2, (3 lost), 4 @ 4, 5 @ 5, (6 lost), 100 @ 7. The shipped test stops at 3 s
/// ("Since there is no extrapolation, the rest of this test was removed"); at 3.5 s the render time (2.5) is
/// past the target (2) and the next item (4) is not yet ≤ the server time 3.5: t stays 1, the value holds at 2.
/// Red: an extrapolating lerp (2.5 at 3.5 s).
#[test]
fn message_loss_holds_at_the_last_value() {
    let mut i = bare();
    for (x, t) in [(1.0, 1.0), (2.0, 2.0), (4.0, 4.0), (5.0, 5.0), (100.0, 7.0)] {
        i.add_measurement(v(x), t);
    }
    assert_eq!(update(&mut i, 1.0, 1.0), 1.0);
    assert_eq!(update(&mut i, 0.5, 1.5), 1.0);
    assert_eq!(update(&mut i, 0.5, 2.0), 1.0);
    assert_eq!(update(&mut i, 0.5, 2.5), 1.5);
    assert_eq!(update(&mut i, 0.5, 3.0), 2.0);
    assert_eq!(update(&mut i, 0.5, 3.5), 2.0);
}

/// `AddFirstMeasurement()`: the first item consumed is jumped to (t = 1 with no span), then 2 → 3 over a second.
#[test]
fn the_first_measurement_consumed_is_jumped_to() {
    let mut i = bare();
    i.add_measurement(v(2.0), 1.0);
    i.add_measurement(v(3.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 1.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 2.0), 2.0);
    assert_eq!(update(&mut i, 0.5, 2.5), 2.5);
    assert_eq!(update(&mut i, 0.5, 3.0), 3.0);
}

/// `JumpToEachValueIfDeltaTimeTooBig()`: render time 9 is far past the target at 2: t clamps to 1.
#[test]
fn a_huge_step_jumps_to_the_newest_value() {
    let mut i = bare();
    i.add_measurement(v(2.0), 1.0);
    i.add_measurement(v(3.0), 2.0);
    assert_eq!(update(&mut i, 1.0, 1.0), 2.0);
    assert_eq!(update(&mut i, 8.0, 10.0), 3.0);
}

/// `JumpToLastValueFromStart()`: at 10 s the three items are consumed at once (start 1, end 3, t clamps to 1 →
/// 3); 11 @ 11 waits until the server time reaches 11, then start = 3, end = 11, render 10 → t = 7/8 → 10,
/// 10.5 → 10.5, 11 → 11. Red: starting the new segment from the value at the consumed item's own time.
#[test]
fn a_late_start_jumps_to_the_last_value_then_interpolates_on() {
    let mut i = bare();
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

/// `TestBufferSizeLimit()`: the 101st measurement in one frame clears the interpolator and teleports to it.
/// Red: a limit of 101 (the burst would interpolate from 2 instead: 101 at 102 s).
#[test]
fn a_burst_over_the_buffer_limit_teleports_to_the_last_value() {
    let mut i = bare();
    i.add_measurement(v(-1.0), 1.0);
    update(&mut i, 1.0, 1.0);
    i.add_measurement(v(2.0), 2.0);
    for k in 0..100 {
        i.add_measurement(v(k as f64 + 3.0), k as f64 + 3.0);
    }
    assert_eq!(update(&mut i, 101.0, 102.0), 102.0);
}

/// `TestUpdatingInterpolatorWithNoData()`: 2.x returns the default value (1.x threw).
#[test]
fn updating_without_data_gives_the_default_value() {
    assert_eq!(update(&mut bare(), 1.0, 0.0), 0.0);
}

/// `TestDuplicatedValues()`: a second 2 @ 2 is dropped (not newer), so 1 → 2 over one second as usual.
#[test]
fn duplicated_values_are_treated_as_one() {
    let mut i = bare();
    i.add_measurement(v(1.0), 1.0);
    i.add_measurement(v(2.0), 2.0);
    i.add_measurement(v(2.0), 2.0);
    assert_eq!(i.queued(), 2);
    assert_eq!(update(&mut i, 1.0, 1.0), 1.0);
    assert_eq!(update(&mut i, 1.0, 2.0), 1.0);
    assert_eq!(update(&mut i, 0.5, 2.5), 1.5);
    assert_eq!(update(&mut i, 0.5, 3.0), 2.0);
}

/// The legacy lerp starts a new segment from the value it drew last (`PreviousValue = NextValue`) at the old
/// target's time, not from the old target itself. 0 @ 0 and 10 @ 1 consumed together (t = 0 → 0); render 0.5 →
/// 5; then 30 @ 2 is consumed at render 1.2: start 1, from 5 (not 10), t = 0.2 → 5 + 25 · 0.2 = 10 (a textbook
/// interpolation between 10 @ 1 and 30 @ 2 gives 14). Red: `PreviousValue` set to the old target's value.
#[test]
fn a_new_segment_starts_from_the_value_drawn_last() {
    let mut i = bare();
    i.add_measurement(v(0.0), 0.0);
    i.add_measurement(v(10.0), 1.0);
    assert_eq!(i.update(0.1, 0.0, 1.0).x, 0.0);
    assert_eq!(i.update(0.1, 0.5, 1.5).x, 5.0);
    i.add_measurement(v(30.0), 2.0);
    assert_relative_eq!(i.update(0.1, 1.2, 2.2).x, 10.0, epsilon = 1e-5);
}

/// The second lerp (`PositionLerpSmoothing`): each frame the value moves deltaTime / MaximumInterpolationTime of
/// the way to the first stage's value, in float: (1/60)f / 0.1f = 0.16666667, so from 0 towards 10 it is at
/// 10 · (1 − (5/6)ⁿ) after n frames. It stops once every axis is within 0.005 of the target (`IsApproximately`
/// rounds |Δ| to two decimals): 10 · (5/6)ⁿ ≤ 0.005 first at n = 42 (ln 0.0005 / ln (5/6) = 41.7), and it then
/// stays there, 0.0047 short of 10 (the next frame also forgets the target: the render time is 9.5 s past it).
/// Red: no second lerp (10 at once), a ratio of dt · MaximumInterpolationTime,
/// or a reached test without the rounding (it would creep on to 10).
#[test]
fn the_second_lerp_eases_in_and_stops_within_five_thousandths() {
    let mut i = Interpolator::new(true, 0.1);
    i.add_measurement(v(0.0), 0.0);
    i.add_measurement(v(10.0), 0.5);
    let dt = 1.0f32 / 60.0;
    let ratio = f64::from(dt / 0.1f32);
    // Render 10 s ahead: the first stage is at t = 1 (10) from the first frame on.
    let mut last = 0.0;
    for n in 1..=60 {
        last = i.update(dt, 10.0, 10.0).x;
        if n <= 42 {
            assert_relative_eq!(last, 10.0 * (1.0 - (1.0 - ratio).powi(n)), max_relative = 1e-9);
        }
        if n == 41 {
            assert!(!i.target_reached(), "10·(5/6)^41 = {} > 0.005", 10.0 * (1.0 - ratio).powi(41));
        }
        if n == 42 {
            assert!(i.target_reached());
        }
    }
    // Reached with the queue empty and the render time 9.5 s past the target: the next frame forgets the target
    // (the pause rule); either way the value no longer moves.
    assert_eq!(i.target_time(), None);
    assert_relative_eq!(last, 10.0 * (1.0 - (1.0 - ratio).powi(42)), max_relative = 1e-9);
    assert!(10.0 - last > 0.004 && 10.0 - last < 0.005, "{last}");
}

/// `IsApproximately` on Vector3: |Δ| rounded half to even at two decimals, per axis.
#[test]
fn approximately_means_within_half_a_hundredth_per_axis() {
    assert!(is_approximately(v(1.0), v(1.0049), 1e-6));
    assert!(!is_approximately(v(1.0), v(1.0051), 1e-6));
    assert!(!is_approximately(Vec2::new(0.0, 0.0), Vec2::new(0.0, 0.01), 1e-10));
}

/// Reached, queue empty and the render time more than 0.3f s past the target: the target is forgotten, so the next
/// state is jumped to (t = 1 from the current value) rather than lerped over the long pause. 0 @ 0 and 10 @ 1 are
/// consumed together and reached at render 1; at render 1.4 (0.4 past) the target goes; 20 @ 5 consumed at render
/// 1.5 is then shown at once (20), where a kept target would lerp from 10 at 1 s to 20 at 5 s (10 + 10 · 0.5 / 4 =
/// 11.25). Red: the pause rule missing.
#[test]
fn a_pause_longer_than_three_tenths_forgets_the_target() {
    let mut i = bare();
    i.add_measurement(v(0.0), 0.0);
    i.add_measurement(v(10.0), 1.0);
    assert_eq!(i.update(0.1, 1.0, 1.0).x, 10.0);
    assert!(i.target_reached());
    assert_eq!(i.update(0.1, 1.4, 1.4).x, 10.0);
    assert_eq!(i.target_time(), None);
    i.add_measurement(v(20.0), 5.0);
    assert_eq!(i.update(0.1, 1.5, 5.0).x, 20.0);
}

// ClientNetworkTimeSystemTests: the shipped tests draw their steps with System.Random(42); these draw the same
// ranges from the project's generator and assert the same bounds.

/// `TimingTestHelper.GetRandomTimeSteps(total, min, max)`: steps in [min, max] until `total` is covered.
fn random_steps(total: f32, min: f32, max: f32, stream: u64) -> Vec<f32> {
    let mut rng = SimRng::new(42, stream);
    let mut left = total;
    let mut steps = Vec::new();
    while left > 0.0 {
        let next = min + (max - min) * rng.uniform() as f32;
        steps.push(next);
        left -= next;
    }
    *steps.last_mut().unwrap() -= left;
    steps
}

/// Runs `steps` (Advance, then the check with whether it hard-reset).
fn apply(ts: &mut TimeSystem, steps: &[f32], mut check: impl FnMut(&mut TimeSystem, usize, bool)) {
    for (i, &s) in steps.iter().enumerate() {
        let reset = ts.advance(f64::from(s));
        check(ts, i, reset);
    }
}

/// `new NetworkTimeSystem(0.05, 0.05, 0.1)` (the tests pass the RTT as the hard-reset threshold), `Reset(2, 0.15)`.
fn test_time_system() -> TimeSystem {
    let mut ts = TimeSystem::new(0.05, 0.05, 0.1, 0.01, 1.0 / 60.0);
    ts.reset(2.0, 0.15);
    ts
}

/// `StableRttTest()`: under an RTT of 100 ± 50 ms, local − server time settles within 30 ms of ½ RTT + both
/// buffers, and stays there. Red: the full RTT in the local offset (off by 50 ms).
#[test]
fn a_stable_rtt_keeps_local_time_half_an_rtt_ahead() {
    let mut ts = test_time_system();
    assert!(ts.local_time() > 2.0);
    let steps = random_steps(100.0, 0.01, 0.1, 1);
    let rtts = random_steps(1000.0, 0.05, 0.15, 2);
    let mut received = 2.0;
    let offset = |ts: &TimeSystem| (ts.local_time() - ts.server_time()) - 0.05 - 0.05 - 0.05;
    let mut run = |ts: &mut TimeSystem| {
        apply(ts, &steps, |ts, i, _| {
            received += f64::from(steps[i]);
            ts.sync(received, f64::from(rtts[i]));
        })
    };
    run(&mut ts);
    let first = offset(&ts);
    assert!(first.abs() < 0.03, "{first}");
    run(&mut ts);
    let second = offset(&ts);
    assert!(second.abs() < 0.03, "{second}");
    assert!((first - second).abs() < 0.01);
}

/// `RttCatchupSlowdownTest()`: the RTT going from ~100 to ~200 ms speeds local time up by ½ · 100 ms within 30 ms
/// over 100 s (the server time not at all), and back. Red: an adjustment that ignores the RTT change.
#[test]
fn local_time_catches_up_and_slows_down_with_the_rtt() {
    let mut ts = test_time_system();
    let steps = random_steps(100.0, 0.01, 0.1, 3);
    let rtts = random_steps(1000.0, 0.05, 0.15, 4);
    let rtts2 = random_steps(1000.0, 0.195, 0.205, 5);
    let mut received = 2.0;
    apply(&mut ts, &steps, |ts, i, _| {
        received += f64::from(steps[i]);
        ts.sync(received, f64::from(rtts[i]));
    });
    for (rtt, expected) in [(&rtts2, 0.05), (&rtts, -0.05)] {
        let (mut local, mut server) = (ts.local_time(), ts.server_time());
        apply(&mut ts, &steps, |ts, i, _| {
            local += f64::from(steps[i]);
            server += f64::from(steps[i]);
            received += f64::from(steps[i]);
            ts.sync(received, f64::from(rtt[i]));
        });
        assert!((ts.local_time() - local - expected).abs() < 0.03, "{}", ts.local_time() - local);
        assert!((ts.server_time() - server).abs() < 0.03);
    }
}

/// `ResetTest()`: an RTT jump to 500 ms moves the desired local offset by ½ · 400 ms > the 0.1 s threshold: the
/// next Advance hard-resets, and afterwards local − server stays within 30 ms of 250 ms + both buffers with no
/// further reset. Red: a reset test on the server offset alone (the server offset does not move).
#[test]
fn an_rtt_spike_hard_resets_local_time_once() {
    let mut ts = test_time_system();
    let steps = random_steps(100.0, 0.01, 0.1, 6);
    let rtts = random_steps(1000.0, 0.095, 0.105, 7);
    let rtts2 = random_steps(1000.0, 0.495, 0.505, 8);
    let mut received = 2.0;
    apply(&mut ts, &steps, |ts, i, _| {
        received += f64::from(steps[i]);
        ts.sync(received, f64::from(rtts[i]));
    });
    received += 1.0 / 60.0;
    ts.sync(received, 0.5);
    assert!(ts.advance(1.0 / 60.0));
    apply(&mut ts, &steps, |ts, i, reset| {
        assert!(!reset);
        received += f64::from(steps[i]);
        ts.sync(received, f64::from(rtts2[i]));
        assert!(((ts.local_time() - ts.server_time()) - 0.25 - 0.05 - 0.05).abs() < 0.03);
    });
}

/// `TickLatency`: each Advance lerps the average (from 2) towards (rtt + dt) / tick by dt, in float, and rounds
/// it half to even, never below 2. At 20 Hz and an RTT of 300 ms, 60 frames of 1/60 s: the target is
/// (0.3 + 1/60) · 20 = 6.333, the average 6.333 − 4.333 · (59/60)⁶⁰ = 4.755 → 5; after 600 frames 6.333 → 6. An
/// RTT of 50 ms (1.33 ticks) gives the floor, 2. Red: `Mathf.Round` without the floor, or the RTT in ms.
#[test]
fn tick_latency_follows_the_rtt_in_ticks() {
    let mut ts = TimeSystem::new(0.05, 0.05, 0.2, 0.01, 0.05);
    assert_eq!(ts.tick_latency, 1, "no RTT yet");
    for n in 1..=600 {
        ts.sync(n as f64 / 60.0, 0.3);
        ts.advance(1.0 / 60.0);
        if n == 60 {
            assert_eq!(ts.tick_latency, 5);
        }
    }
    assert_eq!(ts.tick_latency, 6);
    let mut ts = TimeSystem::new(0.05, 0.05, 0.2, 0.01, 0.05);
    for n in 1..=600 {
        ts.sync(n as f64 / 60.0, 0.05);
        ts.advance(1.0 / 60.0);
    }
    assert_eq!(ts.tick_latency, 2);
}

// The whole client on a 20 Hz stream (x = 100 · t), one-way latency 50 ms, frames at 60 Hz from 0.05 s.

/// The approval: `Reset(0, 0.15f)` then the forced hard reset: ServerTime = 0 − 0.05f, LocalTime = 0 + ½ · 0.15f
/// + 1 tick (0.05) = 0.125. Red: the full RTT (0.2) or no local buffer (0.075).
#[test]
fn after_the_approval_local_time_is_half_the_approval_rtt_and_a_tick_ahead() {
    let mut ngo = Ngo::new(NgoParams::default(), 0.05);
    ngo.on_snapshot(&super::support::snap(0), 0.05);
    let ts = ngo.time_system();
    assert_relative_eq!(ts.local_time(), 0.075 + 0.05, epsilon = 1e-8);
    assert_relative_eq!(ts.server_time(), -0.05, epsilon = 1e-8);
    assert_eq!(ts.resets, 1);
}

/// Where the frames start counting (half a frame after the first delivery, so no frame ties with a delivery).
const FROM: f64 = 0.05 + 1.0 / 120.0;

fn steady_events() -> Vec<Event> {
    let mut events = stream(0, 40, 0.05);
    events.extend(frames(FROM, 2.0, 1.0 / 60.0));
    events
}

fn steady(params: NgoParams) -> Vec<(f64, netcode_lab::engines::Shown)> {
    play(&mut Ngo::new(params, 0.05), steady_events())
}

/// LocalTime at `now` on the steady trace: 0.125 after the approval, then the frames' time at 0.99 (the local
/// offset slews from ½ · 0.15 + 0.05 down towards 0.05 at 1 % of the time passed, all the 2 s long).
fn local_time(now: f64) -> f64 {
    0.125 + 0.99 * (now - FROM)
}

/// The default 2.x client renders at LocalTime − 1 tick ≈ the client's now + 0.025 s, past the newest state
/// (sent at most at now − 0.05): every frame is held at t = 1, and with the second lerp off it draws exactly the
/// newest state received — tick ⌊(now − 0.05) · 20⌋. Red: rendering on ServerTime (as 1.x and 2.3 did; frames
/// would interpolate), or an extrapolating first lerp.
#[test]
fn by_default_it_draws_the_newest_state_held_past_the_data() {
    let params = NgoParams { position_lerp_smoothing: false, ..NgoParams::default() };
    for (now, shown) in steady(params) {
        assert_eq!(shown.mode, ShownMode::Held, "{now}");
        let newest = ((now - 0.05) * 20.0 + 1e-9).floor() / 20.0;
        assert_relative_eq!(shown.position.unwrap().x, SPEED * newest, epsilon = 1e-6);
        assert!((shown.render_time - (local_time(now) - 0.05)).abs() < 1e-6, "{now}: {}", shown.render_time);
    }
}

/// InterpolationBufferTickOffset 3: render = LocalTime − 4 ticks ≈ now − 0.133, behind the newest state (sent at
/// now − 0.1 or later): every frame interpolates, and the drawn x stays within 1.5 frames of motion of 100 ·
/// render time — a segment restarts from the value drawn last, at most one render step (0.99 / 60 s) before the
/// old target, and carries at most a third of the previous segment's error on (frames are a third of a tick):
/// e ≤ 100 · 0.99 / 60 + e / 3. Red: the offset ignored (frames held, x far ahead of the render time).
#[test]
fn a_tick_offset_of_three_brings_the_render_time_behind_the_data() {
    let params =
        NgoParams { position_lerp_smoothing: false, interpolation_buffer_tick_offset: 3, ..NgoParams::default() };
    let shown = steady(params);
    for &(now, s) in shown.iter().filter(|(now, _)| *now > 0.2) {
        assert_eq!(s.mode, ShownMode::Interpolated, "{now}");
        assert!((s.render_time - (local_time(now) - 0.2)).abs() < 1e-6, "{now}: {}", s.render_time);
        assert!((s.position.unwrap().x - SPEED * s.render_time).abs() <= 1.5 * SPEED * 0.99 / 60.0, "{now}");
    }
}

/// On the same packets NGO 1.x renders ServerTime − 1 tick: ServerTime starts at 0 − 0.05 and runs with the
/// frames (±1 % slew), so near 1.05 s its render time is −0.1 + (now − FROM) ± 0.01 and it interpolates; 2.x
/// renders LocalTime − 1 tick = 0.075 + 0.99 · (now − FROM), 0.17 s later, and holds. Red: the two models
/// swapped or sharing a clock.
#[test]
fn ngo_1x_interpolates_on_server_time_where_2x_holds_on_local_time() {
    let shown_1x = play(&mut ngo1x::Ngo::new(ngo1x::NgoParams::default(), 0.05), steady_events());
    let shown_2x = steady(NgoParams::default());
    let near = |v: &[(f64, netcode_lab::engines::Shown)]| {
        *v.iter().min_by(|a, b| (a.0 - 1.05).abs().total_cmp(&(b.0 - 1.05).abs())).unwrap()
    };
    let ((now, old), (_, new)) = (near(&shown_1x), near(&shown_2x));
    assert_eq!(old.mode, ShownMode::Interpolated);
    assert_eq!(new.mode, ShownMode::Held);
    assert!((old.render_time - (-0.1 + (now - FROM))).abs() <= 0.01, "{}", old.render_time);
    assert!((new.render_time - (0.075 + 0.99 * (now - FROM))).abs() < 1e-6, "{}", new.render_time);
}

/// The RTT NGO reads is the transport's, in whole milliseconds: 101.9 ms counts as 101 ms, so after a time sync
/// the desired local offset is ½ · 0.101 + 1 tick above the sync. Checked through a hard reset forced by a sync
/// far ahead (10 s): LocalTime = 10 + 0.0505 + 0.05. Red: the RTT not truncated (10.10095) or ignored (10.05).
#[test]
fn the_rtt_is_read_in_whole_milliseconds() {
    let mut ngo = Ngo::new(NgoParams::default(), 0.05);
    ngo.on_snapshot(&super::support::snap(0), 0.05);
    ngo.on_rtt(0.1, 0.1019);
    ngo.on_snapshot(&super::support::snap_at(200, 10.0), 0.1);
    ngo.frame(0.1, 0.0);
    assert_relative_eq!(ngo.time_system().local_time(), 10.0 + 0.0505 + 0.05, epsilon = 1e-9);
}

proptest::proptest! {
    /// Nothing extrapolates: both lerps are clamped, so every drawn position is a convex combination of the
    /// states delivered so far — inside their bounding box — whatever the order, gaps, jitter, RTT and frame
    /// times. Red: an unclamped first lerp (t past 1 on a held frame), or a second lerp whose ratio passes 1.
    #[test]
    fn every_drawn_position_lies_within_the_states_delivered(
        deliveries in proptest::collection::vec((0u64..80, 0.0f64..0.4, -50.0f64..50.0, -50.0f64..50.0), 1..60),
        dts in proptest::collection::vec(0.001f64..0.2, 1..200),
        rtt in 0.0f64..0.5,
        offset in 0usize..4,
    ) {
        let params = NgoParams { interpolation_buffer_tick_offset: offset, ..NgoParams::default() };
        let mut ngo = Ngo::new(params, 0.05);
        let mut events: Vec<Event> = deliveries
            .iter()
            .map(|&(tick, late, x, y)| {
                let t = tick as f64 / 20.0;
                Event::Deliver(netcode_lab::snapshot::Snapshot::moving(tick, t, Vec2::new(x, y), Vec2::ZERO), t + late)
            })
            .collect();
        let mut now = 0.0;
        for dt in &dts {
            now += dt;
            events.push(Event::Frame(now, *dt));
        }
        let time = |e: &Event| match *e { Event::Deliver(_, at) => at, Event::Frame(at, _) => at };
        events.sort_by(|a, b| time(a).total_cmp(&time(b)));
        let (mut lo, mut hi) = (Vec2::new(f64::INFINITY, f64::INFINITY), Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        ngo.on_rtt(0.0, rtt);
        for e in events {
            match e {
                Event::Deliver(s, at) => {
                    lo = Vec2::new(lo.x.min(s.pos.x), lo.y.min(s.pos.y));
                    hi = Vec2::new(hi.x.max(s.pos.x), hi.y.max(s.pos.y));
                    ngo.on_snapshot(&s, at);
                }
                Event::Frame(at, dt) => {
                    let shown = ngo.frame(at, dt);
                    if let Some(p) = shown.position {
                        proptest::prop_assert!(p.x >= lo.x - 1e-9 && p.x <= hi.x + 1e-9, "{p:?} outside {lo:?}..{hi:?}");
                        proptest::prop_assert!(p.y >= lo.y - 1e-9 && p.y <= hi.y + 1e-9, "{p:?} outside {lo:?}..{hi:?}");
                        proptest::prop_assert!(shown.render_time.is_finite());
                    }
                }
            }
        }
    }
}
