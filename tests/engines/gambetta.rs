//! Gambetta's demo: interpolation by receive time, one server update interval in the past.

use super::support::{frames, play, snap, stream, Event, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::gambetta::Gambetta;
use netcode_lab::engines::mirror::{Mirror, MirrorParams};
use netcode_lab::engines::{Shown, ShownMode};

fn shown_x(shown: &[(f64, Shown)], from: f64) -> Vec<(f64, f64)> {
    shown
        .iter()
        .filter(|(at, s)| *at > from && s.position.is_some())
        .map(|(at, s)| (*at, s.position.unwrap().x))
        .collect()
}

/// With no latency and no jitter, receive time is server time: the entity is drawn exactly one interval back.
#[test]
fn it_draws_one_update_interval_in_the_past() {
    let mut g = Gambetta::new(0.05);
    let mut events = stream(0, 40, 0.0);
    events.extend(frames(0.0, 2.0, 1.0 / 60.0));
    let shown = play(&mut g, events);
    assert!(shown.iter().take_while(|(at, _)| *at < 0.05).all(|(_, s)| s.mode == ShownMode::Nothing));
    for (at, x) in shown_x(&shown, 0.1) {
        assert_relative_eq!(x, SPEED * (at - 0.05), epsilon = 1e-9);
    }
}

/// Every other update arrives 20 ms late. Interpolating by receive time, the entity visibly speeds up and
/// slows down with the arrivals (the jitter shows through); Mirror, which interpolates by server time on a
/// buffered timeline, moves at one speed on the same packets.
#[test]
fn arrival_jitter_shows_through_as_uneven_speed() {
    let events = |from: f64| {
        let mut e: Vec<Event> = (0..=60u64)
            .map(|k| Event::Deliver(snap(k), k as f64 / 20.0 + if k % 2 == 1 { 0.02 } else { 0.0 }))
            .collect();
        e.extend(frames(from, 3.0, 1.0 / 60.0));
        e
    };
    let speeds =
        |xs: Vec<(f64, f64)>| -> Vec<f64> { xs.windows(2).map(|w| (w[1].1 - w[0].1) / (w[1].0 - w[0].0)).collect() };
    let mut g = Gambetta::new(0.05);
    let g_speeds = speeds(shown_x(&play(&mut g, events(0.0)), 1.0));
    let spread = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max) - v.iter().copied().fold(f64::MAX, f64::min);
    assert!(spread(&g_speeds) > 0.5 * SPEED, "receive-time interpolation: speeds {:?}", &g_speeds[..6]);
    let mut m = Mirror::new(MirrorParams { dynamic_adjustment: false, ..MirrorParams::default() }, 0.05);
    let m_speeds = speeds(shown_x(&play(&mut m, events(0.0)), 1.0));
    assert!(spread(&m_speeds) < 1e-6, "server-time interpolation: one speed");
}

/// When updates stop, the entity is left where the last interpolation put it.
#[test]
fn it_holds_when_no_two_updates_surround_the_render_time() {
    let mut g = Gambetta::new(0.05);
    let mut events = stream(0, 20, 0.0);
    events.extend(frames(0.0, 2.0, 1.0 / 60.0));
    let shown = play(&mut g, events);
    let (_, last) = shown.last().unwrap();
    assert_eq!(last.mode, ShownMode::Held);
    assert!(last.position.unwrap().x <= SPEED * 1.0 + 1e-9);
}
