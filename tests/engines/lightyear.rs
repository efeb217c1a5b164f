//! lightyear 0.29.0: the interpolation timeline on fixed traces — where it settles behind the server, what it
//! shows past the newest state, and that it waits for its pings. Upstream's unit tests for the history sampling
//! and the sync objective are reproduced in `src/engines/lightyear.rs`.

use super::support::{play, Event, SPEED};
use netcode_lab::engines::lightyear::{Lightyear, LightyearParams};
use netcode_lab::engines::{ShownMode, Smoother};
use netcode_lab::geom::Vec2;
use netcode_lab::snapshot::Snapshot;

const TICK: f64 = 1.0 / 60.0;

/// A 20 Hz stream of a 60 Hz server: snapshot k at server time k / 20 (tick 3k), arriving `latency` later;
/// frames at 60 Hz; pings every 0.1 s measuring `rtt`.
fn run(
    lightyear: &mut Lightyear,
    seconds: f64,
    latency: f64,
    rtt: f64,
    drop: impl Fn(u64) -> bool,
) -> Vec<(f64, netcode_lab::engines::Shown)> {
    let mut events = Vec::new();
    let n = (seconds * 20.0) as u64;
    for k in 0..=n {
        let t = k as f64 / 20.0;
        if !drop(k) {
            let s = Snapshot::moving(3 * k, t, Vec2::new(SPEED * t, 0.0), Vec2::new(SPEED, 0.0));
            events.push(Event::Deliver(s, t + latency));
        }
    }
    let frames = (seconds * 60.0) as usize;
    let mut pings = 1;
    let mut out = Vec::new();
    let mut i = 0;
    events.sort_by(|a, b| match (a, b) {
        (Event::Deliver(_, x), Event::Deliver(_, y)) => x.partial_cmp(y).unwrap(),
        _ => std::cmp::Ordering::Equal,
    });
    for f in 1..=frames {
        let now = f as f64 * TICK;
        while pings as f64 * 0.1 <= now {
            lightyear.on_rtt(pings as f64 * 0.1, rtt);
            pings += 1;
        }
        while let Some(Event::Deliver(s, at)) = events.get(i) {
            if *at > now {
                break;
            }
            lightyear.on_snapshot(s, *at);
            i += 1;
        }
        out.push((now, lightyear.frame(now, TICK)));
    }
    let _ = play;
    out
}

/// 45 ms one way, 100 ms measured round trip, no jitter: a snapshot sent at t arrives at t + 45 ms and is read
/// at the next 60 Hz frame, t + 50 ms, where its estimate tick + rtt/2 = t + 50 ms is the server's time exactly.
/// The objective is 1.7 × 50 ms = 85 ms plus one tick (16.7 ms) of margin behind it, plus 4 × the jitter
/// estimate, which decays from 25 ms (half of half the first RTT) by 5/6 a ping: after 8 s it is 25 ms ×
/// (5/6)^79 ≈ 0. The first sync snaps to the objective of that moment (≥ 100 ms more margin), then the
/// timeline catches up at up to 1.05× until it is within the controller's one-tick dead band — from behind:
/// so it lags the true server time by 101.7 ms to 118.3 ms, never less, and every frame is interpolated.
/// A delay measured from the newest snapshot instead would lag 50 ms more; a timeline that never caught up
/// would still lag by the first sync's margin (≥ 200 ms).
#[test]
fn it_settles_the_send_interval_ratio_plus_a_tick_behind_the_estimated_server_time() {
    let mut ly = Lightyear::new(LightyearParams::default(), 0.05, TICK);
    let out = run(&mut ly, 10.0, 0.045, 0.1, |_| false);
    for &(now, shown) in &out[480..] {
        let lag = now - shown.render_time;
        assert!(lag > 0.1016 && lag < 0.1184, "at {now}: lag {lag}");
        assert_eq!(shown.mode, ShownMode::Interpolated, "at {now}");
        // The overstep is a 16-bit fraction of a tick: 100 u/s × (1/60 s) / 65536 ≈ 2.5e-5 at most.
        assert!((shown.position.unwrap().x - SPEED * shown.render_time).abs() < 1e-4, "at {now}");
    }
}

/// Before three pings nothing is synced and nothing is estimated: the timeline runs from tick 0 at the frames'
/// pace, so with the server at tick 3000 (50 s) no snapshot is at or before it and nothing is shown. Pings
/// every 0.1 s from 0.1 s: the third comes at 0.3 s, the first packet after it syncs the timeline. A model
/// that synced on the first packet, or without pings, would show something before 0.3 s.
#[test]
fn it_shows_nothing_until_three_pings_have_come() {
    let mut ly = Lightyear::new(LightyearParams::default(), 0.05, TICK);
    let mut shown = Vec::new();
    for f in 1..=60 {
        let now = f as f64 * TICK;
        if f % 6 == 0 {
            ly.on_rtt(now, 0.1);
        }
        if f % 3 == 0 {
            let t = 50.0 + now - 0.05;
            ly.on_snapshot(&Snapshot::moving(0, t, Vec2::new(SPEED * t, 0.0), Vec2::new(SPEED, 0.0)), now);
        }
        shown.push((now, ly.frame(now, TICK)));
    }
    for &(now, s) in &shown {
        let synced = now > 0.3 + 1e-9;
        assert_eq!(s.mode == ShownMode::Nothing, !synced, "at {now}: {s:?}");
    }
    assert!(ly.timeline().synced);
}

/// Past the newest snapshot it holds it (upstream clamps `t`, never extrapolates): settled as above, then
/// the stream stops at 8 s (the last snapshot at x = 800). About 110 ms later the timeline passes 8 s and every
/// frame after shows x = 800 exactly, `held`; before that, frames interpolate towards it.
#[test]
fn past_the_newest_it_holds_the_newest() {
    let mut ly = Lightyear::new(LightyearParams::default(), 0.05, TICK);
    let out = run(&mut ly, 10.0, 0.045, 0.1, |k| k > 160);
    let after: Vec<_> = out.iter().filter(|(now, _)| *now > 8.2).collect();
    assert!(!after.is_empty());
    for (now, s) in after {
        assert_eq!(s.mode, ShownMode::Held, "at {now}");
        assert_eq!(s.position.unwrap().x, 800.0, "at {now}");
    }
    let before = out.iter().filter(|(now, _)| *now > 7.0 && *now < 8.1).count();
    let interpolated =
        out.iter().filter(|(now, s)| *now > 7.0 && *now < 8.1 && s.mode == ShownMode::Interpolated).count();
    assert_eq!(before, interpolated);
}
