//! Source: the lerp formula, the interpolated-variable history (linear, Hermite, extrapolation capped at
//! `cl_extrapolate_amount`), the netchan's out-of-order drop and the clock drift manager, on fixed traces.
//! Valve ships no tests for this code; the expected numbers are worked out by hand from the cvars.

use super::support::{frames, play, snap, stream, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::source::{lerp_hermite, ClockDrift, Source, SourceParams};
use netcode_lab::engines::{ShownMode, Smoother};
use netcode_lab::geom::Vec2;

const TICK: f64 = 1.0 / 60.0;

/// `GetInterpolationAmount`: `TIME_TO_TICKS(max(cl_interp, cl_interp_ratio / cl_updaterate))` + 1 tick.
#[test]
fn the_lerp_is_rounded_to_ticks_plus_one() {
    let defaults = SourceParams::default();
    assert_eq!(defaults.client_interp_amount(), 0.1);
    // 0.1 s at 60 Hz: 6 ticks, + 1 = 7 ticks.
    assert_relative_eq!(defaults.interpolation_amount(TICK), 7.0 / 60.0, epsilon = 1e-12);
    // TF2's 66.67 Hz: 0.1 / 0.015 = 6.67 → 7 ticks, + 1 = 8 ticks = 0.12 s.
    assert_relative_eq!(defaults.interpolation_amount(0.015), 0.12, epsilon = 1e-12);
    // cl_interp_ratio 3 at cl_updaterate 20 wins over cl_interp 0.1: 0.15 s → 9 + 1 ticks.
    let ratio = SourceParams { cl_interp_ratio: 3.0, ..SourceParams::default() };
    assert_relative_eq!(ratio.interpolation_amount(TICK), 10.0 / 60.0, epsilon = 1e-12);
    let bad = SourceParams { cl_interp: 0.6, ..SourceParams::default() };
    assert_eq!(bad.validate().unwrap_err().field, "cl_interp");
}

/// `Lerp_Hermite` at t = ½ through (0,0) → (10,0) → (10,10), by hand: the point coefficients ½ and ½, the
/// tangent coefficients ⅛ and −⅛: (10·½ + 10·½ + 10·⅛, 10·½ − 10·⅛) = (11.25, 3.75); a line stays a line.
#[test]
fn hermite_bulges_at_a_corner_and_stays_straight_on_a_line() {
    let p = lerp_hermite(0.5, Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(10.0, 10.0));
    assert_relative_eq!(p.x, 11.25, epsilon = 1e-12);
    assert_relative_eq!(p.y, 3.75, epsilon = 1e-12);
    let line = lerp_hermite(0.3, Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(20.0, 0.0));
    assert_relative_eq!(line.x, 13.0, epsilon = 1e-12);
}

fn steady(source: &mut Source, latency: f64, until: f64) -> Vec<(f64, netcode_lab::engines::Shown)> {
    let mut events = stream(0, (until * 20.0) as u64, latency);
    events.extend(frames(0.0, until, 1.0 / 60.0));
    play(source, events)
}

/// On a steady stream the client clock sits on the newest packet's server tick (one latency behind the server)
/// and the entity is drawn the interpolation amount behind that — exactly on the line (Hermite of a line).
#[test]
fn a_steady_stream_is_drawn_the_interpolation_amount_behind_the_newest_packet() {
    let mut source = Source::new(SourceParams::default(), TICK);
    let shown = steady(&mut source, 0.05, 4.0);
    let late: Vec<_> = shown.iter().filter(|(at, _)| *at > 1.0).collect();
    assert!(late.iter().all(|(_, s)| s.mode == ShownMode::Interpolated));
    for (_, s) in &late {
        assert_relative_eq!(s.position.unwrap().x, SPEED * s.render_time, epsilon = 1e-9);
    }
    let lag = late.iter().map(|(at, s)| at - s.render_time).sum::<f64>() / late.len() as f64;
    assert_relative_eq!(lag, 0.05 + 7.0 / 60.0, epsilon = 0.02);
}

/// The stream stops at 2 s: past the newest sample Source extrapolates along the last two, for at most
/// `cl_extrapolate_amount` (0.25 s → 25 units at 100 u/s), then stands still there.
#[test]
fn it_extrapolates_at_most_cl_extrapolate_amount_then_stands_still() {
    let run = |params: SourceParams| {
        let mut source = Source::new(params, TICK);
        let mut events = stream(0, 40, 0.05);
        events.extend(frames(0.0, 4.0, 1.0 / 60.0));
        play(&mut source, events)
    };
    let newest = SPEED * 2.0;
    let shown = run(SourceParams::default());
    let furthest = shown.iter().filter_map(|(_, s)| s.position).map(|p| p.x).fold(f64::MIN, f64::max);
    assert_relative_eq!(furthest, newest + SPEED * 0.25, epsilon = 1e-9);
    let (_, last) = shown.last().unwrap();
    assert_eq!(last.mode, ShownMode::Held, "past the cap it no longer moves");
    assert_relative_eq!(last.position.unwrap().x, newest + SPEED * 0.25, epsilon = 1e-9);
    for (_, s) in &shown {
        if s.mode == ShownMode::Extrapolated {
            let ahead = s.render_time - 2.0;
            assert!(ahead > 0.0 && ahead <= 0.25 + 1e-12, "extrapolated {ahead} s ahead");
            assert_relative_eq!(s.position.unwrap().x, newest + SPEED * ahead, epsilon = 1e-9);
        }
    }

    let short = run(SourceParams { cl_extrapolate_amount: 0.1, ..SourceParams::default() });
    let furthest = short.iter().filter_map(|(_, s)| s.position).map(|p| p.x).fold(f64::MIN, f64::max);
    assert_relative_eq!(furthest, newest + SPEED * 0.1, epsilon = 1e-9);

    let off = run(SourceParams { cl_extrapolate: false, ..SourceParams::default() });
    assert!(off.iter().all(|(_, s)| s.mode != ShownMode::Extrapolated));
    assert_eq!(off.last().unwrap().1.position.unwrap().x, newest, "cl_extrapolate 0: the newest sample is held");
}

/// The netchan drops a packet older than one already received; a teleport (`EF_NOINTERP`) resets the history.
#[test]
fn late_packets_are_dropped_and_teleports_reset_the_history() {
    let mut source = Source::new(SourceParams::default(), TICK);
    source.on_snapshot(&snap(5), 0.3);
    source.on_snapshot(&snap(4), 0.31);
    source.on_snapshot(&snap(5), 0.32);
    assert_eq!((source.dropped, source.history().len()), (2, 1));
    source.on_snapshot(&snap(6), 0.35);
    assert_eq!(source.history().len(), 2);
    let mut jump = snap(7);
    jump.teleport = true;
    source.on_snapshot(&jump, 0.4);
    assert_eq!(source.history().len(), 1);
}

/// `CClockDriftMgr`: a packet more than 150 ms away from the client clock snaps it; within that, the frame time
/// is stretched or shrunk by up to 20 % until the average offset is under 10 ms.
#[test]
fn the_clock_snaps_beyond_150_ms_and_slews_within() {
    let mut clock = ClockDrift::default();
    clock.set_server_tick(10.0);
    assert_eq!((clock.client_time, clock.snaps), (Some(10.0), 1));
    clock.set_server_tick(10.3);
    assert_eq!((clock.client_time, clock.snaps), (Some(10.3), 2), "0.3 s off: snapped");
    // 90 ms ahead on every sample: the full 200 ms/s correction, so a 10 ms frame advances 8 ms.
    let mut ahead = ClockDrift::default();
    ahead.set_server_tick(5.0);
    ahead.client_time = Some(5.09);
    for _ in 0..16 {
        ahead.set_server_tick(5.0);
    }
    assert_relative_eq!(ahead.difference(), 0.09, epsilon = 1e-12);
    assert_relative_eq!(ahead.adjust_frame_time(0.01, TICK), 0.01 * (1.0 - 0.2), epsilon = 1e-12);
    // Under 10 ms off: left alone.
    let mut close = ClockDrift::default();
    close.set_server_tick(5.0);
    close.client_time = Some(5.005);
    close.set_server_tick(5.0);
    assert_eq!(close.adjust_frame_time(0.01, TICK), 0.01);
}
