//! The seeds' worked examples, with their numbers: seed 000 §4.3.7's two vitest cases, seed 002's three
//! out-of-order snapshots and its minimal example, and seed 000 §4.3.5's freeze after a stalled second, driven
//! through the public API the simulator uses.

use approx::assert_relative_eq;
use netcode_lab::buffer::{SampleStatus, SnapshotBuffer};
use netcode_lab::clock::ClockKind;
use netcode_lab::display::{DisplayMode, Displayed, Presenter};
use netcode_lab::extrapolate::{UnderrunParams, UnderrunPolicy};
use netcode_lab::geom::Vec2;
use netcode_lab::playback::{PlaybackParams, RemotePlayback};
use netcode_lab::snapshot::Snapshot;
use netcode_lab::stream::Stream;

/// Seed 000's snapshots are in milliseconds; the core works in seconds.
fn ms(t: f64) -> f64 {
    t / 1000.0
}

fn presenter(policy: UnderrunPolicy, cap_ms: f64) -> Presenter {
    Presenter::new(UnderrunParams { underrun_policy: policy, max_extrapolation: ms(cap_ms), ..Default::default() })
        .unwrap()
}

fn shown_x(buffer: &mut SnapshotBuffer, presenter: &mut Presenter, t_ms: f64) -> (f64, Displayed) {
    let displayed = presenter.show(&buffer.sample(ms(t_ms)));
    (displayed.position.expect("something is shown").x, displayed)
}

/// Seed 000 §4.3.7 "抖动输入下输出位置连续": ±15 ms of jitter on 20 Hz snapshots, sampled every 10 ms.
#[test]
fn seed_000_jittered_input_gives_continuous_output() {
    let mut buffer = SnapshotBuffer::new(32);
    let jitter = [0.0, 12.0, -8.0, 5.0, -15.0, 10.0, 0.0, -3.0];
    for (i, j) in jitter.iter().enumerate() {
        let t = ms(1000.0 + i as f64 * 50.0 + j);
        let s = Snapshot::moving(i as u64, t, Vec2::new(i as f64 * 20.0, 0.0), Vec2::new(400.0, 0.0));
        assert!(buffer.insert(s, t + 0.08).is_inserted());
    }
    let mut presenter = presenter(UnderrunPolicy::ExtrapolateSeed, 100.0);
    let (mut prev, _) = shown_x(&mut buffer, &mut presenter, 1000.0);
    let mut max_jump: f64 = 0.0;
    for step in 1..=30 {
        let (x, displayed) = shown_x(&mut buffer, &mut presenter, 1000.0 + 10.0 * step as f64);
        assert_eq!(displayed.mode, DisplayMode::Interpolated, "at {} ms", 1000 + 10 * step);
        max_jump = max_jump.max((x - prev).abs());
        prev = x;
    }
    assert!(max_jump < 30.0, "the seed's bound");
    // The steepest stretch is 20 units in 30 ms (1062 → 1092 ms and 1155 → 1185 ms): 10 ms of it is 20/3.
    assert_relative_eq!(max_jump, 20.0 / 3.0, epsilon = 1e-6);
    assert_eq!(buffer.metrics(2.0).samples.ready, 31);
}

/// Seed 000 §4.3.7 "丢包时外推位置不发散，超时后冻结": one snapshot at 3000 u/s, cap 100 ms.
#[test]
fn seed_000_extrapolation_is_bounded_and_freezes() {
    let mut buffer = SnapshotBuffer::new(32);
    buffer.insert(Snapshot::moving(1, ms(1000.0), Vec2::ZERO, Vec2::new(3000.0, 0.0)), ms(1050.0));
    let mut seed = presenter(UnderrunPolicy::ExtrapolateSeed, 100.0);
    let mut decay = presenter(UnderrunPolicy::ExtrapolateDecay, 100.0);
    let (mut seed_xs, mut decay_xs) = (Vec::new(), Vec::new());
    for step in 0..=20 {
        let t = 1000.0 + 10.0 * step as f64;
        seed_xs.push(shown_x(&mut buffer, &mut seed, t).0);
        decay_xs.push(shown_x(&mut buffer, &mut decay, t).0);
    }
    let peak = seed_xs.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    assert!(peak <= 100.0, "the seed's bound");
    assert_relative_eq!(peak, 0.25 * 3000.0 * 0.1, epsilon = 1e-6); // 75, at ahead = cap/2 = 50 ms
    let (frozen, displayed) = shown_x(&mut buffer, &mut seed, 1200.0);
    let (later, _) = shown_x(&mut buffer, &mut seed, 5000.0);
    assert_relative_eq!(later, frozen, epsilon = 1e-5);
    assert_eq!((frozen, displayed.mode), (0.0, DisplayMode::Held), "frozen at the snapshot itself");

    // The seed formula walks back after cap/2 (75 at 50 ms, 48 at 80 ms, 0 at the cap) …
    assert_relative_eq!(seed_xs[8], 48.0, epsilon = 1e-6);
    assert!(seed_xs[6..=10].windows(2).all(|w| w[1] < w[0]), "{seed_xs:?}");
    // … while the decaying velocity is monotone and freezes at its furthest point, v·cap/2 = 150.
    assert!(decay_xs.windows(2).all(|w| w[1] >= w[0]), "{decay_xs:?}");
    assert_relative_eq!(decay_xs[10], 150.0, epsilon = 1e-6);
    assert_relative_eq!(shown_x(&mut buffer, &mut decay, 5000.0).0, 150.0, epsilon = 1e-6);
    // The curves the page plots say the same.
    let curve = UnderrunPolicy::ExtrapolateSeed.curve(3000.0, 0.1, 0.2, 21);
    assert_relative_eq!(curve[5].offset.unwrap(), 75.0, epsilon = 1e-9);
    assert_eq!(curve[20].offset, Some(0.0));
}

/// Seed 002 "三个乱序到达的快照", delivered by arrival time frame by frame with the known clock.
#[test]
fn seed_002_worked_example_through_the_playback() {
    let mut params = PlaybackParams::default();
    params.clock.clock = ClockKind::Known;
    params.clock.render_delay = 0.15;
    let stream = Stream { send_interval: 0.1, ..Stream::default() };
    let mut playback = RemotePlayback::new(params, &stream).unwrap();
    let snap = |tick, t, x| Snapshot::moving(tick, t, Vec2::new(x, 0.0), Vec2::new(10.0, 0.0));
    let mut deliveries =
        vec![(10.08, snap(100, 10.0, 0.0)), (10.23, snap(102, 10.2, 2.0)), (10.25, snap(101, 10.1, 1.0))];
    let mut last = None;
    for k in 0..=30 {
        let now = (1000.0 + k as f64) / 100.0;
        while deliveries.first().is_some_and(|(arrival, _)| *arrival <= now + 1e-9) {
            let (arrival, s) = deliveries.remove(0);
            let outcome = playback.on_snapshot(s, arrival);
            assert!(outcome.is_inserted(), "{outcome:?}");
        }
        last = Some(playback.frame(now, 0.01));
    }
    let frame = last.unwrap();
    assert_relative_eq!(frame.reading.render_time, 10.15, epsilon = 1e-9);
    assert_eq!(frame.sample.status, SampleStatus::Ready);
    assert_eq!((frame.sample.left, frame.sample.right), (Some(101), Some(102)));
    assert_relative_eq!(frame.displayed.position.unwrap().x, 1.5, epsilon = 1e-9);
    let m = playback.metrics(10.30);
    assert_eq!((m.buffer.received, m.buffer.out_of_order), (3, 1));
    assert_eq!(m.buffer.pruned, 1, "tick 100 went once the render time passed 10.1");
    assert_eq!(m.clock.regressions, 0);
}

/// Seed 002 "顺着最小代码走一遍": `renderTime = estimatedServerNow − interpolationDelay` = 10.20 − 0.10 = 10.10;
/// FindAround gives left 10.05 (x 0) and right 10.15 (x 10); t = (10.10 − 10.05) / (10.15 − 10.05) = 0.5;
/// x = Lerp(0, 10, 0.5) = 5. Driven frame by frame through the playback with the known clock (offset 0).
#[test]
fn seed_002_minimal_example_through_the_playback() {
    let mut params = PlaybackParams::default();
    params.clock.clock = ClockKind::Known;
    params.clock.render_delay = 0.10;
    let stream = Stream { send_interval: 0.1, ..Stream::default() };
    let mut playback = RemotePlayback::new(params, &stream).unwrap();
    let still = |tick, t, x| Snapshot::moving(tick, t, Vec2::new(x, 0.0), Vec2::ZERO);
    playback.on_snapshot(still(1, 10.05, 0.0), 10.08);
    playback.on_snapshot(still(2, 10.15, 10.0), 10.18);
    let frame = playback.frame(10.20, 0.02);
    assert_relative_eq!(frame.reading.render_time, 10.10, epsilon = 1e-12);
    assert_eq!(frame.sample.status, SampleStatus::Ready);
    assert_eq!((frame.sample.left, frame.sample.right), (Some(1), Some(2)));
    assert_relative_eq!(frame.sample.factor.unwrap(), 0.5, epsilon = 1e-9);
    assert_relative_eq!(frame.displayed.position.unwrap().x, 5.0, epsilon = 1e-9);
}

/// Seed 000 §4.3.5 "外推超过一个时间上限…后直接冻结在最新快照位置", after a skipped second. Snapshots every 50 ms
/// (x = 10 · server time) arrive 50 ms after they are sent; frames run at 60 fps up to local 1.0 s, then the tab
/// stalls and the next frame comes at 2.0 s (dt = 1 s). The link delivered up to server time 1.8 s meanwhile and
/// then went quiet. Known clock, delay 0.1: at 2.0 the render time is 1.9 > 1.8 → an Underrun, and hold stands on
/// the newest snapshot held, x = 10 · 1.8 = 18 — not on x = 10 · 0.9 = 9 where the last frame before the stall
/// drew it (render time 0.9), a second ago.
#[test]
fn hold_after_a_skipped_second_stands_on_the_newest_snapshot() {
    let mut params = PlaybackParams::default();
    params.clock.clock = ClockKind::Known;
    params.clock.render_delay = 0.1;
    params.underrun.underrun_policy = UnderrunPolicy::Hold;
    let mut playback = RemotePlayback::new(params, &Stream::default()).unwrap();
    let snaps: Vec<(f64, Snapshot)> = (0..=36)
        .map(|k| {
            let t = k as f64 * 0.05;
            (t + 0.05, Snapshot::moving(k, t, Vec2::new(10.0 * t, 0.0), Vec2::new(10.0, 0.0)))
        })
        .collect();
    let mut next = 0;
    let mut deliver = |playback: &mut RemotePlayback, now: f64| {
        while next < snaps.len() && snaps[next].0 <= now + 1e-9 {
            playback.on_snapshot(snaps[next].1, snaps[next].0);
            next += 1;
        }
    };
    let mut last = None;
    for f in 1..=60 {
        let now = f as f64 / 60.0;
        deliver(&mut playback, now);
        last = Some(playback.frame(now, 1.0 / 60.0));
    }
    let before = last.unwrap();
    assert_eq!(before.displayed.mode, DisplayMode::Interpolated);
    assert_relative_eq!(before.displayed.position.unwrap().x, 9.0, epsilon = 1e-9);
    deliver(&mut playback, 2.0);
    let after = playback.frame(2.0, 1.0);
    assert_eq!(after.sample.status, SampleStatus::Underrun);
    assert_eq!(after.displayed.mode, DisplayMode::Held);
    assert_relative_eq!(after.displayed.position.unwrap().x, 18.0, epsilon = 1e-9);
    // The reason names the delay in force (seed 002 "必须报告 … 当前插值延迟").
    assert!(after.sample.reason.unwrap().contains("interpolation delay 100 ms"));
}
