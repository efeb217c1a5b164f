//! Mirror: `Tests/Editor/SnapshotInterpolation/SnapshotInterpolationTests.cs` and
//! `Tests/Editor/Tools/ExponentialMovingAverageTests.cs` (MirrorNetworking/Mirror) reproduced — each test names
//! the C# test it follows — then the timescale's catch-up and slow-down on fixed traces.

use super::support::{frames, play, snap, stream, Event, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::mirror::{
    dynamic_adjustment, insert_and_adjust, insert_if_not_exists, sample, step_interpolation, step_time, timeline_clamp,
    timescale, Adjust, Buffer, Ema, Entry, Mirror, MirrorParams, Timeline,
};
use netcode_lab::engines::{ShownMode, Smoother};
use netcode_lab::geom::Vec2;

// SnapshotInterpolationTests' constants.
const CATCHUP_SPEED: f64 = 0.02;
const SLOWDOWN_SPEED: f64 = 0.04;
const NEGATIVE_THRESH: f64 = -0.10;
const POSITIVE_THRESH: f64 = 0.10;
const BUFFER_LIMIT: usize = 32;

/// `SimpleSnapshot(remoteTime, localTime, value)`: the value rides in x.
fn simple(remote_time: f64, local_time: f64, value: f64) -> Entry {
    Entry { remote_time, local_time, pos: Vec2::new(value, 0.0) }
}

/// `InsertAndAdjust(buffer, bufferLimit, snap, ref localTimeline, ref localTimescale, 0, bufferTime, 0.01, 0.01,
/// ref driftEma, 0, 0)`, as the C# tests call it.
fn insert(buffer: &mut Buffer, entry: Entry, line: &mut Timeline, buffer_time: f64) {
    let adjust = Adjust {
        send_interval: 0.0,
        buffer_time,
        catchup_speed: 0.01,
        slowdown_speed: 0.01,
        catchup_negative_threshold: 0.0,
        catchup_positive_threshold: 0.0,
    };
    insert_and_adjust(buffer, BUFFER_LIMIT, entry, line, adjust);
}

/// `Timescale()`.
#[test]
fn timescale_is_one_inside_the_thresholds_and_slow_or_fast_outside() {
    let ts = |drift| timescale(drift, CATCHUP_SPEED, SLOWDOWN_SPEED, NEGATIVE_THRESH, POSITIVE_THRESH);
    assert_eq!(ts(0.0), 1.0);
    assert_eq!(ts(-0.09), 1.0);
    assert_eq!(ts(0.09), 1.0);
    assert_eq!(ts(-0.11), 0.96);
    assert_eq!(ts(0.11), 1.02);
}

/// `TimelineClamp()`.
#[test]
fn timeline_clamp_keeps_the_timeline_within_one_buffer_time_of_the_target() {
    assert_eq!(timeline_clamp(0.0, 0.5, 1.0), 0.0);
    assert_eq!(timeline_clamp(0.5, 0.5, 1.0), 0.5);
    assert_eq!(timeline_clamp(1.0, 0.5, 1.0), 1.0);
    assert_eq!(timeline_clamp(-1.0, 0.5, 1.0), 0.0);
    assert_eq!(timeline_clamp(2.0, 0.5, 1.0), 1.0);
}

/// `DynamicAdjustment()`.
#[test]
fn dynamic_adjustment_counts_send_intervals_of_interval_plus_jitter_plus_tolerance() {
    assert_relative_eq!(dynamic_adjustment(0.100, 0.000, 0.5), 1.5, epsilon = 1e-4);
    assert_relative_eq!(dynamic_adjustment(0.100, 0.010, 0.5), 1.6, epsilon = 1e-4);
}

/// `InsertIfNotExists()`.
#[test]
fn insert_if_not_exists_ignores_a_second_copy() {
    let mut buffer = Buffer::new();
    let (a, b) = (simple(2.0, 0.0, 42.0), simple(3.0, 0.0, 43.0));
    assert!(insert_if_not_exists(&mut buffer, BUFFER_LIMIT, a));
    assert_eq!(buffer, [a]);
    assert!(!insert_if_not_exists(&mut buffer, BUFFER_LIMIT, a));
    assert_eq!(buffer, [a]);
    assert!(insert_if_not_exists(&mut buffer, BUFFER_LIMIT, b));
    assert_eq!(buffer, [a, b]);
    assert!(!insert_if_not_exists(&mut buffer, BUFFER_LIMIT, b));
    assert_eq!(buffer, [a, b]);
}

/// `InsertIfNotExists_RespectsBufferLimit()`.
#[test]
fn insert_if_not_exists_never_holds_more_than_the_limit() {
    let mut buffer = Buffer::new();
    for i in 0..BUFFER_LIMIT * 2 {
        insert_if_not_exists(&mut buffer, BUFFER_LIMIT, simple(i as f64, i as f64, i as f64));
    }
    assert_eq!(buffer.len(), BUFFER_LIMIT);
}

/// `InsertTwice()`: UDP may deliver one snapshot twice.
#[test]
fn insert_and_adjust_twice_inserts_once() {
    let (mut buffer, mut line) = (Buffer::new(), Timeline::default());
    let snap = simple(0.0, 0.0, 0.0);
    insert(&mut buffer, snap, &mut line, 0.0);
    insert(&mut buffer, snap, &mut line, 0.0);
    assert_eq!(buffer.len(), 1);
}

/// `Insert_Sorts()`.
#[test]
fn insert_and_adjust_sorts_by_remote_time() {
    let (mut buffer, mut line) = (Buffer::new(), Timeline::default());
    let (a, b) = (simple(2.0, 0.0, 42.0), simple(3.0, 0.0, 43.0));
    insert(&mut buffer, b, &mut line, 0.0);
    insert(&mut buffer, a, &mut line, 0.0);
    assert_eq!(buffer, [a, b]);
}

/// `Insert_InitializesLocalTimeline()`.
#[test]
fn the_first_insert_sets_the_timeline_one_buffer_time_behind() {
    let (mut buffer, mut line) = (Buffer::new(), Timeline::default());
    let buffer_time = 3.0;
    insert(&mut buffer, simple(2.0, 0.0, 42.0), &mut line, buffer_time);
    assert_eq!(line.local_timeline, 2.0 - buffer_time);
    insert(&mut buffer, simple(3.0, 0.0, 43.0), &mut line, buffer_time);
    assert_eq!(line.local_timeline, 2.0 - buffer_time, "the second insert does not move it");
}

/// `Insert_ComputesAverageDrift()` and `Insert_ComputesAverageDrift_Scrambled()`: the drift EMA of
/// `latest − timeline` over the inserted snapshot, not the buffer's newest (0, 1, 3 above the buffer time in order;
/// 0, 3, 1 scrambled).
#[test]
fn the_drift_ema_averages_the_inserted_snapshots_time_diff() {
    for (order, expected) in [([2.0, 3.0, 5.0], 1.75), ([2.0, 5.0, 3.0], 1.25)] {
        let (mut buffer, buffer_time) = (Buffer::new(), 3.0);
        let mut line = Timeline { drift_ema: Ema::new(3), ..Timeline::default() };
        for remote in order {
            insert(&mut buffer, simple(remote, 0.0, 42.0), &mut line, buffer_time);
            assert_eq!(line.local_timeline, 2.0 - buffer_time);
        }
        assert_eq!(line.drift_ema.value, buffer_time + expected, "{order:?}");
    }
}

/// `Insert_ComputesAverageDeliveryInterval()`: with a 2-sample drift EMA the diffs 3, 4, 6 give 5.2222 and a
/// standard deviation of 1.1331 (asserted on the drift EMA, as the C# test does); the delivery-time EMA itself
/// sees the local gaps 1 and 2: by hand, alpha 2/3 → 1 + (2/3)·1 = 1.6667, variance (1/3)·(2/3) = 0.2222.
#[test]
fn the_delivery_time_ema_sees_the_local_arrival_gaps() {
    let (mut buffer, buffer_time) = (Buffer::new(), 3.0);
    let mut line = Timeline { drift_ema: Ema::new(2), delivery_time_ema: Ema::new(2), ..Timeline::default() };
    for (remote, local) in [(2.0, 3.0), (3.0, 4.0), (5.0, 6.0)] {
        insert(&mut buffer, simple(remote, local, 42.0), &mut line, buffer_time);
        assert_eq!(line.local_timeline, 2.0 - buffer_time);
    }
    assert_relative_eq!(line.drift_ema.value, buffer_time + 2.2222, epsilon = 1e-4);
    assert_relative_eq!(line.drift_ema.standard_deviation, 1.1331, epsilon = 1e-4);
    assert_relative_eq!(line.delivery_time_ema.value, 1.6667, epsilon = 1e-4);
    assert_relative_eq!(line.delivery_time_ema.standard_deviation, (2.0f64 / 9.0).sqrt(), epsilon = 1e-9);
}

fn three_snapshots() -> (Buffer, Timeline, f64) {
    let (mut buffer, mut line, buffer_time) = (Buffer::new(), Timeline::default(), 30.0);
    for (remote, value) in [(10.0, 42.0), (20.0, 43.0), (30.0, 44.0)] {
        insert(&mut buffer, simple(remote, 0.0, value), &mut line, buffer_time);
        assert_eq!(line.local_timeline, 10.0 - buffer_time);
    }
    (buffer, line, buffer_time)
}

/// `Sample()`.
#[test]
fn sample_clamps_outside_and_interpolates_inside() {
    let (buffer, _, _) = three_snapshots();
    assert_eq!(sample(&buffer, 9.0), (0, 0, 0.0));
    assert_eq!(sample(&buffer, 22.5), (1, 2, 0.25));
    assert_eq!(sample(&buffer, 31.0), (2, 2, 0.0));
}

/// `Step()` and `Step_RemovesOld()`.
#[test]
fn step_moves_the_timeline_and_drops_what_it_passed() {
    let (mut buffer, mut line, buffer_time) = three_snapshots();
    step_time(buffer_time + 5.0, &mut line.local_timeline, line.local_timescale);
    let (from, to, t) = step_interpolation(&mut buffer, line.local_timeline);
    assert_eq!(from.pos.lerp(to.pos, t).x, 42.5);
    assert_eq!(buffer.len(), 3);

    let (mut buffer, mut line, buffer_time) = three_snapshots();
    step_time(buffer_time + 15.0, &mut line.local_timeline, line.local_timescale);
    let (from, to, t) = step_interpolation(&mut buffer, line.local_timeline);
    assert_eq!(from.pos.lerp(to.pos, t).x, 43.5);
    assert_eq!(buffer.iter().map(|e| e.pos.x).collect::<Vec<_>>(), [43.0, 44.0], "the first was stepped past");
}

/// `ExponentialMovingAverageTest`: `TestInitial`, `TestMovingAverage`, `TestVar`, `TestStd`, `TestReset`.
#[test]
fn the_ema_matches_mirrors_numbers() {
    let mut ema = Ema::new(10);
    ema.add(3.0);
    assert_eq!((ema.value, ema.variance), (3.0, 0.0));

    let mut ema = Ema::new(10);
    ema.add(5.0);
    ema.add(6.0);
    assert_relative_eq!(ema.value, 5.1818, epsilon = 1e-4);
    assert_relative_eq!(ema.variance, 0.1487, epsilon = 1e-4);
    ema.add(7.0);
    assert_relative_eq!(ema.variance, 0.6134, epsilon = 1e-4);

    let mut ema = Ema::new(10);
    for v in [5.0, 600.0, 70.0] {
        ema.add(v);
    }
    assert_relative_eq!(ema.standard_deviation, 208.2470, epsilon = 1e-4);

    let mut ema = Ema::new(10);
    ema.add(500.0);
    ema.add(600.0);
    ema.reset();
    ema.add(5.0);
    ema.add(6.0);
    assert_relative_eq!(ema.value, 5.1818, epsilon = 1e-4);
    assert_relative_eq!(ema.variance, 0.1487, epsilon = 1e-4);
}

/// Mirror with a fixed buffer time of 2 × 50 ms (no dynamic adjustment), for the timescale traces.
fn fixed_mirror() -> Mirror {
    Mirror::new(MirrorParams { dynamic_adjustment: false, ..MirrorParams::default() }, 0.05)
}

/// The lag of the timeline behind the newest server time sent, at local time `now` (zero latency: now).
fn lag(mirror: &Mirror, now: f64) -> f64 {
    now - mirror.local_timeline()
}

#[test]
fn a_steady_stream_plays_at_speed_one_buffer_time_behind() {
    let mut mirror = fixed_mirror();
    let mut events = stream(0, 60, 0.0);
    events.extend(frames(0.0, 3.0, 1.0 / 60.0));
    let shown = play(&mut mirror, events);
    assert_eq!(mirror.local_timescale(), 1.0);
    assert_relative_eq!(lag(&mirror, 3.0), 0.1, epsilon = 1e-9);
    let (_, last) = shown.last().copied().unwrap();
    assert_eq!(last.mode, ShownMode::Interpolated);
    assert_relative_eq!(last.position.unwrap().x, SPEED * 2.9, epsilon = 1e-9);
}

/// Replays `events` up to local time `until`.
fn play_until(mirror: &mut Mirror, events: &[Event], until: f64) {
    let due = |e: &&Event| match **e {
        Event::Deliver(_, at) | Event::Frame(at, _) => at <= until,
    };
    play(mirror, events.iter().filter(due).copied().collect());
}

/// The latency drops from 150 ms to 0: the next snapshots arrive 150 ms "early", the buffer holds far more than
/// the buffer time (the timeline is clamped to two buffer times behind the newest), and Mirror runs the timeline
/// 2 % fast (`catchupSpeed`) until the drift EMA is back within one send interval — it catches up, it does not
/// jump.
#[test]
fn it_speeds_up_when_the_buffer_holds_too_much() {
    let mut events = stream(0, 40, 0.15);
    events.extend(stream(41, 240, 0.0));
    events.extend(frames(0.0, 12.0, 1.0 / 60.0));
    let mut mirror = fixed_mirror();
    let shown = play(&mut mirror, events.clone());
    assert!(shown.iter().skip(30).all(|(_, s)| s.mode == ShownMode::Interpolated), "never dry");
    assert_eq!(mirror.local_timescale(), 1.0, "settled again by 12 s");
    let settled = lag(&mirror, 12.0);
    assert!((0.05..=0.15 + 1e-9).contains(&settled), "buffered {settled}");

    let mut mirror = fixed_mirror();
    play_until(&mut mirror, &events, 2.6);
    assert_eq!(mirror.local_timescale(), 1.0 + 0.02);
    assert!(lag(&mirror, 2.6) > 0.15, "buffered {}", lag(&mirror, 2.6));
    let before = mirror.local_timeline();
    mirror.frame(2.6 + 1.0 / 60.0, 1.0 / 60.0);
    assert_relative_eq!(mirror.local_timeline() - before, 1.02 / 60.0, epsilon = 1e-12);
}

/// The latency jumps from 0 to 150 ms: for 150 ms nothing arrives, the timeline runs past the newest snapshot
/// (held: Mirror never extrapolates), and when data flows again the buffer runs low — Mirror slows the timeline
/// by 4 % (`slowdownSpeed`) until the buffer time is buffered again.
#[test]
fn it_slows_down_when_the_buffer_runs_low_and_never_extrapolates() {
    let mut events = stream(0, 40, 0.0);
    events.extend(stream(41, 240, 0.15));
    events.extend(frames(0.0, 12.0, 1.0 / 60.0));
    let mut mirror = fixed_mirror();
    let shown = play(&mut mirror, events.clone());
    let dry: Vec<_> = shown.iter().filter(|(_, s)| s.mode == ShownMode::Held).collect();
    assert!(!dry.is_empty(), "the timeline ran past the newest snapshot");
    for (at, s) in &dry {
        // Until the slower timeline has rebuilt a buffer it keeps catching up with the newest snapshot.
        assert!(*at > 2.0 && *at < 4.5, "held at {at}");
        let ticks = s.position.unwrap().x / (SPEED / 20.0);
        assert!((ticks - ticks.round()).abs() < 1e-9, "held at a snapshot's own position, not extrapolated: {ticks}");
    }
    assert_eq!(mirror.local_timescale(), 1.0, "settled again by 12 s");
    let settled = 12.0 - 0.15 - mirror.local_timeline();
    assert!((0.04..=0.15 + 1e-9).contains(&settled), "buffered {settled}");

    let mut mirror = fixed_mirror();
    play_until(&mut mirror, &events, 2.6);
    assert_eq!(mirror.local_timescale(), 1.0 - 0.04);
    let before = mirror.local_timeline();
    mirror.frame(2.6 + 1.0 / 60.0, 1.0 / 60.0);
    assert_relative_eq!(mirror.local_timeline() - before, 0.96 / 60.0, epsilon = 1e-12);
}

/// Alternating 30 ms / 70 ms arrival gaps (σ ≈ 20 ms at 50 ms): the dynamic adjustment sets the multiplier to
/// about (50 + 20) / 50 + 1 = 2.4; with a steady stream it stays at (50 + 0) / 50 + 1 = 2.
#[test]
fn the_buffer_time_multiplier_follows_the_delivery_jitter() {
    let mut steady = Mirror::new(MirrorParams::default(), 0.05);
    play(&mut steady, stream(0, 100, 0.0));
    assert_relative_eq!(steady.buffer_time_multiplier(), 2.0, epsilon = 1e-9);

    let mut jittery = Mirror::new(MirrorParams::default(), 0.05);
    let events =
        (0..=100u64).map(|k| Event::Deliver(snap(k), k as f64 / 20.0 + if k % 2 == 1 { -0.02 } else { 0.0 })).collect();
    play(&mut jittery, events);
    let m = jittery.buffer_time_multiplier();
    assert!((2.3..2.5).contains(&m), "multiplier {m}");
    assert_relative_eq!(jittery.buffer_time(), 0.05 * m, epsilon = 1e-12);
}

/// A teleport (`OnTeleport` → `ResetState`) empties the entity's buffer: the next frame shows the new place, no
/// slide from the old one.
#[test]
fn a_teleport_is_not_interpolated_across() {
    let mut mirror = fixed_mirror();
    let mut events = stream(0, 20, 0.0);
    let mut jump = snap(21);
    jump.pos = Vec2::new(-500.0, 0.0);
    jump.teleport = true;
    events.push(Event::Deliver(jump, 1.05));
    events.extend(frames(0.0, 1.1, 1.0 / 60.0));
    let shown = play(&mut mirror, events);
    let after: Vec<f64> = shown.iter().filter(|(at, _)| *at > 1.05).map(|(_, s)| s.position.unwrap().x).collect();
    assert!(!after.is_empty() && after.iter().all(|&x| x == -500.0), "{after:?}");
}

// `mirror`: the NetworkTransformUnreliable on top of the timeline (NetworkTransformBase.cs,
// NetworkTransformUnreliable.cs).

/// `mirror` with a fixed buffer time of 2 × 50 ms, as [`fixed_mirror`] is for `mirror-core`.
fn fixed_transform(params: MirrorParams) -> Mirror {
    Mirror::network_transform(MirrorParams { dynamic_adjustment: false, ..params }, 0.05)
}

/// The defaults (`timelineOffset = true`, `bufferResetMultiplier = 3`, `onlySyncOnChange = true`) and their
/// arithmetic in `float`: `offset = NetworkServer.sendInterval × 1` with sendInterval = 1f / 20 =
/// 0.0500000007450580596923828125 (the `float` nearest 0.05); `timeIntervalCheck = 3f × 1 × 0.05f`:
/// 0.150000002235… rounded to a `float`, 0.1500000059604644775390625. Computing in `double` (0.05, 0.15) turns
/// it red.
#[test]
fn the_transform_keys_one_float_send_interval_later_and_resets_after_three() {
    let d = MirrorParams::default();
    assert!(d.timeline_offset && d.only_sync_on_change);
    assert_eq!(d.buffer_reset_multiplier, 3.0);
    let mirror = Mirror::network_transform(d.clone(), 0.05);
    let t = *mirror.transform().unwrap();
    assert_eq!(t.key_offset, 0.050_000_000_745_058_06);
    assert_eq!(t.reset_after, Some(0.150_000_005_960_464_48));
    assert!(Mirror::new(d.clone(), 0.05).transform().is_none(), "mirror-core has no transform");
    let off = Mirror::network_transform(MirrorParams { timeline_offset: false, only_sync_on_change: false, ..d }, 0.05);
    assert_eq!((off.transform().unwrap().key_offset, off.transform().unwrap().reset_after), (0.0, None));
}

/// On a clean steady 20 Hz stream both run the same timeline (latest − 2 × 50 ms: 2.9 at 3.0 s), but `mirror`
/// keys the entity's snapshots one send interval later, so at the timeline it shows what was sent at 2.9 − 0.05:
/// x = 100 × 2.85 = 285 where `mirror-core` shows 290 — one send interval more latency, in the position and in
/// the render time. With `timelineOffset` off the two agree (to the `float` send interval's 7.5e-10 s).
#[test]
fn mirror_is_mirror_core_plus_one_send_interval_on_a_clean_stream() {
    let run = |mut m: Mirror| {
        let mut events = stream(0, 60, 0.0);
        events.extend(frames(0.0, 3.0, 1.0 / 60.0));
        let shown = play(&mut m, events);
        (m.local_timeline(), shown)
    };
    let (core_line, core) = run(fixed_mirror());
    let (line, nt) = run(fixed_transform(MirrorParams::default()));
    assert_relative_eq!(core_line, 2.9, epsilon = 1e-9);
    assert_relative_eq!(line, 2.9, epsilon = 1e-6);
    let (c, m) = (core.last().unwrap().1, nt.last().unwrap().1);
    assert_eq!((c.mode, m.mode), (ShownMode::Interpolated, ShownMode::Interpolated));
    assert_relative_eq!(c.position.unwrap().x, 290.0, epsilon = 1e-9);
    assert_relative_eq!(m.position.unwrap().x, 285.0, epsilon = 1e-4);
    assert_relative_eq!(c.render_time - m.render_time, 0.05, epsilon = 1e-6);
    // Every frame once both show something steadily (after the first second): one interval behind.
    for ((at, c), (_, m)) in core.iter().zip(&nt).filter(|((at, _), _)| *at > 1.0) {
        assert_relative_eq!(c.position.unwrap().x - m.position.unwrap().x, 5.0, epsilon = 1e-4);
        assert!(m.mode == ShownMode::Interpolated, "at {at}");
    }
    let (_, plain) = run(fixed_transform(MirrorParams { timeline_offset: false, ..MirrorParams::default() }));
    for ((_, c), (_, m)) in core.iter().zip(&plain).filter(|((at, _), _)| *at > 1.0) {
        assert_relative_eq!(c.position.unwrap().x, m.position.unwrap().x, epsilon = 1e-4);
    }
}

/// The reset (`OnServerToClientSync`): `newest key + timeIntervalCheck < timestamp` clears the entity's buffer
/// before the update is added. The newest key is its send time + 0.05, so with the check of 0.15 the buffer is
/// cleared when the new send time is more than 0.2 s (four intervals) after the newest one: ticks 0–20 (send
/// times to 1.0), then tick 25 (1.25): 1.05 + 0.15 = 1.2 < 1.25 → only tick 25's key (1.30) remains; tick 24
/// (1.2) instead: 1.2000000067 < 1.2 fails → kept (comparing send times without the offset would clear it).
/// `onlySyncOnChange` off never clears; `bufferResetMultiplier` 5 needs more than 0.3 s.
#[test]
fn an_update_after_a_silence_clears_the_entitys_buffer() {
    let keys_after = |params: MirrorParams, next: u64| {
        let mut m = fixed_transform(params);
        let mut events = stream(0, 20, 0.0);
        events.extend(stream(next, next, 0.0));
        play(&mut m, events);
        m.entity_keys()
    };
    let d = MirrorParams::default;
    let offset = f64::from(0.05f32);
    assert_eq!(keys_after(d(), 25), [1.25 + offset]);
    assert_eq!(keys_after(d(), 24).len(), 22);
    assert_eq!(keys_after(d(), 24)[21], 1.2 + offset);
    assert_eq!(keys_after(MirrorParams { only_sync_on_change: false, ..d() }, 25).len(), 22);
    assert_eq!(keys_after(MirrorParams { buffer_reset_multiplier: 5.0, ..d() }, 25).len(), 22);
    assert_eq!(keys_after(MirrorParams { buffer_reset_multiplier: 5.0, ..d() }, 27), [1.35 + offset]);
}

/// What the reset looks like: after 0.25 s of silence the entity jumps to the new update's own position
/// (x = 100 × 1.25 = 125) on the next frame and waits there for the timeline (the one key is ahead of it),
/// instead of sliding from the old newest state (x 100) toward it, as `mirror-core` and the transform without
/// the reset do.
#[test]
fn after_the_reset_the_entity_jumps_to_the_new_update_and_waits() {
    let first_after = |m: Mirror| {
        let mut m = m;
        let mut events = stream(0, 20, 0.0);
        events.extend(stream(25, 40, 0.0));
        events.extend(frames(0.0, 2.0, 1.0 / 60.0));
        let shown = play(&mut m, events);
        *shown.iter().find(|(at, _)| *at > 1.25).map(|(_, s)| s).unwrap()
    };
    let reset = first_after(fixed_transform(MirrorParams::default()));
    assert_eq!(reset.position.unwrap().x, 125.0);
    assert_eq!(reset.mode, ShownMode::Waiting);
    for m in [fixed_transform(MirrorParams { only_sync_on_change: false, ..MirrorParams::default() }), fixed_mirror()] {
        let slide = first_after(m);
        let x = slide.position.unwrap().x;
        assert!(x > 100.0 && x < 125.0, "interpolates from the old state: {x}");
        assert_eq!(slide.mode, ShownMode::Interpolated);
    }
}
