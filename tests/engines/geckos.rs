//! geckos.io: `test/snapshot.test.js` and `test/vault.test.js` (geckosio/snapshot-interpolation) reproduced where
//! they test this logic — a 50 ms server tick, an interpolation buffer of 30 ms "only that low for testing" —
//! then the vault's edges and the time offset on fixed traces.

use super::support::{frames, play, stream, SPEED};
use approx::assert_relative_eq;
use netcode_lab::engines::geckos::{interpolate, Geckos, GeckosParams, Vault, VaultEntry};
use netcode_lab::engines::ShownMode;
use netcode_lab::geom::Vec2;

fn test_client() -> Geckos {
    Geckos::new(GeckosParams { interpolation_buffer: 30.0, ..GeckosParams::default() })
}

/// `initialize with server fps`: three server frames.
#[test]
fn twenty_server_fps_give_a_150_ms_buffer() {
    assert_eq!(GeckosParams::with_server_fps(20.0).interpolation_buffer, 150.0);
    assert_eq!(GeckosParams::default().interpolation_buffer, 100.0, "the client as the README builds it");
}

/// `calc interpolated without any data`, `… with not enough data`, `vault should have a size of one`,
/// `should get interpolated value`, `values should be interpolated`, `timeOffset should >= 0`.
#[test]
fn it_interpolates_only_once_two_snapshots_surround_the_render_time() {
    let mut si = test_client();
    assert_eq!(si.calc_interpolation(1000.0), None, "without any data");
    si.add_snapshot(1000.0, Vec2::new(0.0, 0.0), 1000.0);
    assert_eq!(si.calc_interpolation(1050.0), None, "with not enough data");
    assert_eq!(si.vault().size(), 1);
    assert_eq!(si.vault().latest().unwrap().time, 1000.0);
    si.add_snapshot(1100.0, Vec2::new(10.0, 10.0), 1100.0);
    assert_eq!(si.vault().size(), 2);
    let i = si.calc_interpolation(1100.0).expect("interpolated");
    assert!(i.pos.x > 0.0 && i.pos.x < 10.0 && i.pos.y > 0.0 && i.pos.y < 10.0, "{i:?}");
    // By hand: serverTime = 1100 − 0 − 30 = 1070, 70 % of the way.
    assert_relative_eq!(i.percentage, 0.7, epsilon = 1e-12);
    assert!(si.time_offset().unwrap() >= 0.0);
}

/// `custom interpolation`: `interpolate(older, newer, 0.5)` is half way (the percentage path).
#[test]
fn a_custom_interpolation_at_half_is_half_way() {
    let (older, newer) =
        (VaultEntry { time: 1000.0, pos: Vec2::ZERO }, VaultEntry { time: 1050.0, pos: Vec2::new(10.0, 0.0) });
    let half = interpolate(older, newer, 1025.0);
    assert_eq!((half.percentage, half.pos.x, half.server_time), (0.5, 5.0, 1025.0));
}

/// `vault.test.js`: empty, a maximum of 120, `setMaxSize`; beyond the maximum the oldest goes.
#[test]
fn the_vault_keeps_at_most_its_size_dropping_the_oldest() {
    let vault = Vault::new(GeckosParams::default().vault_size);
    assert_eq!((vault.size(), vault.max_size()), (0, 120));
    assert_eq!(Vault::new(180).max_size(), 180);
    let mut small = Vault::new(2);
    for t in [1.0, 2.0, 3.0] {
        small.add(VaultEntry { time: t, pos: Vec2::new(t, 0.0) });
    }
    assert_eq!(small.size(), 2);
    assert_eq!(small.get(1.5), None, "1.0 was dropped");
    assert!(small.get(2.5).is_some());
}

/// Outside the vault `calcInterpolation` returns undefined: before the oldest snapshot, and past the newest —
/// the game keeps the last value it applied (held), never an extrapolated one.
#[test]
fn it_gives_nothing_outside_its_vault() {
    let mut geckos = Geckos::new(GeckosParams::default());
    let mut events = stream(0, 40, 0.05);
    events.extend(frames(0.0, 3.0, 1.0 / 60.0));
    let shown = play(&mut geckos, events);
    // Before the second snapshot surrounds the render time: nothing at all.
    assert!(shown.iter().take_while(|(at, _)| *at < 0.15).all(|(_, s)| s.mode == ShownMode::Nothing));
    // The last snapshot is t = 2.0; its render time passes it at 2.0 + 0.05 + 0.1.
    for (at, s) in &shown {
        if *at > 2.0 + 0.15 + 1e-9 {
            assert_eq!(s.mode, ShownMode::Held, "at {at}");
            assert!(s.position.unwrap().x < SPEED * 2.0, "the last value applied, short of the newest snapshot");
        }
    }
    assert_eq!(geckos.calc_interpolation(3.0 * 1000.0), None);
}

/// The offset is measured from the first snapshot, latency included, so the render time is latency +
/// `interpolationBuffer` behind; a change of more than 50 ms resets it (`autoCorrectTimeOffset`), a smaller one
/// does not, and with the correction off the first offset stays for good.
#[test]
fn the_time_offset_includes_the_latency_and_is_corrected_past_50_ms() {
    let offset_after = |first_latency: f64, then: f64, auto: bool| {
        let mut g = Geckos::new(GeckosParams { auto_correct_time_offset: auto, ..GeckosParams::default() });
        let mut events = stream(0, 20, first_latency);
        events.extend(stream(21, 40, then));
        events.extend(frames(0.0, 2.5, 1.0 / 60.0));
        let shown = play(&mut g, events);
        let (at, last) = *shown.last().unwrap();
        (g.time_offset().unwrap(), at - last.render_time)
    };
    let (offset, lag) = offset_after(0.05, 0.05, true);
    assert_relative_eq!(offset, 50.0, epsilon = 1e-6);
    assert_relative_eq!(lag, 0.05 + 0.1, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.11, true).0, 110.0, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.09, true).0, 50.0, epsilon = 1e-6);
    assert_relative_eq!(offset_after(0.05, 0.25, false).0, 50.0, epsilon = 1e-6);
}
